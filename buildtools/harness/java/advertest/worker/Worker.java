package advertest.worker;

import java.lang.management.ManagementFactory;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The worker's state and its requests: init, compile, discover, run, analyze, stats (cancel comes
 * from the reader thread). Every answer is built by Protocol.
 */
final class Worker {
    private final Protocol.Writer out;
    private ClassLoader library;
    private final List<Path> projectDirs = new ArrayList<>();
    private MemCompiler compiler;
    private Engines engines;
    private Coverage coverage;
    private final Executed executed = new Executed();
    private TestRunner runner;
    private Leftovers leftovers;
    private Path scratch;
    private int threadLimit = 32;
    private PrivateTmp privateTmp = new PrivateTmp(List.of(), List.of());
    private final ProjectCache cache = new ProjectCache();
    /** The id of the request being handled, and whether it was cancelled. */
    private volatile long activeId = -1;
    private volatile boolean cancelled;
    private volatile long cancelledId = -1;

    Worker(Protocol.Writer out) {
        this.out = out;
    }

    void cancel(long id) {
        cancelledId = id; // also covers a request still queued behind the current one
        if (activeId == id) {
            cancelled = true;
        }
    }

    Map<String, Object> handle(Protocol.Request req) throws Exception {
        activeId = req.id;
        cancelled = cancelledId == req.id;
        try {
            if (!req.op.equals("init") && compiler == null) {
                return Protocol.failed(req.id, req.op + " before init", null);
            }
            switch (req.op) {
                case "init":
                    return init(req);
                case "compile": {
                    List<MemCompiler.Source> srcs = req.sources("sources");
                    MemCompiler.Result compiled = req.bool("warmUp") ? compiler.compileUncached(srcs) : compiler.compile(srcs);
                    compiled.digest(srcs);
                    return Protocol.compileDone(req.id, compiled, req.bool("export"));
                }
                case "discover":
                    return discover(req);
                case "run":
                    return run(req);
                case "analyze":
                    return analyze(req);
                case "stats":
                    return stats(req.id);
                default:
                    return Protocol.failed(req.id, "unknown op " + req.op, null);
            }
        } finally {
            activeId = -1;
        }
    }

    private Map<String, Object> init(Protocol.Request req) throws Exception {
        List<URL> urls = new ArrayList<>();
        List<String> cp = new ArrayList<>();
        for (String p : req.strings("libraryClasspath")) {
            urls.add(Path.of(p).toUri().toURL());
            cp.add(p);
        }
        for (String p : req.strings("projectClassDirs")) {
            projectDirs.add(Path.of(p));
            cp.add(p);
        }
        String dir = req.string("scratchDir");
        scratch = Path.of(dir.isEmpty() ? System.getProperty("java.io.tmpdir") : dir);
        threadLimit = (int) req.num("threadLimit", 32);
        privateTmp = new PrivateTmp(req.strings("privateTmp"), req.strings("tmpKeep"));
        library = new URLClassLoader("advertest-library", urls.toArray(new URL[0]), ClassLoader.getPlatformClassLoader());
        // Mutant schemata call advertest.worker.hook.Mutant: javac must see the worker's classes.
        java.security.CodeSource own = advertest.worker.hook.Mutant.class.getProtectionDomain().getCodeSource();
        if (own != null && own.getLocation() != null) {
            cp.add(Path.of(own.getLocation().toURI()).toString());
        }
        compiler = new MemCompiler(cp, req.string("release"), req.strings("compilerArgs"));
        engines = new Engines(library);
        coverage = new Coverage();
        leftovers = new Leftovers();
        runner = new TestRunner(engines, new Capture((int) req.num("outputLimit", 64 << 10)), leftovers);
        return Protocol.initDone(req.id, engines.version(), coverage.unavailable());
    }

    /** Loaded classes, memory after a GC and live threads: lets tests check that runs do not leak. */
    private static Map<String, Object> stats(long id) {
        System.gc();
        return Protocol.statsDone(id, ManagementFactory.getClassLoadingMXBean().getLoadedClassCount(),
                ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed(),
                ManagementFactory.getMemoryMXBean().getNonHeapMemoryUsage().getUsed(),
                Leftovers.threads().size(), Leftovers.threadGroups());
    }

    private Map<String, Object> discover(Protocol.Request req) {
        RunLoader loader = RunLoader.of(false, new LinkedHashMap<>(), projectDirs, library, Worker.class.getClassLoader(), cache);
        List<Protocol.TestRef> tests = new ArrayList<>();
        List<String> errors = new ArrayList<>();
        for (String cn : req.strings("classes")) {
            try {
                Class<?> c = Class.forName(cn, false, loader);
                for (String m : Engines.discover(c, new int[1])) {
                    tests.add(new Protocol.TestRef(cn, m));
                }
            } catch (ClassNotFoundException | LinkageError e) {
                errors.add(cn + ": " + e);
            }
        }
        return Protocol.discoverDone(req.id, tests, errors);
    }

    private Map<String, Object> run(Protocol.Request req) throws Exception {
        long id = req.id;
        boolean recordCompares = req.bool("recordCompares");
        if (recordCompares && req.bool("coverage")) {
            // the recording adds instructions: JaCoCo's counts would no longer be the class's
            return Protocol.failed(id, "run: recordCompares and coverage exclude each other", null);
        }
        List<MemCompiler.Source> srcs = req.sources("overrides");
        srcs.addAll(req.sources("extraTests"));
        MemCompiler.Result compiled = compiler.compile(srcs, req.shipped("precompiled"));
        if (!compiled.ok) {
            return Protocol.compileDone(id, compiled);
        }
        compiled.digest(srcs);
        if (compiled.digestIn(req.strings("skipDigests"))) {
            // The same bytecode as a class whose verdict the controller has: no test to run.
            out.send(Protocol.plan(id, compiled, new ArrayList<>()));
            return Protocol.done(id);
        }
        RunLoader loader = RunLoader.of(req.bool("coverage"), compiled.classes, projectDirs, library, Worker.class.getClassLoader(), cache);
        loader.recordCompares = recordCompares;
        Map<String, Object> done = Protocol.done(id);
        if (req.bool("coverage") && coverage.unavailable() != null) {
            done.put("coverageError", coverage.unavailable());
        }
        List<Protocol.TestRef> plan = plan(req.tests("tests"), loader);
        out.send(Protocol.plan(id, compiled, plan));
        advertest.worker.hook.Mutant.activate((int) req.num("activeMutant", 0));
        advertest.worker.hook.Compares.enable(recordCompares);
        try {
            runPlan(req, loader, plan, done);
        } finally {
            advertest.worker.hook.Mutant.activate(0);
            advertest.worker.hook.Compares.enable(false);
        }
        return done;
    }

    private void runPlan(Protocol.Request req, RunLoader loader, List<Protocol.TestRef> plan, Map<String, Object> done) {
        long id = req.id;
        boolean wantCoverage = req.bool("coverage");
        if (wantCoverage && coverage.unavailable() != null) {
            wantCoverage = false;
        }
        boolean stopAtFirst = req.bool("stopAtFirstFailure");
        // The coverage map's records (docs/worker-protocol.md, "The coverage map").
        boolean record = wantCoverage && req.bool("recordExecuted");
        java.util.Set<Long> sentTables = Executed.newSentSet();
        long defaultBudget = req.num("defaultBudgetMs", 4000);
        Map<String, Long> budgets = req.budgets("budgetsMs");
        Map<String, Long> stepBudgets = req.budgets("stepBudgets");

        // The union of every test's coverage, reported with the run's done line.
        org.jacoco.core.data.ExecutionDataStore total = wantCoverage ? new org.jacoco.core.data.ExecutionDataStore() : null;
        Map<String, byte[]> covered = new LinkedHashMap<>();
        if (wantCoverage) {
            for (String cc : req.strings("coverClasses")) {
                covered.putAll(loader.withNested(cc));
            }
        }
        for (int k = 0; k < plan.size(); k++) {
            if (cancelled) {
                done.put("cancelled", true);
                break;
            }
            Protocol.TestRef p = plan.get(k);
            Long b = budgets.get(p.cls + "#" + p.method);
            long budget = b != null ? b : defaultBudget;
            Long sb = stepBudgets.get(p.cls + "#" + p.method);
            long steps = sb != null ? sb : 0;
            out.send(Protocol.start(id, k, p, budget, steps));
            Map<String, Object> result = runTest(loader, id, k, p, budget, steps, wantCoverage, covered, total);
            if (record && result.containsKey("coverage")) {
                Map<String, Object> tables = new LinkedHashMap<>();
                result.put("executed", executed.of(coverage.last(), loader, sentTables, tables));
                if (!tables.isEmpty()) {
                    result.put("tables", tables);
                }
            }
            out.send(Protocol.result(id, k, p, result));
            String outcome = String.valueOf(result.get("outcome"));
            if (Boolean.TRUE.equals(result.get("stuck"))) {
                done.put("fatal", "a test thread did not stop");
                break;
            }
            if (outcome.equals("oom")) {
                done.put("fatal", "oom");
                break;
            }
            long threads = Protocol.num(result.get("threadsLeft"), 0);
            if (threads > threadLimit) {
                done.put("fatal", threads + " threads left running by tests (the limit is " + threadLimit + ")");
                break;
            }
            if (stopAtFirst && !outcome.equals("passed") && !outcome.equals("skipped")) {
                break;
            }
        }
        if (total != null && !done.containsKey("fatal")) {
            try {
                done.put("coverage", coverage.analyze(total, covered));
            } catch (Exception e) {
                done.put("coverageError", TestRunner.describe(e, 4));
            }
            if (req.bool("exportProbes")) {
                done.put("probes", Coverage.export(total, covered.keySet()));
            }
        }
    }

    /**
     * The coverage of the given probes (a sharded run's, OR-ed by the controller) over the run's
     * classes: its overrides compiled as that run compiled them, the project's class files as it
     * read them. Probes recorded on other bytes than these fail the request rather than read as
     * "not covered" (docs/worker-protocol.md, "Sharded coverage").
     */
    private Map<String, Object> analyze(Protocol.Request req) throws Exception {
        List<MemCompiler.Source> srcs = req.sources("overrides");
        srcs.addAll(req.sources("extraTests"));
        MemCompiler.Result compiled = compiler.compile(srcs, req.shipped("precompiled"));
        if (!compiled.ok) {
            return Protocol.failed(req.id, "analyze: the run's sources do not compile", null);
        }
        RunLoader loader = RunLoader.of(true, compiled.classes, projectDirs, library, Worker.class.getClassLoader(), cache);
        Map<String, byte[]> covered = new LinkedHashMap<>();
        for (String cc : req.strings("coverClasses")) {
            covered.putAll(loader.withNested(cc));
        }
        Map<String, Object> done = Protocol.done(req.id);
        try {
            done.put("coverage", coverage.analyzeExact(Coverage.imported(req.objects("probes")), covered));
        } catch (IllegalArgumentException | IllegalStateException e) {
            // IllegalStateException: JaCoCo's merge of two entries of one class id that differ
            return Protocol.failed(req.id, "analyze: " + e.getMessage(), null);
        }
        return done;
    }

    /** Every requested test, class-wide entries expanded; a class without tests stays as (class, ""). */
    private static List<Protocol.TestRef> plan(List<Protocol.TestRef> requested, ClassLoader loader) {
        List<Protocol.TestRef> plan = new ArrayList<>();
        for (Protocol.TestRef t : requested) {
            if (!t.method.isEmpty()) {
                plan.add(t);
                continue;
            }
            try {
                List<String> found = Engines.discover(Class.forName(t.cls, false, loader), new int[1]);
                for (String m : found) {
                    plan.add(new Protocol.TestRef(t.cls, m));
                }
                if (found.isEmpty()) {
                    plan.add(t); // reported as an error: no tests in the class
                }
            } catch (ClassNotFoundException | LinkageError e) {
                plan.add(t);
            }
        }
        return plan;
    }

    /**
     * Runs test k of run id with its coverage; never throws, so that every start line gets its
     * result line. The test gets a fresh scratch folder, the system property advertest.scratch;
     * it is removed when the test left it empty, else the result says "files".
     */
    private Map<String, Object> runTest(RunLoader loader, long id, int k, Protocol.TestRef p, long budget, long budgetSteps, boolean wantCoverage,
            Map<String, byte[]> covered, org.jacoco.core.data.ExecutionDataStore total) {
        try {
            Path dir = scratch.resolve(id + "-" + k);
            Files.createDirectories(dir);
            System.setProperty("advertest.scratch", dir.toString());
            if (wantCoverage) {
                coverage.reset();
            }
            Map<String, Object> result = runner.run(loader, p.cls, p.method, budget, budgetSteps, () -> cancelled);
            privateTmp.empty();
            try {
                Files.delete(dir); // empty: nothing for the controller to read
            } catch (java.nio.file.DirectoryNotEmptyException e) {
                result.put("files", true);
            } catch (java.io.IOException e) {
                // gone already (the test removed it): nothing to read either
            }
            if (wantCoverage && !Boolean.TRUE.equals(result.get("stuck"))) {
                try {
                    result.put("coverage", coverage.collect(covered, total));
                } catch (Exception e) {
                    result.put("coverageError", TestRunner.describe(e, 4));
                }
            }
            return result;
        } catch (Throwable t) {
            Map<String, Object> r = new LinkedHashMap<>();
            r.put("outcome", t instanceof OutOfMemoryError ? "oom" : "error");
            String why;
            try {
                why = TestRunner.describe(t, 6);
            } catch (Throwable again) {
                why = t.getClass().getName();
            }
            r.put("message", "the worker failed around the test: " + why);
            r.put("ms", 0.0);
            return r;
        }
    }
}
