package advertest.worker;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.io.StringWriter;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import javax.tools.Diagnostic;
import javax.tools.DiagnosticCollector;
import javax.tools.FileObject;
import javax.tools.ForwardingJavaFileManager;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileManager;
import javax.tools.JavaFileObject;
import javax.tools.SimpleJavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.StandardLocation;
import javax.tools.ToolProvider;

/**
 * In-memory javac: sources from strings, classes into a map. The standard file manager (with its
 * jar indexes) is shared between compiles; javac's context is reused between compiles where the
 * JDK lets the worker reach its pool (ReusedJavac), with one file manager for the pool's life
 * (with another, a reused context "succeeds" without output: docs/worker-protocol.md, Traps), a
 * failure there tried again in a fresh context, and we check every class came out.
 */
final class MemCompiler {
    static final class Source {
        final String className;
        final String text;
        /** Report the bytecode digest of the classes compiled from this source (Digest). */
        final boolean digest;

        Source(String className, String text) {
            this(className, text, false);
        }

        Source(String className, String text, boolean digest) {
            this.className = className;
            this.text = text;
            this.digest = digest;
        }
    }

    /**
     * javac's bytes of a compile another worker made of the same sources, with the source each
     * class came from: defined here instead of compiling again (the Go side ships them with the
     * first run of those sources on this worker, docs/worker-protocol.md "Shipped classes").
     */
    static final class Shipped {
        final Map<String, byte[]> raw;
        final Map<String, String> sourceOf;

        Shipped(Map<String, byte[]> raw, Map<String, String> sourceOf) {
            this.raw = raw;
            this.sourceOf = sourceOf;
        }
    }

    static final class Result {
        boolean ok;
        /** Where the classes came from: javac, the last compiles (cache) or another worker (shipped). */
        String origin = "javac";
        /** For a compile by javac: whether it ran in a reused context (ReusedJavac) or a fresh one. */
        boolean reusedContext;
        final List<Map<String, Object>> diagnostics = new ArrayList<>();
        final Map<String, byte[]> classes = new LinkedHashMap<>();
        long nanos;
        /** javac's bytes before Rewriter, and the source each class came from (its className). */
        Map<String, byte[]> raw = new LinkedHashMap<>();
        Map<String, String> sourceOf = new LinkedHashMap<>();
        /** The digests computed so far, by source; shared by the copies a cache hit makes. */
        Map<String, Map<String, Object>> digestMemo = new ConcurrentHashMap<>();
        /** The sources this compile's answer reports digests of, and what computing them cost. */
        private final List<String> wanted = new ArrayList<>();
        private long digestNanos;

        /**
         * A copy for one request: its own class map and diagnostics (a run may add to them),
         * the compile's raw bytes and digest memo shared, nanos what this request cost.
         */
        Result copy(long nanos) {
            Result r = new Result();
            r.ok = ok;
            r.origin = origin;
            r.reusedContext = reusedContext;
            r.diagnostics.addAll(diagnostics);
            r.classes.putAll(classes);
            r.raw = raw;
            r.sourceOf = sourceOf;
            r.digestMemo = digestMemo;
            r.nanos = nanos;
            return r;
        }

        /** Computes (or recalls) the digests of the sources that ask for one. */
        void digest(List<Source> sources) {
            if (!ok) {
                return;
            }
            long t0 = System.nanoTime();
            for (Source s : sources) {
                if (!s.digest || wanted.contains(s.className)) {
                    continue;
                }
                wanted.add(s.className);
                digestMemo.computeIfAbsent(s.className, name -> {
                    Map<String, byte[]> mine = new LinkedHashMap<>();
                    for (Map.Entry<String, byte[]> e : raw.entrySet()) {
                        if (name.equals(sourceOf.get(e.getKey()))) {
                            mine.put(e.getKey(), e.getValue());
                        }
                    }
                    return Digest.of(mine);
                });
            }
            digestNanos += System.nanoTime() - t0;
        }

        /** Whether a digested source's original digest is one of skip. */
        boolean digestIn(List<String> skip) {
            for (String w : wanted) {
                Object d = digestMemo.get(w).get("original");
                if (d != null && skip.contains(d)) {
                    return true;
                }
            }
            return false;
        }

        /** Adds javac's bytes (base64) and their sources to the compile's JSON m, for another worker. */
        void export(Map<String, Object> m) {
            if (!ok) {
                return;
            }
            Map<String, Object> cs = new LinkedHashMap<>();
            for (Map.Entry<String, byte[]> e : raw.entrySet()) {
                cs.put(e.getKey(), java.util.Base64.getEncoder().encodeToString(e.getValue()));
            }
            m.put("classes", cs);
            m.put("sourceOf", new LinkedHashMap<String, Object>(sourceOf));
        }

        Map<String, Object> toJson() {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("ok", ok);
            m.put("diagnostics", diagnostics);
            m.put("ms", nanos / 1e6);
            m.put("origin", origin);
            if (origin.equals("javac")) {
                m.put("javacContext", reusedContext ? "reused" : "fresh");
            }
            if (!wanted.isEmpty()) {
                Map<String, Object> d = new LinkedHashMap<>();
                for (String w : wanted) {
                    d.put(w, digestMemo.get(w));
                }
                m.put("digests", d);
                m.put("digestMs", digestNanos / 1e6);
            }
            return m;
        }
    }

    private final JavaCompiler javac;
    private final StandardJavaFileManager std;
    private final List<String> options = new ArrayList<>();
    /** javac's context pool, or null where it cannot be reached: every compile is fresh. */
    private final ReusedJavac reused = ReusedJavac.open();

    MemCompiler(List<String> classpath, String release, List<String> extraArgs) throws IOException {
        javac = ToolProvider.getSystemJavaCompiler();
        if (javac == null) {
            throw new IllegalStateException("no system Java compiler: the worker needs a JDK, not a JRE");
        }
        std = javac.getStandardFileManager(null, Locale.ROOT, StandardCharsets.UTF_8);
        List<File> cp = new ArrayList<>();
        for (String p : classpath) {
            cp.add(new File(p));
        }
        std.setLocation(StandardLocation.CLASS_PATH, cp);
        options.add("-proc:none");
        options.add("-g");
        options.add("-implicit:none");
        options.add("-Xlint:none");
        if (release != null && !release.isEmpty()) {
            // -source/-target rather than --release: about 25 ms instead of 40 ms warm.
            options.add("-source");
            options.add(release);
            options.add("-target");
            options.add(release);
        }
        options.addAll(filterArgs(extraArgs));
    }

    /** Drops the build's flags that would fight ours (output folders, paths, language level). */
    static List<String> filterArgs(List<String> args) {
        List<String> out = new ArrayList<>();
        for (int k = 0; k < args.size(); k++) {
            String a = args.get(k);
            switch (a) {
                case "-d": case "-s": case "-h": case "--release": case "-source": case "-target":
                case "--source": case "--target": case "-cp": case "-classpath": case "--class-path":
                case "-sourcepath": case "--source-path": case "-processorpath": case "--processor-path":
                case "-encoding":
                    k++;
                    continue;
                case "-verbose": case "-Werror": case "-proc:only":
                    continue;
                default:
                    if (a.startsWith("--release=") || a.startsWith("-Xlint") || a.startsWith("-proc:")) {
                        continue;
                    }
                    out.add(a);
            }
        }
        return out;
    }

    /**
     * The last compiles, by their sources: a mutant schema (every mutant of a method in one
     * class) is compiled once per worker and its bytes defined again by each run's fresh loader.
     */
    private final Map<String, Result> recent = new java.util.LinkedHashMap<String, Result>(8, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Result> e) {
            return size() > 4;
        }
    };

    /** A compile's result, from the last compiles when the same sources were compiled lately. */
    Result compile(List<Source> sources) {
        return compile(sources, null);
    }

    /**
     * As compile(sources), but a miss defines shipped's bytes (when they hold a class for every
     * source and come from these sources only) instead of running javac.
     */
    Result compile(List<Source> sources, Shipped shipped) {
        long t0 = System.nanoTime();
        StringBuilder key = new StringBuilder();
        for (Source s : sources) {
            key.append(s.className).append('\0').append(s.text).append('\0');
        }
        String k = key.toString();
        Result known = recent.get(k);
        if (known != null) {
            Result hit = known.copy(System.nanoTime() - t0);
            hit.origin = "cache";
            return hit;
        }
        Result r = shipped == null ? null : define(sources, shipped);
        if (r == null) {
            r = compileNow(sources);
        }
        recent.put(k, r);
        return r.copy(r.nanos);
    }

    /**
     * A compile that leaves the last compiles alone: the pool's warm-up compiles in idle time,
     * which must not push out a schema its next runs need.
     */
    Result compileUncached(List<Source> sources) {
        return compileNow(sources);
    }

    /** A compile's result from another worker's bytes; null when they do not fit the sources. */
    private static Result define(List<Source> sources, Shipped shipped) {
        long t0 = System.nanoTime();
        java.util.Set<String> names = new java.util.HashSet<>();
        for (Source s : sources) {
            if (!shipped.raw.containsKey(s.className)) {
                return null;
            }
            names.add(s.className);
        }
        Result r = new Result();
        for (Map.Entry<String, byte[]> e : new java.util.TreeMap<>(shipped.raw).entrySet()) {
            String from = shipped.sourceOf.getOrDefault(e.getKey(), "");
            if (!names.contains(from)) {
                return null; // a class of no source here: not these sources' compile
            }
            r.raw.put(e.getKey(), e.getValue());
            r.sourceOf.put(e.getKey(), from);
            r.classes.put(e.getKey(), Rewriter.rewrite(e.getValue(), true));
        }
        r.ok = true;
        r.origin = "shipped";
        r.nanos = System.nanoTime() - t0;
        return r;
    }

    private Result compileNow(List<Source> sources) {
        long t0 = System.nanoTime();
        Result r = new Result();
        if (sources.isEmpty()) {
            r.ok = true;
            return r;
        }
        Output o = new Output();
        List<JavaFileObject> units = new ArrayList<>();
        for (Source s : sources) {
            JavaFileObject u = new StringSource(s.className, s.text);
            o.names.put(u, s.className);
            units.add(u);
        }
        DiagnosticCollector<JavaFileObject> dc = new DiagnosticCollector<>();
        boolean ok = false;
        String crash = null;
        if (reused != null) {
            // A reused context: javac keeps the class path's symbols between compiles. A compile
            // that fails there is tried again in a fresh one, so only a fresh javac says
            // "uncompilable" (docs/worker-protocol.md, "Compile cache").
            try {
                ok = reused.compile(new StringWriter(), dc, options, units, std, o);
            } catch (RuntimeException | LinkageError e) {
                ok = false;
            }
            for (Source s : sources) {
                // A class that did not come out (the trap a reused context sets): fresh too.
                ok &= o.out.containsKey(s.className);
            }
            if (!ok) {
                o = o.fresh();
                dc = new DiagnosticCollector<>();
            }
            r.reusedContext = ok;
        }
        if (!ok) {
            try {
                ok = javac.getTask(new StringWriter(), o.manager(std), dc, options, null, units).call();
            } catch (RuntimeException e) {
                ok = false;
                crash = "javac crashed: " + e;
            }
        }
        if (crash != null) {
            Map<String, Object> d = new LinkedHashMap<>();
            d.put("className", "");
            d.put("line", 0);
            d.put("column", 0);
            d.put("kind", "error");
            d.put("message", crash);
            r.diagnostics.add(d);
        }
        Map<JavaFileObject, String> names = o.names;
        Map<String, byte[]> out = o.out;
        Map<String, String> origin = o.origin;
        for (Diagnostic<? extends JavaFileObject> d : dc.getDiagnostics()) {
            String kind;
            switch (d.getKind()) {
                case ERROR: kind = "error"; break;
                case WARNING: case MANDATORY_WARNING: kind = "warning"; break;
                default: continue;
            }
            if (d.getSource() == null && !kind.equals("error")) {
                continue; // option warnings such as "bootstrap class path not set"
            }
            Map<String, Object> m = new LinkedHashMap<>();
            String cn = d.getSource() == null ? null : names.get(d.getSource());
            m.put("className", cn == null ? "" : cn);
            m.put("line", Math.max(0L, d.getLineNumber()));
            m.put("column", Math.max(0L, d.getColumnNumber()));
            m.put("kind", kind);
            m.put("message", d.getMessage(Locale.ROOT));
            r.diagnostics.add(m);
        }
        if (ok) {
            for (Source s : sources) {
                if (!out.containsKey(s.className)) {
                    ok = false;
                    Map<String, Object> m = new LinkedHashMap<>();
                    m.put("className", s.className);
                    m.put("line", 0);
                    m.put("column", 0);
                    m.put("kind", "error");
                    m.put("message", "the compiler produced no class " + s.className
                            + " (does the source declare it under that package and name?)");
                    r.diagnostics.add(m);
                }
            }
        }
        r.ok = ok;
        if (ok) {
            for (Map.Entry<String, byte[]> e : new java.util.TreeMap<>(out).entrySet()) {
                // Digests read javac's own bytes: the loop checks below change them.
                r.raw.put(e.getKey(), e.getValue());
                r.sourceOf.put(e.getKey(), sourceOf(e.getKey(), origin, sources));
                r.classes.put(e.getKey(), Rewriter.rewrite(e.getValue(), true));
            }
        }
        r.nanos = System.nanoTime() - t0;
        return r;
    }

    /**
     * The source a class came from: the one javac names as its sibling, else the source whose
     * class is a prefix of its name (Outer$1 from Outer); "" when neither says.
     */
    private static String sourceOf(String cls, Map<String, String> origin, List<Source> sources) {
        String from = origin.get(cls);
        if (from != null) {
            return from;
        }
        for (Source s : sources) {
            if (cls.equals(s.className) || cls.startsWith(s.className + "$")) {
                return s.className;
            }
        }
        return "";
    }

    /** Where one compile's classes go: javac's bytes by class name, and the source each came from. */
    static final class Output {
        final Map<String, byte[]> out = new ConcurrentHashMap<>();
        final Map<String, String> origin = new ConcurrentHashMap<>();
        final Map<JavaFileObject, String> names = new java.util.IdentityHashMap<>();

        /** An empty output for the same sources. */
        Output fresh() {
            Output o = new Output();
            o.names.putAll(names);
            return o;
        }

        /** A file manager that writes this output's classes. */
        JavaFileManager manager(StandardJavaFileManager std) {
            return new ForwardingJavaFileManager<JavaFileManager>(std) {
                @Override
                public JavaFileObject getJavaFileForOutput(Location loc, String className, JavaFileObject.Kind kind, FileObject sibling) {
                    return sink(className, sibling);
                }
            };
        }

        JavaFileObject sink(String className, FileObject sibling) {
            String from = sibling instanceof JavaFileObject ? names.get(sibling) : null;
            if (from != null) {
                origin.put(className, from);
            }
            return new ClassSink(className, out);
        }
    }

    /**
     * javac's JavacTaskPool (jdk.compiler's com.sun.tools.javac.api, reached by reflection with
     * the worker's --add-exports): a context reused between compiles keeps the symbols read from
     * the class path, which a fresh context reads again each time (most of a small compile's
     * time), and drops the classes compiled from sources. Its ClassWriter keeps the first task's
     * file manager, so there is one, whose output is switched per compile.
     */
    static final class ReusedJavac {
        private final Object pool;
        private final java.lang.reflect.Method getTask;
        private final Object worker;
        private JavaFileManager manager;
        private Output current;

        private ReusedJavac(Object pool, java.lang.reflect.Method getTask, Object worker) {
            this.pool = pool;
            this.getTask = getTask;
            this.worker = worker;
        }

        /** The pool, or null when this JDK does not let the worker reach it. */
        static ReusedJavac open() {
            try {
                Class<?> poolType = Class.forName("com.sun.tools.javac.api.JavacTaskPool");
                Class<?> workerType = Class.forName("com.sun.tools.javac.api.JavacTaskPool$Worker");
                Object pool = poolType.getConstructor(int.class).newInstance(1);
                java.lang.reflect.Method getTask = poolType.getMethod("getTask", java.io.Writer.class, JavaFileManager.class,
                        javax.tools.DiagnosticListener.class, Iterable.class, Iterable.class, Iterable.class, workerType);
                Object worker = java.lang.reflect.Proxy.newProxyInstance(MemCompiler.class.getClassLoader(), new Class<?>[] {workerType},
                        (proxy, m, args) -> {
                            switch (m.getName()) {
                                case "withTask":
                                    return ((JavaCompiler.CompilationTask) args[0]).call();
                                case "hashCode":
                                    return System.identityHashCode(proxy);
                                case "equals":
                                    return proxy == args[0];
                                default:
                                    return "advertest-javac-worker";
                            }
                        });
                return new ReusedJavac(pool, getTask, worker);
            } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
                return null;
            }
        }

        boolean compile(java.io.Writer log, DiagnosticCollector<JavaFileObject> dc, List<String> options, List<JavaFileObject> units,
                StandardJavaFileManager std, Output o) {
            if (manager == null) {
                manager = new ForwardingJavaFileManager<JavaFileManager>(std) {
                    @Override
                    public JavaFileObject getJavaFileForOutput(Location loc, String className, JavaFileObject.Kind kind, FileObject sibling) {
                        return current.sink(className, sibling);
                    }
                };
            }
            current = o;
            try {
                return Boolean.TRUE.equals(getTask.invoke(pool, log, manager, dc, options, null, units, worker));
            } catch (java.lang.reflect.InvocationTargetException e) {
                Throwable c = e.getCause();
                throw c instanceof RuntimeException ? (RuntimeException) c : new IllegalStateException(c);
            } catch (IllegalAccessException e) {
                throw new IllegalStateException(e);
            } finally {
                current = null;
            }
        }
    }

    private static final class StringSource extends SimpleJavaFileObject {
        private final String text;

        StringSource(String className, String text) {
            super(URI.create("string:///" + className.replace('.', '/') + Kind.SOURCE.extension), Kind.SOURCE);
            this.text = text;
        }

        @Override
        public CharSequence getCharContent(boolean ignoreEncodingErrors) {
            return text;
        }
    }

    private static final class ClassSink extends SimpleJavaFileObject {
        private final String className;
        private final Map<String, byte[]> out;

        ClassSink(String className, Map<String, byte[]> out) {
            super(URI.create("mem:///" + className.replace('.', '/') + Kind.CLASS.extension), Kind.CLASS);
            this.className = className;
            this.out = out;
        }

        @Override
        public OutputStream openOutputStream() {
            return new ByteArrayOutputStream() {
                @Override
                public void close() throws IOException {
                    super.close();
                    out.put(className, toByteArray());
                }
            };
        }
    }
}
