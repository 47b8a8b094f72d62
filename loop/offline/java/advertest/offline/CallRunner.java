package advertest.offline;

import advertest.offline.Input.Call;
import java.lang.reflect.Constructor;
import java.lang.reflect.Executable;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.Collection;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Runs one planned input: makes the receiver and the arguments, calls the method on a thread of
 * its own and waits at most callMillis. A call past it is stopped through the worker's hook (its
 * thread group expires: it throws at its next backward jump) and recorded as a timeout; the next
 * call gets a fresh thread. The outcome comes back as the JSON of the record's "out".
 */
final class CallRunner {
    private final ClassLoader loader;
    private final long callMillis;
    final Observer observer;
    private ThreadGroup group;
    private ExecutorService executor;
    private int groupCount;

    CallRunner(ClassLoader loader, long callMillis, Observer observer) {
        this.loader = loader;
        this.callMillis = callMillis;
        this.observer = observer;
    }

    /** Stops the call thread, if any. */
    void shutdown() {
        if (executor != null) {
            executor.shutdownNow();
        }
    }

    String execute(final Executable target, final Class<?> c, final Input in, final Names names) throws Exception {
        if (executor == null) {
            newExecutor();
        }
        final long[] startAlloc = {-1};
        final Thread[] thread = {null};
        Future<String> f = executor.submit(() -> {
            synchronized (startAlloc) {
                thread[0] = Thread.currentThread();
                startAlloc[0] = allocated(thread[0]);
            }
            try {
                return call(target, c, in, names);
            } catch (Error | Exception e) {
                throw e;
            } catch (Throwable t) {
                throw new IllegalStateException(t);
            }
        });
        long deadline = System.nanoTime() + callMillis * 1_000_000L;
        try {
            while (true) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    return Output.kindStart(Output.OUT_TIMEOUT) + ",\"stopped\":" + expire() + "}";
                }
                try {
                    return f.get(Math.min(left, POLL_NANOS), TimeUnit.NANOSECONDS);
                } catch (TimeoutException e) {
                    long used;
                    synchronized (startAlloc) {
                        used = thread[0] == null || startAlloc[0] < 0 ? -1 : allocated(thread[0]) - startAlloc[0];
                    }
                    if (maxAllocBytes > 0 && used > maxAllocBytes) {
                        return Output.kindStart(Output.OUT_BOUND) + ",\"x\":\"memory\",\"stopped\":" + expire() + "}";
                    }
                }
            }
        } catch (java.util.concurrent.ExecutionException e) {
            Throwable t = e.getCause();
            if (t instanceof Error && t.getClass().getName().startsWith("advertest.worker.hook.")) {
                throw (Error) t;
            }
            return JsonText.obj("k", Output.OUT_CRASH, "x", String.valueOf(t));
        }
    }

    /** How often a running call's allocations are checked. */
    private static final long POLL_NANOS = 10_000_000L;

    /** Bytes a call may allocate (garbage included) before it is stopped as past its memory bound. */
    long maxAllocBytes; // set by Explorer, from what Go sends

    /** Bytes t has allocated so far, or -1 where the JVM does not count them. */
    private static long allocated(Thread t) {
        java.lang.management.ThreadMXBean mx = java.lang.management.ManagementFactory.getThreadMXBean();
        if (mx instanceof com.sun.management.ThreadMXBean) {
            try {
                return ((com.sun.management.ThreadMXBean) mx).getThreadAllocatedBytes(t.getId());
            } catch (RuntimeException e) {
                return -1;
            }
        }
        return -1;
    }

    private void newExecutor() {
        group = new ThreadGroup(Thread.currentThread().getThreadGroup(), "advertest-explore-" + (groupCount++));
        group.setDaemon(true); // gone with its last thread, so the test's own group can go too
        final ThreadGroup g = group;
        final ClassLoader ccl = loader;
        executor = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(g, r, "advertest-explore", 64L << 20);
            t.setDaemon(true);
            t.setContextClassLoader(ccl);
            return t;
        });
    }

    /** Makes the stuck call throw at its next backward jump (the worker's hook), then starts afresh. */
    private boolean expire() {
        boolean stopped = false;
        try {
            Class<?> hook = Class.forName("advertest.worker.hook.Hook", true, loader);
            hook.getMethod("expire", ThreadGroup.class).invoke(null, group);
            stopped = true;
        } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
            // no hook: the thread is abandoned (daemon)
        }
        executor.shutdownNow();
        executor = null;
        return stopped;
    }

    private String call(Executable target, Class<?> c, Input in, Names names) throws Throwable {
        Object recv = null;
        Object[] args = new Object[in.args.size()];
        observer.nodes = null;
        try {
            if (in.graph != null) {
                in.graph.build();
                observer.nodes = in.graph.names();
            }
            if (in.receiver != null) {
                recv = in.receiver.make.make();
                for (Call k : in.receiver.setup) {
                    Object[] a = new Object[k.args.size()];
                    for (int i = 0; i < a.length; i++) {
                        a[i] = k.args.get(i).make();
                    }
                    try {
                        k.method.invoke(recv, a);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                }
            }
            for (int i = 0; i < args.length; i++) {
                args[i] = in.args.get(i).make();
            }
        } catch (Throwable t) {
            rethrowHook(t);
            return JsonText.obj("k", Output.OUT_ARRANGE, "x", observer.exceptionName(t, names));
        }
        Object result;
        try {
            if (target instanceof Constructor) {
                result = ((Constructor<?>) target).newInstance(args);
            } else {
                result = ((Method) target).invoke(recv, args);
            }
        } catch (InvocationTargetException e) {
            Throwable t = e.getCause();
            rethrowHook(t);
            if (t instanceof OutOfMemoryError || t instanceof StackOverflowError) {
                // depends on the JVM's heap and stack sizes, not on the code alone: never asserted
                return JsonText.obj("k", Output.OUT_BOUND, "x", t instanceof OutOfMemoryError ? "memory" : "stack");
            }
            StringBuilder sb = new StringBuilder(Output.kindStart(Output.OUT_THROW)).append(",\"x\":").append(JsonText.json(observer.exceptionName(t, names)));
            appendState(sb, target, c, recv, args, in, names);
            return sb.append('}').toString();
        } catch (IllegalArgumentException | IllegalAccessException | InstantiationException e) {
            return JsonText.obj("k", Output.OUT_ARRANGE, "x", String.valueOf(e));
        }
        StringBuilder sb = new StringBuilder(Output.kindStart(Output.OUT_RET));
        if (target instanceof Method && ((Method) target).getReturnType() == void.class) {
            sb.append(",\"ret\":").append(JsonText.obj("k", Output.VAL_VOID));
        } else {
            Class<?> rt = target instanceof Method ? ((Method) target).getReturnType() : c;
            sb.append(",\"ret\":").append(observer.render(result, rt, names, 1));
        }
        appendState(sb, target, c, recv, args, in, names);
        return sb.append('}').toString();
    }

    private void appendState(StringBuilder sb, Executable target, Class<?> c, Object recv, Object[] args, Input in, Names names) {
        if (recv != null && !c.isEnum()) {
            String state = observer.observe(recv, c, names, 0);
            String queries = observer.queries(recv, c, target, args, in.args, names);
            if (!queries.isEmpty()) {
                state = state.substring(0, state.length() - 1) + (state.length() > 2 ? "," : "") + queries + "]";
            }
            sb.append(",\"state\":").append(state);
        }
        StringBuilder after = new StringBuilder("[");
        int n = 0;
        for (int i = 0; i < args.length; i++) {
            Object a = args[i];
            String r = null;
            if (a != null && (a.getClass().isArray() || a instanceof Collection || a instanceof Map)) {
                r = observer.render(a, a.getClass(), names, 0);
            } else if (Observer.textSink(a)) {
                r = observer.renderText(a);
            }
            if (r != null) {
                after.append(n++ == 0 ? "" : ",").append("{\"a\":").append(i).append(",\"r\":").append(r).append('}');
            }
        }
        sb.append(",\"after\":").append(after).append(']');
    }

    private static void rethrowHook(Throwable t) throws Throwable {
        if (t instanceof Error && t.getClass().getName().startsWith("advertest.worker.hook.")) {
            throw t;
        }
    }
}
