package advertest.offline;

import java.lang.reflect.Executable;
import java.lang.reflect.Method;
import java.lang.reflect.Type;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The method or constructor that Go names as the source writes it (its name and the parameter
 * types' text): findTarget's for a method a test calls, Results' for one called through a result.
 */
final class Lookup {
    private Lookup() {
    }

    /** The method or constructor of c named by name and paramTypes as the source writes them, or null. */
    static Executable declared(Class<?> c, String name, String[] paramTypes) {
        List<Executable> cands = new ArrayList<>();
        if (name.equals("<init>")) {
            cands.addAll(Arrays.asList(c.getDeclaredConstructors()));
        } else {
            for (Method m : c.getDeclaredMethods()) {
                if (m.getName().equals(name) && !m.isBridge() && !m.isSynthetic()) {
                    cands.add(m);
                }
            }
        }
        for (Executable e : cands) {
            if (e.getParameterCount() != paramTypes.length) {
                continue;
            }
            Class<?>[] ps = e.getParameterTypes();
            boolean ok = true;
            Type[] gs = e.getGenericParameterTypes();
            for (int i = 0; i < ps.length && ok; i++) {
                ok = Types.simpleName(paramTypes[i]).equals(ps[i].getSimpleName())
                    || gs.length == ps.length && typeVariableNamed(gs[i], Types.simpleName(paramTypes[i]))
                    || ps[i].getSimpleName().equals("Object") && Types.simpleName(paramTypes[i]).length() <= 2;
            }
            if (ok) {
                return e;
            }
        }
        return null;
    }

    /**
     * Whether a parameter's generic type is the type variable the source names (T, or T[] and
     * T... as an array of it): its erased class is the bound (Collection for T extends
     * Collection<?>), which the source's text does not say.
     */
    static boolean typeVariableNamed(Type g, String name) {
        while (name.endsWith("[]")) {
            if (!(g instanceof java.lang.reflect.GenericArrayType)) {
                return false;
            }
            g = ((java.lang.reflect.GenericArrayType) g).getGenericComponentType();
            name = name.substring(0, name.length() - 2);
        }
        return g instanceof java.lang.reflect.TypeVariable && ((java.lang.reflect.TypeVariable<?>) g).getName().equals(name);
    }
}
