package advertest.offline;

import java.lang.reflect.Constructor;
import java.lang.reflect.Executable;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Receivers of a concrete method of an abstract class or a default method of an interface: the
 * project's implementations that do not override the method (Impls), made through their
 * constructors and factories, and the type's own static factories; else a generated minimal
 * subclass (Go writes its source, which this class renders, into the driver and into the test
 * class as a static nested class); else the type's accessible static fields of its own type
 * (ToStringStyle.DEFAULT_STYLE: shared objects, so last, after anything made afresh for each
 * call). Only what a test in the class's package can name and call; never reflection.
 */
final class Abstracts {
    /** Implementations whose makers are tried as receivers, at most. */
    private static final int MAX_IMPLS = 4;

    private Abstracts() {
    }

    /** Thrown when a minimal subclass would do and Go has not sent one yet: its source goes back with the reason. */
    static final class NeedsMinimal extends Unsupported {
        private static final long serialVersionUID = 1L;
        final String source;

        NeedsMinimal(String why, String source) {
            super(why);
            this.source = source;
        }
    }

    /**
     * Adds the makers of receivers of the abstract type c to typical and simplest (as Inputs
     * does for a concrete class). minimal is the generated subclass Go sent (null for none).
     */
    static void makers(Inputs in, Access access, Impls impls, Class<?> c, Executable target, Class<?> minimal,
            List<Gen> typical, List<Gen> simplest) throws Unsupported {
        if (!access.classAccessible(c)) {
            throw new Unsupported("the receiver class " + c.getName() + " cannot be named from a test in its package (private, inner, local or anonymous)");
        }
        List<String> tried = new ArrayList<>();
        int used = 0;
        for (Class<?> k : impls.of(c)) {
            if (used >= MAX_IMPLS) {
                break;
            }
            if (overrides(k, c, target)) {
                tried.add(k.getSimpleName() + " overrides it");
                continue;
            }
            int before = typical.size() + simplest.size();
            in.makers(k, target, typical, simplest);
            if (typical.size() + simplest.size() > before) {
                used++;
            } else {
                tried.add(k.getSimpleName() + " has no constructor with arguments it can make");
            }
        }
        for (Method f : access.factories(c)) {
            in.factoryMakers(f, target, simplest);
        }
        if (!typical.isEmpty() || !simplest.isEmpty()) {
            return;
        }
        String implsTried = tried.isEmpty() ? "no implementation in the project" : "implementations tried: " + String.join(", ", tried);
        if (minimal != null && c.isAssignableFrom(minimal)) {
            for (Constructor<?> k : minimal.getDeclaredConstructors()) {
                k.setAccessible(true);
                List<Gen> typ = new ArrayList<>();
                try {
                    for (java.lang.reflect.Type pt : k.getGenericParameterTypes()) {
                        typ.add(in.seqValue(pt, 2));
                    }
                } catch (Unsupported u) {
                    continue;
                }
                typical.add(new MinimalGen(new Gen.NewGen(k, typ)));
            }
            if (!typical.isEmpty()) {
                return;
            }
        }
        String[] why = new String[1];
        String source = minimalSource(c, access, why);
        if (source != null && minimal == null) {
            throw new NeedsMinimal("the receiver " + c.getName() + " is abstract (" + implsTried + "): a minimal subclass is needed", source);
        }
        List<Gen> shared = staticFields(c, access, target);
        if (!shared.isEmpty()) {
            simplest.addAll(shared);
            return;
        }
        throw new Unsupported("the receiver " + c.getName() + " is " + (c.isInterface() ? "an interface" : "an abstract class") + " ("
            + implsTried + ") and no minimal subclass can be written: " + (source == null ? why[0] : "its constructors take arguments it cannot make"));
    }

    /**
     * ptypes with each of c's own type parameters replaced by the class every receiver's class
     * binds it to (PatriciaTrie extends AbstractPatriciaTrie<String, V>: AbstractBitwiseTrie's
     * K is String), so that its arguments are of a type the receiver takes; ptypes itself when
     * c is not abstract, or the receivers disagree or leave a parameter open.
     */
    static java.lang.reflect.Type[] bound(Class<?> c, List<Input.Receiver> receivers, java.lang.reflect.Type[] ptypes) {
        java.lang.reflect.Type[] out = ptypes.clone();
        if (!(c.isInterface() || Modifier.isAbstract(c.getModifiers())) || c.getTypeParameters().length == 0 || receivers == null) {
            return out;
        }
        for (int i = 0; i < ptypes.length; i++) {
            if (!(ptypes[i] instanceof java.lang.reflect.TypeVariable) || ((java.lang.reflect.TypeVariable<?>) ptypes[i]).getGenericDeclaration() != c) {
                continue;
            }
            Class<?> agreed = null;
            for (Input.Receiver r : receivers) {
                Class<?> k = madeClass(r.make);
                Class<?> b = null;
                if (k != null) {
                    Map<java.lang.reflect.TypeVariable<?>, java.lang.reflect.Type> env = new java.util.HashMap<>();
                    bind(k, env, new java.util.HashSet<>());
                    b = boundClass(ptypes[i], env, 0);
                }
                if (b == null || agreed != null && agreed != b) {
                    agreed = null;
                    break;
                }
                agreed = b;
            }
            if (agreed != null) {
                out[i] = agreed;
            }
        }
        return out;
    }

    /** The class a receiver's maker makes, as declared; null when unknown. */
    private static Class<?> madeClass(Gen g) {
        if (g instanceof Gen.NewGen) {
            return ((Gen.NewGen) g).ctor.getDeclaringClass();
        }
        if (g instanceof Gen.FactoryGen) {
            return ((Gen.FactoryGen) g).factory.getReturnType();
        }
        return null;
    }

    /** The class env binds the type variable t to, through other variables; null when it stays open. */
    private static Class<?> boundClass(java.lang.reflect.Type t, Map<java.lang.reflect.TypeVariable<?>, java.lang.reflect.Type> env, int depth) {
        if (depth > 16) {
            return null;
        }
        if (t instanceof Class) {
            return (Class<?>) t;
        }
        if (t instanceof java.lang.reflect.ParameterizedType) {
            return (Class<?>) ((java.lang.reflect.ParameterizedType) t).getRawType();
        }
        if (t instanceof java.lang.reflect.TypeVariable && env.containsKey(t)) {
            return boundClass(env.get(t), env, depth + 1);
        }
        return null;
    }

    /** Whether k, or a class between it and c, overrides target (the call would not run c's body). */
    static boolean overrides(Class<?> k, Class<?> c, Executable target) {
        for (Class<?> x = k; x != null && x != c; x = x.getSuperclass()) {
            try {
                Method m = x.getDeclaredMethod(target.getName(), target.getParameterTypes());
                if (!m.isBridge() && !m.isSynthetic()) {
                    return true;
                }
            } catch (NoSuchMethodException e) {
                // not here
            }
        }
        return false;
    }

    /**
     * The accessible static fields of c and of its nested classes typed as c or a subtype, whose
     * value is not null and does not override target: ToStringStyle.DEFAULT_STYLE.
     */
    private static List<Gen> staticFields(Class<?> c, Access access, Executable target) {
        List<Class<?>> owners = new ArrayList<>();
        owners.add(c);
        try {
            owners.addAll(Arrays.asList(c.getDeclaredClasses()));
        } catch (LinkageError e) {
            // the nested classes do not load: c's own fields only
        }
        List<Gen> out = new ArrayList<>();
        for (Class<?> o : owners) {
            if (!access.classAccessible(o)) {
                continue;
            }
            Field[] fs = o.getDeclaredFields();
            Arrays.sort(fs, (a, b) -> a.getName().compareTo(b.getName()));
            for (Field f : fs) {
                int m = f.getModifiers();
                if (!Modifier.isStatic(m) || !Modifier.isFinal(m) || f.isSynthetic() || !c.isAssignableFrom(f.getType())
                    || !access.accessible(m, o)) {
                    continue;
                }
                try {
                    f.setAccessible(true);
                    Object v = f.get(null);
                    if (v != null && !overrides(v.getClass(), c, target)) {
                        out.add(new FieldGen(f));
                    }
                } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
                    // a field it cannot read: left out
                }
            }
        }
        return out;
    }

    /**
     * The Java source of a static nested class that extends c (implements it, for an
     * interface) and implements every abstract method with a default value (0, false, an
     * empty string, array or collection, null), with one constructor per accessible
     * constructor of c calling it; null, with why[0] set, when no such class can be written.
     */
    static String minimalSource(Class<?> c, Access access, String[] why) {
        if (c.getEnclosingClass() != null && !Modifier.isStatic(c.getModifiers()) && !c.isInterface()) {
            why[0] = "it is an inner class";
            return null;
        }
        if (sealed(c)) {
            why[0] = "it is sealed";
            return null;
        }
        String name = minimalName(c);
        List<Constructor<?>> ctors = new ArrayList<>();
        if (!c.isInterface()) {
            for (Constructor<?> k : c.getDeclaredConstructors()) {
                if (!k.isSynthetic() && (Modifier.isPublic(k.getModifiers()) || Modifier.isProtected(k.getModifiers())
                    || access.accessible(k.getModifiers(), c))) {
                    ctors.add(k);
                }
            }
            if (ctors.isEmpty()) {
                why[0] = "no constructor of it is accessible from its package";
                return null;
            }
            ctors.sort((a, b) -> a.getParameterCount() != b.getParameterCount() ? a.getParameterCount() - b.getParameterCount()
                : a.toGenericString().compareTo(b.toGenericString()));
        }
        List<Needed> abstracts = abstractMethods(c);
        String pkg = access.testPackage;
        StringBuilder sb = new StringBuilder();
        sb.append("    /** A minimal ").append(c.isInterface() ? "implementation" : "subclass").append(" of ").append(c.getSimpleName())
            .append(": the smallest receiver for its concrete methods; every abstract method returns a default value. */\n");
        sb.append("    @SuppressWarnings({\"unchecked\", \"rawtypes\"})\n");
        sb.append("    static final class ").append(name).append(c.isInterface() ? " implements " : " extends ").append(qualified(c, pkg)).append(" {\n");
        for (Constructor<?> k : ctors) {
            sb.append("        ").append(name).append('(').append(params(k.getParameterTypes(), pkg)).append(')').append(throwsClause(k, pkg))
                .append(" {\n            super(").append(argNames(k.getParameterCount())).append(");\n        }\n\n");
        }
        for (Needed n : abstracts) {
            Method m = n.decl;
            int mods = m.getModifiers();
            if (!n.isPublic && !Modifier.isProtected(mods) && !Access.packageOf(m.getDeclaringClass()).equals(pkg)) {
                why[0] = "its abstract method " + m.getName() + " is package-private in " + Access.packageOf(m.getDeclaringClass());
                return null;
            }
            String acc = n.isPublic ? "public " : Modifier.isProtected(mods) ? "protected " : "";
            sb.append("        @Override\n        ").append(acc).append(qualified(n.ret, pkg)).append(' ').append(m.getName())
                .append('(').append(params(n.params, pkg)).append(") {\n");
            String v = defaultValue(n.ret, pkg);
            sb.append(v == null ? "        }\n\n" : "            return " + v + ";\n        }\n\n");
        }
        String out = sb.toString();
        if (out.endsWith("\n\n")) {
            out = out.substring(0, out.length() - 1);
        }
        return out + "    }\n";
    }

    /** The generated class's name: MinimalFoo for Foo. */
    static String minimalName(Class<?> c) {
        return "Minimal" + c.getSimpleName();
    }

    /** Whether c is sealed (Java 17's Class.isSealed, asked reflectively so that the explorer still runs on Java 8). */
    private static boolean sealed(Class<?> c) {
        try {
            return (Boolean) Class.class.getMethod("isSealed").invoke(c);
        } catch (ReflectiveOperationException | RuntimeException e) {
            return false;
        }
    }

    /** An abstract method the minimal subclass implements, its types as the subclass sees them. */
    static final class Needed {
        final Method decl;
        final Class<?> ret;
        final Class<?>[] params;
        final boolean isPublic;

        Needed(Method decl, Class<?> ret, Class<?>[] params, boolean isPublic) {
            this.decl = decl;
            this.ret = ret;
            this.params = params;
            this.isPublic = isPublic;
        }
    }

    /**
     * The abstract methods a concrete subclass of c must implement, in a fixed order (by
     * name and erased parameters): a class's nearest declaration of a signature decides
     * (concrete, or a bridge javac wrote for it: implemented); else the interfaces' most
     * specific declarations (those no sub-interface redeclares): one default implements it,
     * anything else needs an implementation, with the most specific return type among them.
     * Types are resolved through c's type arguments (Solver extends Base<Function>: a FUNC
     * parameter is a Function), or erased when c itself is generic (the subclass extends it raw).
     */
    static List<Needed> abstractMethods(Class<?> c) {
        Map<java.lang.reflect.TypeVariable<?>, java.lang.reflect.Type> env = new java.util.HashMap<>();
        boolean raw = c.getTypeParameters().length > 0;
        if (!raw) {
            bind(c, env, new java.util.HashSet<>());
        }
        Map<String, Method> nearest = new LinkedHashMap<>();
        List<Class<?>> interfaces = new ArrayList<>();
        if (c.isInterface()) {
            interfaces.add(c);
        }
        // an interface's implementation extends Object, whose public methods implement an
        // interface's abstract equals, hashCode and toString
        for (Class<?> k = c; k != null; k = k.isInterface() ? Object.class : k.getSuperclass()) {
            if (!k.isInterface()) {
                for (Method m : k.getDeclaredMethods()) {
                    if (m.isSynthetic() && !m.isBridge() || Modifier.isStatic(m.getModifiers()) || Modifier.isPrivate(m.getModifiers())) {
                        continue;
                    }
                    String sig = m.getName() + Arrays.toString(m.getParameterTypes());
                    Method had = nearest.get(sig);
                    if (had == null || had.getDeclaringClass() == k && had.isBridge() && !m.isBridge()) {
                        nearest.put(sig, m);
                    }
                }
            }
            collectInterfaces(k, interfaces);
        }
        Map<String, List<Method>> fromInterfaces = new java.util.TreeMap<>();
        for (Class<?> i : interfaces) {
            for (Method m : i.getDeclaredMethods()) {
                if (!m.isSynthetic() && !m.isBridge() && !Modifier.isStatic(m.getModifiers()) && !Modifier.isPrivate(m.getModifiers())) {
                    fromInterfaces.computeIfAbsent(m.getName() + Arrays.toString(m.getParameterTypes()), x -> new ArrayList<>()).add(m);
                }
            }
        }
        Map<String, Needed> out = new java.util.TreeMap<>();
        for (Map.Entry<String, Method> e : nearest.entrySet()) {
            Method m = e.getValue();
            // Object's protected clone() does not implement an interface's public clone()
            boolean weaker = !Modifier.isPublic(m.getModifiers()) && fromInterfaces.containsKey(e.getKey());
            if (Modifier.isAbstract(m.getModifiers()) || weaker) {
                List<Method> decls = new ArrayList<>();
                decls.add(m);
                decls.addAll(fromInterfaces.getOrDefault(e.getKey(), new ArrayList<>()));
                out.put(e.getKey(), needed(decls, env, raw, Modifier.isPublic(m.getModifiers()) || fromInterfaces.containsKey(e.getKey())));
            }
        }
        for (Map.Entry<String, List<Method>> e : fromInterfaces.entrySet()) {
            if (nearest.containsKey(e.getKey())) {
                continue; // a class declares it: decided above
            }
            List<Method> specific = new ArrayList<>();
            for (Method m : e.getValue()) {
                boolean redeclared = false;
                for (Method o : e.getValue()) {
                    redeclared |= o != m && m.getDeclaringClass() != o.getDeclaringClass() && m.getDeclaringClass().isAssignableFrom(o.getDeclaringClass());
                }
                if (!redeclared) {
                    specific.add(m);
                }
            }
            if (specific.size() == 1 && specific.get(0).isDefault()) {
                continue;
            }
            out.put(e.getKey(), needed(specific, env, raw, true));
        }
        return new ArrayList<>(out.values());
    }

    /** The method to write for the declarations decls of one signature: the most specific return type among theirs. */
    private static Needed needed(List<Method> decls, Map<java.lang.reflect.TypeVariable<?>, java.lang.reflect.Type> env, boolean raw, boolean isPublic) {
        Method first = decls.get(0);
        Class<?> ret = raw ? first.getReturnType() : resolve(first.getGenericReturnType(), env, 0);
        for (Method m : decls) {
            Class<?> r = raw ? m.getReturnType() : resolve(m.getGenericReturnType(), env, 0);
            if (ret.isAssignableFrom(r)) {
                ret = r;
            }
        }
        Class<?>[] params = first.getParameterTypes().clone();
        if (!raw) {
            java.lang.reflect.Type[] gs = first.getGenericParameterTypes();
            for (int i = 0; i < params.length && gs.length == params.length; i++) {
                params[i] = resolve(gs[i], env, 0);
            }
        }
        return new Needed(first, ret, params, isPublic);
    }

    /** Binds the type parameters of t's generic supertypes to their arguments, transitively. */
    private static void bind(java.lang.reflect.Type t, Map<java.lang.reflect.TypeVariable<?>, java.lang.reflect.Type> env, java.util.Set<Class<?>> seen) {
        Class<?> k;
        if (t instanceof java.lang.reflect.ParameterizedType) {
            java.lang.reflect.ParameterizedType p = (java.lang.reflect.ParameterizedType) t;
            k = (Class<?>) p.getRawType();
            java.lang.reflect.TypeVariable<?>[] vs = k.getTypeParameters();
            java.lang.reflect.Type[] as = p.getActualTypeArguments();
            for (int i = 0; i < vs.length && i < as.length; i++) {
                env.putIfAbsent(vs[i], as[i]);
            }
        } else if (t instanceof Class) {
            k = (Class<?>) t;
        } else {
            return;
        }
        if (!seen.add(k)) {
            return;
        }
        if (k.getGenericSuperclass() != null) {
            bind(k.getGenericSuperclass(), env, seen);
        }
        for (java.lang.reflect.Type i : k.getGenericInterfaces()) {
            bind(i, env, seen);
        }
    }

    /** The class a type stands for in the subclass: type variables through env, else their bound's erasure. */
    private static Class<?> resolve(java.lang.reflect.Type t, Map<java.lang.reflect.TypeVariable<?>, java.lang.reflect.Type> env, int depth) {
        if (depth > 16) {
            return Object.class;
        }
        if (t instanceof Class) {
            return (Class<?>) t;
        }
        if (t instanceof java.lang.reflect.ParameterizedType) {
            return (Class<?>) ((java.lang.reflect.ParameterizedType) t).getRawType();
        }
        if (t instanceof java.lang.reflect.GenericArrayType) {
            Class<?> comp = resolve(((java.lang.reflect.GenericArrayType) t).getGenericComponentType(), env, depth + 1);
            return java.lang.reflect.Array.newInstance(comp, 0).getClass();
        }
        if (t instanceof java.lang.reflect.WildcardType) {
            return resolve(((java.lang.reflect.WildcardType) t).getUpperBounds()[0], env, depth + 1);
        }
        if (t instanceof java.lang.reflect.TypeVariable) {
            java.lang.reflect.Type bound = env.get(t);
            return resolve(bound != null ? bound : ((java.lang.reflect.TypeVariable<?>) t).getBounds()[0], env, depth + 1);
        }
        return Object.class;
    }

    private static void collectInterfaces(Class<?> k, List<Class<?>> out) {
        for (Class<?> i : k.getInterfaces()) {
            if (!out.contains(i)) {
                out.add(i);
                collectInterfaces(i, out);
            }
        }
    }

    private static String params(Class<?>[] ts, String pkg) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < ts.length; i++) {
            sb.append(i == 0 ? "" : ", ").append(qualified(ts[i], pkg)).append(" a").append(i);
        }
        return sb.toString();
    }

    private static String argNames(int n) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < n; i++) {
            sb.append(i == 0 ? "" : ", ").append('a').append(i);
        }
        return sb.toString();
    }

    private static String throwsClause(Executable e, String pkg) {
        Class<?>[] xs = e.getExceptionTypes();
        if (xs.length == 0) {
            return "";
        }
        StringBuilder sb = new StringBuilder(" throws ");
        for (int i = 0; i < xs.length; i++) {
            sb.append(i == 0 ? "" : ", ").append(qualified(xs[i], pkg));
        }
        return sb.toString();
    }

    /**
     * A type as the nested class writes it, with no import: the package's and java.lang's
     * types by their names in the package, the others fully qualified (the test class's
     * imports stay the tests' own).
     */
    static String qualified(Class<?> t, String pkg) {
        if (t.isArray()) {
            return qualified(t.getComponentType(), pkg) + "[]";
        }
        if (t.isPrimitive()) {
            return t.getName();
        }
        String canonical = t.getCanonicalName() == null ? t.getName() : t.getCanonicalName();
        Class<?> top = t;
        while (top.getEnclosingClass() != null) {
            top = top.getEnclosingClass();
        }
        String p = Access.packageOf(top);
        if ((p.equals(pkg) || p.equals("java.lang")) && !p.isEmpty()) {
            return canonical.substring(p.length() + 1);
        }
        return canonical;
    }

    /** The value an implemented abstract method returns: null for void (no return statement). */
    private static String defaultValue(Class<?> t, String pkg) {
        if (t == void.class) {
            return null;
        }
        if (t == boolean.class) {
            return "false";
        }
        if (t == char.class) {
            return "'\\0'";
        }
        if (t == int.class) {
            return "0";
        }
        if (t == long.class) {
            return "0L";
        }
        if (t == double.class) {
            return "0.0";
        }
        if (t == float.class) {
            return "0f";
        }
        if (t.isPrimitive()) {
            return "(" + t.getName() + ") 0"; // short, byte
        }
        if (t == String.class || t == CharSequence.class) {
            return "\"\"";
        }
        if (t.isArray()) {
            Class<?> e = t;
            int dims = 0;
            while (e.isArray()) {
                e = e.getComponentType();
                dims++;
            }
            StringBuilder sb = new StringBuilder("new ").append(qualified(e, pkg)).append("[0]");
            for (int i = 1; i < dims; i++) {
                sb.append("[]");
            }
            return sb.toString();
        }
        if (t == List.class || t == java.util.Collection.class || t == Iterable.class) {
            return "java.util.Collections.emptyList()";
        }
        if (t == java.util.Set.class) {
            return "java.util.Collections.emptySet()";
        }
        if (t == Map.class) {
            return "java.util.Collections.emptyMap()";
        }
        if (t == java.util.Optional.class) {
            return "java.util.Optional.empty()";
        }
        return "null";
    }

    /** The generated minimal subclass's constructor, written by its simple name (it is nested in the driver and in the test class alike). */
    static final class MinimalGen extends Gen {
        final Gen.NewGen made;

        MinimalGen(Gen.NewGen made) {
            this.made = made;
        }

        Object make() throws Throwable {
            return made.make();
        }

        String expr(Names names) {
            StringBuilder sb = new StringBuilder("new ").append(made.ctor.getDeclaringClass().getSimpleName()).append('(');
            for (int i = 0; i < made.args.size(); i++) {
                sb.append(i == 0 ? "" : ", ").append(made.args.get(i).expr(names));
            }
            return sb.append(')').toString();
        }

        String token() {
            return made.ctor.getDeclaringClass().getSimpleName();
        }
    }

    /** A static field's value: ToStringStyle.DEFAULT_STYLE. */
    static final class FieldGen extends Gen {
        final Field field;

        FieldGen(Field field) {
            this.field = field;
        }

        Object make() throws Throwable {
            return field.get(null);
        }

        String expr(Names names) {
            return names.erased(field.getDeclaringClass()) + "." + field.getName();
        }

        String token() {
            return Exprs.stringToken(field.getName().toLowerCase().replace('_', ' '));
        }
    }
}
