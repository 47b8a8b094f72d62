package advertest.worker.hook;

/**
 * The switch of a mutant schema: a class compiled with all of a method's mutants selects each
 * site's variant by comparing {@link #active} with the variant's id (a field read, not a call: a
 * fresh class runs interpreted at first, and an endless-loop mutant spends its whole step budget
 * there), and the worker sets the run's active mutant before its tests start
 * (docs/worker-protocol.md). One run at a time per worker: a plain field suffices, set before
 * the test threads start.
 */
public final class Mutant {
    private Mutant() {
    }

    /** The run's active mutant, 0 for none. */
    public static int active;

    /** Whether mutant id (1, 2, ...) is the active one of this run. */
    public static boolean on(int id) {
        return active == id;
    }

    /** Makes id the active mutant (0: none, the original). */
    public static void activate(int id) {
        active = id;
    }
}
