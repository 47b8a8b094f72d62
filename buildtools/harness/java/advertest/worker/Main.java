package advertest.worker;

import java.io.BufferedReader;
import java.io.File;
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * The worker JVM's entry point: reads requests from fd 4 and answers on fd 3, one JSON object per
 * line (docs/worker-protocol.md); exits when fd 4 closes. System.in is empty and System.out/err
 * are captured per test, so neither reaches the protocol. Requests are handled one at a time on
 * the "advertest-run" thread; cancel is handled at once by the reader.
 */
public final class Main {
    /** The descriptor the worker answers on. */
    static final int PROTOCOL_FD = 3;
    /** The descriptor the worker reads requests from. */
    static final int REQUEST_FD = 4;

    private Main() {
    }

    public static void main(String[] args) throws Exception {
        Protocol.Writer out = new Protocol.Writer(new FileOutputStream(descriptor(PROTOCOL_FD)));
        BufferedReader in = new BufferedReader(new InputStreamReader(new FileInputStream(descriptor(REQUEST_FD)), StandardCharsets.UTF_8));
        Capture.install();
        Worker w = new Worker(out);
        ExecutorService exec = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "advertest-run");
            t.setDaemon(true);
            return t;
        });
        String line;
        while ((line = in.readLine()) != null) {
            if (line.isBlank()) {
                continue;
            }
            Protocol.Request req;
            try {
                req = Protocol.Request.parse(line);
            } catch (RuntimeException e) {
                out.send(Protocol.failed(-1, "bad request: " + e.getMessage(), null));
                continue;
            }
            if (req.op.equals("cancel")) {
                w.cancel(req.id);
                continue;
            }
            exec.submit(() -> {
                Map<String, Object> resp;
                try {
                    resp = w.handle(req);
                } catch (Throwable t) {
                    resp = Protocol.failed(req.id, req.op + " failed: " + TestRunner.describe(t, 8), t instanceof OutOfMemoryError ? "oom" : null);
                }
                out.send(resp);
            });
        }
        Runtime.getRuntime().halt(0);
    }

    /** The path that opens descriptor fd of this process again (Linux, and BSDs with fdescfs). */
    private static File descriptor(int fd) throws IOException {
        for (String p : new String[] {"/proc/self/fd/" + fd, "/dev/fd/" + fd}) {
            File f = new File(p);
            if (f.exists()) {
                return f;
            }
        }
        throw new IOException("no file descriptor " + fd + ": the worker is started by the AdverTest harness with its"
                + " protocol on fd 3 (answers) and fd 4 (requests)");
    }
}
