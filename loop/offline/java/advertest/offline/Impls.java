package advertest.offline;

import java.io.File;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.lang.reflect.TypeVariable;
import java.lang.reflect.WildcardType;
import java.net.URL;
import java.security.CodeSource;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The project's concrete implementations of an abstract class or interface: the nested classes
 * of the class under test (an unsaved or fixture class lives only in memory) and the classes in
 * the project's class folders (the folder the class under test and the abstract type come
 * from), loaded without initialising them. Only classes a test in its package can name and
 * make (an accessible constructor or static factory) count; the simplest come first.
 */
final class Impls {
    /** Class files looked at per folder, at most: a large project is sampled, not read whole. */
    static final int MAX_CLASSES = 3000;
    /** Implementations used per abstract type. */
    static final int MAX_IMPLS = 6;

    private final ClassLoader loader;
    private final Access access;
    private final Class<?> subject;
    private final Map<File, List<Class<?>>> byRoot = new HashMap<>();
    private final Map<Class<?>, List<Class<?>>> cache = new HashMap<>();

    Impls(ClassLoader loader, Access access, Class<?> subject) {
        this.loader = loader;
        this.access = access;
        this.subject = subject;
    }

    /** The implementations of type, simplest first (fewest constructor parameters, then by name). */
    List<Class<?>> of(Class<?> type) {
        List<Class<?>> cached = cache.get(type);
        if (cached != null) {
            return cached;
        }
        Set<Class<?>> found = new LinkedHashSet<>();
        List<Class<?>> known = new ArrayList<>();
        if (subject != null) {
            nested(subject, known, 0);
        }
        for (File root : roots(type)) {
            known.addAll(classesIn(root));
        }
        known.addAll(jdkEnums(type));
        for (Class<?> k : known) {
            if (k != type && type.isAssignableFrom(k) && usable(k)) {
                found.add(k);
            }
        }
        List<Class<?>> out = new ArrayList<>(found);
        out.sort(Comparator.comparingInt(this::simplest).thenComparing(Class::getName));
        if (out.size() > MAX_IMPLS) {
            out = new ArrayList<>(out.subList(0, MAX_IMPLS));
        }
        cache.put(type, out);
        return out;
    }

    /**
     * The values of a parameter of an abstract class or interface: lambdas (a functional
     * interface, Lambdas), the type's own static factories, then its implementations' values,
     * interleaved (the simplest of each first). Empty when there is none.
     */
    List<Gen> pool(Inputs in, Type type, Class<?> c, int depth) {
        List<Gen> out = new ArrayList<>();
        Method sam = Lambdas.sam(c);
        // a lambda needs a functional interface as its target type: a parameter typed by a type
        // variable (T extends Elem<T>) gives javac none to infer T from
        if (sam != null && access.classAccessible(c) && !(type instanceof TypeVariable)) {
            out.addAll(Lambdas.pool(type, c, sam, in));
        }
        if (depth <= 0) {
            return out;
        }
        for (Method f : access.factories(c)) {
            List<List<Gen>> pools = in.argPools(f, depth - 1);
            if (pools == null) {
                continue;
            }
            for (int[] idx : Combinations.diagonal(Combinations.sizes(pools), 3)) {
                out.add(new Gen.FactoryGen(f, Combinations.pick(pools, idx)));
            }
        }
        List<List<Gen>> per = new ArrayList<>();
        for (Class<?> k : of(c)) {
            try {
                per.add(Combinations.nonNull(in.pool(k, depth)));
            } catch (Unsupported u) {
                // an implementation it cannot make
            }
        }
        for (int i = 0; i < 3; i++) {
            for (List<Gen> l : per) {
                if (i < l.size() && l.get(i) != Gen.NULL) {
                    out.add(l.get(i));
                }
            }
        }
        return out;
    }

    /**
     * Class objects for a Class<?> or Type parameter: the class under test and its nested
     * classes, the implementations of the bound of Class<? extends X>, and common JDK classes
     * (a value type, a boxed and a primitive type, an interface, a collection, an array, an
     * enum), those within the bound.
     */
    List<Gen> classes(Type type) {
        Class<?> bound = Object.class;
        if (type instanceof ParameterizedType) {
            Type a = ((ParameterizedType) type).getActualTypeArguments()[0];
            if (a instanceof WildcardType) {
                a = ((WildcardType) a).getUpperBounds()[0];
            } else if (a instanceof TypeVariable) {
                a = ((TypeVariable<?>) a).getBounds()[0];
            }
            bound = Types.raw(a instanceof TypeVariable ? Object.class : a);
        }
        Set<Class<?>> cands = new LinkedHashSet<>();
        if (subject != null && access.classAccessible(subject)) {
            cands.add(subject);
            List<Class<?>> nested = new ArrayList<>();
            nested(subject, nested, 0);
            for (Class<?> k : nested) {
                if (access.classAccessible(k)) {
                    cands.add(k);
                }
            }
        }
        if (bound != Object.class && access.classAccessible(bound)) {
            cands.add(bound);
            cands.addAll(of(bound));
        }
        cands.addAll(java.util.Arrays.asList(String.class, Integer.class, int.class, Object.class, CharSequence.class,
            java.util.List.class, java.util.ArrayList.class, int[].class, Thread.State.class, Runnable.class));
        List<Gen> out = new ArrayList<>();
        for (Class<?> k : cands) {
            if ((bound == Object.class || bound.isAssignableFrom(k)) && out.size() < 12) {
                out.add(new ClassGen(k));
            }
        }
        out.add(Gen.NULL);
        return out;
    }

    /** A class literal: String.class, Shapes.Square.class. */
    static final class ClassGen extends Gen {
        final Class<?> k;

        ClassGen(Class<?> k) {
            this.k = k;
        }

        Object make() {
            return k;
        }

        String expr(Names names) {
            return names.erased(k) + ".class";
        }

        String token() {
            return Exprs.capitalize(k.getSimpleName().replace("[]", "Array")) + "Class";
        }

        @Override
        void kinds(String at, Set<String> out) {
            out.add(at + "Class");
        }
    }

    private boolean usable(Class<?> k) {
        if (k.isInterface() || Modifier.isAbstract(k.getModifiers()) || k.isAnonymousClass() || k.isLocalClass()
            || k.isSynthetic() || !access.classAccessible(k)) {
            return false;
        }
        return k.isEnum() || !access.constructors(k).isEmpty() || !access.factories(k).isEmpty();
    }

    private int simplest(Class<?> k) {
        int n = Integer.MAX_VALUE;
        for (java.lang.reflect.Constructor<?> c : access.constructors(k)) {
            n = Math.min(n, c.getParameterCount());
        }
        for (java.lang.reflect.Method f : access.factories(k)) {
            n = Math.min(n, f.getParameterCount());
        }
        return n;
    }

    private static void nested(Class<?> c, List<Class<?>> out, int depth) {
        if (depth > 3) {
            return;
        }
        try {
            for (Class<?> k : c.getDeclaredClasses()) {
                out.add(k);
                nested(k, out, depth + 1);
            }
        } catch (LinkageError e) {
            // a nested class that does not load: left out
        }
    }

    /** The class folders of the project the type and the class under test come from. */
    private List<File> roots(Class<?> type) {
        Set<File> out = new LinkedHashSet<>();
        for (Class<?> c : new Class<?>[] {type, subject}) {
            if (c == null || c.getClassLoader() != loader) {
                continue; // the JDK's, or a library's: not the project's
            }
            File root = rootOf(c);
            if (root != null) {
                out.add(root);
            }
        }
        return new ArrayList<>(out);
    }

    /** The folder c's class file is in, less its package's path; null for a jar or a class made in memory. */
    private File rootOf(Class<?> c) {
        String rel = c.getName().replace('.', '/') + ".class";
        List<URL> urls = new ArrayList<>();
        try {
            CodeSource cs = c.getProtectionDomain().getCodeSource();
            if (cs != null && cs.getLocation() != null) {
                urls.add(new URL(cs.getLocation(), rel));
            }
        } catch (java.net.MalformedURLException | SecurityException e) {
            // then through the loader
        }
        URL u = loader.getResource(rel);
        if (u != null) {
            urls.add(u);
        }
        for (URL url : urls) {
            if (!"file".equals(url.getProtocol())) {
                continue;
            }
            File f;
            try {
                f = new File(url.toURI());
            } catch (java.net.URISyntaxException | IllegalArgumentException e) {
                continue;
            }
            if (!f.isFile()) {
                continue;
            }
            File root = f.getParentFile();
            for (int i = 0; i < c.getName().split("\\.").length - 1 && root != null; i++) {
                root = root.getParentFile();
            }
            if (root != null && root.isDirectory()) {
                return root;
            }
        }
        return null;
    }

    /**
     * The public enums of a JDK type's own package (its module's folder in the run-time image,
     * jrt:/): StandardOpenOption and LinkOption for OpenOption, RoundingMode's neighbours for
     * nothing. Only enums: their constants are plain values, where another JDK class that
     * implements an interface (a Thread for a Runnable) would do what a test should not.
     */
    private List<Class<?>> jdkEnums(Class<?> type) {
        List<Class<?>> out = new ArrayList<>();
        ClassLoader l = type.getClassLoader();
        if (l != null && l != ClassLoader.getPlatformClassLoader() || !type.getModule().isNamed()) {
            return out;
        }
        List<String> names = new ArrayList<>();
        try {
            java.nio.file.Path dir = java.nio.file.FileSystems.getFileSystem(java.net.URI.create("jrt:/"))
                .getPath("/modules", type.getModule().getName(), type.getPackageName().replace('.', '/'));
            try (java.util.stream.Stream<java.nio.file.Path> files = java.nio.file.Files.list(dir)) {
                files.map(f -> f.getFileName().toString())
                    .filter(n -> n.endsWith(".class") && n.indexOf('$') < 0 && !n.equals("package-info.class"))
                    .sorted().limit(MAX_CLASSES).forEach(n -> names.add(n.substring(0, n.length() - 6)));
            }
        } catch (java.io.IOException | RuntimeException e) {
            return out; // no run-time image to read (an exploded JDK): no JDK implementations
        }
        for (String n : names) {
            try {
                Class<?> k = Class.forName(type.getPackageName() + "." + n, false, l);
                if (k.isEnum() && Modifier.isPublic(k.getModifiers())) {
                    out.add(k);
                }
            } catch (ClassNotFoundException | LinkageError e) {
                // not loadable from here: left out
            }
        }
        return out;
    }

    /** The top-level and nested classes of a class folder, loaded without initialisation. */
    private List<Class<?>> classesIn(File root) {
        List<Class<?>> cached = byRoot.get(root);
        if (cached != null) {
            return cached;
        }
        List<String> names = new ArrayList<>();
        walk(root, "", names);
        names.sort(null);
        List<Class<?>> out = new ArrayList<>();
        for (String n : names) {
            try {
                out.add(Class.forName(n, false, loader));
            } catch (ClassNotFoundException | LinkageError e) {
                // a class that does not load here: left out
            }
        }
        byRoot.put(root, out);
        return out;
    }

    private static void walk(File dir, String pkg, List<String> names) {
        File[] files = dir.listFiles();
        if (files == null) {
            return;
        }
        java.util.Arrays.sort(files);
        for (File f : files) {
            if (names.size() >= MAX_CLASSES) {
                return;
            }
            String n = f.getName();
            if (f.isDirectory()) {
                walk(f, pkg + n + ".", names);
            } else if (n.endsWith(".class") && !n.equals("module-info.class") && !n.equals("package-info.class")
                && !n.matches(".*\\$\\d.*")) {
                names.add(pkg + n.substring(0, n.length() - 6));
            }
        }
    }
}
