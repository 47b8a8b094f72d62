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
    private final Access access;

    Observer(Access access) {
        this.access = access;
    }

    List<Method> observers(Class<?> c) {
        List<Method> out = new ArrayList<>();
        for (Method m : Access.allMethods(c)) {
            int mods = m.getModifiers();
            if (Modifier.isStatic(mods) || m.getParameterCount() != 0 || m.getReturnType() == void.class
                || m.isSynthetic() || m.isBridge() || m.getDeclaringClass() == Object.class
                || !access.accessible(mods, m.getDeclaringClass()) || !access.classAccessible(m.getDeclaringClass()) && !Modifier.isPublic(mods)) {
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
        Class<?> p = Types.unbox(t);
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
        Class<?> sp = Types.unbox(staticType);
        if (c == Double.class || c == Float.class) {
            boolean f = c == Float.class;
            return JsonText.obj("k", f ? "float" : "double", "v", Exprs.doubleExpr(((Number) v).doubleValue(), f));
        }
        if (c == Integer.class || c == Long.class || c == Short.class || c == Byte.class) {
            Gen.Const k = Exprs.intConst(c, ((Number) v).longValue());
            return JsonText.obj("k", "prim", "v", k.expr, "t", Types.unbox(c).getName());
        }
        if (c == Boolean.class) {
            return JsonText.obj("k", "bool", "v", v.toString());
        }
        if (c == Character.class) {
            return JsonText.obj("k", "prim", "v", Exprs.charExpr((Character) v), "t", "char");
        }
        if (c == String.class) {
            return JsonText.obj("k", "string", "v", Exprs.stringExpr((String) v));
        }
        if (v instanceof Enum) {
            Enum<?> e = (Enum<?>) v;
            Class<?> ec = e.getDeclaringClass();
            if (access.classAccessible(ec)) {
                return JsonText.obj("k", "enum", "v", names.erased(ec) + "." + e.name());
            }
            return JsonText.obj("k", "string", "v", Exprs.stringExpr(e.toString()), "via", "toString");
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
                String kind = comp == double.class ? "darray" : comp == float.class ? "farray" : "array";
                return JsonText.obj("k", kind, "v", sb.toString());
            }
            return JsonText.obj("k", "string", "v", Exprs.stringExpr(deepString(v)), "via", "deep");
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
                return JsonText.obj("k", "equals", "v", expr);
            }
        }
        if (v instanceof Collection || v instanceof Map) {
            return JsonText.obj("k", "string", "v", Exprs.stringExpr(String.valueOf(v)), "via", "toString");
        }
        // another object: its observers and toString
        if (depth <= 0) {
            return "{\"k\":\"opaque\"}";
        }
        StringBuilder sb = new StringBuilder("{\"k\":\"object\",\"obs\":");
        sb.append(observe(v, c, names, depth - 1));
        return sb.append('}').toString();
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
                r = JsonText.obj("k", "throws", "x", exceptionName(e.getCause(), names));
            } catch (ReflectiveOperationException | RuntimeException e) {
                continue;
            }
            sb.append(n++ == 0 ? "" : ",").append("{\"m\":").append(JsonText.json(m.getName() + "()"))
                .append(",\"st\":").append(JsonText.json(m.getReturnType().getName())).append(",\"r\":").append(r).append('}');
        }
        if (overridesToString(c)) {
            String r;
            try {
                r = JsonText.obj("k", "string", "v", Exprs.stringExpr(String.valueOf(target)));
            } catch (RuntimeException e) {
                r = JsonText.obj("k", "throws", "x", exceptionName(e, names));
            }
            sb.append(n == 0 ? "" : ",").append("{\"m\":\"toString()\",\"r\":").append(r).append('}');
        }
        return sb.append(']').toString();
    }

    String exceptionName(Throwable t, Names names) {
        Class<?> c = t.getClass();
        while (!Modifier.isPublic(c.getModifiers()) || !access.classAccessible(c)) {
            c = c.getSuperclass();
        }
        return names.erased(c);
    }
}
