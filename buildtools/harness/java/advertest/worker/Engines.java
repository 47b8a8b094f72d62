package advertest.worker;

import java.lang.annotation.Annotation;
import java.lang.reflect.Array;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * Runs one test method with JUnit 4 (JUnitCore + Request.method) or the JUnit Platform launcher
 * (Jupiter engine only), both driven by reflection through the library loader, so the worker has no
 * compile-time dependency on either and uses exactly the project's JUnit.
 */
final class Engines {
    /** What one test did: kind is passed, failed (with thrown), skipped or error (message only). */
    static final class Outcome {
        String kind;
        Throwable thrown;
        String message;

        Outcome(String kind, Throwable thrown, String message) {
            this.kind = kind;
            this.thrown = thrown;
            this.message = message;
        }
    }

    private final ClassLoader lib;
    private final boolean hasJUnit4;
    private final boolean hasJupiter;
    private JUnit4 junit4;
    private Jupiter jupiter;

    Engines(ClassLoader lib) {
        this.lib = lib;
        this.hasJUnit4 = present(lib, "org.junit.runner.JUnitCore");
        this.hasJupiter = present(lib, "org.junit.jupiter.api.Test");
    }

    private static boolean present(ClassLoader l, String name) {
        try {
            Class.forName(name, false, l);
            return true;
        } catch (ClassNotFoundException | LinkageError e) {
            return false;
        }
    }

    int version() {
        return hasJupiter ? 5 : 4;
    }

    /** Test methods of c, sorted; kind[0] becomes 5 when they are Jupiter tests, else 4. */
    static List<String> discover(Class<?> c, int[] kind) {
        Set<String> j4 = new TreeSet<>();
        Set<String> j5 = new TreeSet<>();
        if (!Modifier.isAbstract(c.getModifiers())) {
            Set<String> seen = new HashSet<>();
            for (Class<?> k = c; k != null && k != Object.class; k = k.getSuperclass()) {
                for (Method m : k.getDeclaredMethods()) {
                    if (m.isSynthetic() || m.isBridge() || !seen.add(m.getName() + m.getParameterCount())) {
                        continue;
                    }
                    for (Annotation a : m.getAnnotations()) {
                        Class<? extends Annotation> t = a.annotationType();
                        if (t.getName().equals("org.junit.Test")) {
                            j4.add(m.getName());
                        } else if (testable(t, 0)) {
                            j5.add(m.getName());
                        }
                    }
                }
            }
        }
        if (j4.isEmpty() && j5.isEmpty() && isJUnit3(c)) {
            for (Method m : c.getMethods()) {
                if (m.getName().startsWith("test") && m.getParameterCount() == 0 && m.getReturnType() == void.class) {
                    j4.add(m.getName());
                }
            }
        }
        kind[0] = j5.isEmpty() ? (j4.isEmpty() ? 0 : 4) : 5;
        return new ArrayList<>(j5.isEmpty() ? j4 : j5);
    }

    private static boolean isJUnit3(Class<?> c) {
        for (Class<?> k = c.getSuperclass(); k != null; k = k.getSuperclass()) {
            if (k.getName().equals("junit.framework.TestCase")) {
                return true;
            }
        }
        return false;
    }

    private static boolean testable(Class<? extends Annotation> t, int depth) {
        if (depth > 3 || t.getName().startsWith("java.")) {
            return false;
        }
        for (Annotation a : t.getAnnotations()) {
            Class<? extends Annotation> at = a.annotationType();
            if (at.getName().equals("org.junit.platform.commons.annotation.Testable") || testable(at, depth + 1)) {
                return true;
            }
        }
        return false;
    }

    /** Runs c.method on the calling thread with the engine its annotations ask for. */
    Outcome run(Class<?> c, String method) {
        int[] kind = new int[1];
        try {
            discover(c, kind);
        } catch (LinkageError e) {
            return new Outcome("failed", e, null);
        }
        boolean useJupiter = kind[0] == 5 || (kind[0] == 0 && !hasJUnit4 && hasJupiter);
        try {
            if (useJupiter) {
                if (jupiter == null) {
                    jupiter = new Jupiter(lib);
                }
                return jupiter.run(c, method);
            }
            if (!hasJUnit4) {
                return new Outcome("error", null, "JUnit 4 is not on the library class path");
            }
            if (junit4 == null) {
                junit4 = new JUnit4(lib);
            }
            return junit4.run(c, method);
        } catch (InvocationTargetException e) {
            return new Outcome("failed", e.getCause(), null);
        } catch (ReflectiveOperationException e) {
            return new Outcome("error", null, "cannot drive JUnit: " + e);
        }
    }

    /** The test method named name in c or its superclasses (tests are not overloaded). */
    static Method findMethod(Class<?> c, String name) {
        for (Class<?> k = c; k != null && k != Object.class; k = k.getSuperclass()) {
            for (Method m : k.getDeclaredMethods()) {
                if (m.getName().equals(name) && !m.isSynthetic() && !m.isBridge()) {
                    return m;
                }
            }
        }
        return null;
    }

    private static final class JUnit4 {
        private final Method requestMethod;
        private final Class<?> coreClass;
        private final Method run;
        private final Method getFailures;
        private final Method getException;
        private final Method getRunCount;
        private final Method getIgnoreCount;
        private final Method getAssumptionFailureCount;

        JUnit4(ClassLoader lib) throws ReflectiveOperationException {
            Class<?> request = Class.forName("org.junit.runner.Request", true, lib);
            requestMethod = request.getMethod("method", Class.class, String.class);
            coreClass = Class.forName("org.junit.runner.JUnitCore", true, lib);
            run = coreClass.getMethod("run", request);
            Class<?> result = Class.forName("org.junit.runner.Result", true, lib);
            getFailures = result.getMethod("getFailures");
            getRunCount = result.getMethod("getRunCount");
            getIgnoreCount = result.getMethod("getIgnoreCount");
            Method afc = null;
            try {
                afc = result.getMethod("getAssumptionFailureCount");
            } catch (NoSuchMethodException e) {
                // JUnit before 4.13
            }
            getAssumptionFailureCount = afc;
            getException = Class.forName("org.junit.runner.notification.Failure", true, lib).getMethod("getException");
        }

        Outcome run(Class<?> c, String method) throws ReflectiveOperationException {
            Object req = requestMethod.invoke(null, c, method);
            Object result = run.invoke(coreClass.getConstructor().newInstance(), req);
            List<?> failures = (List<?>) getFailures.invoke(result);
            if (!failures.isEmpty()) {
                return new Outcome("failed", (Throwable) getException.invoke(failures.get(0)), null);
            }
            int runs = (Integer) getRunCount.invoke(result);
            int ignored = (Integer) getIgnoreCount.invoke(result);
            int assumptions = getAssumptionFailureCount == null ? 0 : (Integer) getAssumptionFailureCount.invoke(result);
            if (assumptions > 0 || (runs == 0 && ignored > 0)) {
                return new Outcome("skipped", null, "skipped (ignored or assumption failed)");
            }
            if (runs == 0) {
                return new Outcome("error", null, "no test " + method + " in " + c.getName());
            }
            return new Outcome("passed", null, null);
        }
    }

    private static final class Jupiter {
        private final ClassLoader lib;
        private final Object launcher;
        private final Method execute;
        private final Method selectMethod;
        private final Method request;
        private final Method selectors;
        private final Method filters;
        private final Method build;
        private final Method includeEngines;
        private final Class<?> selectorType;
        private final Class<?> filterType;
        private final Class<?> listenerType;

        Jupiter(ClassLoader lib) throws ReflectiveOperationException {
            this.lib = lib;
            Thread t = Thread.currentThread();
            ClassLoader prev = t.getContextClassLoader();
            t.setContextClassLoader(lib);
            try {
                launcher = Class.forName("org.junit.platform.launcher.core.LauncherFactory", true, lib).getMethod("create").invoke(null);
            } catch (InvocationTargetException e) {
                throw new ReflectiveOperationException("cannot create the JUnit Platform launcher: " + e.getCause(), e.getCause());
            } finally {
                t.setContextClassLoader(prev);
            }
            Class<?> launcherType = Class.forName("org.junit.platform.launcher.Launcher", true, lib);
            Class<?> requestType = Class.forName("org.junit.platform.launcher.LauncherDiscoveryRequest", true, lib);
            listenerType = Class.forName("org.junit.platform.launcher.TestExecutionListener", true, lib);
            execute = launcherType.getMethod("execute", requestType, Array.newInstance(listenerType, 0).getClass());
            selectMethod = Class.forName("org.junit.platform.engine.discovery.DiscoverySelectors", true, lib)
                    .getMethod("selectMethod", Class.class, Method.class);
            Class<?> builder = Class.forName("org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder", true, lib);
            selectorType = Class.forName("org.junit.platform.engine.DiscoverySelector", true, lib);
            filterType = Class.forName("org.junit.platform.engine.Filter", true, lib);
            request = builder.getMethod("request");
            selectors = builder.getMethod("selectors", Array.newInstance(selectorType, 0).getClass());
            filters = builder.getMethod("filters", Array.newInstance(filterType, 0).getClass());
            build = builder.getMethod("build");
            includeEngines = Class.forName("org.junit.platform.launcher.EngineFilter", true, lib)
                    .getMethod("includeEngines", String[].class);
        }

        Outcome run(Class<?> c, String method) throws ReflectiveOperationException {
            Object b = request.invoke(null);
            Object sel = Array.newInstance(selectorType, 1);
            Method target = findMethod(c, method);
            if (target == null) {
                return new Outcome("error", null, "no test " + method + " in " + c.getName());
            }
            Array.set(sel, 0, selectMethod.invoke(null, c, target));
            selectors.invoke(b, sel);
            Object fil = Array.newInstance(filterType, 1);
            Array.set(fil, 0, includeEngines.invoke(null, (Object) new String[] {"junit-jupiter"}));
            filters.invoke(b, fil);
            Object req = build.invoke(b);
            final Outcome[] failure = new Outcome[1];
            final int[] counts = new int[3]; // tests finished, aborted, skipped
            Object listener = Proxy.newProxyInstance(lib, new Class<?>[] {listenerType}, (proxy, m, args) -> {
                switch (m.getName()) {
                    case "executionFinished": {
                        boolean isTest = (Boolean) args[0].getClass().getMethod("isTest").invoke(args[0]);
                        Object res = args[1];
                        String status = String.valueOf(res.getClass().getMethod("getStatus").invoke(res));
                        Throwable thrown = (Throwable) ((Optional<?>) res.getClass().getMethod("getThrowable").invoke(res)).orElse(null);
                        if (isTest) {
                            counts[0]++;
                        }
                        if (status.equals("FAILED") && failure[0] == null) {
                            failure[0] = new Outcome("failed", thrown, null);
                        } else if (status.equals("ABORTED")) {
                            counts[1]++;
                        }
                        return null;
                    }
                    case "executionSkipped":
                        counts[2]++;
                        return null;
                    case "hashCode":
                        return System.identityHashCode(proxy);
                    case "equals":
                        return proxy == args[0];
                    case "toString":
                        return "advertest-listener";
                    default:
                        return null;
                }
            });
            Object ls = Array.newInstance(listenerType, 1);
            Array.set(ls, 0, listener);
            Thread t = Thread.currentThread();
            ClassLoader prev = t.getContextClassLoader();
            try {
                execute.invoke(launcher, req, ls);
            } finally {
                t.setContextClassLoader(prev);
            }
            if (failure[0] != null) {
                return failure[0];
            }
            if (counts[1] > 0 || counts[2] > 0) {
                return new Outcome("skipped", null, "skipped (disabled or assumption failed)");
            }
            if (counts[0] == 0) {
                return new Outcome("error", null, "no test " + method + " in " + c.getName());
            }
            return new Outcome("passed", null, null);
        }
    }
}
