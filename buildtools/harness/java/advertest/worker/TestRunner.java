package advertest.worker;

import advertest.worker.hook.ExitError;
import advertest.worker.hook.Hook;
import advertest.worker.hook.TimeoutError;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.BooleanSupplier;

/**
 * Runs one test on its own thread, in its own thread group, within its budgets: past its step
 * budget (counted by the rewriter's hook in the compiled classes) or its time budget the test's
 * threads throw a TimeoutError at their next backward jump or method entry; a thread
 * that does not stop GRACE_MS later is "stuck" and the worker must be restarted. Its output is
 * captured, and what it left behind (processes, threads) is cleaned up before the result.
 */
final class TestRunner {
    /** The test thread's stack: deep recursion in the code under test is normal. */
    private static final long STACK_SIZE = 64L << 20;
    /** How long a timed-out or cancelled test's thread gets to throw. */
    static final long GRACE_MS = 2000;

    private final Engines engines;
    private final Capture capture;
    private final Leftovers leftovers;

    TestRunner(Engines engines, Capture capture, Leftovers leftovers) {
        this.engines = engines;
        this.capture = capture;
        this.leftovers = leftovers;
    }

    /**
     * Runs cn.mn (mn "" reports that the class has no tests) and returns the result's fields:
     * outcome, message, ms, stuck, stdout, stderr, outputDropped, threadsLeft, processesKilled.
     */
    Map<String, Object> run(ClassLoader loader, String cn, String mn, long budgetMs, long budgetSteps, BooleanSupplier cancelled) {
        Map<String, Object> r = new LinkedHashMap<>();
        Hook.sweep();
        java.util.Set<Thread> before = Leftovers.identitySet(Leftovers.threads());
        ThreadGroup group = new ThreadGroup("advertest-test");
        // A daemon group goes away with its last thread: until JDK 19 a parent holds every child
        // group until then, and walking the thread tree would cost more with every test run.
        group.setDaemon(true);
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
        // Not a daemon, as a test's main thread is elsewhere: the threads it starts are not daemons either.
        t.setDaemon(false);
        t.setContextClassLoader(loader);
        long t0 = System.nanoTime();
        long deadline = t0 + budgetMs * 1_000_000L;
        boolean timedOut = false;
        boolean wasCancelled = false;
        capture.begin();
        Hook.arm(budgetSteps > 0 ? budgetSteps : Long.MAX_VALUE);
        try {
            t.start();
            while (t.isAlive()) {
                long left = (deadline - System.nanoTime()) / 1_000_000L;
                if (left <= 0) {
                    timedOut = true;
                    break;
                }
                if (cancelled.getAsBoolean()) {
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
        } finally {
            Hook.disarm();
            capture.end(r);
        }
        long elapsed = System.nanoTime() - t0;
        r.put("ms", elapsed / 1e6);
        r.put("steps", Hook.steps());
        boolean overSteps = Hook.stepsExceeded();
        boolean stuck = t.isAlive();
        if (stuck) {
            r.put("stuck", true);
        }
        Integer exit = Hook.exitStatus(group);
        Engines.Outcome o = box[0];
        if (wasCancelled) {
            put(r, "skipped", "cancelled");
        } else if (timedOut) {
            put(r, "timeout", "exceeded its budget of " + budgetMs + " ms");
        } else if (overSteps) {
            // Even when the code under test caught the TimeoutError: a run past its step budget
            // is a timeout, deterministically.
            put(r, "timeout", "exceeded its budget of " + budgetSteps + " steps (backward jumps and method entries of the compiled classes)");
        } else if (exit != null) {
            put(r, "exit", "System.exit(" + exit + ") called");
        } else if (o == null) {
            put(r, "error", "the test ended without a result");
        } else if (o.thrown == null) {
            put(r, o.kind, o.message);
        } else {
            put(r, classify(o.thrown), describe(o.thrown, 6));
        }
        int killed = Leftovers.killProcesses();
        if (killed > 0) {
            r.put("processesKilled", killed);
        }
        if (!stuck) {
            r.put("threadsLeft", leftovers.settle(before));
        }
        forget(group);
        return r;
    }

    /** Destroys the test's group once it is empty (with groups the test made in it, daemon or not). */
    @SuppressWarnings("deprecation")
    private static void forget(ThreadGroup group) {
        if (!group.isDestroyed() && group.activeCount() == 0) {
            try {
                group.destroy();
            } catch (IllegalThreadStateException e) {
                // a thread started meanwhile: the group stays, a daemon, until it ends
            }
        }
    }

    private static void put(Map<String, Object> r, String outcome, String message) {
        r.put("outcome", outcome);
        if (message != null) {
            r.put("message", message);
        }
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
