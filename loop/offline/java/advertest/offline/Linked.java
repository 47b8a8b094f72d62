package advertest.offline;

import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.Type;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Comparator;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * Linked inputs: a class whose instances hold instances of it (a field, a list of them, or an
 * edge class that points back) and point at each other through a public mutator that takes
 * another instance (node.connect(other), node.connect(other, weight), cell.setNext(other),
 * tree.setLeft(child)), made through a public constructor of simple labels (a name, a number).
 * Such a parameter gets small graphs of named nodes (one node, a chain, a cycle, a cycle behind
 * an acyclic start, a diamond, two components, a self-loop, a chain of five, two paths of
 * different lengths to one node), with weights from boundary values
 * where the mutator takes numbers. Every parameter of an input that is a node, or a collection
 * or array of nodes, points into the same graph; the generated test builds the graph in its
 * Arrange step, one variable per node, and the Observer names result nodes by those variables.
 */
final class Linked {
    final Class<?> node;
    final Constructor<?> ctor;
    /** The link mutators, by name: a node's k-th outgoing edge uses links[k % links.size()]. */
    final List<Method> links;
    /** A node can hold several outgoing edges (an adder such as connect, or several setters). */
    final boolean multi;
    /** The link mutators take numbers besides the other node: the edges carry weights. */
    final boolean weighted;

    private Linked(Class<?> node, Constructor<?> ctor, List<Method> links) {
        this.node = node;
        this.ctor = ctor;
        this.links = links;
        this.multi = links.size() > 1 || !links.get(0).getName().startsWith("set");
        boolean w = false;
        for (Method m : links) {
            w |= m.getParameterCount() > 1;
        }
        this.weighted = w;
    }

    /** The node class a parameter of type t holds (itself, its element or its component), or null. */
    static Class<?> nodeClassOf(Type t) {
        Class<?> c = Types.raw(t);
        if (c.isArray()) {
            return c.getComponentType();
        }
        if (Collection.class.isAssignableFrom(c) || c == Iterable.class) {
            return Types.raw(Types.typeArg(t, 0));
        }
        return c;
    }

    /** The linked structure of c, or null when c's instances cannot be linked through its public API. */
    static Linked of(Class<?> c, Access access) {
        if (!Types.isPlainClass(c) || !access.classAccessible(c) || !refersBack(c)) {
            return null;
        }
        List<Method> links = new ArrayList<>();
        for (Method m : Access.allMethods(c)) {
            if (Modifier.isStatic(m.getModifiers()) || m.isSynthetic() || m.isBridge() || m.getDeclaringClass() == Object.class
                || !access.accessible(m.getModifiers(), m.getDeclaringClass()) || m.getName().equals("equals")
                || m.getName().equals("compareTo")) {
                continue;
            }
            int nodes = 0;
            boolean ok = true;
            for (Class<?> p : m.getParameterTypes()) {
                if (p != Object.class && p.isAssignableFrom(c)) {
                    nodes++;
                } else if (!number(p)) {
                    ok = false;
                }
            }
            if (ok && nodes == 1 && m.getParameterCount() <= 3) {
                links.add(m);
            }
        }
        if (links.isEmpty()) {
            return null;
        }
        links.sort(Comparator.comparing(Method::getName));
        Constructor<?> best = null;
        for (Constructor<?> k : access.constructors(c)) {
            boolean ok = true;
            for (Class<?> p : k.getParameterTypes()) {
                ok &= label(p);
            }
            if (ok && (best == null || rank(k) < rank(best))) {
                best = k;
            }
        }
        return best == null ? null : new Linked(c, best, links);
    }

    /**
     * Whether c's instances hold instances of c: a field of c's type, or an array, collection or
     * map of it, or of a class whose own fields hold c (an Edge with its target). A class whose
     * methods merely take another instance (Fraction.plus, Account.transferTo) holds none.
     */
    static boolean refersBack(Class<?> c) {
        for (Class<?> d : heldTypes(c)) {
            if (d == c || d != Object.class && Types.isPlainClass(d) && heldTypes(d).contains(c)) {
                return true;
            }
        }
        return false;
    }

    /** The classes c's instance fields (its superclasses' too) hold: their types, or their elements, keys and values. */
    private static List<Class<?>> heldTypes(Class<?> c) {
        List<Class<?>> out = new ArrayList<>();
        for (Class<?> k = c; k != null && k != Object.class; k = k.getSuperclass()) {
            for (java.lang.reflect.Field f : k.getDeclaredFields()) {
                if (Modifier.isStatic(f.getModifiers()) || f.isSynthetic()) {
                    continue;
                }
                Class<?> t = f.getType();
                Type g = f.getGenericType();
                if (t.isArray()) {
                    out.add(t.getComponentType());
                } else if (Collection.class.isAssignableFrom(t) || Iterable.class.isAssignableFrom(t)) {
                    out.add(Types.raw(Types.typeArg(g, 0)));
                } else if (Map.class.isAssignableFrom(t)) {
                    out.add(Types.raw(Types.typeArg(g, 0)));
                    out.add(Types.raw(Types.typeArg(g, 1)));
                } else {
                    out.add(t);
                }
            }
        }
        return out;
    }

    private static boolean number(Class<?> p) {
        Class<?> u = Types.unbox(p);
        return u == int.class || u == long.class || u == short.class || u == double.class || u == float.class;
    }

    private static boolean label(Class<?> p) {
        return p == String.class || p == CharSequence.class || p == char.class || number(p);
    }

    /** A name first (new Node("a")), then fewer parameters. */
    private static int rank(Constructor<?> k) {
        Class<?>[] ps = k.getParameterTypes();
        return (ps.length > 0 && ps[0] == String.class ? 0 : 10) + ps.length;
    }

    /** A shape: its nodes 0..n-1 and directed edges {from, to}, and how a test describes it. */
    static final class Shape {
        final String token;
        final String words;
        final int n;
        final int[][] edges;

        Shape(String token, String words, int n, int[]... edges) {
            this.token = token;
            this.words = words;
            this.n = n;
            this.edges = edges;
        }

        int maxOutDegree() {
            int[] out = new int[n];
            int max = 0;
            for (int[] e : edges) {
                max = Math.max(max, ++out[e[0]]);
            }
            return max;
        }
    }

    static final List<Shape> SHAPES = Arrays.asList(
        new Shape("OneNode", "one node", 1),
        new Shape("Chain", "a chain", 3, new int[] {0, 1}, new int[] {1, 2}),
        new Shape("Diamond", "a diamond", 4, new int[] {0, 1}, new int[] {0, 2}, new int[] {1, 3}, new int[] {2, 3}),
        new Shape("Cycle", "a cycle", 3, new int[] {0, 1}, new int[] {1, 2}, new int[] {2, 0}),
        new Shape("Lasso", "a cycle behind an acyclic start", 3, new int[] {0, 1}, new int[] {1, 2}, new int[] {2, 1}),
        new Shape("TwoComponents", "two components", 4, new int[] {0, 1}, new int[] {2, 3}),
        new Shape("SelfLoop", "a self-loop", 1, new int[] {0, 0}),
        new Shape("LongChain", "a chain of five", 5, new int[] {0, 1}, new int[] {1, 2}, new int[] {2, 3}, new int[] {3, 4}),
        new Shape("TwoPaths", "two paths from a to e, the short one through b added first", 5, new int[] {0, 1}, new int[] {0, 2},
            new int[] {2, 3}, new int[] {3, 4}, new int[] {1, 4}));

    /**
     * The graphs to try, simplest first: each shape this class can make, unweighted or with
     * typical weights (in a diamond the path met first is the heavier one), then for the shapes
     * with paths the weights at the boundaries: zeros, ties, the maximum (sums overflow), -1,
     * and the method's own integer literals.
     */
    List<Graph> graphs(long[] literals) {
        List<Graph> out = new ArrayList<>();
        List<Shape> shapes = new ArrayList<>();
        for (Shape s : SHAPES) {
            if (multi || s.maxOutDegree() <= 1) {
                shapes.add(s);
            }
        }
        long[] typical = {1, 2, 5, 1, 3, 4};
        for (Shape s : shapes) {
            out.add(new Graph(this, s, weighted ? weights(s, typical) : null, ""));
        }
        if (!weighted) {
            return out;
        }
        long max = Integer.MAX_VALUE;
        List<long[]> variants = new ArrayList<>(Arrays.asList(new long[] {0}, new long[] {1}, new long[] {max}, new long[] {-1},
            new long[] {2, 1, 1, 5}));
        List<String> words = new ArrayList<>(Arrays.asList("ZeroWeights", "UnitWeights", "MaxWeights", "NegativeWeights",
            "LightFirst"));
        for (long v : literals) {
            if (v > 1 && v != max && words.size() < 8) {
                variants.add(new long[] {v});
                words.add("Weights" + v);
            }
        }
        for (int i = 0; i < variants.size(); i++) {
            for (Shape s : shapes) {
                if (s.edges.length >= 2 && s.n > 1) {
                    out.add(new Graph(this, s, weights(s, variants.get(i)), words.get(i)));
                }
            }
        }
        return out;
    }

    private static long[] weights(Shape s, long[] cycle) {
        long[] w = new long[s.edges.length];
        for (int i = 0; i < w.length; i++) {
            w[i] = cycle[i % cycle.length];
        }
        return w;
    }

    /** One graph: a shape, the edges' weights (null when edges carry none), the nodes made for the current call. */
    static final class Graph {
        final Linked linked;
        final Shape shape;
        final long[] weights;
        final String variant;
        final String[] vars;
        /** The nodes of the call being made (build makes them afresh for each call). */
        Object[] current;

        Graph(Linked linked, Shape shape, long[] weights, String variant) {
            this.linked = linked;
            this.shape = shape;
            this.weights = weights;
            this.variant = variant;
            this.vars = new String[shape.n];
            for (int i = 0; i < shape.n; i++) {
                vars[i] = String.valueOf((char) ('a' + i));
            }
        }

        String token() {
            return (variant.isEmpty() && weights != null ? "Weighted" : "") + shape.token + variant;
        }

        /** Makes the nodes and links them; the nodes become current. */
        Object[] build() throws Throwable {
            Object[] nodes = new Object[shape.n];
            try {
                for (int i = 0; i < shape.n; i++) {
                    Class<?>[] ps = linked.ctor.getParameterTypes();
                    Object[] a = new Object[ps.length];
                    for (int j = 0; j < ps.length; j++) {
                        a[j] = label(ps[j], i).make();
                    }
                    nodes[i] = linked.ctor.newInstance(a);
                }
                current = nodes;
                int[] out = new int[shape.n];
                for (int e = 0; e < shape.edges.length; e++) {
                    int from = shape.edges[e][0];
                    Method m = linked.links.get(out[from]++ % linked.links.size());
                    m.invoke(nodes[from], linkArgs(m, e, nodes).toArray());
                }
            } catch (InvocationTargetException e) {
                throw e.getCause();
            }
            return nodes;
        }

        /** The nodes of the current call by identity, named as the test names them. */
        Map<Object, String> names() {
            Map<Object, String> m = new IdentityHashMap<>();
            for (int i = 0; current != null && i < current.length; i++) {
                m.put(current[i], vars[i]);
            }
            return m;
        }

        private List<Object> linkArgs(Method m, int e, Object[] nodes) throws Throwable {
            List<Object> a = new ArrayList<>();
            for (Class<?> p : m.getParameterTypes()) {
                a.add(number(p) ? weight(p, e).make() : nodes[shape.edges[e][1]]);
            }
            return a;
        }

        private Gen weight(Class<?> p, int e) {
            long w = weights == null ? 1 : weights[e];
            Class<?> u = Types.unbox(p);
            if (u == double.class || u == float.class) {
                return Exprs.doubleConst(u, w == Integer.MAX_VALUE ? Double.MAX_VALUE : w);
            }
            if (u == short.class && w == Integer.MAX_VALUE) {
                w = Short.MAX_VALUE;
            }
            return Exprs.intConst(u, w);
        }

        private static Gen label(Class<?> p, int i) {
            if (p == String.class || p == CharSequence.class) {
                String s = String.valueOf((char) ('a' + i));
                return new Gen.Const(s, Exprs.stringExpr(s), s);
            }
            if (p == char.class || p == Character.class) {
                char ch = (char) ('a' + i);
                return new Gen.Const(ch, Exprs.charExpr(ch), "Char" + ch);
            }
            Class<?> u = Types.unbox(p);
            return u == double.class || u == float.class ? Exprs.doubleConst(u, i + 1) : Exprs.intConst(u, i + 1);
        }

        /** The Arrange lines that build the graph: a comment saying its shape, one variable per node, the links. */
        List<String> lines(Names names) {
            List<String> out = new ArrayList<>();
            StringBuilder desc = new StringBuilder("// ").append(shape.words);
            if (shape.edges.length > 0) {
                desc.append(": ");
                for (int e = 0; e < shape.edges.length; e++) {
                    desc.append(e == 0 ? "" : ", ").append(vars[shape.edges[e][0]]).append(" -> ").append(vars[shape.edges[e][1]]);
                    if (weights != null) {
                        desc.append(" (").append(weights[e] == Integer.MAX_VALUE ? "max" : Long.toString(weights[e])).append(')');
                    }
                }
            }
            out.add(desc.toString());
            String type = names.erased(linked.node);
            for (int i = 0; i < shape.n; i++) {
                StringBuilder sb = new StringBuilder(type).append(' ').append(vars[i]).append(" = new ").append(type).append('(');
                Class<?>[] ps = linked.ctor.getParameterTypes();
                for (int j = 0; j < ps.length; j++) {
                    sb.append(j == 0 ? "" : ", ").append(label(ps[j], i).expr(names));
                }
                out.add(sb.append(");").toString());
            }
            int[] deg = new int[shape.n];
            for (int e = 0; e < shape.edges.length; e++) {
                int from = shape.edges[e][0];
                Method m = linked.links.get(deg[from]++ % linked.links.size());
                StringBuilder sb = new StringBuilder(vars[from]).append('.').append(m.getName()).append('(');
                int j = 0;
                for (Class<?> p : m.getParameterTypes()) {
                    sb.append(j++ == 0 ? "" : ", ").append(number(p) ? weight(p, e).expr(names) : vars[shape.edges[e][1]]);
                }
                out.add(sb.append(");").toString());
            }
            return out;
        }
    }

    /** A node of the current graph, written as its variable. */
    static final class NodeRef extends Gen {
        final Graph graph;
        final int index;

        NodeRef(Graph graph, int index) {
            this.graph = graph;
            this.index = index;
        }

        Object make() {
            return graph.current[index];
        }

        String expr(Names names) {
            return graph.vars[index];
        }

        String token() {
            return graph.vars[index].toUpperCase();
        }
    }
}
