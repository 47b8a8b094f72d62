package org.acme;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.File;
import java.io.FileOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The sandbox audit's hostile tests (cmd/advertest/audit_test.go), played as the LLM's tests.
 * Each test that passes has checked, from inside, that what it tried is contained; the Go test
 * checks the host beside it. @...@ are filled in by the Go test.
 */
public class SandboxAuditTest {
    @Test
    void clampsInside() {
        assertEquals(7, PriceCalculator.clamp(7, 0, 10));
    }

    /**
     * Descriptors 3, 7 and 8 were open in the process that started advertest: a host file at 3
     * and 7, the host folder @OUTSIDE@ at 8. None may name them here, and nothing may be written
     * or read through them.
     */
    @Test
    void inheritedDescriptorsAreUnusable() {
        List<String> leaks = new ArrayList<>();
        for (int n : new int[] {3, 7, 8}) {
            Path fd = Paths.get("/proc/self/fd/" + n);
            String target;
            try {
                target = Files.readSymbolicLink(fd).toString();
            } catch (Exception e) {
                continue; // not open
            }
            if (!target.startsWith("/")) {
                continue; // a pipe or a socket: the worker's protocol
            }
            if (target.startsWith("@OUTSIDE@")) {
                leaks.add("fd " + n + " -> " + target);
            }
            if (Files.isDirectory(fd)) {
                try {
                    Files.write(fd.resolve("through-fd-@MARK@.txt"), "planted".getBytes(StandardCharsets.UTF_8));
                    leaks.add("fd " + n + ": made a file in " + target);
                } catch (Exception e) {
                    // denied
                }
                if (Files.exists(fd.resolve("secret.txt"))) {
                    leaks.add("fd " + n + ": sees the host folder's secret.txt");
                }
            } else if (Files.isRegularFile(fd) && target.startsWith("@OUTSIDE@")) {
                try (FileOutputStream o = new FileOutputStream(fd.toFile(), true)) {
                    o.write("appended through fd @MARK@\n".getBytes(StandardCharsets.UTF_8));
                    leaks.add("fd " + n + ": appended to " + target);
                } catch (Exception e) {
                    // denied
                }
            }
        }
        assertTrue(leaks.isEmpty(), "usable inherited descriptors: " + leaks);
    }

    /** The cache folder (found from the worker's jar) shows the worker's entries and nothing else. */
    @Test
    void cacheShowsNoOtherProject() throws Exception {
        Path jar = null;
        for (String e : System.getProperty("java.class.path").split(File.pathSeparator)) {
            if (e.endsWith("worker.jar")) {
                jar = Paths.get(e);
            }
        }
        assertTrue(jar != null && Files.isRegularFile(jar), "no worker jar on " + System.getProperty("java.class.path"));
        Path cache = jar.getParent().getParent().getParent();
        List<String> all;
        try (Stream<Path> s = Files.walk(cache)) {
            all = s.map(p -> cache.relativize(p).toString()).collect(Collectors.toList());
        }
        assertTrue(all.contains("worker"), "the listing of " + cache + " lacks the worker: " + all);
        List<String> foreign = all.stream()
                .filter(p -> p.startsWith("classes") || p.startsWith("projects") || p.contains("application.properties"))
                .collect(Collectors.toList());
        assertTrue(foreign.isEmpty(), "other projects' entries in the cache: " + foreign);
    }

    /**
     * Swaps its scratch folder for a link to the host folder @OUTSIDE@, then stops its own JVM:
     * the worker answers nothing, and the controller collects the scratch folder on the
     * timeout path. It must not read the host folder through the link.
     */
    @Test
    void swapsItsScratchForALinkAndStops() throws Exception {
        Path scratch = Paths.get(System.getProperty("advertest.scratch"));
        Files.delete(scratch);
        Files.createSymbolicLink(scratch, Paths.get("@OUTSIDE@"));
        new ProcessBuilder("kill", "-STOP", Long.toString(ProcessHandle.current().pid())).start().waitFor();
        Thread.sleep(60_000);
        fail("the JVM was not stopped");
    }
}
