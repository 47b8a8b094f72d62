package advertest.worker;

import java.io.ByteArrayInputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Map;

/**
 * What tests print: System.in is empty, System.out and System.err go to fresh bounded buffers for
 * each test (a new PrintStream each time, so a thread a test left holding the old stream's lock
 * cannot block later tests), and to nowhere between tests. The protocol has its own descriptor;
 * nothing a test prints can reach it through System.out.
 */
final class Capture {
    private static final PrintStream SINK = new PrintStream(OutputStream.nullOutputStream(), true, StandardCharsets.UTF_8);

    private final int limit;
    private Bounded out;
    private Bounded err;

    Capture(int limit) {
        this.limit = limit;
    }

    /** Installs the empty System.in and the sink for the worker's own time. */
    static void install() {
        System.setIn(new ByteArrayInputStream(new byte[0]));
        System.setOut(SINK);
        System.setErr(SINK);
    }

    void begin() {
        out = new Bounded(limit);
        err = new Bounded(limit);
        System.setIn(new ByteArrayInputStream(new byte[0]));
        System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
        System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
    }

    /** Puts back the sink and adds stdout, stderr and outputDropped to a result. */
    void end(Map<String, Object> result) {
        System.setOut(SINK);
        System.setErr(SINK);
        if (out == null) {
            return;
        }
        long dropped = out.dropped() + err.dropped();
        String o = out.text();
        String e = err.text();
        if (!o.isEmpty()) {
            result.put("stdout", o);
        }
        if (!e.isEmpty()) {
            result.put("stderr", e);
        }
        if (dropped > 0) {
            result.put("outputDropped", dropped);
        }
        out = null;
        err = null;
    }

    /** Keeps the first limit bytes written to it and counts the rest. */
    static final class Bounded extends OutputStream {
        private final int limit;
        private byte[] buf = new byte[0];
        private int size;
        private long dropped;

        Bounded(int limit) {
            this.limit = limit;
        }

        @Override
        public synchronized void write(int b) {
            write(new byte[] {(byte) b}, 0, 1);
        }

        @Override
        public synchronized void write(byte[] b, int off, int len) {
            int keep = Math.max(0, Math.min(len, limit - size));
            if (keep > 0) {
                if (size + keep > buf.length) {
                    buf = Arrays.copyOf(buf, Math.min(limit, Math.max(size + keep, buf.length * 2 + 256)));
                }
                System.arraycopy(b, off, buf, size, keep);
                size += keep;
            }
            dropped += len - keep;
        }

        synchronized String text() {
            String s = new String(buf, 0, size, StandardCharsets.UTF_8);
            return dropped > 0 ? s + "\n[... " + dropped + " more bytes dropped]" : s;
        }

        synchronized long dropped() {
            return dropped;
        }
    }
}
