package advertest.offline;

import java.lang.reflect.Array;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What a call did, as the generated test can assert it: return values rendered as Java
 * expressions ({"k": kind, "v": expression, ...}), objects through their getters and toString,
 * exceptions by their nearest public class.
 */
final class Observer {
    /**
     * Object.toString's form, Class@hex: an identity hash, different in every run, never observed.
     */
    private static final java.util.regex.Pattern IDENTITY = java.util.regex.Pattern.compile("[A-Za-z_$][\\w$]*(\\.[\\w$]+)*@[0-9a-f]{4,8}\\b");
    /** Results with more elements than this (arrays and collections, nested ones counted) are summarised by size and hash. */
    static final int MAX_ELEMENTS = 200;
    /** Strings longer than this are summarised by length and hash. */
    static final int MAX_CHARS = 2000;

    private final Access access;
    /**
     * The nodes of the current call's graph (Linked) by identity, as the test names them; null
     * when the input has none. A result that is one of them, or a list or set of them, is
     * written with those names (assertSame(c, result), Arrays.asList(a, b, c)): node objects
     * are never observed through their toString.
     */
    java.util.Map<Object, String> nodes;
    /**
     * The node class of the method's linked parameters (Linked), for every input: getters
     * returning it are observed (by identity), and collections holding nodes that no name
     * covers are asserted by their size.
     */
    Class<?> nodeType;
    private final Map<Class<?>, Boolean> linkedCache = new java.util.HashMap<>();

    Observer(Access access) {
        this.access = access;
    }

    List<Method> observers(Class<?> c) {
        List<Method> out = new ArrayList<>();
        for (Method m : Access.allMethods(c)) {
            int mods = m.getModifiers();
            if (Modifier.isStatic(mods) || m.getParameterCount() != 0 || m.getReturnType() == void.class
                || m.isSynthetic() || m.isBridge() || m.getDeclaringClass() == Object.class || throwsChecked(m)
                || !access.accessible(mods, m.getDeclaringClass()) || !access.classAccessible(m.getDeclaringClass()) && !Modifier.isPublic(mods)) {
                continue;
            }
            String n = m.getName();
            if (n.equals("hashCode") || n.equals("toString") || n.equals("clone") || n.equals("iterator")
                || n.equals("stream") || n.equals("spliterator") || n.equals("getClass") || n.equals("values")
                && c.isEnum() || n.equals("ordinal") || n.equals("getDeclaringClass")) {
                continue;
            }
            if (!observable(m.getReturnType()) && !(nodeType != null && m.getReturnType() == nodeType)) {
                continue;
            }
            out.add(m);
        }
        out.sort(Comparator.comparing(Method::getName));
        return out;
    }

    /**
     * Whether m declares a checked exception: a test that called it would not compile unless it
     * declared it too (InputStream.read(), available()), and it reads by consuming.
     */
    static boolean throwsChecked(Method m) {
        for (Class<?> x : m.getExceptionTypes()) {
            if (!RuntimeException.class.isAssignableFrom(x) && !Error.class.isAssignableFrom(x)) {
                return true;
            }
        }
        return false;
    }

    private static boolean observable(Class<?> t) {
        Class<?> p = Types.unbox(t);
        if (p.isPrimitive() || t == String.class || t.isEnum() || Values.known(t) || Jdk.known(t) || t == java.util.Date.class) {
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
            return JsonText.obj("k", Output.VAL_NULL);
        }
        Class<?> c = v.getClass();
        Class<?> sp = Types.unbox(staticType);
        if (nodes != null || nodeType != null) {
            String name = nodeName(v);
            if (name != null) {
                return JsonText.obj("k", Output.VAL_SAME, "v", name);
            }
            if (c.isArray() || v instanceof Collection || v instanceof Map) {
                String e = nodeExpr(v, names);
                if (e != null) {
                    return JsonText.obj("k", c.isArray() ? Output.VAL_ARRAY : Output.VAL_EQUALS, "v", e);
                }
                if (containsNode(v, new int[] {MAX_ELEMENTS})) {
                    int n = c.isArray() ? Array.getLength(v) : v instanceof Map ? ((Map<?, ?>) v).size() : ((Collection<?>) v).size();
                    return big(n, fingerprint(v, 200_000), c.isArray() ? "length" : "size()");
                }
            }
        }
        if (c == Double.class || c == Float.class) {
            boolean f = c == Float.class;
            return JsonText.obj("k", f ? Output.VAL_FLOAT : Output.VAL_DOUBLE, "v", Exprs.doubleExpr(((Number) v).doubleValue(), f));
        }
        if (c == Integer.class || c == Long.class || c == Short.class || c == Byte.class) {
            Gen.Const k = Exprs.intConst(c, ((Number) v).longValue());
            return JsonText.obj("k", Output.VAL_PRIM, "v", k.expr, "t", Types.unbox(c).getName());
        }
        if (c == Boolean.class) {
            return JsonText.obj("k", Output.VAL_BOOL, "v", v.toString());
        }
        if (c == Character.class) {
            return JsonText.obj("k", Output.VAL_PRIM, "v", Exprs.charExpr((Character) v), "t", "char");
        }
        if (c == String.class) {
            String str = (String) v;
            if (str.length() > MAX_CHARS) {
                return big(str.length(), str.hashCode(), "length()");
            }
            if (identityLike(str)) {
                return JsonText.obj("k", Output.VAL_OPAQUE);
            }
            return JsonText.obj("k", Output.VAL_STRING, "v", Exprs.stringExpr(str));
        }
        String jdk = Jdk.expr(v, names);
        if (jdk != null) {
            return JsonText.obj("k", Output.VAL_EQUALS, "v", jdk);
        }
        String known = Values.expr(v);
        if (known != null) {
            names.imports.add(Values.importOf(v));
            return JsonText.obj("k", Output.VAL_EQUALS, "v", known);
        }
        if (c.isArray() || v instanceof Collection || v instanceof Map) {
            int w = weight(v, MAX_ELEMENTS + 1);
            if (w > MAX_ELEMENTS) {
                int n = c.isArray() ? Array.getLength(v) : v instanceof Map ? ((Map<?, ?>) v).size() : ((Collection<?>) v).size();
                return big(n, fingerprint(v, 200_000), c.isArray() ? "length" : "size()");
            }
        }
        if (v instanceof Enum) {
            Enum<?> e = (Enum<?>) v;
            Class<?> ec = e.getDeclaringClass();
            if (access.classAccessible(ec)) {
                return JsonText.obj("k", Output.VAL_ENUM, "v", names.erased(ec) + "." + e.name());
            }
            return JsonText.obj("k", Output.VAL_STRING, "v", Exprs.stringExpr(e.toString()), "via", "toString");
        }
        if (c.isArray()) {
            Class<?> comp = c.getComponentType();
            if (comp.isPrimitive() || comp == String.class || Types.unbox(comp).isPrimitive()) {
                StringBuilder sb = new StringBuilder("new ").append(names.erased(comp)).append("[]{");
                int n = Array.getLength(v);
                for (int i = 0; i < n; i++) {
                    Object e = Array.get(v, i);
                    sb.append(i == 0 ? "" : ", ").append(e == null ? "null" : Exprs.literal(e));
                }
                sb.append('}');
                String kind = comp == double.class ? Output.VAL_DARRAY : comp == float.class ? Output.VAL_FARRAY : Output.VAL_ARRAY;
                return JsonText.obj("k", kind, "v", sb.toString());
            }
            String deep = deepString(v);
            if (identityLike(deep)) {
                return big(Array.getLength(v), fingerprint(v, 200_000), "length");
            }
            return JsonText.obj("k", Output.VAL_STRING, "v", Exprs.stringExpr(deep), "via", "deep");
        }
        if (v instanceof List || v instanceof Set) {
            StringBuilder sb = new StringBuilder();
            boolean ok = true;
            int i = 0;
            for (Object e : (Collection<?>) v) {
                String lit = e == null ? "null" : Exprs.literal(e);
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
                return JsonText.obj("k", Output.VAL_EQUALS, "v", expr);
            }
        }
        if (v instanceof Collection || v instanceof Map) {
            String text = String.valueOf(v);
            if (identityLike(text)) {
                int n = v instanceof Map ? ((Map<?, ?>) v).size() : ((Collection<?>) v).size();
                return big(n, fingerprint(v, 200_000), "size()");
            }
            return JsonText.obj("k", Output.VAL_STRING, "v", Exprs.stringExpr(text), "via", "toString");
        }
        // another object: its observers and toString
        if (depth <= 0) {
            return JsonText.obj("k", Output.VAL_OPAQUE);
        }
        StringBuilder sb = new StringBuilder(Output.kindStart(Output.VAL_OBJECT)).append(",\"obs\":");
        sb.append(observe(v, c, names, depth - 1));
        return sb.append('}').toString();
    }

    /**
     * v written with the current graph's node names: a node, a list or set (nested too) or an
     * object array of nodes, literals and nulls; null when something in it has no such form.
     */
    private String nodeExpr(Object v, Names names) {
        if (v == null) {
            return "null";
        }
        String name = nodeName(v);
        if (name != null) {
            return name;
        }
        String lit = Exprs.literal(v);
        if (lit != null) {
            return lit;
        }
        List<String> parts = new ArrayList<>();
        Iterable<?> elems;
        if (v instanceof Object[]) {
            elems = Arrays.asList((Object[]) v);
        } else if (v instanceof List || v instanceof Set) {
            elems = (Collection<?>) v;
        } else {
            return null;
        }
        for (Object e : elems) {
            String x = nodeExpr(e, names);
            if (x == null || parts.size() >= MAX_ELEMENTS) {
                return null;
            }
            parts.add(x);
        }
        String joined = String.join(", ", parts);
        if (v instanceof Object[]) {
            return "new " + names.erased(v.getClass().getComponentType()) + "[]{" + joined + "}";
        }
        if (parts.isEmpty()) {
            names.imports.add("java.util.Collections");
            return v instanceof List ? "Collections.emptyList()" : "Collections.emptySet()";
        }
        names.imports.add("java.util.Arrays");
        if (v instanceof List) {
            return "Arrays.asList(" + joined + ")";
        }
        names.imports.add("java.util.HashSet");
        return "new HashSet<>(Arrays.asList(" + joined + "))";
    }

    /** Whether v (an array, collection or map, nested ones looked into, at most budget elements) holds a node of the current graph. */
    private boolean containsNode(Object v, int[] budget) {
        if (v == null || --budget[0] < 0) {
            return false;
        }
        if (nodeName(v) != null || nodeType != null && nodeType.isInstance(v) || linkedClass(v.getClass())) {
            return true;
        }
        Iterable<?> elems = v instanceof Object[] ? Arrays.asList((Object[]) v) : v instanceof Collection ? (Collection<?>) v
            : v instanceof Map ? ((Map<?, ?>) v).entrySet() : null;
        if (v instanceof Map.Entry) {
            return containsNode(((Map.Entry<?, ?>) v).getKey(), budget) || containsNode(((Map.Entry<?, ?>) v).getValue(), budget);
        }
        if (elems == null) {
            return false;
        }
        for (Object e : elems) {
            if (containsNode(e, budget)) {
                return true;
            }
        }
        return false;
    }

    private String nodeName(Object v) {
        return nodes == null ? null : nodes.get(v);
    }

    /** Whether c is a node class (Linked): its toString is never observed, its instances are named or counted. */
    private boolean linkedClass(Class<?> c) {
        return linkedCache.computeIfAbsent(c, k -> Linked.of(k, access) != null);
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
                r = JsonText.obj("k", Output.VAL_THROWS, "x", exceptionName(e.getCause(), names));
            } catch (ReflectiveOperationException | RuntimeException e) {
                continue;
            }
            sb.append(n++ == 0 ? "" : ",").append("{\"m\":").append(JsonText.json(m.getName() + "()"))
                .append(",\"st\":").append(JsonText.json(m.getReturnType().getName())).append(",\"r\":").append(r).append('}');
        }
        if (overridesToString(c) && !linkedClass(c)) {
            String r;
            try {
                String text = String.valueOf(target);
                r = identityLike(text) ? null : text.length() > MAX_CHARS ? big(text.length(), text.hashCode(), "length()")
                    : JsonText.obj("k", Output.VAL_STRING, "v", Exprs.stringExpr(text));
            } catch (RuntimeException e) {
                r = JsonText.obj("k", Output.VAL_THROWS, "x", exceptionName(e, names));
            }
            if (r != null) {
                sb.append(n++ == 0 ? "" : ",").append("{\"m\":\"toString()\",\"r\":").append(r).append('}');
            }
        }
        if (n == 0 && !c.getName().startsWith("java.") && !c.isEnum() && !c.isArray()) {
            // no getter and no toString: the fields a test in the package can read (never the
            // private ones: a test observes state only through what it can call or read)
            for (java.lang.reflect.Field f : fields(c)) {
                String r;
                try {
                    r = render(f.get(target), f.getType(), names, depth);
                } catch (ReflectiveOperationException | RuntimeException e) {
                    continue;
                }
                if (Output.isKind(r, Output.VAL_OPAQUE) || Output.isKind(r, Output.VAL_OBJECT)) {
                    continue;
                }
                sb.append(n++ == 0 ? "" : ",").append("{\"m\":").append(JsonText.json("field:" + f.getName()))
                    .append(",\"st\":").append(JsonText.json(f.getType().getName()))
                    .append(",\"acc\":").append(access.accessible(f.getModifiers(), f.getDeclaringClass()))
                    .append(",\"d\":").append(JsonText.json(names.erased(f.getDeclaringClass())))
                    .append(",\"r\":").append(r).append('}');
            }
        }
        return sb.append(']').toString();
    }

    /**
     * Queries of the receiver asked with the call's own arguments after the call
     * (inventory.quantity("b") after inventory.remove("b", 1)): public methods of one parameter
     * that return an observable value and are not named as mutators, each asked once, with the
     * first argument of a matching simple type (a primitive, String, enum). The entries, joined
     * by commas, as observe writes them; "" for none.
     */
    String queries(Object recv, Class<?> c, java.lang.reflect.Executable target, Object[] args, List<Gen> gens, Names names) {
        StringBuilder sb = new StringBuilder();
        int n = 0;
        for (Method m : Access.allMethods(c)) {
            int mods = m.getModifiers();
            if (Modifier.isStatic(mods) || m.getParameterCount() != 1 || m.getReturnType() == void.class || m.isSynthetic()
                || m.isBridge() || m.getDeclaringClass() == Object.class || m.equals(target) || throwsChecked(m)
                || !access.accessible(mods, m.getDeclaringClass()) || !observable(m.getReturnType())
                || !Inputs.accessorName(m.getName()) || mutatorVerb(m.getName()) || m.getName().equals("equals")
                || m.getName().equals("compareTo")) {
                continue;
            }
            Class<?> pt = m.getParameterTypes()[0];
            for (int i = 0; i < args.length && i < gens.size(); i++) {
                Object a = args[i];
                if (a == null) {
                    continue;
                }
                Class<?> ac = a.getClass();
                boolean simple = Types.unbox(ac).isPrimitive() || ac == String.class || ac.isEnum();
                boolean fits = pt.isPrimitive() ? Types.unbox(ac) == pt : pt.isInstance(a);
                if (!simple || !fits) {
                    continue;
                }
                String r;
                try {
                    r = render(m.invoke(recv, a), m.getReturnType(), names, 0);
                } catch (InvocationTargetException e) {
                    r = JsonText.obj("k", Output.VAL_THROWS, "x", exceptionName(e.getCause(), names));
                } catch (ReflectiveOperationException | RuntimeException e) {
                    break;
                }
                sb.append(n++ == 0 ? "" : ",").append("{\"m\":").append(JsonText.json(m.getName() + "(" + gens.get(i).expr(names) + ")"))
                    .append(",\"st\":").append(JsonText.json(m.getReturnType().getName())).append(",\"r\":").append(r).append('}');
                break;
            }
        }
        return sb.toString();
    }

    /** Whether a method's name says it changes what it is called on. */
    static boolean mutatorVerb(String n) {
        for (String p : new String[] {"set", "add", "put", "insert", "delete", "push", "append", "offer", "update", "deposit",
            "withdraw", "transfer", "record", "register", "write", "send", "apply", "process", "execute", "run", "start", "stop",
            "schedule", "enqueue", "submit", "mark", "clear", "move", "swap", "sort", "fill", "try", "accept", "handle"}) {
            if (n.startsWith(p)) {
                return true;
            }
        }
        return false;
    }

    /** The instance fields of c and its superclasses (not Object's) whose values can be observed, by name. */
    private List<java.lang.reflect.Field> fields(Class<?> c) {
        List<java.lang.reflect.Field> out = new ArrayList<>();
        if (!access.classAccessible(c)) {
            return out;
        }
        for (Class<?> k = c; k != null && k != Object.class; k = k.getSuperclass()) {
            if (!access.classAccessible(k)) {
                break;
            }
            for (java.lang.reflect.Field f : k.getDeclaredFields()) {
                if (Modifier.isStatic(f.getModifiers()) || f.isSynthetic() || !observable(f.getType())
                    || !access.accessible(f.getModifiers(), k)) {
                    continue;
                }
                try {
                    f.setAccessible(true);
                } catch (RuntimeException e) {
                    continue;
                }
                out.add(f);
            }
        }
        out.sort(Comparator.comparing(java.lang.reflect.Field::getName));
        return out;
    }

    /**
     * A writer, builder or byte stream argument after the call, by its text (StringWriter's
     * toString is what was written); null when the text shows an identity hash.
     */
    String renderText(Object a) {
        String text = String.valueOf(a);
        if (identityLike(text)) {
            return null;
        }
        if (text.length() > MAX_CHARS) {
            return big(text.length(), text.hashCode(), "toString().length()");
        }
        return JsonText.obj("k", Output.VAL_STRING, "v", Exprs.stringExpr(text), "via", "toString");
    }

    /** Whether a is an argument read by its text after the call (what the method wrote or appended to it). */
    static boolean textSink(Object a) {
        return a instanceof Appendable && !(a instanceof String) || a instanceof java.io.ByteArrayOutputStream;
    }

    /** Whether text shows an identity hash (Object.toString of something inside it). */
    static boolean identityLike(String text) {
        return text.indexOf('@') >= 0 && IDENTITY.matcher(text).find();
    }

    /** A result too large to write out: its size (what the test asserts) and a hash of its contents. */
    private static String big(int size, int hash, String via) {
        return JsonText.obj("k", Output.VAL_BIG, "v", Integer.toString(size), "via", via, "x", Integer.toHexString(hash));
    }

    /** The elements of v, nested arrays and collections counted, up to cap. */
    static int weight(Object v, int cap) {
        int[] n = {0};
        weigh(v, cap, n);
        return n[0];
    }

    private static void weigh(Object v, int cap, int[] n) {
        if (n[0] > cap || v == null) {
            return;
        }
        if (v.getClass().isArray()) {
            int len = Array.getLength(v);
            n[0] += len;
            if (!v.getClass().getComponentType().isPrimitive()) {
                for (int i = 0; i < len && n[0] <= cap; i++) {
                    weigh(Array.get(v, i), cap, n);
                }
            }
        } else if (v instanceof Collection) {
            for (Object e : (Collection<?>) v) {
                n[0]++;
                weigh(e, cap, n);
                if (n[0] > cap) {
                    return;
                }
            }
        } else if (v instanceof Map) {
            for (Map.Entry<?, ?> e : ((Map<?, ?>) v).entrySet()) {
                n[0] += 2;
                weigh(e.getKey(), cap, n);
                weigh(e.getValue(), cap, n);
                if (n[0] > cap) {
                    return;
                }
            }
        } else {
            n[0]++;
        }
    }

    /**
     * A hash of v's contents that is the same in every run: literals by value, other objects by
     * class only (never an identity hash), at most budget leaves.
     */
    static int fingerprint(Object v, int budget) {
        int[] left = {budget};
        return fp(v, left);
    }

    private static int fp(Object v, int[] left) {
        if (v == null) {
            return 0;
        }
        if (--left[0] < 0) {
            return 1;
        }
        if (v.getClass().isArray()) {
            int h = 17;
            int len = Array.getLength(v);
            for (int i = 0; i < len && left[0] >= 0; i++) {
                h = h * 31 + fp(Array.get(v, i), left);
            }
            return h * 31 + len;
        }
        if (v instanceof Collection) {
            int h = 19;
            for (Object e : (Collection<?>) v) {
                h = h * 31 + fp(e, left);
                if (left[0] < 0) {
                    break;
                }
            }
            return h * 31 + ((Collection<?>) v).size();
        }
        if (v instanceof Map) {
            int h = 23;
            for (Map.Entry<?, ?> e : ((Map<?, ?>) v).entrySet()) {
                h = h * 31 + fp(e.getKey(), left) * 7 + fp(e.getValue(), left);
                if (left[0] < 0) {
                    break;
                }
            }
            return h;
        }
        String lit = Exprs.literal(v);
        return lit != null ? lit.hashCode() : v.getClass().getName().hashCode();
    }

    String exceptionName(Throwable t, Names names) {
        Class<?> c = t.getClass();
        while (!Modifier.isPublic(c.getModifiers()) || !access.classAccessible(c)) {
            c = c.getSuperclass();
        }
        return names.erased(c);
    }
}
