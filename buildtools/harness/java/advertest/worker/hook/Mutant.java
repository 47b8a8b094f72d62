package advertest.worker.hook;

/**
 * The switch of a mutant schema: a class compiled with all of a method's mutants selects each
 * site's variant with {@link #on(int)}, and the worker sets the run's active mutant before its
 * tests start (docs/worker-protocol.md). One run at a time per worker: a plain field suffices,
 * set before the test threads start.
 */
public final class Mutant {
    private Mutant() {
    }

    private static int active;

    /** Whether mutant id (1, 2, ...) is the active one of this run. */
    public static boolean on(int id) {
        return active == id;
    }

    /** Makes id the active mutant (0: none, the original). */
    public static void activate(int id) {
        active = id;
    }
}
