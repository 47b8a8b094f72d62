package advertest.worker.hook;

import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Called from the code under test after the worker rewrote it: backward jumps and method entries
 * call {@link #check()}, System.exit / Runtime.exit / Runtime.halt call {@link #exit(int)}. Every
 * run loader delegates this package to the worker's own loader, so all runs share one Hook.
 *
 * <p>check() also counts steps for the running test (the worker runs one test at a time): past the
 * test's step budget it throws a TimeoutError, so an endless loop in a compiled class ends after a
 * number of steps, not of milliseconds, whatever the machine's load (docs/worker-protocol.md).
 */
public final class Hook {
    private Hook() {
    }

    /** Non-zero while some thread group is past its deadline: keeps the fast path one volatile read. */
    private static volatile int expiredCount;
    private static final Set<ThreadGroup> EXPIRED = ConcurrentHashMap.newKeySet();
    private static final Map<ThreadGroup, Integer> EXITS = new ConcurrentHashMap<>();

    /**
     * Steps of the running test. Plain fields, not atomics: the fast path must stay a few
     * instructions; a test's threads racing on them lose a few counts, which the budget's factor
     * absorbs. The worker sets them before the test's thread starts and reads them after it ended.
     */
    private static long steps;
    private static long stepLimit = Long.MAX_VALUE;
    private static volatile boolean stepsExceeded;

    public static void check() {
        if (++steps > stepLimit || expiredCount != 0) {
            slowCheck();
        }
    }

    private static void slowCheck() {
        if (steps > stepLimit) {
            stepsExceeded = true;
            throw new TimeoutError("test exceeded its budget of " + stepLimit + " steps");
        }
        for (ThreadGroup g = Thread.currentThread().getThreadGroup(); g != null; g = g.getParent()) {
            if (EXPIRED.contains(g)) {
                throw new TimeoutError();
            }
        }
    }

    public static void exit(int status) {
        ThreadGroup g = Thread.currentThread().getThreadGroup();
        if (g != null) {
            EXITS.putIfAbsent(g, status);
        }
        throw new ExitError(status);
    }

    public static void runtimeExit(Runtime r, int status) {
        exit(status);
    }

    public static void runtimeHalt(Runtime r, int status) {
        exit(status);
    }

    /** Starts counting a test's steps; it may take limit steps (Long.MAX_VALUE: no limit). */
    public static void arm(long limit) {
        steps = 0;
        stepsExceeded = false;
        stepLimit = limit;
    }

    /** Stops the step limit (threads a test left keep running until they are expired). */
    public static void disarm() {
        stepLimit = Long.MAX_VALUE;
    }

    /** The steps counted since arm. */
    public static long steps() {
        return steps;
    }

    /** Whether a thread ran past the step limit since arm (even if the code caught the error). */
    public static boolean stepsExceeded() {
        return stepsExceeded;
    }

    /** Makes every thread of g throw a TimeoutError at its next backward jump. */
    public static void expire(ThreadGroup g) {
        EXPIRED.add(g);
        expiredCount = EXPIRED.size();
    }

    /** The exit status recorded for g, or null. */
    public static Integer exitStatus(ThreadGroup g) {
        return EXITS.get(g);
    }

    /** Forgets groups whose threads have all ended. */
    public static void sweep() {
        EXITS.keySet().removeIf(g -> g.activeCount() == 0);
        EXPIRED.removeIf(g -> g.activeCount() == 0);
        expiredCount = EXPIRED.size();
    }
}
