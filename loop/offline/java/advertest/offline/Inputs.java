package advertest.offline;

import advertest.offline.Gen.ArrayGen;
import advertest.offline.Gen.CollGen;
import advertest.offline.Gen.Const;
import advertest.offline.Gen.EnumGen;
import advertest.offline.Gen.FactoryGen;
import advertest.offline.Gen.NewGen;
import advertest.offline.Input.Call;
import advertest.offline.Input.Receiver;
import java.lang.reflect.Constructor;
import java.lang.reflect.Executable;
import java.lang.reflect.GenericArrayType;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.Type;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;

/**
 * Input generation: for each type a pool of boundary values, the method's own literals and their
 * neighbours, simplest first; seeded random values; receivers made through a constructor and up
 * to two setup calls. Every plan depends only on the type, the literals and the seed, never on
 * what earlier calls did, so two explorations line up index by index.
 */
final class Inputs {
    private final long[] ints;
    private final double[] doubles;
    private final String[] strings;
    private final String chars;
    private final Random random;
    private final Access access;
    private final Map<String, List<Gen>> poolCache = new HashMap<>();
    /** The pools being built, to end a cycle through an F-bounded type. */
    private final Set<String> building = new HashSet<>();
    /** The project's implementations of abstract types and its classes (set by Explorer; a default without a subject else). */
    Impls impls;
    /** The minimal subclass of an abstract receiver that Go generated into the driver (Abstracts), or null. */
    Class<?> minimal;
    /**
     * What the seeding pass saw the method compare with (Seeds; set by Explorer): tokens,
     * characters, int constants. They only ever come after the values made without them, and
     * draw on a random generator of their own, so that the inputs of an unseeded search are
     * still there, in their order.
     */
    String[] seeds = new String[0];
    String seedChars = "";
    long[] seedInts = new long[0];
    Random seedRandom = new Random(0x5eed);

    Inputs(long[] ints, double[] doubles, String[] strings, String chars, long seed, Access access) {
        this.ints = ints;
        this.doubles = doubles;
        this.strings = strings;
        this.chars = chars;
        this.random = new Random(seed);
        this.access = access;
    }

    private List<Long> intPool(long min, long max) {
        List<Long> out = new ArrayList<>();
        long[] first = {0, 1, -1};
        for (long v : first) {
            out.add(v);
        }
        for (long v : ints) {
            out.add(v);
            out.add(-v);
        }
        for (long v : ints) {
            out.add(v - 1);
            out.add(v + 1);
        }
        long[] later = {2, 10, 100, -100, 1000, Integer.MIN_VALUE, Integer.MAX_VALUE, Long.MIN_VALUE, Long.MAX_VALUE,
            Short.MIN_VALUE, Short.MAX_VALUE, Byte.MIN_VALUE, Byte.MAX_VALUE};
        for (long v : later) {
            out.add(v);
        }
        for (long v : seedInts) {
            out.add(v);
        }
        List<Long> res = new ArrayList<>();
        Set<Long> seen = new HashSet<>();
        for (Long v : out) {
            if (v >= min && v <= max && seen.add(v)) {
                res.add(v);
            }
        }
        // the extremes last, so that simple inputs come first
        res.sort(Comparator.comparingInt((Long v) -> v == min || v == max ? 1 : 0));
        return res;
    }

    private List<Double> doublePool() {
        List<Double> out = new ArrayList<>(Arrays.asList(0.0, 1.0, -1.0, 0.5));
        for (double d : doubles) {
            out.add(d);
            out.add(-d);
            out.add(d - 1);
            out.add(d + 1);
            out.add(Math.nextUp(d));
            out.add(Math.nextDown(d));
        }
        for (long v : ints) {
            out.add((double) v);
            out.add(v - 0.5);
            out.add(v + 0.5);
        }
        out.addAll(Arrays.asList(2.0, 100.0, -0.5, 0.1, Double.MAX_VALUE, -Double.MAX_VALUE, Double.MIN_VALUE,
            Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY));
        List<Double> res = new ArrayList<>();
        Set<Long> seen = new HashSet<>();
        for (Double d : out) {
            if (seen.add(Double.doubleToLongBits(d))) {
                res.add(d);
            }
        }
        return res;
    }

    /** The boundary pool for a type, simplest first. depth bounds nested construction. */
    List<Gen> pool(Type type, int depth) throws Unsupported {
        String key = type.getTypeName() + "@" + depth;
        List<Gen> cached = poolCache.get(key);
        if (cached != null) {
            return cached;
        }
        if (!building.add(key)) {
            // asked again while it is being built (an F-bounded interface whose lambdas return
            // the interface: T plus(T) of Elem<T extends Elem<T>>): null alone ends the cycle
            return new ArrayList<>(Collections.singletonList(Gen.NULL));
        }
        try {
            List<Gen> out = buildPool(type, depth);
            poolCache.put(key, out);
            return out;
        } finally {
            building.remove(key);
        }
    }

    private List<Gen> buildPool(Type type, int depth) throws Unsupported {
        Class<?> c = Types.raw(type);
        Class<?> p = Types.unbox(c);
        List<Gen> out = new ArrayList<>();
        boolean boxedType = !c.isPrimitive() && p.isPrimitive();
        if (p == int.class || p == long.class || p == short.class || p == byte.class) {
            long min = p == int.class ? Integer.MIN_VALUE : p == short.class ? Short.MIN_VALUE : p == byte.class ? Byte.MIN_VALUE : Long.MIN_VALUE;
            long max = p == int.class ? Integer.MAX_VALUE : p == short.class ? Short.MAX_VALUE : p == byte.class ? Byte.MAX_VALUE : Long.MAX_VALUE;
            for (long v : intPool(min, max)) {
                out.add(Exprs.intConst(p, v));
            }
        } else if (p == double.class || p == float.class) {
            for (double d : doublePool()) {
                out.add(Exprs.doubleConst(p, d));
            }
        } else if (p == boolean.class) {
            out.add(new Const(false, "false", "False"));
            out.add(new Const(true, "true", "True"));
        } else if (p == char.class) {
            Set<Character> seen = new LinkedHashSet<>();
            for (char ch : ("a" + chars + "Az0 \u0000" + seedChars).toCharArray()) {
                seen.add(ch);
            }
            for (char ch : seen) {
                out.add(new Const(ch, Exprs.charExpr(ch), Character.isLetterOrDigit(ch) ? "Char" + ch : "Char" + (int) ch));
            }
        } else if (c == String.class) {
            Set<String> seen = new LinkedHashSet<>();
            seen.add("a");
            seen.add("");
            seen.addAll(Arrays.asList(strings));
            if (!separators().isEmpty()) {
                seen.add("1");
            }
            for (char sep : separators().toCharArray()) {
                String t = String.valueOf(sep);
                seen.addAll(Arrays.asList("a" + t + "b", t + "a", "a" + t, "a" + t + t + "b", "1" + t + "2" + t + "3" + t + "4",
                    "1" + t + "2" + t + "3" + t + "4" + t, "1" + t + "10", t + "a" + t));
            }
            seen.addAll(Arrays.asList("b", "abc", "A", " ", "a b"));
            // the letters of the char literals, paired: "II", "IV", "VI" for a numeral parser
            StringBuilder letters = new StringBuilder();
            for (char ch : chars.toCharArray()) {
                if (Character.isLetter(ch) && letters.length() < 3 && letters.indexOf(String.valueOf(ch)) < 0) {
                    letters.append(ch);
                }
            }
            for (int i = 0; i < letters.length(); i++) {
                for (int j = 0; j < letters.length(); j++) {
                    seen.add("" + letters.charAt(i) + letters.charAt(j));
                }
            }
            if (letters.length() > 0) {
                seen.add(letters.toString() + letters.charAt(0));
            }
            // edge characters: padding, whitespace, quotes, digits, case, non-ASCII, a control
            // character (below 0x20: escapers and encoders treat them apart) and a character
            // outside the BMP (two chars, one code point: code point loops and encoders)
            seen.addAll(Arrays.asList(" a ", "\t", "\"", "'", "1", "12", "-1", "aBc", "A1", "1abc", "\u00e9", "a\u00e9\u4e2d",
                "a\u0001", "\ud83d\ude00"));
            seen.addAll(Seeds.combos(Arrays.asList(seeds), separators() + Seeds.separators(seedChars)));
            for (String s : seen) {
                out.add(new Const(s, Exprs.stringExpr(s), Exprs.stringToken(s)));
            }
            out.add(Gen.NULL);
        } else if (Jdk.handles(c)) {
            out.addAll(Jdk.pool(type, c, this, depth));
        } else if (c == Class.class || c == Type.class) {
            out.addAll(impls().classes(type));
        } else if (c == Object.class || c == Number.class || c == Comparable.class) {
            out.addAll(pool(Integer.class, depth));
            if (c != Number.class) {
                List<Gen> strs = pool(String.class, depth);
                out.addAll(1, strs.subList(0, Math.min(3, strs.size())));
            }
        } else if (Values.known(c)) {
            out.addAll(Values.pool(c));
            out.add(Gen.NULL);
        } else if (c.isEnum()) {
            for (Object k : c.getEnumConstants()) {
                Enum<?> e = (Enum<?>) k;
                out.add(new EnumGen(c, e));
            }
            out.add(Gen.NULL);
        } else if (c.isArray()) {
            Type comp = type instanceof GenericArrayType ? ((GenericArrayType) type).getGenericComponentType() : c.getComponentType();
            List<Gen> elems = pool(comp, depth);
            Class<?> cc = c.getComponentType();
            out.add(new ArrayGen(cc, Collections.<Gen>emptyList()));
            for (List<Gen> es : Combinations.small(elems)) {
                out.add(new ArrayGen(cc, es));
            }
            for (List<Gen> es : boundaryLists(comp)) {
                out.add(new ArrayGen(cc, es));
            }
            out.add(Gen.NULL);
        } else if (Map.class.isAssignableFrom(c) && Types.concreteMap(c) != null) {
            Class<?> conc = Types.concreteMap(c);
            List<Gen> ks = pool(Types.typeArg(type, 0), depth);
            List<Gen> vs = pool(Types.typeArg(type, 1), depth);
            out.add(new CollGen('M', conc, Collections.<Gen>emptyList()));
            for (int i = 0; i < Math.min(3, Combinations.nonNull(ks).size()); i++) {
                out.add(new CollGen('M', conc, Arrays.asList(Combinations.nonNull(ks).get(i), Combinations.nonNull(vs).get(i % Combinations.nonNull(vs).size()))));
            }
            out.add(Gen.NULL);
        } else if ((Collection.class.isAssignableFrom(c) || c == Iterable.class) && Types.concreteCollection(c) != null) {
            Class<?> conc = Types.concreteCollection(c);
            char kind = Set.class.isAssignableFrom(conc) ? 'S' : 'L';
            // a raw list holds anything: mixed tokens, as a List<Object> does
            Type elemType = type instanceof Class ? Object.class : Types.typeArg(type, 0);
            List<Gen> elems = pool(elemType, depth);
            if (kind == 'S' || conc == TreeSet.class) {
                elems = Combinations.nonNull(elems);
            }
            out.add(new CollGen(kind, conc, Collections.<Gen>emptyList()));
            List<List<Gen>> lists = new ArrayList<>();
            Class<?> ec = Types.raw(elemType);
            if (kind == 'L' && (ec == Object.class || ec == String.class)) {
                lists.addAll(tokenLists(ec == String.class));
            }
            lists.addAll(Combinations.small(elems));
            lists.addAll(boundaryLists(elemType));
            for (List<Gen> es : lists) {
                if (kind == 'S' && distinctValues(es) < es.size()) {
                    continue;
                }
                out.add(new CollGen(kind, conc, es));
            }
            out.add(Gen.NULL);
        } else {
            if (c.isInterface() || Modifier.isAbstract(c.getModifiers())) {
                out.addAll(impls().pool(this, type, c, depth));
                // past the depth a known implementation is null, as any class there; none known: unsupported as before
                if (out.isEmpty() && (depth > 0 || impls().of(c).isEmpty())) {
                    throw new Unsupported("cannot make a " + c.getName() + ": an interface or abstract class with no implementation known");
                }
                out.add(Gen.NULL);
                return out;
            }
            if (depth <= 0) {
                out.add(Gen.NULL);
                return out;
            }
            List<Constructor<?>> ctors = access.constructors(c);
            List<Method> factories = access.factories(c);
            if (ctors.isEmpty() && factories.isEmpty()) {
                throw new Unsupported("cannot make a " + c.getName() + ": no accessible constructor or static factory");
            }
            for (Method f : factories) {
                List<List<Gen>> pools = argPools(f, depth - 1);
                if (pools == null) {
                    continue;
                }
                for (int[] idx : Combinations.diagonal(Combinations.sizes(pools), 6)) {
                    out.add(new FactoryGen(f, Combinations.pick(pools, idx)));
                }
            }
            for (Constructor<?> k : ctors) {
                List<List<Gen>> pools = argPools(k, depth - 1);
                if (pools == null) {
                    continue;
                }
                for (int[] idx : Combinations.diagonal(Combinations.sizes(pools), 12)) {
                    out.add(new NewGen(k, Combinations.pick(pools, idx)));
                }
            }
            if (out.isEmpty()) {
                throw new Unsupported("cannot make a " + c.getName() + ": no constructor or static factory with parameters it can generate");
            }
            out.add(Gen.NULL);
        }
        if (boxedType) {
            out.add(Gen.NULL);
        }
        return out;
    }

    private Impls impls() {
        if (impls == null) {
            impls = new Impls(Inputs.class.getClassLoader(), access, null);
        }
        return impls;
    }

    /**
     * Inputs over linked nodes (Linked): for each graph its node parameters bound to its nodes
     * (the first, the last, the others), a collection or array of nodes to all of them, all in
     * reverse, the first alone, or none; the other parameters at their simplest values; the
     * receiver the first one known. Empty when no parameter holds nodes of a linked class.
     */
    List<Input> graphInputs(Type[] ptypes, List<List<Gen>> pools, List<Receiver> receivers) {
        List<Input> out = new ArrayList<>();
        Linked linked = linkedOf(ptypes);
        if (linked == null) {
            return out;
        }
        boolean first = true;
        for (Linked.Graph g : linked.graphs(ints)) {
            List<List<Gen>> options = new ArrayList<>();
            int nodeParams = 0;
            for (int i = 0; i < ptypes.length; i++) {
                List<Gen> o = graphOptions(ptypes[i], linked, g, pools.get(i), first, nodeParams);
                if (!o.isEmpty() && o.get(0) instanceof Linked.NodeRef) {
                    nodeParams++;
                }
                options.add(o);
            }
            first = false;
            for (int[] idx : Combinations.diagonal(Combinations.sizes(options), 6)) {
                out.add(new Input(receivers == null ? null : receivers.get(0), Combinations.pick(options, idx), g));
            }
        }
        return out;
    }

    /** The linked structure of the first parameter that holds nodes, or null. */
    Linked linkedOf(Type[] ptypes) {
        for (Type t : ptypes) {
            Linked linked = Linked.of(Linked.nodeClassOf(t), access);
            if (linked != null) {
                return linked;
            }
        }
        return null;
    }

    /**
     * The values of one parameter on graph g. A node parameter goes through the nodes from the
     * first, the second one from the last (so that the first pair is the first node and the
     * last: a path's start and goal); a collection or array of nodes is all of them, reversed,
     * the first alone or (withEmpty) none.
     */
    private static List<Gen> graphOptions(Type t, Linked linked, Linked.Graph g, List<Gen> pool, boolean withEmpty, int nodeParam) {
        Class<?> c = Types.raw(t);
        int n = g.shape.n;
        List<Gen> all = new ArrayList<>();
        List<Gen> reversed = new ArrayList<>();
        List<Integer> order = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            all.add(new Linked.NodeRef(g, i));
            reversed.add(0, new Linked.NodeRef(g, i));
        }
        if (n > 1 && nodeParam > 0) {
            order.add(n - 1);
            order.add(0);
        } else {
            order.add(0);
            if (n > 1) {
                order.add(n - 1);
            }
        }
        for (int i = 1; i < n - 1; i++) {
            order.add(i);
        }
        List<Gen> out = new ArrayList<>();
        if (c != Object.class && c.isAssignableFrom(linked.node)) {
            for (int i : order) {
                out.add(all.get(i));
            }
            return out;
        }
        if (Linked.nodeClassOf(t) == linked.node) {
            List<List<Gen>> lists = new ArrayList<>();
            lists.add(all);
            if (n > 1) {
                lists.add(reversed);
                lists.add(all.subList(0, 1));
            }
            if (withEmpty) {
                lists.add(Collections.<Gen>emptyList());
            }
            Class<?> conc = c.isArray() ? null : Types.concreteCollection(c);
            for (List<Gen> l : lists) {
                if (c.isArray()) {
                    out.add(new ArrayGen(linked.node, l));
                } else if (conc != null) {
                    out.add(new CollGen(Set.class.isAssignableFrom(conc) ? 'S' : 'L', conc, l));
                }
            }
            if (!out.isEmpty()) {
                return out;
            }
        }
        List<Gen> simple = Combinations.nonNull(pool);
        return simple.isEmpty() ? pool : simple.subList(0, Math.min(2, simple.size()));
    }

    /**
     * Short token streams for a parser or evaluator: numbers (as elems' kind: Integer for
     * Object elements, digit strings for String ones) mixed with the method's own short
     * non-numeric string literals ("+", "(", "dup"), valid and invalid: one token, an operator
     * between or after two numbers, two operators in a row of equal or different precedence,
     * brackets balanced, nested, unclosed or stray, a division by zero, a token the method does
     * not know. None when the method has no such literal.
     */
    List<List<Gen>> tokenLists(boolean asStrings) {
        List<String> ops = new ArrayList<>();
        boolean open = false;
        boolean close = false;
        for (String s : strings) {
            if (s.isEmpty() || s.length() > 6 || s.trim().isEmpty() || s.matches("-?\\d+(\\.\\d+)?") || ops.contains(s)) {
                continue;
            }
            if (s.equals("(")) {
                open = true;
            } else if (s.equals(")")) {
                close = true;
            } else if (ops.size() < 6) {
                ops.add(s);
            }
        }
        List<List<Object>> seqs = new ArrayList<>();
        if (ops.isEmpty() && !open) {
            return Collections.emptyList();
        }
        seqs.add(Arrays.<Object>asList(6));
        for (String o : ops) {
            seqs.add(Arrays.<Object>asList(6, o, 2));
            seqs.add(Arrays.<Object>asList(6, 2, o));
            seqs.add(Arrays.<Object>asList(o));
            seqs.add(Arrays.<Object>asList(6, o));
            seqs.add(Arrays.<Object>asList(o, 6));
            seqs.add(Arrays.<Object>asList(6, o, 0));
            seqs.add(Arrays.<Object>asList(6, 0, o));
        }
        for (int i = 0; i < Math.min(4, ops.size()); i++) {
            for (int j = 0; j < Math.min(4, ops.size()); j++) {
                seqs.add(Arrays.<Object>asList(6, ops.get(i), 2, ops.get(j), 1));
                seqs.add(Arrays.<Object>asList(6, 2, ops.get(i), 1, ops.get(j)));
            }
        }
        if (open || close) {
            String o = ops.isEmpty() ? null : ops.get(0);
            String o2 = ops.size() > 1 ? ops.get(1) : o;
            seqs.add(Arrays.<Object>asList("(", 6, ")"));
            seqs.add(Arrays.<Object>asList("("));
            seqs.add(Arrays.<Object>asList(")"));
            seqs.add(Arrays.<Object>asList("(", 6));
            seqs.add(Arrays.<Object>asList(6, ")"));
            seqs.add(Arrays.<Object>asList(")", 6, "("));
            seqs.add(Arrays.<Object>asList("(", "(", 6, ")", ")"));
            seqs.add(Arrays.<Object>asList("(", "(", 6, ")"));
            seqs.add(Arrays.<Object>asList("(", ")"));
            if (o != null) {
                seqs.add(Arrays.<Object>asList("(", 6, o, 2, ")", o2, 1));
                seqs.add(Arrays.<Object>asList(6, o, "(", 2, o2, 1, ")"));
            }
        }
        seqs.add(Arrays.<Object>asList(6, "?", 2));
        List<List<Gen>> out = new ArrayList<>();
        for (List<Object> seq : seqs) {
            List<Gen> es = new ArrayList<>();
            for (Object t : seq) {
                String str = asStrings || t instanceof String ? String.valueOf(t) : null;
                es.add(str != null ? new Const(str, Exprs.stringExpr(str), Exprs.stringToken(str)) : Exprs.intConst(int.class, (Integer) t));
            }
            out.add(es);
        }
        return out;
    }

    Gen randomValue(Type type, int depth) throws Unsupported {
        Class<?> c = Types.raw(type);
        Class<?> p = Types.unbox(c);
        List<Gen> pool = pool(type, depth);
        if (random.nextInt(3) == 0 || pool.isEmpty()) {
            return pool.isEmpty() ? Gen.NULL : pool.get(random.nextInt(pool.size()));
        }
        if (p == int.class || p == long.class || p == short.class || p == byte.class) {
            long v;
            int mode = random.nextInt(4);
            if (mode == 0 && ints.length > 0) {
                v = ints[random.nextInt(ints.length)] + random.nextInt(7) - 3;
            } else if (mode == 1) {
                v = p == long.class ? random.nextLong() : random.nextInt();
            } else {
                v = random.nextInt(201) - 50;
            }
            if (p == short.class) {
                v = (short) v;
            } else if (p == byte.class) {
                v = (byte) v;
            } else if (p == int.class) {
                v = (int) v;
            }
            return Exprs.intConst(p, v);
        }
        if (p == double.class || p == float.class) {
            double d = random.nextInt(2) == 0 ? (random.nextInt(2001) - 1000) / 10.0 : random.nextDouble() * 200 - 100;
            if (p == float.class) {
                d = (float) d;
            }
            return Exprs.doubleConst(p, d);
        }
        if (c == String.class || c == CharSequence.class) {
            StringBuilder sb = new StringBuilder();
            if (strings.length > 0 && random.nextBoolean()) {
                sb.append(strings[random.nextInt(strings.length)]);
            }
            if (seeds.length > 0 && seedRandom.nextBoolean()) {
                sb.append(seeds[seedRandom.nextInt(seeds.length)]);
            }
            String alphabet = "abcAB z0-19" + separators();
            int n = random.nextInt(5);
            for (int i = 0; i < n; i++) {
                sb.append(alphabet.charAt(random.nextInt(alphabet.length())));
            }
            String s = sb.toString();
            Const text = new Const(s, Exprs.stringExpr(s), Exprs.stringToken(s));
            return c == CharSequence.class && random.nextBoolean() ? Jdk.builder(StringBuilder.class, text) : text;
        }
        if (c.isArray() || (Collection.class.isAssignableFrom(c) && !Set.class.isAssignableFrom(c)) || c == Iterable.class) {
            Type comp = c.isArray() ? (type instanceof GenericArrayType ? ((GenericArrayType) type).getGenericComponentType() : c.getComponentType()) : Types.typeArg(type, 0);
            int n = random.nextInt(5);
            List<Gen> es = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                Gen g = randomValue(comp, depth);
                es.add(g == Gen.NULL ? Combinations.nonNull(pool(comp, depth)).get(0) : g);
            }
            if (c.isArray()) {
                return new ArrayGen(c.getComponentType(), es);
            }
            Class<?> conc = Types.concreteCollection(c);
            if (conc != null && !Set.class.isAssignableFrom(conc)) {
                return new CollGen('L', conc, es);
            }
        }
        if (depth > 0 && Types.isPlainClass(c)) {
            List<Constructor<?>> ctors = access.constructors(c);
            if (!ctors.isEmpty()) {
                Constructor<?> k = ctors.get(random.nextInt(ctors.size()));
                List<Gen> args = new ArrayList<>();
                try {
                    for (Type pt : k.getGenericParameterTypes()) {
                        Gen g = randomValue(pt, depth - 1);
                        args.add(g == Gen.NULL ? Combinations.nonNull(pool(pt, depth - 1)).get(0) : g);
                    }
                    return new NewGen(k, args);
                } catch (Unsupported u) {
                    // fall back to the pool
                }
            }
        }
        return pool.get(random.nextInt(pool.size()));
    }

    private List<Method> setupMethods(Class<?> c, Executable target) {
        List<Method> out = new ArrayList<>();
        for (Method m : Access.allMethods(c)) {
            if (Modifier.isStatic(m.getModifiers()) || m.isSynthetic() || m.isBridge()
                || m.getDeclaringClass() == Object.class || !access.accessible(m.getModifiers(), m.getDeclaringClass())) {
                continue;
            }
            String n = m.getName();
            if (n.equals("equals") || n.equals("hashCode") || n.equals("toString") || n.equals("compareTo")
                || n.equals("clone") || n.equals("finalize") || n.equals("wait") || n.equals("notify") || n.equals("notifyAll")) {
                continue;
            }
            if (m.getParameterCount() == 0 && m.getReturnType() != void.class && accessorName(n)) {
                continue; // an observer, not a mutator (poll(), pop(), next() are both)
            }
            out.add(m);
        }
        return out;
    }

    /**
     * Whether a method without parameters that returns a value is named as a read-only accessor
     * rather than as a mutator that also returns something (poll(), pop(), next(), reset()).
     */
    static boolean accessorName(String n) {
        for (String p : new String[] {"poll", "pop", "take", "next", "remove", "clear", "reset", "dequeue", "shift", "drain",
            "consume", "acquire", "release", "tick", "step", "advance", "increment", "decrement", "undo", "redo", "flush"}) {
            if (n.startsWith(p)) {
                return false;
            }
        }
        return true;
    }

    List<Receiver> receivers(Class<?> c, Executable target) throws Unsupported {
        List<Receiver> out = new ArrayList<>();
        if (c.isEnum()) {
            for (Object k : c.getEnumConstants()) {
                out.add(new Receiver(new EnumGen(c, (Enum<?>) k), Collections.<Call>emptyList()));
            }
            return out;
        }
        // typical makers first (small positive numbers, plain strings: the arguments a
        // constructor taking limits or capacities accepts), then the simplest combinations
        List<Gen> typical = new ArrayList<>();
        List<Gen> simplest = new ArrayList<>();
        if (c.isInterface() || Modifier.isAbstract(c.getModifiers())) {
            // the project's implementations, a generated minimal subclass, or a shared constant
            Abstracts.makers(this, access, impls(), c, target, minimal, typical, simplest);
        } else {
            if (!access.classAccessible(c)) {
                throw new Unsupported("the receiver class " + c.getName() + " cannot be named from a test in its package (private, inner, local or anonymous)");
            }
            makers(c, target, typical, simplest);
        }
        List<Gen> makers = new ArrayList<>();
        Set<String> exprs = new HashSet<>();
        for (List<Gen> l : Arrays.asList(typical, simplest)) {
            for (Gen g : l) {
                if (exprs.add(g.expr(access.names()))) {
                    makers.add(g);
                }
            }
        }
        if (makers.isEmpty()) {
            throw new Unsupported("cannot make a receiver " + c.getName() + ": no accessible constructor or static factory with parameters it can generate");
        }
        for (Gen m : makers) {
            out.add(new Receiver(m, Collections.<Call>emptyList()));
        }
        Gen base = makers.get(0);
        List<Method> setups = setupMethods(c, target);
        // sequences of mutator calls with ascending arguments (state that only builds up over
        // several calls: a buffer that wraps, a stack that grows, a clock that moves on)
        for (int n : new int[] {3, 5}) {
            for (Method m : setups) {
                List<Call> calls = sequence(m, 0, n);
                if (calls != null) {
                    out.add(new Receiver(base, calls));
                }
            }
        }
        for (int i = 0; i < Math.min(4, setups.size()); i++) {
            for (int j = 0; j < Math.min(4, setups.size()); j++) {
                if (i == j) {
                    continue;
                }
                List<Call> a = sequence(setups.get(i), 0, 2);
                List<Call> b = sequence(setups.get(j), 0, 1);
                if (a == null || b == null) {
                    continue;
                }
                List<Call> ab = new ArrayList<>(a);
                ab.addAll(b);
                out.add(new Receiver(base, ab));
                List<Call> aba = new ArrayList<>(a.subList(0, 1));
                aba.addAll(b);
                aba.addAll(a.subList(1, 2));
                out.add(new Receiver(base, aba));
            }
        }
        for (int t = 1; t < typical.size(); t++) {
            for (Method m : setups) {
                List<Call> calls = sequence(m, 0, 3);
                if (calls != null) {
                    out.add(new Receiver(typical.get(t), calls));
                }
            }
        }
        List<List<Call>> singles = new ArrayList<>();
        for (Method m : setups) {
            List<List<Gen>> pools = argPools(m, 1);
            if (pools == null) {
                continue;
            }
            for (int[] idx : Combinations.diagonal(Combinations.sizes(pools), 12)) {
                singles.add(Collections.singletonList(new Call(m, Combinations.pick(pools, idx))));
            }
        }
        // interleave the setup methods so that each gets its simplest arguments first
        final Map<List<Call>, Integer> ranks = new java.util.IdentityHashMap<>();
        Map<Method, Integer> perMethod = new HashMap<>();
        for (List<Call> l : singles) {
            int r = perMethod.merge(l.get(0).method, 1, Integer::sum);
            ranks.put(l, r);
        }
        singles.sort(Comparator.comparingInt((List<Call> l) -> ranks.get(l)));
        for (List<Call> s : singles) {
            out.add(new Receiver(base, s));
        }
        for (int i = 0; i < Math.min(8, singles.size()); i++) {
            for (int j = 0; j < Math.min(8, singles.size()); j++) {
                List<Call> two = new ArrayList<>(singles.get(i));
                two.addAll(singles.get(j));
                out.add(new Receiver(base, two));
            }
        }
        return out;
    }

    /** Adds c's constructors (typical arguments, and the simplest) and static factories to typical and simplest. */
    void makers(Class<?> c, Executable target, List<Gen> typical, List<Gen> simplest) {
        for (Constructor<?> k : access.constructors(c)) {
            List<List<Gen>> pools = new ArrayList<>();
            List<Gen> typ = new ArrayList<>();
            try {
                for (Type pt : k.getGenericParameterTypes()) {
                    pools.add(Combinations.nonNull(pool(pt, 1)));
                    typ.add(seqValue(pt, 2));
                }
            } catch (Unsupported u) {
                continue;
            }
            typical.add(new NewGen(k, typ));
            // the same with null for the project's own classes among the parameters: a record
            // that keeps its parser (CSVRecord(CSVParser, String[], ...)) is made without one,
            // where every parser the pool makes throws before the call
            List<Gen> withoutProject = new ArrayList<>(typ);
            boolean nulled = false;
            Type[] pts = k.getGenericParameterTypes();
            for (int i = 0; i < pts.length; i++) {
                Class<?> pc = Types.raw(pts[i]);
                if (pc.getClassLoader() == c.getClassLoader() && pc.getClassLoader() != null && !pc.isEnum() && !pc.isArray()) {
                    withoutProject.set(i, Gen.NULL);
                    nulled = true;
                }
            }
            if (nulled) {
                typical.add(new NewGen(k, withoutProject));
            }
            for (int[] idx : Combinations.diagonal(Combinations.sizes(pools), 3)) {
                simplest.add(new NewGen(k, Combinations.pick(pools, idx)));
            }
        }
        for (Method f : access.factories(c)) {
            factoryMakers(f, target, simplest);
        }
    }

    /**
     * The non-null values of each of e's parameters at depth, or null when one of them cannot
     * be made (the constructor, factory or mutator is then left out).
     */
    List<List<Gen>> argPools(Executable e, int depth) {
        List<List<Gen>> pools = new ArrayList<>();
        try {
            for (Type pt : e.getGenericParameterTypes()) {
                pools.add(Combinations.nonNull(pool(pt, depth)));
            }
        } catch (Unsupported u) {
            return null;
        }
        return pools;
    }

    /** Adds the simplest calls of the static factory f (not the target itself) to simplest. */
    void factoryMakers(Method f, Executable target, List<Gen> simplest) {
        List<List<Gen>> pools = f.equals(target) ? null : argPools(f, 1);
        if (pools == null) {
            return;
        }
        for (int[] idx : Combinations.diagonal(Combinations.sizes(pools), 3)) {
            simplest.add(new FactoryGen(f, Combinations.pick(pools, idx)));
        }
    }

    /** n calls of m with the from-th, (from+1)-th... values of each parameter's ascending sequence; null when m's parameters cannot be made. */
    private List<Call> sequence(Method m, int from, int n) {
        List<Call> out = new ArrayList<>();
        try {
            for (int i = 0; i < n; i++) {
                List<Gen> args = new ArrayList<>();
                for (Type pt : m.getGenericParameterTypes()) {
                    args.add(seqValue(pt, from + i));
                }
                out.add(new Call(m, args));
            }
        } catch (Unsupported u) {
            return null;
        }
        return out;
    }

    /**
     * The k-th value (from 0) of an ascending sequence of a type: 1, 2, 3 for integers, 1000,
     * 2000, 3000 for longs (milliseconds of a clock that only moves on), "a", "b", "c"; the k-th
     * of the pool for the rest. The third (k = 2) is the typical argument of a constructor.
     */
    Gen seqValue(Type t, int k) throws Unsupported {
        Class<?> c = Types.raw(t);
        Class<?> p = Types.unbox(c);
        if (p == int.class || p == short.class || p == byte.class) {
            return Exprs.intConst(p, k + 1);
        }
        if (p == long.class) {
            return Exprs.intConst(p, 1000L * (k + 1));
        }
        if (p == double.class || p == float.class) {
            return Exprs.doubleConst(p, k + 1.0);
        }
        if (p == boolean.class) {
            return k % 2 == 0 ? new Const(true, "true", "True") : new Const(false, "false", "False");
        }
        if (p == char.class) {
            char ch = (char) ('a' + k % 26);
            return new Const(ch, Exprs.charExpr(ch), "Char" + ch);
        }
        if (c == String.class || c == CharSequence.class || c == Object.class) {
            String s = String.valueOf((char) ('a' + k % 26));
            return new Const(s, Exprs.stringExpr(s), Exprs.stringToken(s));
        }
        if (c.isEnum()) {
            Object[] ks = c.getEnumConstants();
            if (ks.length > 0) {
                return new EnumGen(c, (Enum<?>) ks[k % ks.length]);
            }
        }
        List<Gen> pool = Combinations.nonNull(pool(t, 1));
        return pool.get(k % pool.size());
    }

    /**
     * Element lists made of boundary values: all at the maximum or the minimum (sums that
     * overflow), mixed signs, duplicates, sorted and reverse-sorted, longer runs; rectangular
     * matrices for arrays of arrays. None for other element types.
     */
    List<List<Gen>> boundaryLists(Type comp) {
        Class<?> c = Types.raw(comp);
        Class<?> p = Types.unbox(c);
        List<List<Gen>> out = new ArrayList<>();
        if (p == int.class || p == long.class || p == short.class || p == byte.class) {
            // first: the boundary combinations run simplest first under a cap, and the ramp
            // must meet the other parameters' early values (a length of 8 or 16)
            out.add(Blocks.ramp(p));
            long max = p == int.class ? Integer.MAX_VALUE : p == short.class ? Short.MAX_VALUE : p == byte.class ? Byte.MAX_VALUE : Long.MAX_VALUE;
            long min = p == int.class ? Integer.MIN_VALUE : p == short.class ? Short.MIN_VALUE : p == byte.class ? Byte.MIN_VALUE : Long.MIN_VALUE;
            long[][] lists = {{max, max}, {min, min}, {max, max, max}, {max, 1}, {min, max}, {-3, 2, -1}, {1, 1, 2},
                {2, 2, 2}, {1, 2, 3}, {3, 2, 1}, {5, 1, 4, 2, 3}, {1, 2, 3, 4, 5, 6}, {max - 1, max}, {-1, -2, -3}};
            for (long[] l : lists) {
                List<Gen> es = new ArrayList<>();
                for (long v : l) {
                    es.add(Exprs.intConst(p, v));
                }
                out.add(es);
            }
        } else if (p == double.class || p == float.class) {
            double big = p == float.class ? Float.MAX_VALUE : Double.MAX_VALUE;
            double[][] lists = {{big, big}, {-1.5, 2.5}, {1.5, 2.5, 3.5}, {3.5, 2.5, 1.5}, {2.0, 2.0}, {0.1, 0.2, 0.3}};
            for (double[] l : lists) {
                List<Gen> es = new ArrayList<>();
                for (double v : l) {
                    es.add(Exprs.doubleConst(p, v));
                }
                out.add(es);
            }
        } else if (c == String.class) {
            List<String[]> lists = new ArrayList<>(Arrays.asList(new String[][] {{"b", "a"}, {"a", "a"}, {"a", "b", "c"}, {"c", "b", "a"},
                {"a", ""}, {"b", "a", "b"}}));
            // operands then one of the method's short literals: the tokens of a calculator
            for (int i = 0, n = 0; i < strings.length && n < 4; i++) {
                if (!strings[i].isEmpty() && strings[i].length() <= 2) {
                    lists.add(new String[] {"6", "2", strings[i]});
                    n++;
                }
            }
            for (String[] l : lists) {
                List<Gen> es = new ArrayList<>();
                for (String v : l) {
                    es.add(new Const(v, Exprs.stringExpr(v), Exprs.stringToken(v)));
                }
                out.add(es);
            }
        } else if (c.isArray() && Types.unbox(c.getComponentType()).isPrimitive() && c.getComponentType() != boolean.class
            && c.getComponentType() != char.class) {
            Class<?> e = c.getComponentType();
            int[][] shapes = {{2, 2}, {2, 3}, {3, 2}, {1, 3}};
            // rows that share their ends: {1, 2}, {2, 3}, {3, 4} (touching intervals)
            List<Gen> touching = new ArrayList<>();
            for (int r = 0; r < 3; r++) {
                boolean fp = Types.unbox(e) == double.class || Types.unbox(e) == float.class;
                touching.add(new ArrayGen(e, Arrays.asList(fp ? Exprs.doubleConst(e, r + 1) : Exprs.intConst(e, r + 1),
                    fp ? Exprs.doubleConst(e, r + 2) : Exprs.intConst(e, r + 2))));
            }
            out.add(touching);
            for (int[] sh : shapes) {
                List<Gen> rows = new ArrayList<>();
                int v = 1;
                for (int r = 0; r < sh[0]; r++) {
                    List<Gen> row = new ArrayList<>();
                    for (int k = 0; k < sh[1]; k++, v++) {
                        row.add(Types.unbox(e) == double.class || Types.unbox(e) == float.class ? Exprs.doubleConst(e, v) : Exprs.intConst(e, v));
                    }
                    rows.add(new ArrayGen(e, row));
                }
                out.add(rows);
            }
        }
        return out;
    }

    /** How many different values es makes (a set drops the duplicates). */
    private static int distinctValues(List<Gen> es) {
        Set<Object> vs = new HashSet<>();
        for (Gen g : es) {
            try {
                vs.add(g.make());
            } catch (Throwable t) {
                vs.add(g);
            }
        }
        return vs.size();
    }

    /** The separators the method's literals mention (at most three: ',', '.', ':', ...). */
    private String separators() {
        StringBuilder sb = new StringBuilder();
        StringBuilder all = new StringBuilder(chars);
        for (String s : strings) {
            if (s.length() <= 3) {
                all.append(s);
            }
        }
        for (char ch : all.toString().toCharArray()) {
            if (!Character.isLetterOrDigit(ch) && !Character.isWhitespace(ch) && ch != '\\' && sb.indexOf(String.valueOf(ch)) < 0
                && sb.length() < 3) {
                sb.append(ch);
            }
        }
        return sb.toString();
    }

    Receiver randomReceiver(Class<?> c, List<Receiver> known, Executable target) throws Unsupported {
        Receiver base = known.get(random.nextInt(Math.min(known.size(), 3)));
        if (c.isEnum()) {
            return known.get(random.nextInt(known.size()));
        }
        List<Method> setups = setupMethods(c, target);
        List<Call> calls = new ArrayList<>();
        int n = setups.isEmpty() ? 0 : random.nextInt(4);
        for (int i = 0; i < n; i++) {
            Method m = setups.get(random.nextInt(setups.size()));
            List<Gen> args = new ArrayList<>();
            try {
                for (Type pt : m.getGenericParameterTypes()) {
                    Gen g = randomValue(pt, 1);
                    args.add(g == Gen.NULL ? Combinations.nonNull(pool(pt, 1)).get(0) : g);
                }
            } catch (Unsupported u) {
                continue;
            }
            calls.add(new Call(m, args));
        }
        return new Receiver(base.make, calls);
    }

    /** A receiver for a random input: a known one a third of the time, else a random variation. */
    Receiver someReceiver(Class<?> c, List<Receiver> known, Executable target) throws Unsupported {
        return random.nextInt(3) == 0 ? known.get(random.nextInt(known.size())) : randomReceiver(c, known, target);
    }
}
