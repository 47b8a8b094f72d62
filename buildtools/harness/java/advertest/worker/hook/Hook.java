package advertest.worker.hook;

import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Called from the code under test after the worker rewrote it: backward jumps call {@link #check()},
 * System.exit / Runtime.exit / Runtime.halt call {@link #exit(int)}. Every run loader delegates this
 * package to the worker's own loader, so all runs share one Hook.
 */
public final class Hook {
    private Hook() {
    }

    /** Non-zero while some thread group is past its deadline: keeps the fast path one volatile read. */
    private static volatile int expiredCount;
    private static final Set<ThreadGroup> EXPIRED = ConcurrentHashMap.newKeySet();
    private static final Map<ThreadGroup, Integer> EXITS = new ConcurrentHashMap<>();

    public static void check() {
        if (expiredCount != 0) {
            slowCheck();
        }
    }

    private static void slowCheck() {
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
