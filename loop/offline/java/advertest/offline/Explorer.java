package advertest.offline;

import java.io.BufferedWriter;
import java.io.FileOutputStream;
import java.io.OutputStreamWriter;
import java.lang.reflect.Array;
import java.lang.reflect.Constructor;
import java.lang.reflect.Executable;
import java.lang.reflect.GenericArrayType;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.lang.reflect.TypeVariable;
import java.lang.reflect.WildcardType;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.LinkedList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Runs one method with generated inputs and writes one JSON line per input: the input as Java
 * source expressions and the outcome (the return value rendered as a Java expression, the thrown
 * exception's class, the receiver's observable state afterwards). The Go side runs it on the
 * original and on a mutant and compares the lines. Everything random comes from the seed, and
 * the plan of an input never depends on what earlier calls did, so two runs line up index by
 * index. Compiled by the AdverTest worker together with a small generated JUnit test that sets the
 * public fields and calls {@link #run()}.
 */
public final class Explorer {
    /** Binary name of the class that declares the method. */
    public String className;
    /** The method's name, or "<init>" for a constructor. */
    public String methodName;
    /** The parameter types as written in the source ("int", "List<String>", "int..."). */
    public String[] paramTypes = new String[0];
    /** Literals of the method's text. */
    public long[] ints = new long[0];
    public double[] doubles = new double[0];
    public String[] strings = new String[0];
    public String chars = "";
    public long seed = 1;
    public int maxInputs = 600;
    public long budgetMillis = 2000;
    public long callMillis = 500;
    /** The exploration stops after this many calls past callMillis. */
    public int maxTimeouts = 1;
    /** The package of the generated test: types there are named without an import. */
    public String testPackage = "";
    /** The JSON-lines file written. */
    public String out;

    private final ClassLoader loader;
    private Random random;
    private BufferedWriter writer;
    private ThreadGroup group;
    private ExecutorService executor;
    private int groupCount;

    public Explorer(ClassLoader loader) {
        this.loader = loader;
    }

    // ---------------------------------------------------------------------------------------
    // Plans: a generated value as a recipe (fresh object each time) and its Java expression.

    /** One generated value: how to make it and how to write it in Java. */
    abstract static class Gen {
        abstract Object make() throws Throwable;

        /** The Java expression; adds what it names to imports. */
        abstract String expr(Names names);

        /** A short CamelCase token for the test's name. */
        abstract String token();
    }

    static final class Const extends Gen {
        final Object value;
        final String expr;
        final String token;
        final String[] imports;

        Const(Object value, String expr, String token, String... imports) {
            this.value = value;
            this.expr = expr;
            this.token = token;
            this.imports = imports;
        }

        Object make() {
            return value;
        }

        String expr(Names names) {
            for (String i : imports) {
                names.imports.add(i);
            }
            return expr;
        }

        String token() {
            return token;
        }
    }

    static final class ArrayGen extends Gen {
        final Class<?> component;
        final List<Gen> elems;

        ArrayGen(Class<?> component, List<Gen> elems) {
            this.component = component;
            this.elems = elems;
        }

        Object make() throws Throwable {
            Object a = Array.newInstance(component, elems.size());
            for (int i = 0; i < elems.size(); i++) {
                Array.set(a, i, elems.get(i).make());
            }
            return a;
        }

        String expr(Names names) {
            StringBuilder sb = new StringBuilder("new ").append(names.erased(component)).append("[]{");
            for (int i = 0; i < elems.size(); i++) {
                sb.append(i == 0 ? "" : ", ").append(elems.get(i).expr(names));
            }
            return sb.append('}').toString();
        }

        String token() {
            return elems.isEmpty() ? "EmptyArray" : "ArrayOf" + elems.size();
        }
    }

    /** A List, Set or Map (kind 'L', 'S', 'M') of a given concrete class. */
    static final class CollGen extends Gen {
        final char kind;
        final Class<?> concrete;
        final List<Gen> elems; // for maps: key, value, key, value...

        CollGen(char kind, Class<?> concrete, List<Gen> elems) {
            this.kind = kind;
            this.concrete = concrete;
            this.elems = elems;
        }

        @SuppressWarnings({"unchecked", "rawtypes"})
        Object make() throws Throwable {
            Object c = concrete.getConstructor().newInstance();
            if (kind == 'M') {
                for (int i = 0; i + 1 < elems.size(); i += 2) {
                    ((Map) c).put(elems.get(i).make(), elems.get(i + 1).make());
                }
            } else {
                for (Gen g : elems) {
                    ((Collection) c).add(g.make());
                }
            }
            return c;
        }

        String expr(Names names) {
            String cls = names.erased(concrete);
            if (elems.isEmpty()) {
                return "new " + cls + "<>()";
            }
            if (kind == 'M') {
                names.imports.add("java.util.Collections");
                return "new " + cls + "<>(Collections.singletonMap(" + elems.get(0).expr(names) + ", "
                    + elems.get(1).expr(names) + "))";
            }
            names.imports.add("java.util.Arrays");
            StringBuilder sb = new StringBuilder("new ").append(cls).append("<>(Arrays.asList(");
            for (int i = 0; i < elems.size(); i++) {
                sb.append(i == 0 ? "" : ", ").append(elems.get(i).expr(names));
            }
            return sb.append("))").toString();
        }

        String token() {
            String what = kind == 'M' ? "Map" : kind == 'S' ? "Set" : "List";
            return elems.isEmpty() ? "Empty" + what : what + "Of" + (kind == 'M' ? elems.size() / 2 : elems.size());
        }
    }

    static final class NewGen extends Gen {
        final Constructor<?> ctor;
        final List<Gen> args;

        NewGen(Constructor<?> ctor, List<Gen> args) {
            this.ctor = ctor;
            this.args = args;
        }

        Object make() throws Throwable {
            Object[] a = new Object[args.size()];
            for (int i = 0; i < a.length; i++) {
                a[i] = args.get(i).make();
            }
            try {
                return ctor.newInstance(a);
            } catch (InvocationTargetException e) {
                throw e.getCause();
            }
        }

        String expr(Names names) {
            StringBuilder sb = new StringBuilder("new ").append(names.erased(ctor.getDeclaringClass()));
            if (ctor.getDeclaringClass().getTypeParameters().length > 0) {
                sb.append("<>");
            }
            sb.append('(');
            for (int i = 0; i < args.size(); i++) {
                sb.append(i == 0 ? "" : ", ").append(args.get(i).expr(names));
            }
            return sb.append(')').toString();
        }

        String token() {
            if (args.isEmpty()) {
                return ctor.getDeclaringClass().getSimpleName();
            }
            StringBuilder sb = new StringBuilder();
            for (Gen g : args) {
                sb.append(g.token());
            }
            return sb.length() > 24 ? sb.substring(0, 24) : sb.toString();
        }
    }

    /** A setup call on the receiver before the call under test. */
    static final class Call {
        final Method method;
        final List<Gen> args;

        Call(Method method, List<Gen> args) {
            this.method = method;
            this.args = args;
        }

        String expr(Names names) {
            StringBuilder sb = new StringBuilder(method.getName()).append('(');
            for (int i = 0; i < args.size(); i++) {
                sb.append(i == 0 ? "" : ", ").append(args.get(i).expr(names));
            }
            return sb.append(')').toString();
        }

        String token() {
            StringBuilder sb = new StringBuilder(capitalize(method.getName()));
            for (Gen g : args) {
                sb.append(g.token());
            }
            return sb.toString();
        }
    }

    /** How the receiver of an instance method is made: an enum constant, or a constructor and setup calls. */
    static final class Receiver {
        final Gen make;
        final List<Call> setup;

        Receiver(Gen make, List<Call> setup) {
            this.make = make;
            this.setup = setup;
        }
    }

    /** Type names as the generated test writes them, and the imports they need. */
    final class Names {
        final Set<String> imports = new TreeSet<>();

        String erased(Class<?> c) {
            if (c.isPrimitive()) {
                return c.getName();
            }
            if (c.isArray()) {
                return erased(c.getComponentType()) + "[]";
            }
            Class<?> top = c;
            while (top.getEnclosingClass() != null) {
                top = top.getEnclosingClass();
            }
            String pkg = top.getPackage() == null ? "" : top.getPackage().getName();
            String canonical = c.getCanonicalName() == null ? c.getName() : c.getCanonicalName();
            String local = pkg.isEmpty() ? canonical : canonical.substring(pkg.length() + 1);
            if (!pkg.equals("java.lang") && !pkg.equals(testPackage) && !pkg.isEmpty()) {
                imports.add(top.getCanonicalName());
            }
            return local;
        }

        /** A declaration type for a value generated for t. */
        String decl(Type t) {
            if (t instanceof Class) {
                return erased((Class<?>) t);
            }
            if (t instanceof ParameterizedType) {
                ParameterizedType p = (ParameterizedType) t;
                StringBuilder sb = new StringBuilder(erased((Class<?>) p.getRawType())).append('<');
                Type[] as = p.getActualTypeArguments();
                for (int i = 0; i < as.length; i++) {
                    sb.append(i == 0 ? "" : ", ").append(decl(boxed(as[i])));
                }
                return sb.append('>').toString();
            }
            if (t instanceof GenericArrayType) {
                return decl(((GenericArrayType) t).getGenericComponentType()) + "[]";
            }
            return "Object";
        }
    }

    // ---------------------------------------------------------------------------------------
    // Pools of values by type.

    private final Map<String, List<Gen>> poolCache = new HashMap<>();

    static final class Unsupported extends Exception {
        private static final long serialVersionUID = 1L;

        Unsupported(String why) {
            super(why, null, false, false);
        }
    }

    private static Type boxed(Type t) {
        if (t instanceof WildcardType) {
            Type[] ub = ((WildcardType) t).getUpperBounds();
            return ub.length > 0 ? ub[0] : Object.class;
        }
        if (t instanceof TypeVariable) {
            // a type variable: its class bound if it has one, else Integer (which satisfies
            // Comparable<T>, Number and Object bounds)
            Type[] b = ((TypeVariable<?>) t).getBounds();
            Class<?> bound = b.length > 0 ? raw(b[0]) : Object.class;
            return bound != Object.class && !bound.isInterface() && bound != Number.class ? b[0] : Integer.class;
        }
        return t;
    }

    private static Class<?> raw(Type t) {
        t = boxed(t);
        if (t instanceof Class) {
            return (Class<?>) t;
        }
        if (t instanceof ParameterizedType) {
            return (Class<?>) ((ParameterizedType) t).getRawType();
        }
        if (t instanceof GenericArrayType) {
            return Array.newInstance(raw(((GenericArrayType) t).getGenericComponentType()), 0).getClass();
        }
        return Object.class;
    }

    private static Type typeArg(Type t, int i) {
        if (t instanceof ParameterizedType) {
            Type[] as = ((ParameterizedType) t).getActualTypeArguments();
            if (i < as.length) {
                return boxed(as[i]);
            }
        }
        return Integer.class;
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

    static String camelNumber(String s) {
        StringBuilder sb = new StringBuilder();
        if (s.startsWith("-")) {
            sb.append("Minus");
            s = s.substring(1);
        }
        for (char c : s.toCharArray()) {
            if (Character.isLetterOrDigit(c)) {
                sb.append(c);
            } else if (c == '.') {
                sb.append("Point");
            }
        }
        return sb.toString();
    }

    static String capitalize(String s) {
        return s.isEmpty() ? s : Character.toUpperCase(s.charAt(0)) + s.substring(1);
    }

    static String stringToken(String s) {
        if (s == null) {
            return "Null";
        }
        if (s.isEmpty()) {
            return "Empty";
        }
        StringBuilder sb = new StringBuilder();
        boolean up = true;
        for (char c : s.toCharArray()) {
            if (sb.length() >= 12) {
                break;
            }
            if (c < 128 && Character.isLetterOrDigit(c)) {
                sb.append(up ? Character.toUpperCase(c) : c);
                up = false;
            } else {
                up = true;
            }
        }
        return sb.length() == 0 ? "Blank" : sb.toString();
    }

    Const intConst(Class<?> t, long v) {
        Class<?> p = unbox(t);
        String token = camelNumber(Long.toString(v));
        if (p == long.class) {
            String e = v == Long.MIN_VALUE ? "Long.MIN_VALUE" : v == Long.MAX_VALUE ? "Long.MAX_VALUE" : v + "L";
            return new Const(v, e, token);
        }
        if (p == int.class) {
            String e = v == Integer.MIN_VALUE ? "Integer.MIN_VALUE" : v == Integer.MAX_VALUE ? "Integer.MAX_VALUE" : Long.toString(v);
            return new Const((int) v, e, token);
        }
        if (p == short.class) {
            return new Const((short) v, "(short) " + (v < 0 ? "(" + v + ")" : Long.toString(v)), token);
        }
        return new Const((byte) v, "(byte) " + (v < 0 ? "(" + v + ")" : Long.toString(v)), token);
    }

    static String doubleExpr(double d, boolean isFloat) {
        String box = isFloat ? "Float" : "Double";
        if (Double.isNaN(d)) {
            return box + ".NaN";
        }
        if (Double.isInfinite(d)) {
            return (d > 0 ? box + ".POSITIVE_INFINITY" : box + ".NEGATIVE_INFINITY");
        }
        if (isFloat) {
            float f = (float) d;
            if (f == Float.MAX_VALUE) {
                return "Float.MAX_VALUE";
            }
            if (f == -Float.MAX_VALUE) {
                return "-Float.MAX_VALUE";
            }
            return Float.toString(f) + "f";
        }
        if (d == Double.MAX_VALUE) {
            return "Double.MAX_VALUE";
        }
        if (d == -Double.MAX_VALUE) {
            return "-Double.MAX_VALUE";
        }
        if (d == Double.MIN_VALUE) {
            return "Double.MIN_VALUE";
        }
        return Double.toString(d);
    }

    Const doubleConst(Class<?> t, double d) {
        boolean f = unbox(t) == float.class;
        Object v = f ? (Object) (float) d : (Object) d;
        return new Const(v, doubleExpr(d, f), camelNumber(doubleExpr(d, f).replace("f", "")));
    }

    static String charExpr(char c) {
        switch (c) {
            case '\'':
                return "'\\''";
            case '\\':
                return "'\\\\'";
            case '\n':
                return "'\\n'";
            case '\t':
                return "'\\t'";
            case '\r':
                return "'\\r'";
            default:
                if (c < 32 || c > 126) {
                    return String.format("'\\u%04x'", (int) c);
                }
                return "'" + c + "'";
        }
    }

    static String stringExpr(String s) {
        StringBuilder sb = new StringBuilder("\"");
        for (char c : s.toCharArray()) {
            switch (c) {
                case '"':
                    sb.append("\\\"");
                    break;
                case '\\':
                    sb.append("\\\\");
                    break;
                case '\n':
                    sb.append("\\n");
                    break;
                case '\t':
                    sb.append("\\t");
                    break;
                case '\r':
                    sb.append("\\r");
                    break;
                default:
                    if (c < 32 || c > 126) {
                        sb.append(String.format("\\u%04x", (int) c));
                    } else {
                        sb.append(c);
                    }
            }
        }
        return sb.append('"').toString();
    }

    static Class<?> unbox(Class<?> c) {
        if (c == Integer.class) {
            return int.class;
        }
        if (c == Long.class) {
            return long.class;
        }
        if (c == Short.class) {
            return short.class;
        }
        if (c == Byte.class) {
            return byte.class;
        }
        if (c == Double.class) {
            return double.class;
        }
        if (c == Float.class) {
            return float.class;
        }
        if (c == Boolean.class) {
            return boolean.class;
        }
        if (c == Character.class) {
            return char.class;
        }
        return c;
    }

    static final Const NULL = new Const(null, "null", "Null");

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
        Class<?> c = raw(type);
        Class<?> p = unbox(c);
        List<Gen> out = new ArrayList<>();
        boolean boxedType = !c.isPrimitive() && p.isPrimitive();
        if (p == int.class || p == long.class || p == short.class || p == byte.class) {
            long min = p == int.class ? Integer.MIN_VALUE : p == short.class ? Short.MIN_VALUE : p == byte.class ? Byte.MIN_VALUE : Long.MIN_VALUE;
            long max = p == int.class ? Integer.MAX_VALUE : p == short.class ? Short.MAX_VALUE : p == byte.class ? Byte.MAX_VALUE : Long.MAX_VALUE;
            for (long v : intPool(min, max)) {
                out.add(intConst(p, v));
            }
        } else if (p == double.class || p == float.class) {
            for (double d : doublePool()) {
                out.add(doubleConst(p, d));
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
                out.add(new Const(ch, charExpr(ch), Character.isLetterOrDigit(ch) ? "Char" + ch : "Char" + (int) ch));
            }
        } else if (c == String.class || c == CharSequence.class) {
            Set<String> seen = new LinkedHashSet<>();
            seen.add("a");
            seen.add("");
            seen.addAll(Arrays.asList(strings));
            seen.addAll(Arrays.asList("b", "abc", "A", " ", "a b"));
            for (String s : seen) {
                out.add(new Const(s, stringExpr(s), stringToken(s)));
            }
            out.add(NULL);
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
            out.add(NULL);
        } else if (c.isArray()) {
            Type comp = type instanceof GenericArrayType ? ((GenericArrayType) type).getGenericComponentType() : c.getComponentType();
            List<Gen> elems = pool(comp, depth);
            Class<?> cc = c.getComponentType();
            out.add(new ArrayGen(cc, Collections.<Gen>emptyList()));
            for (List<Gen> es : small(elems)) {
                out.add(new ArrayGen(cc, es));
            }
            out.add(NULL);
        } else if (Map.class.isAssignableFrom(c) && concreteMap(c) != null) {
            Class<?> conc = concreteMap(c);
            List<Gen> ks = pool(typeArg(type, 0), depth);
            List<Gen> vs = pool(typeArg(type, 1), depth);
            out.add(new CollGen('M', conc, Collections.<Gen>emptyList()));
            for (int i = 0; i < Math.min(3, nonNull(ks).size()); i++) {
                out.add(new CollGen('M', conc, Arrays.asList(nonNull(ks).get(i), nonNull(vs).get(i % nonNull(vs).size()))));
            }
            out.add(NULL);
        } else if ((Collection.class.isAssignableFrom(c) || c == Iterable.class) && concreteCollection(c) != null) {
            Class<?> conc = concreteCollection(c);
            char kind = Set.class.isAssignableFrom(conc) ? 'S' : 'L';
            List<Gen> elems = pool(typeArg(type, 0), depth);
            if (kind == 'S' || conc == TreeSet.class) {
                elems = nonNull(elems);
            }
            out.add(new CollGen(kind, conc, Collections.<Gen>emptyList()));
            for (List<Gen> es : small(elems)) {
                if (kind == 'S' && new HashSet<>(es).size() < es.size()) {
                    continue;
                }
                out.add(new CollGen(kind, conc, es));
            }
            out.add(NULL);
        } else {
            if (c.isInterface() || Modifier.isAbstract(c.getModifiers())) {
                throw new Unsupported("cannot make a " + c.getName() + ": an interface or abstract class with no implementation known");
            }
            if (depth <= 0) {
                out.add(NULL);
                return out;
            }
            List<Constructor<?>> ctors = constructors(c);
            if (ctors.isEmpty()) {
                throw new Unsupported("cannot make a " + c.getName() + ": no accessible constructor");
            }
            for (Constructor<?> k : ctors) {
                List<List<Gen>> pools = new ArrayList<>();
                try {
                    for (Type pt : k.getGenericParameterTypes()) {
                        pools.add(nonNull(pool(pt, depth - 1)));
                    }
                } catch (Unsupported u) {
                    continue;
                }
                for (int[] idx : diagonal(sizes(pools), 12)) {
                    out.add(new NewGen(k, pick(pools, idx)));
                }
            }
            if (out.isEmpty()) {
                throw new Unsupported("cannot make a " + c.getName() + ": no constructor with parameters it can generate");
            }
            out.add(NULL);
        }
        if (boxedType) {
            out.add(NULL);
        }
        return out;
    }

    final class EnumGen extends Gen {
        final Class<?> type;
        final Enum<?> constant;

        EnumGen(Class<?> type, Enum<?> constant) {
            this.type = type;
            this.constant = constant;
        }

        Object make() {
            return constant;
        }

        String expr(Names names) {
            return names.erased(type) + "." + constant.name();
        }

        String token() {
            return stringToken(constant.name().toLowerCase().replace('_', ' '));
        }
    }

    static List<Gen> nonNull(List<Gen> gs) {
        List<Gen> out = new ArrayList<>();
        for (Gen g : gs) {
            if (g != NULL) {
                out.add(g);
            }
        }
        if (out.isEmpty()) {
            out.add(NULL);
        }
        return out;
    }

    /** Small element lists: singletons, pairs in both orders, a triple. */
    static List<List<Gen>> small(List<Gen> elems) {
        List<Gen> e = nonNull(elems);
        List<List<Gen>> out = new ArrayList<>();
        for (int i = 0; i < Math.min(4, e.size()); i++) {
            out.add(Collections.singletonList(e.get(i)));
        }
        if (e.size() >= 3) {
            out.add(Arrays.asList(e.get(1), e.get(2)));
            out.add(Arrays.asList(e.get(2), e.get(1)));
            out.add(Arrays.asList(e.get(1), e.get(1)));
            out.add(Arrays.asList(e.get(2), e.get(0), e.get(1)));
        }
        return out;
    }

    static Class<?> concreteCollection(Class<?> c) {
        if (!c.isInterface() && !Modifier.isAbstract(c.getModifiers())) {
            try {
                c.getConstructor();
                return c;
            } catch (NoSuchMethodException e) {
                return null;
            }
        }
        if (c.isAssignableFrom(ArrayList.class)) {
            return ArrayList.class;
        }
        if (c.isAssignableFrom(TreeSet.class) && java.util.SortedSet.class.isAssignableFrom(c)) {
            return TreeSet.class;
        }
        if (c.isAssignableFrom(LinkedHashSet.class)) {
            return LinkedHashSet.class;
        }
        if (c.isAssignableFrom(LinkedList.class)) {
            return LinkedList.class;
        }
        return null;
    }

    static Class<?> concreteMap(Class<?> c) {
        if (!c.isInterface() && !Modifier.isAbstract(c.getModifiers())) {
            try {
                c.getConstructor();
                return c;
            } catch (NoSuchMethodException e) {
                return null;
            }
        }
        if (c.isAssignableFrom(HashMap.class)) {
            return HashMap.class;
        }
        if (c.isAssignableFrom(TreeMap.class)) {
            return TreeMap.class;
        }
        return null;
    }

    private boolean accessible(int mods, Class<?> owner) {
        if (Modifier.isPublic(mods)) {
            return true;
        }
        return !Modifier.isPrivate(mods) && packageOf(owner).equals(testPackage);
    }

    private static String packageOf(Class<?> c) {
        String n = c.getName();
        int d = n.lastIndexOf('.');
        return d < 0 ? "" : n.substring(0, d);
    }

    private boolean classAccessible(Class<?> c) {
        for (Class<?> k = c; k != null; k = k.getEnclosingClass()) {
            if (!accessible(k.getModifiers(), k)) {
                return false;
            }
            if (k.getEnclosingClass() != null && !Modifier.isStatic(k.getModifiers())) {
                return false; // an inner class needs an outer instance
            }
        }
        return !c.isAnonymousClass() && !c.isLocalClass();
    }

    List<Constructor<?>> constructors(Class<?> c) {
        List<Constructor<?>> out = new ArrayList<>();
        if (!classAccessible(c) || c.isEnum()) {
            return out;
        }
        for (Constructor<?> k : c.getDeclaredConstructors()) {
            if (accessible(k.getModifiers(), c) && !k.isSynthetic()) {
                k.setAccessible(true);
                out.add(k);
            }
        }
        out.sort(Comparator.comparingInt((Constructor<?> k) -> k.getParameterCount()).thenComparing(Constructor::toGenericString));
        return out;
    }

    static int[] sizes(List<List<Gen>> pools) {
        int[] s = new int[pools.size()];
        for (int i = 0; i < s.length; i++) {
            s[i] = pools.get(i).size();
        }
        return s;
    }

    static List<Gen> pick(List<List<Gen>> pools, int[] idx) {
        List<Gen> out = new ArrayList<>();
        for (int i = 0; i < idx.length; i++) {
            out.add(pools.get(i).get(idx[i]));
        }
        return out;
    }

    /** Index tuples in order of increasing index sum (simplest first), at most limit of them. */
    static List<int[]> diagonal(int[] sizes, int limit) {
        List<int[]> out = new ArrayList<>();
        for (int s : sizes) {
            if (s == 0) {
                return out;
            }
        }
        int maxSum = 0;
        for (int s : sizes) {
            maxSum += s - 1;
        }
        for (int sum = 0; sum <= maxSum && out.size() < limit; sum++) {
            fill(sizes, 0, sum, new int[sizes.length], out, limit);
        }
        return out;
    }

    private static void fill(int[] sizes, int pos, int left, int[] cur, List<int[]> out, int limit) {
        if (out.size() >= limit) {
            return;
        }
        if (pos == sizes.length) {
            if (left == 0) {
                out.add(cur.clone());
            }
            return;
        }
        if (pos == sizes.length - 1) {
            if (left < sizes[pos]) {
                cur[pos] = left;
                fill(sizes, pos + 1, 0, cur, out, limit);
            }
            return;
        }
        for (int v = 0; v <= Math.min(left, sizes[pos] - 1); v++) {
            cur[pos] = v;
            fill(sizes, pos + 1, left - v, cur, out, limit);
        }
    }

    // ---------------------------------------------------------------------------------------
    // Random values.

    Gen randomValue(Type type, int depth) throws Unsupported {
        Class<?> c = raw(type);
        Class<?> p = unbox(c);
        List<Gen> pool = pool(type, depth);
        if (random.nextInt(3) == 0 || pool.isEmpty()) {
            return pool.isEmpty() ? NULL : pool.get(random.nextInt(pool.size()));
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
            return intConst(p, v);
        }
        if (p == double.class || p == float.class) {
            double d = random.nextInt(2) == 0 ? (random.nextInt(2001) - 1000) / 10.0 : random.nextDouble() * 200 - 100;
            if (p == float.class) {
                d = (float) d;
            }
            return doubleConst(p, d);
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
            return new Const(s, stringExpr(s), stringToken(s));
        }
        if (c.isArray() || (Collection.class.isAssignableFrom(c) && !Set.class.isAssignableFrom(c)) || c == Iterable.class) {
            Type comp = c.isArray() ? (type instanceof GenericArrayType ? ((GenericArrayType) type).getGenericComponentType() : c.getComponentType()) : typeArg(type, 0);
            int n = random.nextInt(5);
            List<Gen> es = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                Gen g = randomValue(comp, depth);
                es.add(g == NULL ? nonNull(pool(comp, depth)).get(0) : g);
            }
            if (c.isArray()) {
                return new ArrayGen(c.getComponentType(), es);
            }
            Class<?> conc = concreteCollection(c);
            if (conc != null && !Set.class.isAssignableFrom(conc)) {
                return new CollGen('L', conc, es);
            }
        }
        if (depth > 0 && isPlainClass(c)) {
            List<Constructor<?>> ctors = constructors(c);
            if (!ctors.isEmpty()) {
                Constructor<?> k = ctors.get(random.nextInt(ctors.size()));
                List<Gen> args = new ArrayList<>();
                try {
                    for (Type pt : k.getGenericParameterTypes()) {
                        Gen g = randomValue(pt, depth - 1);
                        args.add(g == NULL ? nonNull(pool(pt, depth - 1)).get(0) : g);
                    }
                    return new NewGen(k, args);
                } catch (Unsupported u) {
                    // fall back to the pool
                }
            }
        }
        return pool.get(random.nextInt(pool.size()));
    }

    /** A class made through its constructors (not a value type the pools know). */
    private static boolean isPlainClass(Class<?> c) {
        return !c.isPrimitive() && !unbox(c).isPrimitive() && c != String.class && c != CharSequence.class
            && c != Object.class && c != Number.class && c != Comparable.class && !c.isEnum() && !c.isArray()
            && !Collection.class.isAssignableFrom(c) && !Map.class.isAssignableFrom(c) && c != Iterable.class
            && !c.isInterface() && !Modifier.isAbstract(c.getModifiers());
    }

    // ---------------------------------------------------------------------------------------
    // Receivers.

    private List<Method> setupMethods(Class<?> c, Executable target) {
        List<Method> out = new ArrayList<>();
        for (Method m : allMethods(c)) {
            if (Modifier.isStatic(m.getModifiers()) || m.isSynthetic() || m.isBridge()
                || m.getDeclaringClass() == Object.class || !accessible(m.getModifiers(), m.getDeclaringClass())) {
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

    private static List<Method> allMethods(Class<?> c) {
        Map<String, Method> bySig = new TreeMap<>();
        for (Class<?> k = c; k != null && k != Object.class; k = k.getSuperclass()) {
            for (Method m : k.getDeclaredMethods()) {
                String sig = m.getName() + Arrays.toString(m.getParameterTypes());
                if (!bySig.containsKey(sig)) {
                    bySig.put(sig, m);
                }
            }
        }
        for (Method m : c.getMethods()) {
            String sig = m.getName() + Arrays.toString(m.getParameterTypes());
            if (!bySig.containsKey(sig)) {
                bySig.put(sig, m);
            }
        }
        List<Method> out = new ArrayList<>(bySig.values());
        for (Method m : out) {
            try {
                m.setAccessible(true);
            } catch (RuntimeException e) {
                // left as is: invoking it fails and the input is dropped
            }
        }
        return out;
    }

    private List<Receiver> receivers(Class<?> c, Executable target) throws Unsupported {
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
        if (!classAccessible(c)) {
            throw new Unsupported("the receiver class " + c.getName() + " cannot be named from a test in its package (private, inner, local or anonymous)");
        }
        List<Gen> makers = new ArrayList<>();
        for (Constructor<?> k : constructors(c)) {
            List<List<Gen>> pools = new ArrayList<>();
            try {
                for (Type pt : k.getGenericParameterTypes()) {
                    pools.add(nonNull(pool(pt, 1)));
                }
            } catch (Unsupported u) {
                continue;
            }
            for (int[] idx : diagonal(sizes(pools), 3)) {
                makers.add(new NewGen(k, pick(pools, idx)));
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
                    pools.add(nonNull(pool(pt, 1)));
                }
            } catch (Unsupported u) {
                continue;
            }
            for (int[] idx : diagonal(sizes(pools), 12)) {
                singles.add(Collections.singletonList(new Call(m, pick(pools, idx))));
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
                    args.add(g == NULL ? nonNull(pool(pt, 1)).get(0) : g);
                }
            } catch (Unsupported u) {
                continue;
            }
            calls.add(new Call(m, args));
        }
        return new Receiver(base.make, calls);
    }

    // ---------------------------------------------------------------------------------------
    // Observing results.

    private List<Method> observers(Class<?> c) {
        List<Method> out = new ArrayList<>();
        for (Method m : allMethods(c)) {
            int mods = m.getModifiers();
            if (Modifier.isStatic(mods) || m.getParameterCount() != 0 || m.getReturnType() == void.class
                || m.isSynthetic() || m.isBridge() || m.getDeclaringClass() == Object.class
                || !accessible(mods, m.getDeclaringClass()) || !classAccessible(m.getDeclaringClass()) && !Modifier.isPublic(mods)) {
                continue;
            }
            String n = m.getName();
            if (n.equals("hashCode") || n.equals("toString") || n.equals("clone") || n.equals("iterator")
                || n.equals("stream") || n.equals("spliterator") || n.equals("getClass") || n.equals("values")
                && c.isEnum() || n.equals("ordinal") || n.equals("getDeclaringClass")) {
                continue;
            }
            if (!observable(m.getReturnType())) {
                continue;
            }
            out.add(m);
        }
        out.sort(Comparator.comparing(Method::getName));
        return out;
    }

    private static boolean observable(Class<?> t) {
        Class<?> p = unbox(t);
        if (p.isPrimitive() || t == String.class || t.isEnum()) {
            return true;
        }
        if (t.isArray()) {
            return observable(t.getComponentType());
        }
        return Collection.class.isAssignableFrom(t) || Map.class.isAssignableFrom(t);
    }

    private static boolean overridesToString(Class<?> c) {
        try {
            return c.getMethod("toString").getDeclaringClass() != Object.class && !c.isEnum()
                && !Collection.class.isAssignableFrom(c) && !Map.class.isAssignableFrom(c);
        } catch (NoSuchMethodException e) {
            return false;
        }
    }

    /** Renders a value for an assertion: {"k": kind, "v": expression, ...}. */
    String render(Object v, Class<?> staticType, Names names, int depth) {
        if (v == null) {
            return "{\"k\":\"null\"}";
        }
        Class<?> c = v.getClass();
        Class<?> sp = unbox(staticType);
        if (c == Double.class || c == Float.class) {
            boolean f = c == Float.class;
            return obj("k", f ? "float" : "double", "v", doubleExpr(((Number) v).doubleValue(), f));
        }
        if (c == Integer.class || c == Long.class || c == Short.class || c == Byte.class) {
            Const k = intConst(c, ((Number) v).longValue());
            return obj("k", "prim", "v", k.expr, "t", unbox(c).getName());
        }
        if (c == Boolean.class) {
            return obj("k", "bool", "v", v.toString());
        }
        if (c == Character.class) {
            return obj("k", "prim", "v", charExpr((Character) v), "t", "char");
        }
        if (c == String.class) {
            return obj("k", "string", "v", stringExpr((String) v));
        }
        if (v instanceof Enum) {
            Enum<?> e = (Enum<?>) v;
            Class<?> ec = e.getDeclaringClass();
            if (classAccessible(ec)) {
                return obj("k", "enum", "v", names.erased(ec) + "." + e.name());
            }
            return obj("k", "string", "v", stringExpr(e.toString()), "via", "toString");
        }
        if (c.isArray()) {
            Class<?> comp = c.getComponentType();
            if (comp.isPrimitive() || comp == String.class || unbox(comp).isPrimitive()) {
                StringBuilder sb = new StringBuilder("new ").append(names.erased(comp)).append("[]{");
                int n = Array.getLength(v);
                for (int i = 0; i < n; i++) {
                    Object e = Array.get(v, i);
                    sb.append(i == 0 ? "" : ", ").append(e == null ? "null" : literal(e));
                }
                sb.append('}');
                String kind = comp == double.class ? "darray" : comp == float.class ? "farray" : "array";
                return obj("k", kind, "v", sb.toString());
            }
            return obj("k", "string", "v", stringExpr(deepString(v)), "via", "deep");
        }
        if (v instanceof List || v instanceof Set) {
            StringBuilder sb = new StringBuilder();
            boolean ok = true;
            int i = 0;
            for (Object e : (Collection<?>) v) {
                String lit = e == null ? "null" : literal(e);
                if (lit == null) {
                    ok = false;
                    break;
                }
                sb.append(i++ == 0 ? "" : ", ").append(lit);
            }
            if (ok) {
                String expr;
                if (i == 0) {
                    names.imports.add("java.util.Collections");
                    expr = v instanceof List ? "Collections.emptyList()" : "Collections.emptySet()";
                } else if (v instanceof List) {
                    names.imports.add("java.util.Arrays");
                    expr = "Arrays.asList(" + sb + ")";
                } else {
                    names.imports.add("java.util.Arrays");
                    names.imports.add("java.util.HashSet");
                    expr = "new HashSet<>(Arrays.asList(" + sb + "))";
                }
                return obj("k", "equals", "v", expr);
            }
        }
        if (v instanceof Collection || v instanceof Map) {
            return obj("k", "string", "v", stringExpr(String.valueOf(v)), "via", "toString");
        }
        // another object: its observers and toString
        if (depth <= 0) {
            return "{\"k\":\"opaque\"}";
        }
        StringBuilder sb = new StringBuilder("{\"k\":\"object\",\"obs\":");
        sb.append(observe(v, c, names, depth - 1));
        return sb.append('}').toString();
    }

    /** The literal of a boxed primitive or String, or null. */
    String literal(Object e) {
        Class<?> c = e.getClass();
        if (c == Integer.class || c == Long.class || c == Short.class || c == Byte.class) {
            return intConst(c, ((Number) e).longValue()).expr;
        }
        if (c == Double.class || c == Float.class) {
            return doubleExpr(((Number) e).doubleValue(), c == Float.class);
        }
        if (c == Boolean.class) {
            return e.toString();
        }
        if (c == Character.class) {
            return charExpr((Character) e);
        }
        if (c == String.class) {
            return stringExpr((String) e);
        }
        return null;
    }

    static String deepString(Object v) {
        if (v instanceof Object[]) {
            return Arrays.deepToString((Object[]) v);
        }
        return String.valueOf(v);
    }

    /** The observers of a value: [{"m": "getX()", ...rendering}], then toString when overridden. */
    String observe(Object target, Class<?> c, Names names, int depth) {
        StringBuilder sb = new StringBuilder("[");
        int n = 0;
        for (Method m : observers(c)) {
            String r;
            try {
                Object x = m.invoke(target);
                r = render(x, m.getReturnType(), names, depth);
            } catch (InvocationTargetException e) {
                r = obj("k", "throws", "x", exceptionName(e.getCause(), names));
            } catch (ReflectiveOperationException | RuntimeException e) {
                continue;
            }
            sb.append(n++ == 0 ? "" : ",").append("{\"m\":").append(json(m.getName() + "()"))
                .append(",\"st\":").append(json(m.getReturnType().getName())).append(",\"r\":").append(r).append('}');
        }
        if (overridesToString(c)) {
            String r;
            try {
                r = obj("k", "string", "v", stringExpr(String.valueOf(target)));
            } catch (RuntimeException e) {
                r = obj("k", "throws", "x", exceptionName(e, names));
            }
            sb.append(n == 0 ? "" : ",").append("{\"m\":\"toString()\",\"r\":").append(r).append('}');
        }
        return sb.append(']').toString();
    }

    String exceptionName(Throwable t, Names names) {
        Class<?> c = t.getClass();
        while (!Modifier.isPublic(c.getModifiers()) || !classAccessible(c)) {
            c = c.getSuperclass();
        }
        return names.erased(c);
    }

    // ---------------------------------------------------------------------------------------
    // JSON.

    static String json(String s) {
        if (s == null) {
            return "null";
        }
        StringBuilder sb = new StringBuilder("\"");
        for (char c : s.toCharArray()) {
            if (c == '"' || c == '\\') {
                sb.append('\\').append(c);
            } else if (c < 32 || c > 126) {
                sb.append(String.format("\\u%04x", (int) c));
            } else {
                sb.append(c);
            }
        }
        return sb.append('"').toString();
    }

    static String obj(String... kv) {
        StringBuilder sb = new StringBuilder("{");
        for (int i = 0; i + 1 < kv.length; i += 2) {
            sb.append(i == 0 ? "" : ",").append(json(kv[i])).append(':').append(json(kv[i + 1]));
        }
        return sb.append('}').toString();
    }

    static String array(List<String> items) {
        StringBuilder sb = new StringBuilder("[");
        for (int i = 0; i < items.size(); i++) {
            sb.append(i == 0 ? "" : ",").append(json(items.get(i)));
        }
        return sb.append(']').toString();
    }

    private void write(String line) throws Exception {
        writer.write(line);
        writer.write('\n');
        writer.flush();
    }

    // ---------------------------------------------------------------------------------------
    // The run.

    private Executable findTarget(Class<?> c) throws Unsupported {
        List<Executable> cands = new ArrayList<>();
        if (methodName.equals("<init>")) {
            cands.addAll(Arrays.asList(c.getDeclaredConstructors()));
        } else {
            for (Method m : c.getDeclaredMethods()) {
                if (m.getName().equals(methodName) && !m.isBridge() && !m.isSynthetic()) {
                    cands.add(m);
                }
            }
        }
        Executable best = null;
        for (Executable e : cands) {
            if (e.getParameterCount() != paramTypes.length) {
                continue;
            }
            Class<?>[] ps = e.getParameterTypes();
            boolean ok = true;
            for (int i = 0; i < ps.length && ok; i++) {
                ok = simpleName(paramTypes[i]).equals(ps[i].getSimpleName())
                    || ps[i].getSimpleName().equals("Object") && simpleName(paramTypes[i]).length() <= 2;
            }
            if (ok) {
                best = e;
                break;
            }
        }
        if (best == null) {
            throw new Unsupported("method " + methodName + Arrays.toString(paramTypes) + " not found in " + c.getName());
        }
        if (Modifier.isPrivate(best.getModifiers())) {
            throw new Unsupported("the method is private: a test cannot call it");
        }
        if (!accessible(best.getModifiers(), c)) {
            throw new Unsupported("the method is not accessible from a test in " + testPackage);
        }
        if (Modifier.isAbstract(best.getModifiers())) {
            throw new Unsupported("the method is abstract");
        }
        best.setAccessible(true);
        return best;
    }

    static String simpleName(String written) {
        String t = written.replaceAll("@\\w+(\\([^)]*\\))?\\s*", "").replace("final ", "").trim();
        StringBuilder sb = new StringBuilder();
        int depth = 0;
        for (char ch : t.toCharArray()) {
            if (ch == '<') {
                depth++;
            } else if (ch == '>') {
                depth--;
            } else if (depth == 0 && !Character.isWhitespace(ch)) {
                sb.append(ch);
            }
        }
        t = sb.toString().replace("...", "[]");
        int dims = 0;
        while (t.endsWith("[]")) {
            t = t.substring(0, t.length() - 2);
            dims++;
        }
        int d = t.lastIndexOf('.');
        if (d >= 0) {
            t = t.substring(d + 1);
        }
        StringBuilder out = new StringBuilder(t);
        for (int i = 0; i < dims; i++) {
            out.append("[]");
        }
        return out.toString();
    }

    /** One planned input: the receiver (null for static methods and constructors) and the arguments. */
    static final class Input {
        final Receiver receiver;
        final List<Gen> args;

        Input(Receiver receiver, List<Gen> args) {
            this.receiver = receiver;
            this.args = args;
        }
    }

    public void run() throws Exception {
        random = new Random(seed);
        writer = new BufferedWriter(new OutputStreamWriter(new FileOutputStream(out), StandardCharsets.UTF_8));
        try {
            explore();
        } finally {
            writer.close();
            if (executor != null) {
                executor.shutdownNow();
            }
        }
    }

    private void explore() throws Exception {
        Class<?> c;
        Executable target;
        List<List<Gen>> pools = new ArrayList<>();
        List<Receiver> receivers = null;
        Type[] ptypes;
        try {
            try {
                c = Class.forName(className, true, loader);
            } catch (ClassNotFoundException e) {
                throw new Unsupported("class " + className + " not found");
            } catch (ExceptionInInitializerError e) {
                throw new Unsupported("class " + className + " fails to initialise: " + e.getCause());
            }
            if (c.isAnonymousClass() || c.isLocalClass()) {
                throw new Unsupported("a method of an anonymous or local class cannot be called from a test");
            }
            target = findTarget(c);
            ptypes = target.getGenericParameterTypes();
            for (Type t : ptypes) {
                pools.add(pool(t, 2));
            }
            boolean instance = target instanceof Method && !Modifier.isStatic(target.getModifiers());
            if (instance) {
                receivers = receivers(c, target);
            } else if (target instanceof Constructor && (Modifier.isAbstract(c.getModifiers()) || !classAccessible(c))) {
                throw new Unsupported("the constructor's class cannot be instantiated from a test");
            }
        } catch (Unsupported u) {
            write("{\"unsupported\":" + json(u.getMessage()) + "}");
            return;
        }
        Names header = new Names();
        List<String> declTypes = new ArrayList<>();
        for (Type t : ptypes) {
            declTypes.add(header.decl(t));
        }
        String ret = target instanceof Method ? header.decl(((Method) target).getGenericReturnType()) : header.decl(c);
        if (target instanceof Method && ((Method) target).getReturnType() == void.class) {
            ret = "void";
        }
        String recvType = receivers != null ? header.erased(c) : "";
        write("{\"header\":true,\"declTypes\":" + array(declTypes) + ",\"returnType\":" + json(ret)
            + ",\"receiverType\":" + json(recvType) + ",\"classRef\":" + json(header.erased(c))
            + ",\"imports\":" + array(new ArrayList<>(header.imports)) + "}");

        List<Input> inputs = new ArrayList<>();
        List<List<Gen>> dims = new ArrayList<>(pools);
        List<Gen> recvIndex = new ArrayList<>();
        if (receivers != null) {
            for (int i = 0; i < receivers.size(); i++) {
                recvIndex.add(NULL);
            }
            dims.add(0, recvIndex);
        }
        int boundaryCap = Math.max(1, maxInputs * 2 / 3);
        for (int[] idx : diagonal(sizes(dims), boundaryCap)) {
            Receiver r = null;
            int off = 0;
            if (receivers != null) {
                r = receivers.get(idx[0]);
                off = 1;
            }
            List<Gen> args = new ArrayList<>();
            for (int i = 0; i < pools.size(); i++) {
                args.add(pools.get(i).get(idx[i + off]));
            }
            inputs.add(new Input(r, args));
        }
        if (dims.isEmpty()) {
            inputs.add(new Input(null, Collections.<Gen>emptyList()));
        }
        boolean varies = !dims.isEmpty();
        while (varies && inputs.size() < maxInputs) {
            Receiver r = receivers != null ? (random.nextInt(3) == 0 ? receivers.get(random.nextInt(receivers.size())) : randomReceiver(c, receivers, target)) : null;
            List<Gen> args = new ArrayList<>();
            for (Type t : ptypes) {
                args.add(randomValue(t, 2));
            }
            inputs.add(new Input(r, args));
        }

        long deadline = System.nanoTime() + budgetMillis * 1_000_000L;
        Set<String> seen = new HashSet<>();
        int index = 0;
        int timeouts = 0;
        for (Input in : inputs) {
            if (System.nanoTime() > deadline) {
                break;
            }
            Names names = new Names();
            List<String> argExprs = new ArrayList<>();
            List<String> argTokens = new ArrayList<>();
            for (Gen g : in.args) {
                argExprs.add(g.expr(names));
                argTokens.add(g.token());
            }
            String recvExpr = in.receiver == null ? "" : in.receiver.make.expr(names);
            List<String> setup = new ArrayList<>();
            StringBuilder recvToken = new StringBuilder();
            if (in.receiver != null) {
                for (Call k : in.receiver.setup) {
                    setup.add(k.expr(names));
                    recvToken.append(k.token());
                }
            }
            String key = recvExpr + setup + argExprs;
            if (!seen.add(key)) {
                continue;
            }
            StringBuilder line = new StringBuilder("{\"i\":").append(index++);
            line.append(",\"args\":").append(array(argExprs));
            line.append(",\"tokens\":").append(array(argTokens));
            if (in.receiver != null) {
                line.append(",\"recv\":").append(json(recvExpr));
                line.append(",\"setup\":").append(array(setup));
                line.append(",\"recvToken\":").append(json(recvToken.toString()));
            }
            String outcome = execute(target, c, in, names);
            line.append(",\"out\":").append(outcome);
            line.append(",\"imports\":").append(array(new ArrayList<>(names.imports)));
            write(line.append('}').toString());
            if (outcome.startsWith("{\"k\":\"timeout\"") && ++timeouts >= maxTimeouts) {
                break;
            }
        }
        write("{\"end\":true,\"inputs\":" + index + "}");
    }

    private String execute(final Executable target, final Class<?> c, final Input in, final Names names) throws Exception {
        if (executor == null) {
            newExecutor();
        }
        Future<String> f = executor.submit(() -> {
            try {
                return call(target, c, in, names);
            } catch (Error | Exception e) {
                throw e;
            } catch (Throwable t) {
                throw new IllegalStateException(t);
            }
        });
        try {
            return f.get(callMillis, TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            return "{\"k\":\"timeout\",\"stopped\":" + expire() + "}";
        } catch (java.util.concurrent.ExecutionException e) {
            Throwable t = e.getCause();
            if (t instanceof Error && t.getClass().getName().startsWith("advertest.worker.hook.")) {
                throw (Error) t;
            }
            return obj("k", "crash", "x", String.valueOf(t));
        }
    }

    private void newExecutor() {
        group = new ThreadGroup(Thread.currentThread().getThreadGroup(), "advertest-explore-" + (groupCount++));
        final ThreadGroup g = group;
        final ClassLoader ccl = loader;
        executor = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(g, r, "advertest-explore", 64L << 20);
            t.setDaemon(true);
            t.setContextClassLoader(ccl);
            return t;
        });
    }

    /** Makes the stuck call throw at its next backward jump (the worker's hook), then starts afresh. */
    private boolean expire() {
        boolean stopped = false;
        try {
            Class<?> hook = Class.forName("advertest.worker.hook.Hook", true, loader);
            hook.getMethod("expire", ThreadGroup.class).invoke(null, group);
            stopped = true;
        } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
            // no hook: the thread is abandoned (daemon)
        }
        executor.shutdownNow();
        executor = null;
        return stopped;
    }

    private String call(Executable target, Class<?> c, Input in, Names names) throws Throwable {
        Object recv = null;
        Object[] args = new Object[in.args.size()];
        try {
            if (in.receiver != null) {
                recv = in.receiver.make.make();
                for (Call k : in.receiver.setup) {
                    Object[] a = new Object[k.args.size()];
                    for (int i = 0; i < a.length; i++) {
                        a[i] = k.args.get(i).make();
                    }
                    try {
                        k.method.invoke(recv, a);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                }
            }
            for (int i = 0; i < args.length; i++) {
                args[i] = in.args.get(i).make();
            }
        } catch (Throwable t) {
            rethrowHook(t);
            return obj("k", "arrange", "x", exceptionName(t, names));
        }
        Object result;
        try {
            if (target instanceof Constructor) {
                result = ((Constructor<?>) target).newInstance(args);
            } else {
                result = ((Method) target).invoke(recv, args);
            }
        } catch (InvocationTargetException e) {
            Throwable t = e.getCause();
            rethrowHook(t);
            StringBuilder sb = new StringBuilder("{\"k\":\"throw\",\"x\":").append(json(exceptionName(t, names)));
            appendState(sb, target, c, recv, args, in, names);
            return sb.append('}').toString();
        } catch (IllegalArgumentException | IllegalAccessException | InstantiationException e) {
            return obj("k", "arrange", "x", String.valueOf(e));
        }
        StringBuilder sb = new StringBuilder("{\"k\":\"ret\"");
        if (target instanceof Method && ((Method) target).getReturnType() == void.class) {
            sb.append(",\"ret\":{\"k\":\"void\"}");
        } else {
            Class<?> rt = target instanceof Method ? ((Method) target).getReturnType() : c;
            sb.append(",\"ret\":").append(render(result, rt, names, 1));
        }
        appendState(sb, target, c, recv, args, in, names);
        return sb.append('}').toString();
    }

    private void appendState(StringBuilder sb, Executable target, Class<?> c, Object recv, Object[] args, Input in, Names names) {
        if (recv != null && !c.isEnum()) {
            sb.append(",\"state\":").append(observe(recv, c, names, 0));
        }
        StringBuilder after = new StringBuilder("[");
        int n = 0;
        for (int i = 0; i < args.length; i++) {
            Object a = args[i];
            if (a != null && (a.getClass().isArray() || a instanceof Collection || a instanceof Map)) {
                after.append(n++ == 0 ? "" : ",").append("{\"a\":").append(i).append(",\"r\":")
                    .append(render(a, a.getClass(), names, 0)).append('}');
            }
        }
        sb.append(",\"after\":").append(after).append(']');
    }

    private static void rethrowHook(Throwable t) throws Throwable {
        if (t instanceof Error && t.getClass().getName().startsWith("advertest.worker.hook.")) {
            throw t;
        }
    }
}
