package advertest.worker;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
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
    /** How many times the kill lists the processes again to catch those forked meanwhile. */
    private static final int KILL_ROUNDS = 20;

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
     * Kills every process the test started, and their children, and waits briefly for them to be
     * reaped; returns how many there were. Listing processes costs milliseconds, so it is done only
     * while one of the JDK's "process reaper" threads, which every started process gets, is around.
     *
     * <p>One snapshot of {@code descendants()} is not enough: a shell that forks between the
     * snapshot and its kill leaves an orphan that init adopts, outside the worker's tree (see
     * docs/worker-protocol.md, Traps). So the kill repeats until a listing finds nothing alive,
     * and each listing also takes the processes of the worker's own process group, which orphans
     * keep. Outside the sandbox the harness starts the worker as a group leader; in bubblewrap the
     * group (and session) is led by bwrap's init, PID 1 of the sandbox's namespace and the worker's
     * parent, which adopts the orphans: its group is then the worker's to clean, but never the
     * init itself (see docs/worker-protocol.md, Traps).
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
        long self = ProcessHandle.current().pid();
        long group = ownGroup(self);
        Set<Long> killed = new HashSet<>();
        List<ProcessHandle> children = new ArrayList<>();
        for (int round = 0; round < KILL_ROUNDS; round++) {
            Map<Long, ProcessHandle> live = new LinkedHashMap<>();
            ProcessHandle.current().descendants().filter(ProcessHandle::isAlive).forEach(p -> live.put(p.pid(), p));
            if (group > 0) {
                for (long pid : groupMembers(group)) {
                    if (pid != self && pid != group && !live.containsKey(pid)) {
                        ProcessHandle.of(pid).ifPresent(p -> live.put(pid, p));
                    }
                }
            }
            if (live.isEmpty()) {
                break;
            }
            for (ProcessHandle p : live.values()) {
                p.destroyForcibly();
                if (killed.add(p.pid()) && p.parent().map(q -> q.pid() == self).orElse(false)) {
                    children.add(p);
                }
            }
        }
        long deadline = System.nanoTime() + PROCESS_WAIT_MS * 1_000_000L;
        for (ProcessHandle p : children) {
            long left = (deadline - System.nanoTime()) / 1_000_000L;
            if (left <= 0) {
                break;
            }
            try {
                p.onExit().get(left, TimeUnit.MILLISECONDS);
            } catch (Exception e) {
                // not reaped yet; it was killed all the same
            }
        }
        return killed.size();
    }

    /**
     * The process group whose members other than its leader and self are the worker's to kill,
     * or -1 when there is none: the worker's own group when it leads it (started by the harness
     * with setpgid), or the group of bwrap's init when the worker runs as its child in the
     * sandbox's PID namespace (bwrap's --new-session makes the init lead it; its init adopts
     * the orphans and nothing but the worker and what it started lives in that namespace). In any
     * other group, say one a shell leads, the other members are not ours.
     */
    static long ownGroup(long self) {
        String[] f = statFields(Path.of("/proc", Long.toString(self), "stat"));
        if (f == null) {
            return -1;
        }
        long parent = Long.parseLong(f[1]);
        long group = Long.parseLong(f[2]);
        if (group == self || (group == 1 && parent == 1)) {
            return group;
        }
        return -1;
    }

    /** The pids of the live (not zombie) processes in process group pgid. */
    private static List<Long> groupMembers(long pgid) {
        List<Long> out = new ArrayList<>();
        try (DirectoryStream<Path> dirs = Files.newDirectoryStream(Path.of("/proc"), "[0-9]*")) {
            for (Path d : dirs) {
                String[] f = statFields(d.resolve("stat"));
                if (f != null && !f[0].equals("Z") && Long.parseLong(f[2]) == pgid) {
                    out.add(Long.parseLong(d.getFileName().toString()));
                }
            }
        } catch (IOException | RuntimeException e) {
            // no /proc: the descendants' listing is all there is
        }
        return out;
    }

    /**
     * The fields of a /proc stat line after the command name (state, ppid, pgrp, ...), or null when
     * the process is gone. The name is in parentheses and may hold spaces and parentheses itself.
     */
    private static String[] statFields(Path stat) {
        try {
            String line = Files.readString(stat);
            return line.substring(line.lastIndexOf(')') + 2).split(" ");
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }
}
