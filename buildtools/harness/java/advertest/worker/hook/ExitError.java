package advertest.worker.hook;

/** Thrown instead of System.exit / Runtime.exit / Runtime.halt in the code under test. */
public final class ExitError extends Error {
    private static final long serialVersionUID = 1L;
    private final int status;

    public ExitError(int status) {
        super("System.exit(" + status + ") called", null, false, true);
        this.status = status;
    }

    public int status() {
        return status;
    }
}
