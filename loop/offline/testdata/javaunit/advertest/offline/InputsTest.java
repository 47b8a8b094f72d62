package advertest.offline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Method;
import java.lang.reflect.Type;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class InputsTest {
    enum Tier { GOLD, SILVER }

    public static class Item {
        public Item(String name, int price) {
        }
    }

    public interface Shape {
    }

    public static class Counter {
        private int n;

        public Counter() {
        }

        public void add(int k) {
            n += k;
        }

        public int get() {
            return n;
        }
    }

    /** A buffer whose constructor rejects the simplest capacities (0, -1). */
    public static class Buffer {
        public Buffer(int capacity) {
            if (capacity <= 0) {
                throw new IllegalArgumentException("capacity");
            }
        }

        public void add(int v) {
        }

        public int size() {
            return 0;
        }
    }

    /** A value made only through a static factory. */
    public static final class Span {
        private Span() {
        }

        public static Span of(String from, String to) {
            return new Span();
        }
    }

    /** Generic parameter types come from methods like these. */
    public static void lists(List<Integer> xs, List<String> ss) {
    }

    static Inputs inputs(long... ints) {
        return new Inputs(ints, new double[] {2.5}, new String[] {"sku-1"}, "x", 7, new Access("advertest.offline"));
    }

    static List<String> exprs(List<Gen> gs) {
        Names names = new Names("advertest.offline");
        List<String> out = new ArrayList<>();
        for (Gen g : gs) {
            out.add(g.expr(names));
        }
        return out;
    }

    @Test
    void intsStartSimpleThenTheMethodsLiteralsAndTheirNeighboursThenTheExtremes() throws Exception {
        List<String> e = exprs(inputs(5).pool(int.class, 2));
        assertEquals(List.of("0", "1", "-1", "5", "-5", "4", "6", "2", "10", "100"), e.subList(0, 10));
        assertEquals("Integer.MAX_VALUE", e.get(e.size() - 1));
        assertTrue(e.indexOf("Integer.MIN_VALUE") > e.indexOf("-128"), "the extremes come last: " + e);
        assertEquals(e.size(), new java.util.HashSet<>(e).size(), "no value twice: " + e);
    }

    @Test
    void poolsOfOtherTypes() throws Exception {
        Inputs in = inputs();
        assertEquals(List.of("false", "true"), exprs(in.pool(boolean.class, 2)));
        List<String> strings = exprs(in.pool(String.class, 2));
        assertEquals(List.of("\"a\"", "\"\"", "\"sku-1\""), strings.subList(0, 3), "the method's string literals early");
        assertEquals("null", strings.get(strings.size() - 1));
        List<String> boxed = exprs(in.pool(Integer.class, 2));
        assertEquals("null", boxed.get(boxed.size() - 1), "a boxed type also gets null");
        assertEquals(List.of("InputsTest.Tier.GOLD", "InputsTest.Tier.SILVER", "null"), exprs(in.pool(Tier.class, 2)));
        List<String> doubles = exprs(in.pool(double.class, 2));
        assertTrue(doubles.containsAll(List.of("2.5", "-2.5", "Double.NaN", "Double.POSITIVE_INFINITY")), doubles.toString());
        List<String> chars = exprs(in.pool(char.class, 2));
        assertEquals(List.of("'a'", "'x'"), chars.subList(0, 2));
    }

    @Test
    void collectionsArraysAndObjects() throws Exception {
        Inputs in = inputs();
        Method m = InputsTest.class.getMethod("lists", List.class, List.class);
        Type[] ts = m.getGenericParameterTypes();
        List<String> lists = exprs(in.pool(ts[0], 2));
        assertEquals("new ArrayList<>()", lists.get(0));
        assertTrue(lists.contains("new ArrayList<>(Arrays.asList(0))"), lists.toString());
        assertEquals("null", lists.get(lists.size() - 1));
        List<String> arrays = exprs(in.pool(int[].class, 2));
        assertEquals("new int[]{}", arrays.get(0));
        assertTrue(arrays.contains("new int[]{1, -1}"), arrays.toString());
        List<String> items = exprs(in.pool(Item.class, 2));
        assertEquals("new InputsTest.Item(\"a\", 0)", items.get(0));
        assertThrows(Unsupported.class, () -> in.pool(Shape.class, 2), "no implementation of an interface");
    }

    @Test
    void randomValuesComeFromTheSeed() throws Exception {
        List<String> a = new ArrayList<>();
        List<String> b = new ArrayList<>();
        List<String> c = new ArrayList<>();
        Inputs ia = inputs(3);
        Inputs ib = inputs(3);
        Inputs ic = new Inputs(new long[] {3}, new double[0], new String[0], "", 8, new Access(""));
        Names names = new Names("");
        for (int k = 0; k < 50; k++) {
            a.add(ia.randomValue(int.class, 2).expr(names) + " " + ia.randomValue(String.class, 2).expr(names));
            b.add(ib.randomValue(int.class, 2).expr(names) + " " + ib.randomValue(String.class, 2).expr(names));
            c.add(ic.randomValue(int.class, 2).expr(names) + " " + ic.randomValue(String.class, 2).expr(names));
        }
        assertEquals(a, b, "the same seed gives the same values");
        assertNotEquals(a, c, "another seed gives others");
    }

    @Test
    void receiversAreAConstructorThenSetupCalls() throws Exception {
        Inputs in = inputs();
        Method target = Counter.class.getMethod("get");
        List<Input.Receiver> rs = in.receivers(Counter.class, target);
        assertEquals("new InputsTest.Counter()", rs.get(0).make.expr(new Names("advertest.offline")));
        assertTrue(rs.get(0).setup.isEmpty());
        boolean withAdd = false;
        for (Input.Receiver r : rs) {
            for (Input.Call k : r.setup) {
                withAdd |= k.method.getName().equals("add");
                assertNotEquals("get", k.method.getName(), "an observer is not a setup call");
            }
        }
        assertTrue(withAdd, "add(int) is a setup call");
    }

    @Test
    void receiversStartWithTypicalArgumentsAndAscendingSequences() throws Exception {
        Inputs in = inputs();
        Names names = new Names("advertest.offline");
        List<Input.Receiver> rs = in.receivers(Buffer.class, Buffer.class.getMethod("size"));
        assertEquals("new InputsTest.Buffer(3)", rs.get(0).make.expr(names), "a capacity-like argument is positive");
        List<String> seqs = new ArrayList<>();
        for (Input.Receiver r : rs) {
            StringBuilder sb = new StringBuilder();
            for (Input.Call k : r.setup) {
                sb.append(k.expr(names)).append(';');
            }
            seqs.add(sb.toString());
        }
        assertTrue(seqs.contains("add(1);add(2);add(3);"), seqs.toString());
        assertTrue(seqs.contains("add(1);add(2);add(3);add(4);add(5);"), "long enough to wrap or grow: " + seqs);
        assertTrue(seqs.indexOf("add(1);add(2);add(3);") < 12, "the sequences come early: " + seqs);
        assertEquals("3000L", in.seqValue(long.class, 2).expr(names), "clock values move on in steps of a second");
    }

    @Test
    void staticFactoriesMakeObjects() throws Exception {
        List<String> spans = exprs(inputs().pool(Span.class, 2));
        assertEquals("InputsTest.Span.of(\"a\", \"a\")", spans.get(0));
    }

    @Test
    void arraysOfBoundaryValues() throws Exception {
        List<String> arrays = exprs(inputs().pool(int[].class, 2));
        for (String want : List.of("new int[]{Integer.MAX_VALUE, Integer.MAX_VALUE}", "new int[]{Integer.MIN_VALUE, Integer.MIN_VALUE}",
            "new int[]{1, 2, 3}", "new int[]{3, 2, 1}", "new int[]{-3, 2, -1}", "new int[]{2, 2, 2}")) {
            assertTrue(arrays.contains(want), want + " in " + arrays);
        }
        List<String> matrices = exprs(inputs().pool(int[][].class, 2));
        assertTrue(matrices.contains("new int[][]{new int[]{1, 2, 3}, new int[]{4, 5, 6}}"), matrices.toString());
        List<String> dates = exprs(inputs().pool(java.time.LocalDate.class, 2));
        assertTrue(dates.contains("LocalDate.of(2024, 2, 29)"), dates.toString());
    }

    @Test
    void stringsWithEdgeCharactersAndTheMethodsSeparators() throws Exception {
        Inputs in = new Inputs(new long[0], new double[0], new String[] {","}, ";", 7, new Access(""));
        List<String> strings = exprs(in.pool(String.class, 2));
        for (String want : List.of("\"a;b\"", "\"a,b\"", "\"1,2,3,4,\"", "\" a \"", "\"\\t\"", "\"\\\"\"", "\"\\u00e9\"")) {
            assertTrue(strings.contains(want), want + " in " + strings);
        }
    }

    @Test
    void poolsAreCachedByTypeAndDepth() throws Exception {
        Inputs in = inputs();
        assertSame(in.pool(int.class, 2), in.pool(int.class, 2));
    }
}
