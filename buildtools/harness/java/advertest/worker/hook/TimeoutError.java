package advertest.worker.hook;

/** Thrown inside the code under test when its test is past its time budget. */
public final class TimeoutError extends Error {
    private static final long serialVersionUID = 1L;

    public TimeoutError() {
        this("test exceeded its time budget");
    }

    public TimeoutError(String message) {
        super(message, null, false, false);
    }
}
