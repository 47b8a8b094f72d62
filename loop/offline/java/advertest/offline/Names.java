package advertest.offline;

import java.lang.reflect.GenericArrayType;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.util.Set;
import java.util.TreeSet;

/** Type names as the generated test writes them, and the imports they need. */
final class Names {
    final Set<String> imports = new TreeSet<>();
    private final String testPackage;

    Names(String testPackage) {
        this.testPackage = testPackage;
    }

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
                sb.append(i == 0 ? "" : ", ").append(decl(Types.boxed(as[i])));
            }
            return sb.append('>').toString();
        }
        if (t instanceof GenericArrayType) {
            return decl(((GenericArrayType) t).getGenericComponentType()) + "[]";
        }
        return "Object";
    }
}
