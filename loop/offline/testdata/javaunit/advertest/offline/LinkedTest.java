package advertest.offline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class LinkedTest {
    /** A node with successor lists, linked through an adder. */
    public static class Node {
        private final String name;
        private final List<Node> next = new ArrayList<>();

        public Node(String name) {
            this.name = name;
        }

        public Node connect(Node other) {
            next.add(other);
            return this;
        }

        public List<Node> getNext() {
            return next;
        }

        @Override
        public String toString() {
            return "node " + name;
        }
    }

    /** A list cell: one link, through a setter. */
    public static class Cell {
        private Cell next;

        public Cell(int value) {
        }

        public void setNext(Cell next) {
            this.next = next;
        }

        public Cell getNext() {
            return next;
        }
    }

    /** Edges that carry weights. */
    public static class Town {
        private final Map<Town, Integer> roads = new HashMap<>();

        public Town(String name) {
        }

        public void road(Town to, int km) {
            roads.put(to, km);
        }
    }

    /** Takes another instance but holds none: not a node class. */
    public static class Money {
        private final long cents;

        public Money(long cents) {
            this.cents = cents;
        }

        public Money plus(Money other) {
            return new Money(cents + other.cents);
        }
    }

    public static Set<Node> reachable(Node start) {
        Set<Node> seen = new LinkedHashSet<>();
        Deque<Node> stack = new ArrayDeque<>(Collections.singleton(start));
        while (!stack.isEmpty()) {
            Node n = stack.pop();
            if (seen.add(n)) {
                stack.addAll(n.getNext());
            }
        }
        return seen;
    }

    public static Node last(Node start) {
        Node n = start;
        for (int i = 0; i < 10 && !n.getNext().isEmpty(); i++) {
            n = n.getNext().get(0);
        }
        return n;
    }

    private static Linked linked(Class<?> c) {
        return Linked.of(c, new Access("advertest.offline"));
    }

    private static Linked.Graph graph(Linked l, String token) {
        for (Linked.Graph g : l.graphs(new long[0])) {
            if (g.token().equals(token)) {
                return g;
            }
        }
        throw new AssertionError("no graph " + token);
    }

    @Test
    void eachShapeIsBuiltAsItsArrangeStepSays() throws Throwable {
        Linked l = linked(Node.class);
        assertNotNull(l, "Node links to Node through connect");
        List<String> tokens = new ArrayList<>();
        for (Linked.Graph g : l.graphs(new long[0])) {
            tokens.add(g.token());
        }
        assertEquals(Arrays.asList("OneNode", "Chain", "Diamond", "Cycle", "Lasso", "TwoComponents", "SelfLoop", "LongChain", "TwoPaths"), tokens);
        Linked.Graph d = graph(l, "Diamond");
        Object[] n = d.build();
        Node a = (Node) n[0];
        Node b = (Node) n[1];
        Node c = (Node) n[2];
        Node e = (Node) n[3];
        assertEquals(Arrays.asList(b, c), a.getNext());
        assertEquals(Arrays.asList(e), b.getNext());
        assertEquals(Arrays.asList(e), c.getNext());
        assertTrue(e.getNext().isEmpty());
        assertEquals(Arrays.asList("// a diamond: a -> b, a -> c, b -> d, c -> d", "LinkedTest.Node a = new LinkedTest.Node(\"a\");",
            "LinkedTest.Node b = new LinkedTest.Node(\"b\");", "LinkedTest.Node c = new LinkedTest.Node(\"c\");",
            "LinkedTest.Node d = new LinkedTest.Node(\"d\");", "a.connect(b);", "a.connect(c);", "b.connect(d);", "c.connect(d);"),
            d.lines(new Names("advertest.offline")));
        Object[] again = d.build();
        assertFalse(again[0] == n[0], "each call gets fresh nodes");
        Node self = (Node) graph(l, "SelfLoop").build()[0];
        assertEquals(Arrays.asList(self), self.getNext());
        Object[] two = graph(l, "TwoComponents").build();
        assertEquals(Arrays.asList(two[1]), ((Node) two[0]).getNext());
        assertTrue(((Node) two[1]).getNext().isEmpty());
        assertEquals(Arrays.asList(two[3]), ((Node) two[2]).getNext());
        Object[] lasso = graph(l, "Lasso").build();
        assertEquals(Arrays.asList(lasso[1]), ((Node) lasso[2]).getNext(), "the cycle b -> c -> b behind a");
    }

    @Test
    void aSetterLinksOneWayOnly() throws Throwable {
        Linked l = linked(Cell.class);
        assertNotNull(l);
        for (Linked.Graph g : l.graphs(new long[0])) {
            assertTrue(g.shape.maxOutDegree() <= 1, g.token() + ": a cell holds one link");
        }
        Object[] cycle = graph(l, "Cycle").build();
        assertSame(cycle[1], ((Cell) cycle[0]).getNext());
        assertSame(cycle[0], ((Cell) cycle[2]).getNext());
        assertEquals("Cell c = new Cell(3);", graph(l, "Cycle").lines(new Names("advertest.offline")).get(3).replace("LinkedTest.", ""));
        assertNull(linked(String.class), "not a node class");
        assertNull(linked(Money.class), "plus(Money) links nothing: a Money holds no Money");
    }

    @Test
    void weightsComeFromBoundaryValues() {
        Linked l = linked(Town.class);
        assertTrue(l.weighted);
        List<String> tokens = new ArrayList<>();
        for (Linked.Graph g : l.graphs(new long[] {7, 0})) {
            tokens.add(g.token());
        }
        assertTrue(tokens.contains("WeightedDiamond") && tokens.contains("DiamondMaxWeights") && tokens.contains("ChainZeroWeights")
            && tokens.contains("ChainNegativeWeights") && tokens.contains("DiamondWeights7"), tokens.toString());
        List<String> lines = graph(l, "DiamondMaxWeights").lines(new Names("advertest.offline"));
        assertEquals("// a diamond: a -> b (max), a -> c (max), b -> d (max), c -> d (max)", lines.get(0));
        assertEquals("a.road(b, Integer.MAX_VALUE);", lines.get(5));
        assertEquals("// a diamond: a -> b (1), a -> c (2), b -> d (5), c -> d (1)", graph(l, "WeightedDiamond").lines(new Names("")).get(0),
            "the path met first is the heavier one");
    }

    @Test
    void resultsAreObservedByTheNodesIdentity() throws Throwable {
        Linked.Graph g = graph(linked(Node.class), "Chain");
        Object[] n = g.build();
        Observer o = new Observer(new Access("advertest.offline"));
        o.nodes = g.names();
        o.nodeType = Node.class;
        Names names = new Names("advertest.offline");
        assertEquals("{\"k\":\"same\",\"v\":\"c\"}", o.render(n[2], Node.class, names, 1));
        assertEquals("{\"k\":\"equals\",\"v\":\"Arrays.asList(a, b, c)\"}", o.render(Arrays.asList(n), List.class, names, 1));
        assertEquals("{\"k\":\"equals\",\"v\":\"new HashSet<>(Arrays.asList(b))\"}",
            o.render(new LinkedHashSet<>(Arrays.asList(n[1])), Set.class, names, 1));
        assertEquals("{\"k\":\"equals\",\"v\":\"Arrays.asList(Arrays.asList(a, null), Collections.emptyList())\"}",
            o.render(Arrays.asList(Arrays.asList(n[0], null), Collections.emptyList()), List.class, names, 1));
        assertEquals("{\"k\":\"array\",\"v\":\"new LinkedTest.Node[]{b, a}\"}", o.render(new Node[] {(Node) n[1], (Node) n[0]}, Node[].class, names, 1));
        Map<Object, Integer> dist = new HashMap<>();
        dist.put(n[0], 0);
        String m = o.render(dist, Map.class, names, 1);
        assertTrue(m.startsWith("{\"k\":\"big\",\"v\":\"1\""), "a map of nodes is asserted by its size, not by node text: " + m);
        assertFalse(m.contains("node a"), m);
        String fresh = o.render(new Node("z"), Node.class, names, 1);
        assertTrue(fresh.contains("\"m\":\"getNext()\""), fresh);
    }

    @Test
    void tokenListsMixTheMethodsLiteralsWithNumbers() {
        Inputs in = new Inputs(new long[0], new double[0], new String[] {"(", ")", "-", "*", "sqrt", "12"}, "", 1,
            new Access("advertest.offline"));
        List<String> objs = new ArrayList<>();
        for (List<Gen> l : in.tokenLists(false)) {
            objs.add(new Gen.CollGen('L', ArrayList.class, l).expr(new Names("")));
        }
        assertTrue(objs.contains("new ArrayList<>(Arrays.asList(6, \"-\", 2, \"-\", 1))"), objs.toString());
        assertTrue(objs.contains("new ArrayList<>(Arrays.asList(6, 2, \"*\", 1, \"-\"))"), "postfix: " + objs);
        assertTrue(objs.contains("new ArrayList<>(Arrays.asList(\"(\", 6, \"-\", 2, \")\", \"*\", 1))"), objs.toString());
        assertTrue(objs.contains("new ArrayList<>(Arrays.asList(\"(\"))"), "an unclosed bracket: " + objs);
        assertTrue(objs.contains("new ArrayList<>(Arrays.asList(6, \"sqrt\"))"), objs.toString());
        assertTrue(objs.contains("new ArrayList<>(Arrays.asList(6, \"?\", 2))"), "a token the method does not know: " + objs);
        assertFalse(objs.toString().contains("\"12\""), "numbers are not operators");
        List<Gen> first = in.tokenLists(true).get(1);
        assertEquals("new ArrayList<>(Arrays.asList(\"6\", \"-\", \"2\"))", new Gen.CollGen('L', ArrayList.class, first).expr(new Names("")));
        Inputs none = new Inputs(new long[0], new double[0], new String[] {"abcdefgh"}, "", 1, new Access("advertest.offline"));
        assertTrue(none.tokenLists(false).isEmpty(), "no short literal: no token list");
    }

    private static List<String> explore(String method, String[] types) throws Exception {
        File out = File.createTempFile("explore", ".jsonl");
        out.deleteOnExit();
        Explorer e = new Explorer(LinkedTest.class.getClassLoader());
        e.className = LinkedTest.class.getName();
        e.methodName = method;
        e.paramTypes = types;
        e.maxInputs = 60;
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
    void theExplorerTriesGraphsFirstAndNamesResultNodes() throws Exception {
        List<String> lines = explore("last", new String[] {"Node"});
        assertTrue(lines.get(1).contains("\"graph\":[\"// one node\",\"LinkedTest.Node a = new LinkedTest.Node(\\\"a\\\");\"]"), lines.get(1));
        assertTrue(lines.get(1).contains("\"args\":[\"a\"]") && lines.get(1).contains("{\"k\":\"same\",\"v\":\"a\"}"), lines.get(1));
        boolean chainEnd = false;
        for (String l : lines) {
            assertFalse(l.contains("node a") || l.contains("node c"), "a node's toString is observed: " + l);
            chainEnd |= l.contains("\"graphToken\":\"Chain\"") && l.contains("\"args\":[\"a\"]") && l.contains("{\"k\":\"same\",\"v\":\"c\"}");
        }
        assertTrue(chainEnd, "last(a) of a chain a -> b -> c is c");
        List<String> set = explore("reachable", new String[] {"Node"});
        boolean diamond = false;
        for (String l : set) {
            diamond |= l.contains("\"graphToken\":\"Diamond\"") && l.contains("\"args\":[\"a\"]")
                && l.contains("new HashSet<>(Arrays.asList(a, b, c, d))");
        }
        assertTrue(diamond, "reachable(a) in a diamond, by node names: " + set);
    }
}
