package advertest.worker;

import advertest.worker.hook.ExitError;
import advertest.worker.hook.Hook;
import advertest.worker.hook.TimeoutError;
import java.io.BufferedOutputStream;
import java.io.BufferedReader;
import java.io.FileDescriptor;
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * The worker JVM: reads newline-delimited JSON requests on stdin, answers on the original stdout
 * (System.out and System.err are redirected, so code under test that prints cannot corrupt the
 * protocol), exits when stdin closes.
 *
 * Requests: init, compile, run, discover (handled one at a time on the "advertest-run" thread) and
 * cancel (handled at once by the reader). A run streams {"id","event":"plan"|"start"|"result"}
 * lines before its final {"id","done":true} line.
 */
public final class Main {
    private static final Object OUT_LOCK = new Object();
    private static PrintStream protocol;
    private static final long STACK_SIZE = 64L << 20;
    private static final long GRACE_MS = 2000;

    private ClassLoader library;
    private List<Path> projectDirs = new ArrayList<>();
    private MemCompiler compiler;
    private Engines engines;
    private Coverage coverage;
    private final ProjectCache cache = new ProjectCache();
    /** The id of the request being run, and whether it was cancelled. */
    private volatile long activeId = -1;
    private volatile boolean cancelled;
    private volatile long cancelledId = -1;

    public static void main(String[] args) throws Exception {
        protocol = new PrintStream(new BufferedOutputStream(new FileOutputStream(FileDescriptor.out), 1 << 16), false, "UTF-8");
        PrintStream sink = new PrintStream(OutputStream.nullOutputStream(), true, "UTF-8");
        System.setOut(sink);
        System.setErr(sink);
        Main w = new Main();
        ExecutorService exec = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "advertest-run");
            t.setDaemon(true);
            return t;
        });
        BufferedReader in = new BufferedReader(new InputStreamReader(new FileInputStream(FileDescriptor.in), StandardCharsets.UTF_8));
        String line;
        while ((line = in.readLine()) != null) {
            if (line.isBlank()) {
                continue;
            }
            Map<String, Object> req;
            try {
                req = asMap(Json.parse(line));
            } catch (RuntimeException e) {
                Map<String, Object> m = new LinkedHashMap<>();
                m.put("id", -1L);
                m.put("done", true);
                m.put("error", "bad request: " + e.getMessage());
                send(m);
                continue;
            }
            String op = String.valueOf(req.get("op"));
            long id = num(req.get("id"), 0);
            if (op.equals("cancel")) {
                w.cancelledId = id; // also covers a request still queued behind the current one
                if (w.activeId == id) {
                    w.cancelled = true;
                }
                continue;
            }
            exec.submit(() -> {
                Map<String, Object> resp;
                try {
                    w.activeId = id;
                    w.cancelled = w.cancelledId == id;
                    resp = w.handle(op, req, id);
                } catch (Throwable t) {
                    resp = new LinkedHashMap<>();
                    resp.put("error", op + " failed: " + describe(t, 8));
                    if (t instanceof OutOfMemoryError) {
                        resp.put("fatal", "oom");
                    }
                } finally {
                    w.activeId = -1;
                }
                resp.put("id", id);
                resp.put("done", true);
                send(resp);
            });
        }
        Runtime.getRuntime().halt(0);
    }

    static void send(Map<String, Object> m) {
        String s = Json.write(m);
        synchronized (OUT_LOCK) {
            protocol.print(s);
            protocol.print('\n');
            protocol.flush();
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

    static List<String> strings(Object o) {
        List<String> out = new ArrayList<>();
        for (Object x : asList(o)) {
            out.add(String.valueOf(x));
        }
        return out;
    }

    static long num(Object o, long def) {
        return o instanceof Number ? ((Number) o).longValue() : def;
    }

    private Map<String, Object> handle(String op, Map<String, Object> req, long id) throws Exception {
        switch (op) {
            case "init":
                return init(req);
            case "compile": {
                Map<String, Object> resp = new LinkedHashMap<>();
                resp.put("compile", compiler.compile(sources(req.get("sources"))).toJson());
                return resp;
            }
            case "discover":
                return discover(req);
            case "run":
                return run(req, id);
            case "stats":
                return stats();
            default:
                Map<String, Object> resp = new LinkedHashMap<>();
                resp.put("error", "unknown op " + op);
                return resp;
        }
    }

    /** Loaded classes and memory after a GC: lets tests and benchmarks check that runs do not leak. */
    private static Map<String, Object> stats() {
        System.gc();
        Map<String, Object> resp = new LinkedHashMap<>();
        resp.put("loadedClasses", java.lang.management.ManagementFactory.getClassLoadingMXBean().getLoadedClassCount());
        resp.put("heapUsed", java.lang.management.ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed());
        resp.put("nonHeapUsed", java.lang.management.ManagementFactory.getMemoryMXBean().getNonHeapMemoryUsage().getUsed());
        return resp;
    }

    private Map<String, Object> init(Map<String, Object> req) throws Exception {
        List<URL> urls = new ArrayList<>();
        List<String> cp = new ArrayList<>();
        for (String p : strings(req.get("libraryClasspath"))) {
            urls.add(Path.of(p).toUri().toURL());
            cp.add(p);
        }
        for (String p : strings(req.get("projectClassDirs"))) {
            projectDirs.add(Path.of(p));
            cp.add(p);
        }
        library = new URLClassLoader("advertest-library", urls.toArray(new URL[0]), ClassLoader.getPlatformClassLoader());
        compiler = new MemCompiler(cp, (String) req.get("release"), strings(req.get("compilerArgs")));
        engines = new Engines(library);
        coverage = new Coverage();
        Map<String, Object> resp = new LinkedHashMap<>();
        resp.put("ready", true);
        resp.put("java", System.getProperty("java.version"));
        resp.put("junit", engines.version());
        resp.put("coverageUnavailable", coverage.unavailable() == null ? "" : coverage.unavailable());
        return resp;
    }

    private static List<MemCompiler.Source> sources(Object o) {
        List<MemCompiler.Source> out = new ArrayList<>();
        for (Object x : asList(o)) {
            Map<String, Object> m = asMap(x);
            out.add(new MemCompiler.Source(String.valueOf(m.get("className")), String.valueOf(m.get("text"))));
        }
        return out;
    }

    private Map<String, Object> discover(Map<String, Object> req) {
        RunLoader loader = new RunLoader(new LinkedHashMap<>(), projectDirs, library, Main.class.getClassLoader(), cache);
        List<Object> tests = new ArrayList<>();
        List<Object> errors = new ArrayList<>();
        for (String cn : strings(req.get("classes"))) {
            try {
                Class<?> c = Class.forName(cn, false, loader);
                for (String m : Engines.discover(c, new int[1])) {
                    tests.add(List.of(cn, m));
                }
            } catch (ClassNotFoundException | LinkageError e) {
                errors.add(cn + ": " + e);
            }
        }
        Map<String, Object> resp = new LinkedHashMap<>();
        resp.put("tests", tests);
        resp.put("errors", errors);
        return resp;
    }

    private Map<String, Object> run(Map<String, Object> req, long id) throws Exception {
        Map<String, Object> resp = new LinkedHashMap<>();
        List<MemCompiler.Source> srcs = sources(req.get("overrides"));
        srcs.addAll(sources(req.get("extraTests")));
        MemCompiler.Result compiled = compiler.compile(srcs);
        resp.put("compile", compiled.toJson());
        if (!compiled.ok) {
            return resp;
        }
        RunLoader loader = new RunLoader(compiled.classes, projectDirs, library, Main.class.getClassLoader(), cache);
        boolean wantCoverage = Boolean.TRUE.equals(req.get("coverage"));
        if (wantCoverage && coverage.unavailable() != null) {
            resp.put("coverageError", coverage.unavailable());
            wantCoverage = false;
        }
        List<String> coverClasses = strings(req.get("coverClasses"));
        boolean stopAtFirst = Boolean.TRUE.equals(req.get("stopAtFirstFailure"));
        long defaultBudget = num(req.get("defaultBudgetMs"), 4000);
        Map<String, Object> budgets = asMap(req.get("budgetsMs"));

        // The plan: every requested test, class-wide entries expanded.
        List<String[]> plan = new ArrayList<>();
        List<Object> planJson = new ArrayList<>();
        for (Object o : asList(req.get("tests"))) {
            Map<String, Object> t = asMap(o);
            String cn = String.valueOf(t.get("class"));
            String mn = t.get("method") == null ? "" : String.valueOf(t.get("method"));
            if (mn.isEmpty()) {
                try {
                    List<String> found = Engines.discover(Class.forName(cn, false, loader), new int[1]);
                    for (String m : found) {
                        plan.add(new String[] {cn, m});
                    }
                    if (found.isEmpty()) {
                        plan.add(new String[] {cn, ""}); // reported as an error: no tests in the class
                    }
                } catch (ClassNotFoundException | LinkageError e) {
                    plan.add(new String[] {cn, ""});
                }
            } else {
                plan.add(new String[] {cn, mn});
            }
        }
        for (String[] p : plan) {
            planJson.add(List.of(p[0], p[1]));
        }
        Map<String, Object> planEvent = new LinkedHashMap<>();
        planEvent.put("id", id);
        planEvent.put("event", "plan");
        planEvent.put("tests", planJson);
        planEvent.put("compile", resp.get("compile"));
        send(planEvent);

        // The union of every test's coverage, reported with the run's done line.
        org.jacoco.core.data.ExecutionDataStore total = wantCoverage ? new org.jacoco.core.data.ExecutionDataStore() : null;
        Map<String, byte[]> covered = new LinkedHashMap<>();
        if (wantCoverage) {
            for (String cc : coverClasses) {
                covered.putAll(loader.withNested(cc));
            }
        }
        for (String[] p : plan) {
            if (cancelled) {
                resp.put("cancelled", true);
                break;
            }
            long budget = num(budgets.get(p[0] + "#" + p[1]), defaultBudget);
            Map<String, Object> start = new LinkedHashMap<>();
            start.put("id", id);
            start.put("event", "start");
            start.put("class", p[0]);
            start.put("method", p[1]);
            start.put("budgetMs", budget);
            send(start);
            Map<String, Object> result = runOne(loader, p[0], p[1], budget, wantCoverage);
            if (wantCoverage && !Boolean.TRUE.equals(result.get("stuck"))) {
                try {
                    result.put("coverage", coverage.collect(covered, total));
                } catch (Exception e) {
                    result.put("coverageError", describe(e, 4));
                }
            }
            result.put("id", id);
            result.put("event", "result");
            send(result);
            String outcome = String.valueOf(result.get("outcome"));
            if (Boolean.TRUE.equals(result.get("stuck"))) {
                resp.put("fatal", "a test thread did not stop");
                break;
            }
            if (outcome.equals("oom")) {
                resp.put("fatal", "oom");
                break;
            }
            if (stopAtFirst && !outcome.equals("passed") && !outcome.equals("skipped")) {
                break;
            }
        }
        if (total != null && !resp.containsKey("fatal")) {
            try {
                resp.put("coverage", coverage.analyze(total, covered));
            } catch (Exception e) {
                resp.put("coverageError", describe(e, 4));
            }
        }
        return resp;
    }

    private Map<String, Object> runOne(RunLoader loader, String cn, String mn, long budgetMs, boolean wantCoverage) {
        Map<String, Object> r = new LinkedHashMap<>();
        r.put("class", cn);
        r.put("method", mn);
        Hook.sweep();
        if (wantCoverage) {
            coverage.reset();
        }
        ThreadGroup group = new ThreadGroup("advertest-test");
        Engines.Outcome[] box = new Engines.Outcome[1];
        Thread t = new Thread(group, () -> {
            Engines.Outcome o;
            try {
                if (mn.isEmpty()) {
                    Class.forName(cn, false, loader);
                    o = new Engines.Outcome("error", null, "no tests in " + cn);
                } else {
                    o = engines.run(Class.forName(cn, false, loader), mn);
                }
            } catch (ClassNotFoundException e) {
                o = new Engines.Outcome("error", null, "test class not found: " + cn);
            } catch (Throwable e) {
                o = new Engines.Outcome("failed", e, null);
            }
            box[0] = o;
        }, "advertest-test", STACK_SIZE);
        t.setDaemon(true);
        t.setContextClassLoader(loader);
        long t0 = System.nanoTime();
        long deadline = t0 + budgetMs * 1_000_000L;
        boolean timedOut = false;
        boolean wasCancelled = false;
        t.start();
        try {
            while (t.isAlive()) {
                long left = (deadline - System.nanoTime()) / 1_000_000L;
                if (left <= 0) {
                    timedOut = true;
                    break;
                }
                if (cancelled) {
                    wasCancelled = true;
                    break;
                }
                t.join(Math.min(left, 20));
            }
            if (timedOut || wasCancelled) {
                Hook.expire(group);
                t.join(GRACE_MS);
            } else if (group.activeCount() > 0) {
                // The test is over but threads it started (assertTimeoutPreemptively's, an
                // executor's) may still spin in an instrumented loop: stop them now, not when
                // the next test's budget runs out.
                Hook.expire(group);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        long elapsed = System.nanoTime() - t0;
        r.put("ms", elapsed / 1e6);
        if (t.isAlive()) {
            r.put("stuck", true);
        }
        Integer exit = Hook.exitStatus(group);
        Engines.Outcome o = box[0];
        if (wasCancelled) {
            r.put("outcome", "skipped");
            r.put("message", "cancelled");
        } else if (timedOut) {
            r.put("outcome", "timeout");
            r.put("message", "exceeded its budget of " + budgetMs + " ms");
        } else if (exit != null) {
            r.put("outcome", "exit");
            r.put("message", "System.exit(" + exit + ") called");
        } else if (o == null) {
            r.put("outcome", "error");
            r.put("message", "the test ended without a result");
        } else if (o.thrown == null) {
            r.put("outcome", o.kind);
            if (o.message != null) {
                r.put("message", o.message);
            }
        } else {
            r.put("outcome", classify(o.thrown));
            r.put("message", describe(o.thrown, 6));
        }
        return r;
    }

    static String classify(Throwable t) {
        for (Throwable c = t; c != null; c = c.getCause()) {
            if (c instanceof TimeoutError) {
                return "timeout";
            }
            if (c instanceof ExitError) {
                return "exit";
            }
            if (c instanceof OutOfMemoryError) {
                return "oom";
            }
            if (c.getCause() == c) {
                break;
            }
        }
        return t instanceof AssertionError ? "failed" : "error";
    }

    /** The throwable's text with its first stack frames and causes, bounded. */
    static String describe(Throwable t, int frames) {
        StringWriter sw = new StringWriter();
        PrintWriter pw = new PrintWriter(sw);
        int depth = 0;
        for (Throwable c = t; c != null && depth < 4; c = c.getCause(), depth++) {
            pw.print(depth == 0 ? "" : "Caused by: ");
            pw.println(c);
            StackTraceElement[] st = c.getStackTrace();
            for (int k = 0; k < Math.min(frames, st.length); k++) {
                pw.println("\tat " + st[k]);
            }
            if (c.getCause() == c) {
                break;
            }
        }
        pw.flush();
        String s = sw.toString().trim();
        return s.length() > 4000 ? s.substring(0, 4000) + "..." : s;
    }
}
