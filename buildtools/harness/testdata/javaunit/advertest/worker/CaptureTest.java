package advertest.worker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintStream;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class CaptureTest {
    @Test
    void keepsTheFirstBytesAndCountsTheRest() {
        Capture.Bounded b = new Capture.Bounded(10);
        b.write("hello ".getBytes(), 0, 6);
        b.write("world, and more".getBytes(), 0, 15);
        assertEquals(11, b.dropped());
        assertEquals("hello worl\n[... 11 more bytes dropped]", b.text());
    }

    @Test
    void eachTestGetsItsOwnStreams() throws Exception {
        PrintStream out = System.out;
        PrintStream err = System.err;
        Capture c = new Capture(1024);
        try {
            c.begin();
            PrintStream first = System.out;
            System.out.print("one");
            System.err.print("two");
            assertEquals(-1, System.in.read(), "System.in is empty");
            Map<String, Object> r = new LinkedHashMap<>();
            c.end(r);
            assertEquals("one", r.get("stdout"));
            assertEquals("two", r.get("stderr"));
            assertFalse(r.containsKey("outputDropped"));
            first.print("late"); // a thread the test left, printing after it ended
            c.begin();
            assertTrue(System.out != first, "a new stream for the next test");
            Map<String, Object> r2 = new LinkedHashMap<>();
            c.end(r2);
            assertFalse(r2.containsKey("stdout"), "the late print stays with the old stream: " + r2);
        } finally {
            System.setOut(out);
            System.setErr(err);
        }
    }
}
