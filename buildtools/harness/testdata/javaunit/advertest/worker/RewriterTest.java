package advertest.worker;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import advertest.worker.hook.ExitError;
import advertest.worker.hook.Hook;
import advertest.worker.hook.TimeoutError;
import java.io.InputStream;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

class RewriterTest {
    /** Classes to rewrite; compiled with the test, read back as bytes. */
    public static class Spin {
        public static volatile boolean stop;

        public static int spin() {
            int n = 0;
            while (!stop) {
                n++;
            }
            return n;
        }

        public static int sum(int k) {
            int s = 0;
            for (int i = 0; i < k; i++) {
                s += i;
            }
            return s;
        }
    }

    public static class Exits {
        public static void exit() {
            System.exit(3);
        }

        public static void halt() {
            Runtime.getRuntime().halt(4);
        }

        public static void runtimeExit() {
            Runtime.getRuntime().exit(5);
        }
    }

    public static class Straight {
        public static int add(int a, int b) {
            return a + b;
        }
    }

    static byte[] bytesOf(Class<?> c) throws Exception {
        String name = c.getName().substring(c.getName().lastIndexOf('.') + 1) + ".class";
        try (InputStream in = c.getResourceAsStream(name)) {
            assertNotNull(in, name);
            return in.readAllBytes();
        }
    }

    /** Defines one class from bytes, everything else from the test's own loader (the hook too). */
    static Class<?> define(String name, byte[] b) throws ClassNotFoundException {
        return new ClassLoader(RewriterTest.class.getClassLoader()) {
            @Override
            protected Class<?> loadClass(String n, boolean resolve) throws ClassNotFoundException {
                if (n.equals(name)) {
                    synchronized (getClassLoadingLock(n)) {
                        Class<?> c = findLoadedClass(n);
                        return c != null ? c : defineClass(n, b, 0, b.length);
                    }
                }
                return super.loadClass(n, resolve);
            }
        }.loadClass(name);
    }

    static Class<?> defineQuietly(String name, byte[] b) {
        try {
            return define(name, b);
        } catch (ClassNotFoundException e) {
            throw new AssertionError(e);
        }
    }

    /** Runs m in a thread group of its own and returns what it threw (null when it returned). */
    static Throwable runInGroup(Method m, ThreadGroup g, long expireAfterMs) throws Exception {
        AtomicReference<Throwable> thrown = new AtomicReference<>();
        Thread t = new Thread(g, () -> {
            try {
                m.invoke(null);
            } catch (InvocationTargetException e) {
                thrown.set(e.getCause());
            } catch (ReflectiveOperationException e) {
                thrown.set(e);
            }
        });
        t.setDaemon(true);
        t.start();
        if (expireAfterMs >= 0) {
            t.join(expireAfterMs);
            Hook.expire(g);
        }
        t.join(10_000);
        assertTrue(!t.isAlive(), m + " did not stop");
        return thrown.get();
    }

    @Test
    void aBackwardJumpChecksTheDeadline() throws Exception {
        byte[] rewritten = Rewriter.rewrite(bytesOf(Spin.class), true);
        Class<?> c = defineQuietly(Spin.class.getName(), rewritten);
        assertEquals(45, c.getMethod("sum", int.class).invoke(null, 10), "a finite loop still works");
        ThreadGroup g = new ThreadGroup("rewriter-test-loop");
        Throwable t = runInGroup(c.getMethod("spin"), g, 100);
        assertTrue(t instanceof TimeoutError, "the endless loop threw " + t);
    }

    @Test
    void withoutLoopChecksALoopIsLeftAlone() throws Exception {
        byte[] original = bytesOf(Spin.class);
        assertSame(original, Rewriter.rewrite(original, false), "nothing to rewrite: the very same bytes");
        byte[] straight = bytesOf(Straight.class);
        assertSame(straight, Rewriter.rewrite(straight, false), "no exit: unchanged");
    }

    @Test
    void stepsCountBackwardJumpsAndMethodEntries() throws Exception {
        Class<?> c = defineQuietly(Spin.class.getName(), Rewriter.rewrite(bytesOf(Spin.class), true));
        c.getConstructor().newInstance(); // a check before super() still verifies
        Method sum = c.getMethod("sum", int.class);
        Hook.arm(Long.MAX_VALUE);
        assertEquals(45, sum.invoke(null, 10));
        long ten = Hook.steps();
        Hook.arm(Long.MAX_VALUE);
        assertEquals(4950, sum.invoke(null, 100));
        long hundred = Hook.steps();
        Hook.disarm();
        assertEquals(11, ten, "one entry and ten backward jumps");
        assertEquals(101, hundred, "the same count for the same work, more for more");
        Class<?> s = defineQuietly(Straight.class.getName(), Rewriter.rewrite(bytesOf(Straight.class), true));
        Hook.arm(Long.MAX_VALUE);
        assertEquals(5, s.getMethod("add", int.class, int.class).invoke(null, 2, 3));
        assertEquals(1, Hook.steps(), "a method without loops counts its entry");
        Hook.disarm();
    }

    @Test
    void anEndlessLoopStopsAtItsStepBudget() throws Exception {
        Class<?> c = defineQuietly(Spin.class.getName(), Rewriter.rewrite(bytesOf(Spin.class), true));
        ThreadGroup g = new ThreadGroup("rewriter-test-steps");
        Hook.arm(100_000);
        Throwable t;
        try {
            t = runInGroup(c.getMethod("spin"), g, -1); // no deadline: only the steps stop it
        } finally {
            Hook.disarm();
        }
        assertTrue(t instanceof TimeoutError && t.getMessage().contains("100000 steps"), "the endless loop threw " + t);
        assertTrue(Hook.stepsExceeded());
        assertTrue(Hook.steps() > 100_000);
    }

    @Test
    void exitAndHaltThrowInstead() throws Exception {
        byte[] rewritten = Rewriter.rewrite(bytesOf(Exits.class), false);
        Class<?> c = defineQuietly(Exits.class.getName(), rewritten);
        int[] want = {3, 4, 5};
        String[] methods = {"exit", "halt", "runtimeExit"};
        for (int k = 0; k < methods.length; k++) {
            ThreadGroup g = new ThreadGroup("rewriter-test-" + methods[k]);
            Throwable t = runInGroup(c.getMethod(methods[k]), g, -1);
            assertTrue(t instanceof ExitError, methods[k] + " threw " + t);
            assertEquals(want[k], ((ExitError) t).status());
            assertEquals(want[k], Hook.exitStatus(g));
        }
    }

    @Test
    void theRewriteIsDeterministic() throws Exception {
        byte[] in = bytesOf(Spin.class);
        assertArrayEquals(Rewriter.rewrite(in, true), Rewriter.rewrite(in.clone(), true));
    }

    @Test
    void aClassFileNewerThanAsmReadsKeepsItsVersion() throws Exception {
        byte[] in = bytesOf(Exits.class).clone();
        in[6] = 0;
        in[7] = 69; // Java 25
        byte[] out = Rewriter.rewrite(in, true);
        assertTrue(out != in && !Arrays.equals(out, in), "rewritten");
        assertEquals(69, out[7]);
    }

    @Test
    void unreadableBytesComeBackUnchanged() {
        byte[] junk = {(byte) 0xCA, (byte) 0xFE, 1, 2, 3};
        assertSame(junk, Rewriter.rewrite(junk, true));
    }
}
