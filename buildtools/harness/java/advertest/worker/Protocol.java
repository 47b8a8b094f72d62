package advertest.worker;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The worker protocol, Java's half: every request read and every line written, in one place.
 * docs/worker-protocol.md describes the messages and their order; the Go half is
 * buildtools/harness/protocol.go. Requests arrive on fd 4, answers leave on fd 3, one JSON object
 * per line.
 */
final class Protocol {
    private Protocol() {
    }

    // ---------------------------------------------------------------------------------------
    // Requests.

    /** One request line: op, id and the rest of its fields. */
    static final class Request {
        final String op;
        final long id;
        private final Map<String, Object> fields;

        private Request(String op, long id, Map<String, Object> fields) {
            this.op = op;
            this.id = id;
            this.fields = fields;
        }

        /** Parses one line; malformed JSON or a line that is not an object throws. */
        static Request parse(String line) {
            Object v = Json.parse(line);
            if (!(v instanceof Map)) {
                throw new IllegalArgumentException("a request must be a JSON object");
            }
            Map<String, Object> m = asMap(v);
            Object op = m.get("op");
            if (!(op instanceof String)) {
                throw new IllegalArgumentException("a request needs an op");
            }
            return new Request((String) op, Protocol.num(m.get("id"), -1), m);
        }

        List<String> strings(String key) {
            List<String> out = new ArrayList<>();
            for (Object x : asList(fields.get(key))) {
                out.add(String.valueOf(x));
            }
            return out;
        }

        String string(String key) {
            Object v = fields.get(key);
            return v == null ? "" : String.valueOf(v);
        }

        boolean bool(String key) {
            return Boolean.TRUE.equals(fields.get(key));
        }

        long num(String key, long def) {
            return Protocol.num(fields.get(key), def);
        }

        List<MemCompiler.Source> sources(String key) {
            List<MemCompiler.Source> out = new ArrayList<>();
            for (Object x : asList(fields.get(key))) {
                Map<String, Object> m = asMap(x);
                out.add(new MemCompiler.Source(String.valueOf(m.get("className")), String.valueOf(m.get("text")),
                        Boolean.TRUE.equals(m.get("digest"))));
            }
            return out;
        }

        /** The classes another worker compiled from this run's sources (Go's wirePrecompiled), or null. */
        MemCompiler.Shipped shipped(String key) {
            Object v = fields.get(key);
            if (!(v instanceof Map)) {
                return null;
            }
            Map<String, Object> m = asMap(v);
            Map<String, byte[]> raw = new LinkedHashMap<>();
            for (Map.Entry<String, Object> e : asMap(m.get("classes")).entrySet()) {
                try {
                    raw.put(e.getKey(), java.util.Base64.getDecoder().decode(String.valueOf(e.getValue())));
                } catch (IllegalArgumentException bad) {
                    return null; // not base64: compile instead
                }
            }
            Map<String, String> sourceOf = new LinkedHashMap<>();
            for (Map.Entry<String, Object> e : asMap(m.get("sourceOf")).entrySet()) {
                sourceOf.put(e.getKey(), String.valueOf(e.getValue()));
            }
            return raw.isEmpty() ? null : new MemCompiler.Shipped(raw, sourceOf);
        }

        List<TestRef> tests(String key) {
            List<TestRef> out = new ArrayList<>();
            for (Object x : asList(fields.get(key))) {
                Map<String, Object> m = asMap(x);
                Object method = m.get("method");
                out.add(new TestRef(String.valueOf(m.get("class")), method == null ? "" : String.valueOf(method)));
            }
            return out;
        }

        /** A list of JSON objects (analyze's probes). */
        List<Map<String, Object>> objects(String key) {
            List<Map<String, Object>> out = new ArrayList<>();
            for (Object x : asList(fields.get(key))) {
                out.add(asMap(x));
            }
            return out;
        }

        /** The budgets of a run: "class#method" → ms (budgetsMs) or steps (stepBudgets). */
        Map<String, Long> budgets(String key) {
            Map<String, Long> out = new LinkedHashMap<>();
            for (Map.Entry<String, Object> e : asMap(fields.get(key)).entrySet()) {
                out.put(e.getKey(), Protocol.num(e.getValue(), 0));
            }
            return out;
        }
    }

    /** A test method; method "" stands for every test of the class. */
    static final class TestRef {
        final String cls;
        final String method;

        TestRef(String cls, String method) {
            this.cls = cls;
            this.method = method;
        }

        Map<String, Object> toJson() {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("class", cls);
            m.put("method", method);
            return m;
        }
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> asMap(Object o) {
        return o instanceof Map ? (Map<String, Object>) o : new LinkedHashMap<>();
    }

    @SuppressWarnings("unchecked")
    static List<Object> asList(Object o) {
        return o instanceof List ? (List<Object>) o : new ArrayList<>();
    }

    static long num(Object o, long def) {
        return o instanceof Number ? ((Number) o).longValue() : def;
    }

    // ---------------------------------------------------------------------------------------
    // Lines the worker writes. done() ends every request but cancel; a run writes plan, start and
    // result events before its done line.

    /** The done line of request id; put the request's own fields in it. */
    static Map<String, Object> done(long id) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("id", id);
        m.put("done", true);
        return m;
    }

    /** The done line of a request that failed; fatal, when not null, asks for a restart. */
    static Map<String, Object> failed(long id, String error, String fatal) {
        Map<String, Object> m = done(id);
        m.put("error", error);
        if (fatal != null) {
            m.put("fatal", fatal);
        }
        return m;
    }

    static Map<String, Object> initDone(long id, int junit, String coverageUnavailable) {
        Map<String, Object> m = done(id);
        m.put("ready", true);
        m.put("java", System.getProperty("java.version"));
        m.put("junit", junit);
        m.put("coverageUnavailable", coverageUnavailable == null ? "" : coverageUnavailable);
        m.put("pid", ProcessHandle.current().pid());
        return m;
    }

    static Map<String, Object> compileDone(long id, MemCompiler.Result compiled) {
        return compileDone(id, compiled, false);
    }

    /** The answer of a compile; export adds javac's bytes for the other workers. */
    static Map<String, Object> compileDone(long id, MemCompiler.Result compiled, boolean export) {
        Map<String, Object> m = done(id);
        Map<String, Object> c = compiled.toJson();
        if (export) {
            compiled.export(c);
        }
        m.put("compile", c);
        return m;
    }

    static Map<String, Object> discoverDone(long id, List<TestRef> tests, List<String> errors) {
        Map<String, Object> m = done(id);
        List<Object> ts = new ArrayList<>();
        for (TestRef t : tests) {
            ts.add(t.toJson());
        }
        m.put("tests", ts);
        m.put("errors", errors);
        return m;
    }

    static Map<String, Object> statsDone(long id, long loadedClasses, long heapUsed, long nonHeapUsed, int threads, int threadGroups) {
        Map<String, Object> m = done(id);
        m.put("loadedClasses", loadedClasses);
        m.put("heapUsed", heapUsed);
        m.put("nonHeapUsed", nonHeapUsed);
        m.put("threads", threads);
        m.put("threadGroups", threadGroups);
        return m;
    }

    /** Opens a run whose classes compiled: the tests it will run, in order. */
    static Map<String, Object> plan(long id, MemCompiler.Result compiled, List<TestRef> tests) {
        Map<String, Object> m = event(id, "plan");
        m.put("compile", compiled.toJson());
        List<Object> ts = new ArrayList<>();
        for (TestRef t : tests) {
            ts.add(t.toJson());
        }
        m.put("tests", ts);
        return m;
    }

    static Map<String, Object> start(long id, int index, TestRef t, long budgetMs, long budgetSteps) {
        Map<String, Object> m = event(id, "start");
        m.put("index", index);
        m.put("class", t.cls);
        m.put("method", t.method);
        m.put("budgetMs", budgetMs);
        if (budgetSteps > 0) {
            m.put("budgetSteps", budgetSteps);
        }
        return m;
    }

    /** The result line of test index: r's fields (outcome, message, ms, ...) after the head. */
    static Map<String, Object> result(long id, int index, TestRef t, Map<String, Object> r) {
        Map<String, Object> m = event(id, "result");
        m.put("index", index);
        m.put("class", t.cls);
        m.put("method", t.method);
        m.putAll(r);
        return m;
    }

    private static Map<String, Object> event(long id, String kind) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("id", id);
        m.put("event", kind);
        return m;
    }

    /** Writes lines on the protocol's descriptor, whole lines only, from any thread. */
    static final class Writer {
        private final Object lock = new Object();
        private final OutputStream out;

        Writer(OutputStream out) {
            this.out = out;
        }

        void send(Map<String, Object> m) {
            byte[] line = (Json.write(m) + "\n").getBytes(StandardCharsets.UTF_8);
            synchronized (lock) {
                try {
                    out.write(line);
                    out.flush();
                } catch (IOException e) {
                    // The controller is gone: nobody is left to answer.
                    Runtime.getRuntime().halt(3);
                }
            }
        }
    }
}
