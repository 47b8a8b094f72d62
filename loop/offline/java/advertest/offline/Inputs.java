package advertest.offline;

import advertest.offline.Gen.ArrayGen;
import advertest.offline.Gen.CollGen;
import advertest.offline.Gen.Const;
import advertest.offline.Gen.EnumGen;
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
        List<Gen> out = buildPool(type, depth);
        poolCache.put(key, out);
        return out;
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
            for (char ch : ("a" + chars + "Az0 \u0000").toCharArray()) {
                seen.add(ch);
            }
            for (char ch : seen) {
                out.add(new Const(ch, Exprs.charExpr(ch), Character.isLetterOrDigit(ch) ? "Char" + ch : "Char" + (int) ch));
            }
        } else if (c == String.class || c == CharSequence.class) {
            Set<String> seen = new LinkedHashSet<>();
            seen.add("a");
            seen.add("");
            seen.addAll(Arrays.asList(strings));
            seen.addAll(Arrays.asList("b", "abc", "A", " ", "a b"));
            for (String s : seen) {
                out.add(new Const(s, Exprs.stringExpr(s), Exprs.stringToken(s)));
            }
            out.add(Gen.NULL);
        } else if (c == Object.class || c == Number.class || c == Comparable.class) {
            out.addAll(pool(Integer.class, depth));
            if (c != Number.class) {
                List<Gen> strs = pool(String.class, depth);
                out.addAll(1, strs.subList(0, Math.min(3, strs.size())));
            }
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
            List<Gen> elems = pool(Types.typeArg(type, 0), depth);
            if (kind == 'S' || conc == TreeSet.class) {
                elems = Combinations.nonNull(elems);
            }
            out.add(new CollGen(kind, conc, Collections.<Gen>emptyList()));
            for (List<Gen> es : Combinations.small(elems)) {
                if (kind == 'S' && new HashSet<>(es).size() < es.size()) {
                    continue;
                }
                out.add(new CollGen(kind, conc, es));
            }
            out.add(Gen.NULL);
        } else {
            if (c.isInterface() || Modifier.isAbstract(c.getModifiers())) {
                throw new Unsupported("cannot make a " + c.getName() + ": an interface or abstract class with no implementation known");
            }
            if (depth <= 0) {
                out.add(Gen.NULL);
                return out;
            }
            List<Constructor<?>> ctors = access.constructors(c);
            if (ctors.isEmpty()) {
                throw new Unsupported("cannot make a " + c.getName() + ": no accessible constructor");
            }
            for (Constructor<?> k : ctors) {
                List<List<Gen>> pools = new ArrayList<>();
                try {
                    for (Type pt : k.getGenericParameterTypes()) {
                        pools.add(Combinations.nonNull(pool(pt, depth - 1)));
                    }
                } catch (Unsupported u) {
                    continue;
                }
                for (int[] idx : Combinations.diagonal(Combinations.sizes(pools), 12)) {
                    out.add(new NewGen(k, Combinations.pick(pools, idx)));
                }
            }
            if (out.isEmpty()) {
                throw new Unsupported("cannot make a " + c.getName() + ": no constructor with parameters it can generate");
            }
            out.add(Gen.NULL);
        }
        if (boxedType) {
            out.add(Gen.NULL);
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
            String alphabet = "abcAB z0-";
            int n = random.nextInt(5);
            for (int i = 0; i < n; i++) {
                sb.append(alphabet.charAt(random.nextInt(alphabet.length())));
            }
            String s = sb.toString();
            return new Const(s, Exprs.stringExpr(s), Exprs.stringToken(s));
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
            if (m.getParameterCount() == 0 && m.getReturnType() != void.class) {
                continue; // an observer, not a mutator
            }
            out.add(m);
        }
        return out;
    }

    List<Receiver> receivers(Class<?> c, Executable target) throws Unsupported {
        List<Receiver> out = new ArrayList<>();
        if (c.isEnum()) {
            for (Object k : c.getEnumConstants()) {
                out.add(new Receiver(new EnumGen(c, (Enum<?>) k), Collections.<Call>emptyList()));
            }
            return out;
        }
        if (c.isInterface() || Modifier.isAbstract(c.getModifiers())) {
            throw new Unsupported("the receiver " + c.getName() + " is an interface or abstract class");
        }
        if (!access.classAccessible(c)) {
            throw new Unsupported("the receiver class " + c.getName() + " cannot be named from a test in its package (private, inner, local or anonymous)");
        }
        List<Gen> makers = new ArrayList<>();
        for (Constructor<?> k : access.constructors(c)) {
            List<List<Gen>> pools = new ArrayList<>();
            try {
                for (Type pt : k.getGenericParameterTypes()) {
                    pools.add(Combinations.nonNull(pool(pt, 1)));
                }
            } catch (Unsupported u) {
                continue;
            }
            for (int[] idx : Combinations.diagonal(Combinations.sizes(pools), 3)) {
                makers.add(new NewGen(k, Combinations.pick(pools, idx)));
            }
        }
        if (makers.isEmpty()) {
            throw new Unsupported("cannot make a receiver " + c.getName() + ": no accessible constructor with parameters it can generate");
        }
        for (Gen m : makers) {
            out.add(new Receiver(m, Collections.<Call>emptyList()));
        }
        List<List<Call>> singles = new ArrayList<>();
        for (Method m : setupMethods(c, target)) {
            List<List<Gen>> pools = new ArrayList<>();
            try {
                for (Type pt : m.getGenericParameterTypes()) {
                    pools.add(Combinations.nonNull(pool(pt, 1)));
                }
            } catch (Unsupported u) {
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
            out.add(new Receiver(makers.get(0), s));
        }
        for (int i = 0; i < Math.min(8, singles.size()); i++) {
            for (int j = 0; j < Math.min(8, singles.size()); j++) {
                List<Call> two = new ArrayList<>(singles.get(i));
                two.addAll(singles.get(j));
                out.add(new Receiver(makers.get(0), two));
            }
        }
        return out;
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
