import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;

/**
 * Checks the fault benchmark's faults in one JVM (run as a source file: java CheckFaults.java).
 *
 * <p>Arguments: SRC (the fixed main sources), WITNESS (Witnesses.java), VARIANTS (a folder with
 * one subfolder per fault holding "witness" (the witness method's name), "file" (the faulty
 * file's path under SRC) and "Buggy.java" (its text with the fault applied)), and OUT (a scratch
 * folder). It compiles SRC and the witnesses with the system compiler, runs every witness on the
 * fixed classes (each must return), then per fault compiles the buggy file against the fixed
 * classes and runs its witness on them (it must throw or time out).
 *
 * <p>Prints one line per check: "fixed NAME ok|FAIL reason" and "fault ID ok|FAIL reason",
 * then "done"; compile errors follow a FAIL line, indented.
 */
public final class CheckFaults {

    private static final long WITNESS_TIMEOUT_MS = 10_000;

    public static void main(String[] args) throws Exception {
        if (args.length != 4) {
            System.err.println("usage: java CheckFaults.java SRC WITNESS VARIANTS OUT");
            System.exit(2);
        }
        Path src = Paths.get(args[0]);
        Path witness = Paths.get(args[1]);
        Path variants = Paths.get(args[2]);
        Path out = Paths.get(args[3]);
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();

        Path fixedClasses = out.resolve("fixed");
        List<String> sources;
        try (Stream<Path> walk = Files.walk(src)) {
            sources = walk.filter(p -> p.toString().endsWith(".java")).map(Path::toString).sorted().collect(Collectors.toList());
        }
        String err = compile(javac, fixedClasses, null, sources);
        if (err != null) {
            System.out.println("fixed-compile FAIL the fixed sources do not compile");
            System.out.println(indent(err));
            System.out.println("done");
            return;
        }
        Path witnessClasses = out.resolve("witness");
        err = compile(javac, witnessClasses, fixedClasses.toString(), List.of(witness.toString()));
        if (err != null) {
            System.out.println("witness-compile FAIL Witnesses.java does not compile");
            System.out.println(indent(err));
            System.out.println("done");
            return;
        }

        List<Path> faults;
        try (Stream<Path> list = Files.list(variants)) {
            faults = list.filter(Files::isDirectory).sorted().collect(Collectors.toList());
        }
        for (Path f : faults) {
            String name = read(f.resolve("witness"));
            String reason = runWitness(name, witnessClasses, fixedClasses);
            System.out.println("fixed " + name + (reason == null ? " ok" : " FAIL " + reason));
        }
        for (Path f : faults) {
            String id = f.getFileName().toString();
            String name = read(f.resolve("witness"));
            String rel = read(f.resolve("file"));
            Path buggySrc = out.resolve("buggy-src").resolve(id).resolve(rel);
            Files.createDirectories(buggySrc.getParent());
            Files.copy(f.resolve("Buggy.java"), buggySrc);
            Path buggyClasses = out.resolve("buggy").resolve(id);
            err = compile(javac, buggyClasses, fixedClasses.toString(), List.of(buggySrc.toString()));
            if (err != null) {
                System.out.println("fault " + id + " FAIL the buggy code does not compile");
                System.out.println(indent(err));
                continue;
            }
            String reason = runWitness(name, witnessClasses, buggyClasses, fixedClasses);
            System.out.println("fault " + id + (reason == null ? " FAIL witness " + name + " passes on the buggy code" : " ok"));
        }
        System.out.println("done");
        System.exit(0);
    }

    /** Compiles sources into dir; returns the diagnostics on failure, null on success. */
    private static String compile(JavaCompiler javac, Path dir, String classpath, List<String> sources) throws IOException {
        Files.createDirectories(dir);
        List<String> argv = new ArrayList<>(Arrays.asList("-d", dir.toString(), "--release", "11", "-encoding", "UTF-8", "-nowarn", "-implicit:none"));
        if (classpath != null) {
            argv.add("-cp");
            argv.add(classpath);
        }
        argv.addAll(sources);
        ByteArrayOutputStream diag = new ByteArrayOutputStream();
        int rc = javac.run(null, diag, diag, argv.toArray(new String[0]));
        if (rc == 0) {
            return null;
        }
        return new String(diag.toByteArray(), StandardCharsets.UTF_8).trim();
    }

    /**
     * Runs Witnesses.name() with classes loaded from dirs (first wins). Returns null when it
     * returned normally, else why not.
     */
    private static String runWitness(String name, Path witnessClasses, Path... dirs) throws Exception {
        List<URL> urls = new ArrayList<>();
        for (Path d : dirs) {
            urls.add(d.toUri().toURL());
        }
        urls.add(witnessClasses.toUri().toURL());
        URLClassLoader loader = new URLClassLoader(urls.toArray(new URL[0]), ClassLoader.getPlatformClassLoader());
        Method m;
        try {
            m = loader.loadClass("Witnesses").getDeclaredMethod(name);
        } catch (NoSuchMethodException e) {
            return "no witness method " + name + " in Witnesses.java";
        }
        m.setAccessible(true);
        AtomicReference<Throwable> thrown = new AtomicReference<>();
        Thread t = new Thread(() -> {
            try {
                m.invoke(null);
            } catch (InvocationTargetException e) {
                thrown.set(e.getCause());
            } catch (Throwable e) {
                thrown.set(e);
            }
        }, "witness-" + name);
        t.setDaemon(true);
        t.start();
        t.join(WITNESS_TIMEOUT_MS);
        if (t.isAlive()) {
            stop(t);
            return "timed out after " + WITNESS_TIMEOUT_MS + " ms";
        }
        Throwable e = thrown.get();
        return e == null ? null : e.toString().replace('\n', ' ');
    }

    /** Stops a witness stuck in an endless loop, so it does not spin through the other checks. */
    @SuppressWarnings({"deprecation", "removal"})
    private static void stop(Thread t) {
        try {
            t.stop();
        } catch (UnsupportedOperationException e) {
            // Java 20 and later cannot stop a thread; the daemon thread spins until exit.
        }
    }

    private static String read(Path p) throws IOException {
        return new String(Files.readAllBytes(p), StandardCharsets.UTF_8).trim();
    }

    private static String indent(String s) {
        return "    " + s.replace("\n", "\n    ");
    }

    private CheckFaults() {
    }
}
