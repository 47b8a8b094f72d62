package advertest.offline;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Proxy;
import java.lang.reflect.Type;
import java.lang.reflect.TypeVariable;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Arguments of a functional interface (one abstract method): lambdas that return their first
 * argument (identity, where its type fits the result), a constant (the simplest value of the
 * result's type; true and false for a predicate), do nothing (a void method), or throw. The
 * explorer calls them as dynamic proxies that behave as the lambda the test writes.
 */
final class Lambdas {
    private Lambdas() {
    }

    /** The one abstract method of an interface a lambda can implement, or null. */
    static Method sam(Class<?> c) {
        if (!c.isInterface() || c.isAnnotation()) {
            return null;
        }
        Method found = null;
        for (Method m : c.getMethods()) {
            if (!Modifier.isAbstract(m.getModifiers()) || objectMethod(m)) {
                continue;
            }
            if (found != null && !(found.getName().equals(m.getName())
                && java.util.Arrays.equals(found.getParameterTypes(), m.getParameterTypes()))) {
                return null;
            }
            found = m;
        }
        return found == null || found.getTypeParameters().length > 0 ? null : found;
    }

    private static boolean objectMethod(Method m) {
        try {
            Object.class.getMethod(m.getName(), m.getParameterTypes());
            return true;
        } catch (NoSuchMethodException e) {
            return false;
        }
    }

    /** The lambdas for a parameter of type (whose raw class c has the abstract method sam). */
    static List<Gen> pool(Type type, Class<?> c, Method sam, Inputs inputs) {
        List<Gen> out = new ArrayList<>();
        Type ret = resolve(sam.getGenericReturnType(), c, type);
        Class<?> rc = Types.raw(ret);
        Type[] ps = sam.getGenericParameterTypes();
        if (sam.getReturnType() == void.class) {
            out.add(new LambdaGen(c, sam, "nothing", null));
        } else {
            if (ps.length > 0 && Types.unbox(rc).isAssignableFrom(Types.unbox(Types.raw(resolve(ps[0], c, type))))) {
                out.add(new LambdaGen(c, sam, "identity", null));
            }
            try {
                List<Gen> consts = Combinations.nonNull(inputs.pool(ret, 0));
                int n = Types.unbox(rc) == boolean.class ? 2 : 1;
                for (int i = 0; i < Math.min(n, consts.size()); i++) {
                    if (consts.get(i) instanceof Gen.Const && consts.get(i) != Gen.NULL) {
                        out.add(new LambdaGen(c, sam, "constant", consts.get(i)));
                    }
                }
            } catch (Unsupported u) {
                // no constant of that type
            }
            if (!rc.isPrimitive()) {
                out.add(new LambdaGen(c, sam, "constant", Gen.NULL));
            }
        }
        out.add(new LambdaGen(c, sam, "throwing", null));
        return out;
    }

    /**
     * t with the type variables of c and of the interfaces it extends replaced by the
     * parameter's type arguments (UnaryOperator<String>'s apply takes and returns a String).
     */
    private static Type resolve(Type t, Class<?> c, Type param) {
        java.util.Map<TypeVariable<?>, Type> bound = new java.util.HashMap<>();
        bind(c, param, bound, 0);
        for (int i = 0; i < 8 && t instanceof TypeVariable && bound.containsKey(t); i++) {
            t = bound.get(t);
        }
        return Types.boxed(t);
    }

    private static void bind(Class<?> c, Type as, java.util.Map<TypeVariable<?>, Type> bound, int depth) {
        if (depth > 8) {
            return;
        }
        TypeVariable<?>[] vars = c.getTypeParameters();
        if (as instanceof ParameterizedType) {
            Type[] args = ((ParameterizedType) as).getActualTypeArguments();
            for (int i = 0; i < vars.length && i < args.length; i++) {
                bound.put(vars[i], args[i] instanceof TypeVariable ? args[i] : Types.boxed(args[i]));
            }
        }
        for (Type s : c.getGenericInterfaces()) {
            bind(Types.raw(s), s, bound, depth + 1);
        }
    }

    /** One lambda: what its body does (identity, constant, nothing, throwing). */
    static final class LambdaGen extends Gen {
        final Class<?> type;
        final Method sam;
        final String mode;
        final Gen constant;

        LambdaGen(Class<?> type, Method sam, String mode, Gen constant) {
            this.type = type;
            this.sam = sam;
            this.mode = mode;
            this.constant = constant;
        }

        Object make() throws Throwable {
            final Object value = constant == null ? null : constant.make();
            InvocationHandler h = (proxy, m, args) -> {
                if (m.getName().equals("equals") && m.getParameterCount() == 1 && m.getDeclaringClass() == Object.class) {
                    return proxy == args[0];
                }
                if (m.getDeclaringClass() == Object.class) {
                    // as a lambda's: an identity hash, which the observer never asserts
                    int id = System.identityHashCode(proxy);
                    return m.getName().equals("hashCode") ? (Object) id : type.getName() + "$$Lambda@" + Integer.toHexString(id);
                }
                if (m.isDefault()) {
                    return InvocationHandler.class.getMethod("invokeDefault", Object.class, Method.class, Object[].class)
                        .invoke(null, proxy, m, args);
                }
                switch (mode) {
                    case "identity":
                        return args[0];
                    case "throwing":
                        throw new IllegalStateException("thrown by the lambda");
                    case "constant":
                        return value;
                    default:
                        return null;
                }
            };
            return Proxy.newProxyInstance(type.getClassLoader(), new Class<?>[] {type}, h);
        }

        String expr(Names names) {
            StringBuilder sb = new StringBuilder();
            int n = sam.getParameterCount();
            sb.append(n == 1 ? "" : "(");
            for (int i = 0; i < n; i++) {
                sb.append(i == 0 ? "" : ", ").append("p").append(i);
            }
            sb.append(n == 1 ? "" : ")").append(" -> ");
            switch (mode) {
                case "identity":
                    return sb.append("p0").toString();
                case "throwing":
                    return sb.append("{ throw new IllegalStateException(\"thrown by the lambda\"); }").toString();
                case "constant":
                    return sb.append(constant.expr(names)).toString();
                default:
                    return sb.append("{ }").toString();
            }
        }

        String token() {
            return mode.equals("constant") ? "Returning" + constant.token() : Exprs.capitalize(mode) + "Lambda";
        }

        @Override
        void kinds(String at, Set<String> out) {
            out.add(at + "lambda " + mode);
        }
    }
}
