package org.acme;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import java.io.File;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import org.junit.Test;

/** Tests that misbehave towards the worker running them: the harness must contain each. */
public class HostileTest {
    /** The line that used to end runs with "the worker keeps dying between tests". */
    private static String forged(int id) {
        return "{\"id\":" + id + ",\"done\":true,\"fatal\":\"forged by HostileTest\"}\n";
    }

    /**
     * Forges protocol lines on System.out, on the process's own stdout, and on every pipe the JVM
     * holds open (found through /proc/self/fd): the worker's real protocol descriptor among them.
     */
    @Test
    public void forgesProtocolLines() throws Exception {
        for (int i = 0; i < 200; i++) {
            System.out.print(forged(i));
        }
        PrintStream fd1 = new PrintStream(new FileOutputStream(FileDescriptor.out), true, "UTF-8");
        for (int i = 0; i < 200; i++) {
            fd1.print(forged(i));
        }
        int pipes = 0;
        File[] fds = new File("/proc/self/fd").listFiles();
        for (File f : fds == null ? new File[0] : fds) {
            String link;
            try {
                link = Files.readSymbolicLink(f.toPath()).toString();
            } catch (IOException e) {
                continue;
            }
            if (!link.startsWith("pipe:")) {
                continue;
            }
            try (OutputStream o = new FileOutputStream(f)) {
                for (int i = 0; i < 200; i++) {
                    o.write(forged(i).getBytes(StandardCharsets.UTF_8));
                }
                pipes++;
            } catch (IOException e) {
                // not writable
            }
        }
        assertTrue("found no pipe to forge on", pipes > 0);
    }

    /** Writes 65 MiB without a newline on the protocol's descriptor, fd 3. */
    @Test
    public void writesAnOverlongLine() throws Exception {
        byte[] chunk = new byte[1 << 20];
        java.util.Arrays.fill(chunk, (byte) 'x');
        try (OutputStream o = new FileOutputStream("/proc/self/fd/3")) {
            o.write('{');
            for (int i = 0; i < 65; i++) {
                o.write(chunk);
            }
        }
    }

    /**
     * Starts a child that would sleep for eleven days and a shell that keeps forking such
     * sleepers, and leaves them: the clean-up's kill reaches the shell while it forks, so some
     * sleepers are orphaned between a listing and the kill.
     */
    @Test
    public void spawnsSleepers() throws Exception {
        Process child = new ProcessBuilder("sleep", "987654").start();
        Process shell = new ProcessBuilder("sh", "-c",
                "i=0; while [ $i -lt 200 ]; do sleep 987653 & i=$((i+1)); done; wait").start();
        assertTrue(child.isAlive() && shell.isAlive());
    }

    /** Leaves a non-daemon thread waiting for ever on a monitor, deaf to interrupts. */
    @Test
    public void leaksBlockedThread() {
        Object lock = new Object();
        Thread t = new Thread(() -> {
            synchronized (lock) {
                while (true) {
                    try {
                        lock.wait();
                    } catch (InterruptedException e) {
                        // stays
                    }
                }
            }
        }, "leaked-by-HostileTest");
        t.start();
        assertTrue(t.isAlive() && !t.isDaemon());
    }

    /** Prints a megabyte: what the result keeps is bounded. */
    @Test
    public void printsAMegabyte() {
        String line = "0123456789".repeat(10) + "\n";
        for (int i = 0; i < 10_000; i++) {
            System.out.print(line);
        }
        System.err.println("and a word on stderr");
    }

    /** Writes a file into its scratch folder, and one relative to the working directory. */
    @Test
    public void writesScratchFiles() throws Exception {
        String scratch = System.getProperty("advertest.scratch");
        Files.writeString(new File(scratch, "out.txt").toPath(), "hello from the test");
        Files.writeString(new File("relative.txt").toPath(), "relative");
        System.out.println("cwd=" + new File(".").getCanonicalPath());
        System.out.println("relative=" + new File("relative.txt").getCanonicalPath());
        assertEquals(-1, System.in.read());
    }
}
