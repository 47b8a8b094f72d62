package advertest.offline;

import java.lang.reflect.Constructor;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** What a test in the generated test's package can reach: classes, constructors, methods. */
final class Access {
    final String testPackage;

    Access(String testPackage) {
        this.testPackage = testPackage;
    }

    /** Type names as a test in that package writes them. */
    Names names() {
        return new Names(testPackage);
    }

    boolean accessible(int mods, Class<?> owner) {
        if (Modifier.isPublic(mods)) {
            return true;
        }
        return !Modifier.isPrivate(mods) && packageOf(owner).equals(testPackage);
    }

    static String packageOf(Class<?> c) {
        String n = c.getName();
        int d = n.lastIndexOf('.');
        return d < 0 ? "" : n.substring(0, d);
    }

    boolean classAccessible(Class<?> c) {
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

    /**
     * The static factories of c a test can call: static methods of c itself that return a c
     * (DateRange.of(String, String)), in a fixed order.
     */
    List<Method> factories(Class<?> c) {
        List<Method> out = new ArrayList<>();
        if (!classAccessible(c) || c.isEnum()) {
            return out;
        }
        for (Method m : c.getDeclaredMethods()) {
            if (Modifier.isStatic(m.getModifiers()) && m.getReturnType() == c && !m.isSynthetic() && !m.isBridge()
                && accessible(m.getModifiers(), c) && !readsClock(m)) {
                m.setAccessible(true);
                out.add(m);
            }
        }
        out.sort(Comparator.comparingInt((Method m) -> m.getParameterCount()).thenComparing(Method::toGenericString));
        return out;
    }

    /**
     * Whether a factory makes its value from the clock: now() and today(), with or without a zone
     * or chronology (joda-time's LocalDate.now(), DateTime.now(zone)). A test built on one would
     * pass today and fail when the clock has moved on (another month, another day of the week),
     * which no second run a few seconds later shows; values are made at fixed instants instead.
     */
    static boolean readsClock(Method m) {
        return m.getName().equals("now") || m.getName().equals("today");
    }

    static List<Method> allMethods(Class<?> c) {
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
}
