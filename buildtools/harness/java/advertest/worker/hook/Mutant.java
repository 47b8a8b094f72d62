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

    /*
     * A schema's switched for update (mutants.SchemaDiscard): the update must stay a statement
     * expression, and a ?: is not one, so the switch is an argument whose value is dropped. Not
     * rewritten (this package is the worker's): the call adds no step.
     */

    public static void discard(int value) {
    }

    public static void discard(long value) {
    }

    public static void discard(float value) {
    }

    public static void discard(double value) {
    }

    public static void discard(boolean value) {
    }

    public static void discard(Object value) {
    }

    /** Makes id the active mutant (0: none, the original). */
    public static void activate(int id) {
        active = id;
    }
}
