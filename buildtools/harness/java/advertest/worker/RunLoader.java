package advertest.worker;

import java.io.File;
import java.io.IOException;
import java.net.MalformedURLException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.CodeSource;
import java.security.ProtectionDomain;
import java.security.cert.Certificate;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Enumeration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The class loader of one run: defines the in-memory classes (overrides, extra tests) and re-reads
 * the project's own classes from its class folders, child-first, so each run starts with fresh
 * static state; libraries (JUnit, ...) come from the shared parent. Classes get a ProtectionDomain
 * whose CodeSource has a location, or JaCoCo silently skips them.
 *
 * <p>A run without coverage (a mutant's, a discovery) gets the subclass {@link Uncovered}, whose
 * name the worker's JaCoCo agent excludes (its option exclclassloader): its classes are defined
 * as the rewriter left them, without JaCoCo's probes, which tripled the cost of every step of an
 * interpreted loop and instrumenting each class again cost every run its time
 * (docs/worker-protocol.md).
 */
class RunLoader extends ClassLoader {
    /** A run's loader: coverage says whether JaCoCo instruments its classes. */
    static RunLoader of(boolean coverage, Map<String, byte[]> memory, List<Path> dirs, ClassLoader parent, ClassLoader hookLoader, ProjectCache cache) {
        return coverage ? new RunLoader(memory, dirs, parent, hookLoader, cache) : new Uncovered(memory, dirs, parent, hookLoader, cache);
    }

    /** The loader of runs without coverage: JaCoCo's agent is told to leave its classes alone. */
    static final class Uncovered extends RunLoader {
        Uncovered(Map<String, byte[]> memory, List<Path> dirs, ClassLoader parent, ClassLoader hookLoader, ProjectCache cache) {
            super(memory, dirs, parent, hookLoader, cache);
        }

        static {
            registerAsParallelCapable();
        }
    }

    private final Map<String, byte[]> memory;
    private final Set<String> overriddenTopLevel;
    private final List<Path> dirs;
    private final ClassLoader hookLoader;
    private final ProjectCache cache;
    private final Map<String, byte[]> defined = new ConcurrentHashMap<>();
    private final ProtectionDomain memoryDomain;
    private final Map<Path, ProtectionDomain> dirDomains = new ConcurrentHashMap<>();
    /**
     * The run records its classes' comparisons (Rewriter.recordCompares; never with coverage,
     * whose counts the added instructions would change): set before any class is loaded.
     */
    boolean recordCompares;

    private RunLoader(Map<String, byte[]> memory, List<Path> dirs, ClassLoader parent, ClassLoader hookLoader, ProjectCache cache) {
        super("advertest-run", parent);
        this.memory = memory;
        this.dirs = dirs;
        this.hookLoader = hookLoader;
        this.cache = cache;
        this.overriddenTopLevel = ConcurrentHashMap.newKeySet();
        for (String n : memory.keySet()) {
            overriddenTopLevel.add(topLevel(n));
        }
        ProtectionDomain pd;
        try {
            pd = new ProtectionDomain(new CodeSource(new URL("file:/advertest-memory/"), (Certificate[]) null), null);
        } catch (MalformedURLException e) {
            throw new IllegalStateException(e);
        }
        this.memoryDomain = pd;
    }

    private static String topLevel(String binaryName) {
        int d = binaryName.indexOf('$');
        return d < 0 ? binaryName : binaryName.substring(0, d);
    }

    @Override
    protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
        synchronized (getClassLoadingLock(name)) {
            Class<?> c = findLoadedClass(name);
            if (c == null) {
                if (name.startsWith("advertest.worker.hook.")) {
                    return hookLoader.loadClass(name);
                }
                byte[] b = bytesFor(name);
                if (b != null) {
                    defined.put(name, b);
                    c = defineClass(name, b, 0, b.length, domainFor(name));
                } else {
                    c = getParent().loadClass(name);
                }
            }
            if (resolve) {
                resolveClass(c);
            }
            return c;
        }
    }

    private ProtectionDomain domainFor(String name) {
        if (memory.containsKey(name)) {
            return memoryDomain;
        }
        Path dir = dirOf(name);
        return dirDomains.computeIfAbsent(dir, d -> {
            try {
                return new ProtectionDomain(new CodeSource(d.toUri().toURL(), (Certificate[]) null), null);
            } catch (MalformedURLException e) {
                return memoryDomain;
            }
        });
    }

    private Path dirOf(String name) {
        String rel = name.replace('.', '/') + ".class";
        for (Path d : dirs) {
            if (Files.isRegularFile(d.resolve(rel))) {
                return d;
            }
        }
        return dirs.isEmpty() ? Path.of("/") : dirs.get(0);
    }

    /** The (rewritten) bytes this loader defines or would define for name, or null if not ours. */
    byte[] bytesFor(String name) {
        byte[] b = defined.get(name);
        if (b != null) {
            return b;
        }
        b = memory.get(name);
        if (b != null) {
            return recordCompares ? Rewriter.recordCompares(b) : b;
        }
        if (overriddenTopLevel.contains(topLevel(name))) {
            return null; // a nested class the override no longer has
        }
        String rel = name.replace('.', '/') + ".class";
        for (Path d : dirs) {
            Path f = d.resolve(rel);
            if (Files.isRegularFile(f)) {
                return recordCompares ? cache.recording(f) : cache.rewritten(f);
            }
        }
        return null;
    }

    /** name and its nested classes known to this loader, with the bytes to analyse. */
    Map<String, byte[]> withNested(String name) {
        Map<String, byte[]> out = new TreeMap<>();
        byte[] b = bytesFor(name);
        if (b != null) {
            out.put(name, b);
        }
        String prefix = name + "$";
        for (String m : memory.keySet()) {
            if (m.startsWith(prefix)) {
                out.put(m, memory.get(m));
            }
        }
        if (!overriddenTopLevel.contains(topLevel(name))) {
            int dot = name.lastIndexOf('.');
            String pkgPath = dot < 0 ? "" : name.substring(0, dot).replace('.', '/');
            String simplePrefix = name.substring(dot + 1) + "$";
            for (Path d : dirs) {
                File[] files = d.resolve(pkgPath).toFile().listFiles();
                if (files == null) {
                    continue;
                }
                for (File f : files) {
                    String fn = f.getName();
                    if (fn.startsWith(simplePrefix) && fn.endsWith(".class")) {
                        String bn = (dot < 0 ? "" : name.substring(0, dot) + ".") + fn.substring(0, fn.length() - 6);
                        byte[] nb = bytesFor(bn);
                        if (nb != null) {
                            out.put(bn, nb);
                        }
                    }
                }
            }
        }
        return out;
    }

    @Override
    public URL getResource(String name) {
        URL u = findResource(name);
        return u != null ? u : getParent().getResource(name);
    }

    @Override
    protected URL findResource(String name) {
        for (Path d : dirs) {
            Path f = d.resolve(name);
            if (Files.exists(f)) {
                try {
                    return f.toUri().toURL();
                } catch (MalformedURLException e) {
                    return null;
                }
            }
        }
        return null;
    }

    @Override
    public Enumeration<URL> getResources(String name) throws IOException {
        List<URL> all = new ArrayList<>();
        URL own = findResource(name);
        if (own != null) {
            all.add(own);
        }
        all.addAll(Collections.list(getParent().getResources(name)));
        return Collections.enumeration(all);
    }

    static {
        registerAsParallelCapable();
    }
}
