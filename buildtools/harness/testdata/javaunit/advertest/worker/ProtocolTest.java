package advertest.worker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ProtocolTest {
    @Test
    void readsARunRequest() {
        Protocol.Request r = Protocol.Request.parse("{\"op\":\"run\",\"id\":9,\"overrides\":[{\"className\":\"a.B\",\"text\":\"class B {}\"}],"
            + "\"tests\":[{\"class\":\"a.BTest\",\"method\":\"m\"},{\"class\":\"a.CTest\"}],\"coverage\":true,"
            + "\"budgetsMs\":{\"a.BTest#m\":250},\"defaultBudgetMs\":4000}");
        assertEquals("run", r.op);
        assertEquals(9, r.id);
        assertEquals("a.B", r.sources("overrides").get(0).className);
        assertTrue(r.sources("extraTests").isEmpty());
        List<Protocol.TestRef> tests = r.tests("tests");
        assertEquals("m", tests.get(0).method);
        assertEquals("", tests.get(1).method, "a class-wide entry");
        assertTrue(r.bool("coverage"));
        assertFalse(r.bool("stopAtFirstFailure"));
        assertEquals(Map.of("a.BTest#m", 250L), r.budgets("budgetsMs"));
        assertEquals(4000, r.num("defaultBudgetMs", 1));
        assertEquals(1, r.num("missing", 1));
    }

    @Test
    void refusesWhatIsNotARequest() {
        assertThrows(IllegalArgumentException.class, () -> Protocol.Request.parse("[1]"));
        assertThrows(IllegalArgumentException.class, () -> Protocol.Request.parse("{\"id\":1,\"done\":true}"));
        assertEquals(-1, Protocol.Request.parse("{\"op\":\"stats\"}").id);
    }

    @Test
    void writesARunsLinesInTheProtocolsShape() {
        Protocol.TestRef t = new Protocol.TestRef("a.BTest", "m");
        assertEquals("{\"id\":3,\"event\":\"start\",\"index\":1,\"class\":\"a.BTest\",\"method\":\"m\",\"budgetMs\":50}",
            Json.write(Protocol.start(3, 1, t, 50, 0)));
        assertEquals("{\"id\":3,\"event\":\"start\",\"index\":1,\"class\":\"a.BTest\",\"method\":\"m\",\"budgetMs\":50,\"budgetSteps\":7}",
            Json.write(Protocol.start(3, 1, t, 50, 7)));
        Map<String, Object> r = new java.util.LinkedHashMap<>();
        r.put("outcome", "passed");
        r.put("ms", 1.5);
        assertEquals("{\"id\":3,\"event\":\"result\",\"index\":1,\"class\":\"a.BTest\",\"method\":\"m\",\"outcome\":\"passed\",\"ms\":1.5}",
            Json.write(Protocol.result(3, 1, t, r)));
        assertEquals("{\"id\":3,\"done\":true,\"error\":\"boom\",\"fatal\":\"oom\"}", Json.write(Protocol.failed(3, "boom", "oom")));
    }

    @Test
    void theWriterWritesWholeLines() throws Exception {
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        Protocol.Writer w = new Protocol.Writer(buf);
        Thread[] ts = new Thread[4];
        for (int k = 0; k < ts.length; k++) {
            final int n = k;
            ts[k] = new Thread(() -> {
                for (int i = 0; i < 200; i++) {
                    w.send(Protocol.failed(n, "x".repeat(500), null));
                }
            });
            ts[k].start();
        }
        for (Thread t : ts) {
            t.join();
        }
        String[] lines = buf.toString(StandardCharsets.UTF_8).split("\n");
        assertEquals(800, lines.length);
        for (String l : lines) {
            Json.parse(l);
        }
    }
}
