package advertest.offline;

import java.lang.reflect.Array;
import java.lang.reflect.GenericArrayType;
import java.lang.reflect.Modifier;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.lang.reflect.TypeVariable;
import java.lang.reflect.WildcardType;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.LinkedList;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/** Reflection over types: generic arguments, boxing, concrete collections, source type names. */
final class Types {
    private Types() {
    }

    static Type boxed(Type t) {
        if (t instanceof WildcardType) {
            Type[] ub = ((WildcardType) t).getUpperBounds();
            return ub.length > 0 ? ub[0] : Object.class;
        }
        if (t instanceof TypeVariable) {
            // a type variable: Integer where it satisfies the bound (Object, Number,
            // Comparable<T>, Serializable), else the bound itself (T extends Collection<?>)
            Type[] b = ((TypeVariable<?>) t).getBounds();
            Class<?> bound = b.length > 0 ? raw(b[0]) : Object.class;
            if (bound.isAssignableFrom(Integer.class)) {
                return Integer.class;
            }
            // an F-bounded variable (T extends FieldElement<T>) stands for its raw bound: its
            // bound's type argument is the variable again, which would be resolved for ever
            return mentions(b[0], t, 0) ? bound : b[0];
        }
        return t;
    }

    /** Whether type mentions the type variable v among its type arguments (to a few levels). */
    static boolean mentions(Type type, Type v, int depth) {
        if (type.equals(v)) {
            return true;
        }
        if (depth > 4) {
            return true; // nested that deep: treated as recursive, the safe side
        }
        if (type instanceof ParameterizedType) {
            for (Type a : ((ParameterizedType) type).getActualTypeArguments()) {
                if (mentions(a, v, depth + 1)) {
                    return true;
                }
            }
        } else if (type instanceof WildcardType) {
            for (Type a : ((WildcardType) type).getUpperBounds()) {
                if (mentions(a, v, depth + 1)) {
                    return true;
                }
            }
            for (Type a : ((WildcardType) type).getLowerBounds()) {
                if (mentions(a, v, depth + 1)) {
                    return true;
                }
            }
        } else if (type instanceof GenericArrayType) {
            return mentions(((GenericArrayType) type).getGenericComponentType(), v, depth + 1);
        }
        return false;
    }

    static Class<?> raw(Type t) {
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

    static Type typeArg(Type t, int i) {
        if (t instanceof ParameterizedType) {
            Type[] as = ((ParameterizedType) t).getActualTypeArguments();
            if (i < as.length) {
                return boxed(as[i]);
            }
        }
        return Integer.class;
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

    /** A class made through its constructors (not a value type the pools know). */
    static boolean isPlainClass(Class<?> c) {
        return !c.isPrimitive() && !unbox(c).isPrimitive() && c != String.class && c != CharSequence.class
            && c != Object.class && c != Number.class && c != Comparable.class && !c.isEnum() && !c.isArray()
            && !Collection.class.isAssignableFrom(c) && !Map.class.isAssignableFrom(c) && c != Iterable.class
            && !c.isInterface() && !Modifier.isAbstract(c.getModifiers()) && !Values.known(c) && !Jdk.handles(c)
            && c != Class.class;
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
}
