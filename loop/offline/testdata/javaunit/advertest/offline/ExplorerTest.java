package advertest.offline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class ExplorerTest {
    public static int clamp(int x, int lo, int hi) {
        if (x < lo) {
            return lo;
        }
        return Math.min(x, hi);
    }

    public static int sleepy(int ms) throws InterruptedException {
        Thread.sleep(ms < 0 ? 0 : Math.min(ms, 1500));
        return ms;
    }

    public static List<Integer> twice(List<Integer> xs) {
        if (xs.isEmpty()) {
            throw new IllegalArgumentException("empty");
        }
        return Arrays.asList(xs.get(0), xs.get(0));
    }

    private static List<String> explore(String method, String[] types, long[] ints, int maxInputs) throws Exception {
        File out = File.createTempFile("explore", ".jsonl");
        out.deleteOnExit();
        Explorer e = new Explorer(ExplorerTest.class.getClassLoader());
        e.className = ExplorerTest.class.getName();
        e.methodName = method;
        e.paramTypes = types;
        e.ints = ints;
        e.maxInputs = maxInputs;
        e.budgetMillis = 5000;
        e.callMillis = 200;
        e.maxAllocBytes = 256L << 20;
        e.maxTimeouts = 1;
        e.seed = 1;
        e.testPackage = "advertest.offline";
        e.out = out.getPath();
        e.run();
        return Files.readAllLines(out.toPath(), StandardCharsets.UTF_8);
    }

    @Test
    void writesAHeaderOneRecordPerInputAndAnEnd() throws Exception {
        List<String> lines = explore("clamp", new String[] {"int", "int", "int"}, new long[] {10}, 40);
        assertTrue(lines.get(0).startsWith("{\"header\":true,\"declTypes\":[\"int\",\"int\",\"int\"],\"returnType\":\"int\""), lines.get(0));
        assertEquals("{\"i\":0,\"args\":[\"0\",\"0\",\"0\"],\"tokens\":[\"0\",\"0\",\"0\"],\"out\":{\"k\":\"ret\",\"ret\":{\"k\":\"prim\",\"v\":\"0\",\"t\":\"int\"},\"after\":[]},\"imports\":[]}",
            lines.get(1));
        assertEquals("{\"end\":true,\"inputs\":40}", lines.get(lines.size() - 1));
        assertEquals("{\"kinds\":[{\"can\":[\"Integer\"],\"tried\":[\"Integer\"]},{\"can\":[\"Integer\"],\"tried\":[\"Integer\"]},"
            + "{\"can\":[\"Integer\"],\"tried\":[\"Integer\"]}]}", lines.get(lines.size() - 2), "the kinds each parameter can have and had");
        assertEquals(43, lines.size());
        assertEquals(lines, explore("clamp", new String[] {"int", "int", "int"}, new long[] {10}, 40), "the same inputs every time");
    }

    @Test
    void recordsExceptionsAndCollections() throws Exception {
        List<String> lines = explore("twice", new String[] {"List<Integer>"}, new long[0], 5);
        assertTrue(lines.get(1).contains("\"args\":[\"new ArrayList<>()\"]") && lines.get(1).contains("{\"k\":\"throw\",\"x\":\"IllegalArgumentException\""),
            lines.get(1));
        assertTrue(lines.get(2).contains("\"ret\":{\"k\":\"equals\",\"v\":\"Arrays.asList(0, 0)\"}"), lines.get(2));
    }

    @Test
    void aCallPastItsDeadlineIsATimeoutAndEndsTheExploration() throws Exception {
        List<String> lines = explore("sleepy", new String[] {"int"}, new long[] {1000}, 50);
        String last = lines.get(lines.size() - 3);
        assertTrue(last.contains("{\"k\":\"timeout\",\"stopped\":"), last);
        assertTrue(lines.get(lines.size() - 1).startsWith("{\"end\":true"));
    }

    @Test
    void aMethodItCannotDriveIsUnsupported() throws Exception {
        List<String> lines = explore("nosuch", new String[0], new long[0], 5);
        assertEquals(1, lines.size());
        assertTrue(lines.get(0).startsWith("{\"unsupported\":\"method nosuch[] not found"), lines.get(0));
    }

    @Test
    void identityHashesAreNeverObservedAndLargeResultsAreSummarised() {
        Observer o = new Observer(new Access("advertest.offline"));
        Names n = new Names("advertest.offline");
        String objs = o.render(Arrays.asList(new Object(), new Object()), List.class, n, 1);
        assertTrue(objs.startsWith("{\"k\":\"big\",\"v\":\"2\",\"via\":\"size()\""), objs);
        assertEquals(objs, o.render(Arrays.asList(new Object(), new Object()), List.class, n, 1), "the same in every run");
        assertEquals("{\"k\":\"opaque\"}", o.render("made by java.lang.Object@1b6d3586", String.class, n, 1));
        int[] many = new int[Observer.MAX_ELEMENTS + 1];
        String big = o.render(many, int[].class, n, 1);
        assertTrue(big.startsWith("{\"k\":\"big\",\"v\":\"" + many.length + "\",\"via\":\"length\""), big);
        many[3] = 1;
        assertTrue(!big.equals(o.render(many, int[].class, n, 1)), "the hash follows the contents");
    }

    @Test
    void observerRendersValuesAsJava() {
        Observer o = new Observer(new Access("advertest.offline"));
        Names n = new Names("advertest.offline");
        assertEquals("{\"k\":\"prim\",\"v\":\"7L\",\"t\":\"long\"}", o.render(7L, long.class, n, 1));
        assertEquals("{\"k\":\"string\",\"v\":\"\\\"hi\\\"\"}", o.render("hi", String.class, n, 1));
        assertEquals("{\"k\":\"array\",\"v\":\"new int[]{1, 2}\"}", o.render(new int[] {1, 2}, int[].class, n, 1));
        assertEquals("{\"k\":\"null\"}", o.render(null, Object.class, n, 1));
    }
}
