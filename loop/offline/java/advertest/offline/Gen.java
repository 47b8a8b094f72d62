package advertest.offline;

import java.lang.reflect.Array;
import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.util.Collection;
import java.util.List;
import java.util.Map;

/**
 * One generated value, as a plan: how to make it afresh for each call (a call may change its
 * arguments) and how to write it in the generated test, as a Java expression and as a token of
 * the test's name.
 */
abstract class Gen {
    abstract Object make() throws Throwable;

    /** The Java expression; adds what it names to names' imports. */
    abstract String expr(Names names);

    /** A short CamelCase token for the test's name. */
    abstract String token();

    /**
     * Adds the kinds of value this makes to out, each after at: its class (String,
     * StringBuilder, an implementation, "lambda identity"), an array's or a collection's
     * elements' after "[]" or "<>". The search's evidence of equivalence counts only when every
     * kind a parameter's pool holds was tried (Explorer writes both).
     */
    void kinds(String at, java.util.Set<String> out) {
        out.add(at + getClass().getSimpleName());
    }

    /** The null of every reference type. */
    static final Const NULL = new Const(null, "null", "Null");

    /** A value whose expression is known up front: a literal, a constant. */
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

        @Override
        void kinds(String at, java.util.Set<String> out) {
            if (value != null) {
                out.add(at + value.getClass().getSimpleName());
            }
        }
    }

    /** An array of generated elements. */
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

        @Override
        void kinds(String at, java.util.Set<String> out) {
            out.add(at + "[]");
            for (Gen g : elems) {
                g.kinds(at + "[]", out);
            }
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

        @Override
        void kinds(String at, java.util.Set<String> out) {
            out.add(at + "<>");
            for (Gen g : elems) {
                g.kinds(at + "<>", out);
            }
        }
    }

    /** An object made through a constructor with generated arguments. */
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
            Class<?>[] ps = ctor.getParameterTypes();
            boolean cast = ps.length == args.size() && sameArity(ctor);
            for (int i = 0; i < args.size(); i++) {
                sb.append(i == 0 ? "" : ", ");
                if (cast && args.get(i) == NULL && !ps[i].isPrimitive()) {
                    // another constructor takes as many arguments: a bare null may be ambiguous
                    sb.append('(').append(names.erased(ps[i])).append(") ");
                }
                sb.append(args.get(i).expr(names));
            }
            return sb.append(')').toString();
        }

        private static boolean sameArity(Constructor<?> k) {
            for (Constructor<?> o : k.getDeclaringClass().getDeclaredConstructors()) {
                if (!o.equals(k) && o.getParameterCount() == k.getParameterCount()) {
                    return true;
                }
            }
            return false;
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

        @Override
        void kinds(String at, java.util.Set<String> out) {
            out.add(at + ctor.getDeclaringClass().getSimpleName());
        }
    }

    /**
     * An object made through a static factory of its class (DateRange.of("2024-01-01", ...)), or
     * through a method called on another made object (owner not null: parser.iterator(), a
     * result the method under test is called on, Results.java).
     */
    static final class FactoryGen extends Gen {
        final Gen owner;
        final java.lang.reflect.Method factory;
        final List<Gen> args;

        FactoryGen(java.lang.reflect.Method factory, List<Gen> args) {
            this(null, factory, args);
        }

        FactoryGen(Gen owner, java.lang.reflect.Method factory, List<Gen> args) {
            this.owner = owner;
            this.factory = factory;
            this.args = args;
        }

        Object make() throws Throwable {
            Object recv = owner == null ? null : owner.make();
            Object[] a = new Object[args.size()];
            for (int i = 0; i < a.length; i++) {
                a[i] = args.get(i).make();
            }
            try {
                return factory.invoke(recv, a);
            } catch (InvocationTargetException e) {
                throw e.getCause();
            }
        }

        String expr(Names names) {
            String on = owner == null ? names.erased(factory.getDeclaringClass()) : owner.expr(names);
            StringBuilder sb = new StringBuilder(on).append('.').append(factory.getName()).append('(');
            for (int i = 0; i < args.size(); i++) {
                sb.append(i == 0 ? "" : ", ").append(args.get(i).expr(names));
            }
            return sb.append(')').toString();
        }

        String token() {
            StringBuilder sb = new StringBuilder(Exprs.capitalize(factory.getName()));
            for (Gen g : args) {
                sb.append(g.token());
            }
            return sb.length() > 24 ? sb.substring(0, 24) : sb.toString();
        }

        @Override
        void kinds(String at, java.util.Set<String> out) {
            out.add(at + factory.getDeclaringClass().getSimpleName());
        }
    }

    /** An enum constant. */
    static final class EnumGen extends Gen {
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
            return Exprs.stringToken(constant.name().toLowerCase().replace('_', ' '));
        }

        @Override
        void kinds(String at, java.util.Set<String> out) {
            out.add(at + type.getSimpleName());
        }
    }
}
