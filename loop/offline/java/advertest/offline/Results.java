package advertest.offline;

import advertest.offline.Input.Call;
import advertest.offline.Input.Receiver;
import java.lang.reflect.Executable;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.lang.reflect.TypeVariable;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Entry through a factory's result: a method of a class a test cannot name (private, inner,
 * anonymous) that overrides a method of an accessible supertype S runs when a test calls S's
 * method on an object an accessible method returns (CSVParser.iterator() returns its private
 * iterator as an Iterator). The explorer then calls S's method, with the result of such a method
 * (of the class's file: its enclosing classes and their accessible nested classes) as the
 * receiver, declared as S in the tests; the entry probe counts the calls that entered the
 * target. No reflection reaches the tests: the receiver is an expression of accessible calls.
 */
final class Results {
    /** Receivers made of at most this many producer calls (each with its owner and arguments). */
    private static final int MAX_RECEIVERS = 48;

    /** The accessible type the results are declared as, and its method that runs the target. */
    final Class<?> type;
    final Method method;
    /**
     * The producers' generic return type when they all have the same one without type variables
     * or wildcards (Iterator<CSVRecord>), else the type: what the tests declare the result as.
     */
    final Type declared;
    private final List<Producer> producers;

    private Results(Class<?> type, Method method, List<Producer> producers) {
        this.type = type;
        this.method = method;
        this.producers = producers;
        Type d = producers.get(0).method.getGenericReturnType();
        for (Producer p : producers) {
            if (!p.method.getGenericReturnType().equals(d) || !concrete(d)) {
                d = type;
                break;
            }
        }
        this.declared = d;
    }

    /** Whether t names no type variable and no wildcard. */
    private static boolean concrete(Type t) {
        if (t instanceof Class) {
            return true;
        }
        if (t instanceof ParameterizedType) {
            for (Type a : ((ParameterizedType) t).getActualTypeArguments()) {
                if (!concrete(a)) {
                    return false;
                }
            }
            return true;
        }
        return false;
    }

    /**
     * ptypes with the declared type's arguments for its type parameters: a Comparator<String>'s
     * compare(T, T) takes strings.
     */
    Type[] bind(Type[] ptypes) {
        Type[] out = ptypes.clone();
        if (!(declared instanceof ParameterizedType)) {
            return out;
        }
        TypeVariable<?>[] vars = type.getTypeParameters();
        Type[] args = ((ParameterizedType) declared).getActualTypeArguments();
        for (int i = 0; i < out.length; i++) {
            for (int j = 0; j < vars.length && j < args.length; j++) {
                if (out[i].equals(vars[j])) {
                    out[i] = args[j];
                }
            }
        }
        return out;
    }

    /**
     * The accessible supertype of c whose method target overrides, returned by the most
     * accessible methods of c's file, with those methods' calls: the first type by the order the
     * methods come in (enclosing classes, innermost first).
     */
    static Results find(Class<?> c, Method target, Access access) throws Unsupported {
        if (Modifier.isStatic(target.getModifiers()) || Modifier.isPrivate(target.getModifiers())) {
            throw new Unsupported("the method is " + (Modifier.isStatic(target.getModifiers()) ? "static" : "private")
                + ": no accessible supertype declares it");
        }
        Class<?> type = null;
        Method method = null;
        List<Producer> out = new ArrayList<>();
        for (Class<?> k : fileClasses(c, access)) {
            for (Method f : Access.allMethods(k)) {
                Class<?> r = f.getReturnType();
                if (f.isSynthetic() || f.isBridge() || r == Object.class || !r.isAssignableFrom(c) || !access.classAccessible(r)
                    || !access.accessible(f.getModifiers(), f.getDeclaringClass()) || !access.classAccessible(f.getDeclaringClass())) {
                    continue;
                }
                Method m = overridden(r, target, access);
                if (m == null || type != null && !type.isAssignableFrom(r)) {
                    continue;
                }
                if (type == null) {
                    type = r;
                    method = m;
                }
                f.setAccessible(true);
                out.add(new Producer(k, f));
            }
        }
        if (type == null) {
            throw new Unsupported("no accessible method of its file returns an accessible supertype that declares "
                + target.getName() + Arrays.toString(target.getParameterTypes()));
        }
        method.setAccessible(true);
        return new Results(type, method, out);
    }

    /** c's enclosing classes, innermost first, then the top-level class's nested classes, those a test can name. */
    private static Set<Class<?>> fileClasses(Class<?> c, Access access) {
        Set<Class<?>> out = new LinkedHashSet<>();
        Class<?> top = c;
        for (Class<?> k = c.getEnclosingClass(); k != null; k = k.getEnclosingClass()) {
            out.add(k);
            top = k;
        }
        List<Class<?>> todo = new ArrayList<>(Collections.singletonList(top));
        for (int i = 0; i < todo.size(); i++) {
            for (Class<?> n : todo.get(i).getDeclaredClasses()) {
                todo.add(n);
                out.add(n);
            }
        }
        out.removeIf(k -> !access.classAccessible(k) || k == c);
        return out;
    }

    /**
     * r's accessible method that target overrides, or null: the same parameter types, or, for a
     * generic supertype (Comparator<String>'s compare(String, String)), the erased ones that
     * target's class bridges to it.
     */
    private static Method overridden(Class<?> r, Method target, Access access) {
        for (Method m : r.getMethods()) {
            if (!m.getName().equals(target.getName()) || m.getParameterCount() != target.getParameterCount()
                || Modifier.isStatic(m.getModifiers()) || !access.accessible(m.getModifiers(), m.getDeclaringClass())) {
                continue;
            }
            try {
                Method k = target.getDeclaringClass().getDeclaredMethod(m.getName(), m.getParameterTypes());
                if (k.equals(target) || k.isBridge()) {
                    return m;
                }
            } catch (NoSuchMethodException e) {
                // another overload
            }
        }
        return null;
    }

    /**
     * The receivers: each producer's call on each maker of its owner (one owner maker per round,
     * so that every producer comes early), then calls of the type's mutators without parameters
     * on the first (iterator.next() before hasNext()).
     */
    List<Receiver> receivers(Inputs gen, Executable target) throws Unsupported {
        List<List<Gen>> perProducer = new ArrayList<>();
        for (Producer p : producers) {
            perProducer.add(p.calls(gen));
        }
        List<Receiver> out = new ArrayList<>();
        for (int round = 0; out.size() < MAX_RECEIVERS; round++) {
            boolean any = false;
            for (List<Gen> calls : perProducer) {
                if (round < calls.size() && out.size() < MAX_RECEIVERS) {
                    out.add(new Receiver(calls.get(round), Collections.<Call>emptyList()));
                    any = true;
                }
            }
            if (!any) {
                break;
            }
        }
        if (out.isEmpty()) {
            throw new Unsupported("no call of the methods that return it as " + type.getName() + " has arguments the explorer can make");
        }
        Gen base = out.get(0).make;
        for (Method m : type.getMethods()) {
            if (m.getParameterCount() == 0 && !m.equals(target) && !Modifier.isStatic(m.getModifiers()) && !Inputs.accessorName(m.getName())
                && m.getDeclaringClass() != Object.class) {
                Call k = new Call(m, Collections.<Gen>emptyList());
                out.add(new Receiver(base, Collections.singletonList(k)));
                out.add(new Receiver(base, Arrays.asList(k, k)));
            }
        }
        return out;
    }

    /** A method of the file that returns the type: its calls are made by calls(). */
    private static final class Producer {
        final Class<?> owner;
        final Method method;

        Producer(Class<?> owner, Method method) {
            this.owner = owner;
            this.method = method;
        }

        /** The producer's calls: on each maker of its owner (none for a static one), with the simplest arguments. */
        List<Gen> calls(Inputs gen) {
            List<Gen> owners = new ArrayList<>();
            if (Modifier.isStatic(method.getModifiers())) {
                owners.add(null);
            } else if (!owner.isInterface() && !Modifier.isAbstract(owner.getModifiers())) {
                List<Gen> typical = new ArrayList<>();
                List<Gen> simplest = new ArrayList<>();
                gen.makers(owner, method, typical, simplest);
                owners.addAll(typical);
                owners.addAll(simplest);
            }
            List<Gen> out = new ArrayList<>();
            List<List<Gen>> pools = gen.argPools(method, 1);
            if (pools == null) {
                return out;
            }
            List<int[]> combos = Combinations.diagonal(Combinations.sizes(pools), 2);
            for (Gen o : owners) {
                for (int[] idx : combos) {
                    out.add(new Gen.FactoryGen(o, method, Combinations.pick(pools, idx)));
                }
            }
            return out;
        }
    }
}
