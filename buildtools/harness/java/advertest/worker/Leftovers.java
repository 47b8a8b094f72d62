package advertest.worker;

import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * What a test leaves behind once it has ended: the processes it started are killed, and the
 * threads it started get a grace period to end. The live non-daemon threads that are not the
 * worker's own are counted; above the limit the worker asks to be restarted.
 */
final class Leftovers {
    /** How long the threads a test started get to end after it, interrupted, before they count. */
    static final long GRACE_MS = 500;
    /** How long the killed processes get to be reaped. */
    private static final long PROCESS_WAIT_MS = 1000;

    private final Set<Thread> own;

    /** Takes the threads alive now as the worker's own. */
    Leftovers() {
        own = identitySet(threads());
    }

    private static ThreadGroup root() {
        ThreadGroup root = Thread.currentThread().getThreadGroup();
        while (root.getParent() != null) {
            root = root.getParent();
        }
        return root;
    }

    /** Every live thread of the JVM. */
    static List<Thread> threads() {
        ThreadGroup root = root();
        Thread[] all = new Thread[Math.max(16, root.activeCount() * 2)];
        int n;
        while ((n = root.enumerate(all, true)) == all.length) {
            all = new Thread[all.length * 2];
        }
        List<Thread> out = new ArrayList<>(n);
        for (int k = 0; k < n; k++) {
            out.add(all[k]);
        }
        return out;
    }

    /** How many thread groups there are below the root one. */
    static int threadGroups() {
        ThreadGroup root = root();
        ThreadGroup[] all = new ThreadGroup[Math.max(16, root.activeGroupCount() * 2)];
        int n;
        while ((n = root.enumerate(all, true)) == all.length) {
            all = new ThreadGroup[all.length * 2];
        }
        return n;
    }

    static Set<Thread> identitySet(List<Thread> ts) {
        Set<Thread> s = Collections.newSetFromMap(new IdentityHashMap<>());
        s.addAll(ts);
        return s;
    }

    /**
     * After a test: interrupts the non-daemon threads started since before (a snapshot taken at
     * its start), waits up to GRACE_MS for them to end, and returns how many live non-daemon
     * threads that are not the worker's own there are now (those of earlier tests too).
     */
    int settle(Set<Thread> before) {
        List<Thread> fresh = new ArrayList<>();
        for (Thread t : threads()) {
            if (!before.contains(t) && !t.isDaemon() && t.isAlive()) {
                fresh.add(t);
            }
        }
        if (!fresh.isEmpty()) {
            for (Thread t : fresh) {
                t.interrupt();
            }
            long deadline = System.nanoTime() + GRACE_MS * 1_000_000L;
            try {
                for (Thread t : fresh) {
                    long left = (deadline - System.nanoTime()) / 1_000_000L;
                    if (left <= 0) {
                        break;
                    }
                    t.join(left);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        int live = 0;
        for (Thread t : threads()) {
            if (!own.contains(t) && !t.isDaemon() && t.isAlive()) {
                live++;
            }
        }
        return live;
    }

    /**
     * Kills every process descending from the worker and waits briefly for them to be reaped;
     * returns how many there were. Listing descendants costs milliseconds, so it is done only
     * while one of the JDK's "process reaper" threads, which every started process gets, is around.
     */
    static int killProcesses() {
        boolean reaper = false;
        for (Thread t : threads()) {
            if (t.getName().startsWith("process reaper")) { // "process reaper (pid N)" while it waits
                reaper = true;
                break;
            }
        }
        if (!reaper) {
            return 0;
        }
        List<ProcessHandle> kids = new ArrayList<>();
        ProcessHandle.current().descendants().forEach(kids::add);
        for (ProcessHandle p : kids) {
            p.destroyForcibly();
        }
        long deadline = System.nanoTime() + PROCESS_WAIT_MS * 1_000_000L;
        for (ProcessHandle p : kids) {
            long left = (deadline - System.nanoTime()) / 1_000_000L;
            if (left <= 0) {
                break;
            }
            try {
                p.onExit().get(left, TimeUnit.MILLISECONDS);
            } catch (Exception e) {
                // not reaped yet (a grandchild: init reaps it); it was killed all the same
            }
        }
        return kids.size();
    }
}
