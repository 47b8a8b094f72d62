package org.acme;

/**
 * A fixture of an abstract class's concrete method whose receiver the project's own subclass
 * makes (Kilo, nested here as a project's class would be anywhere in its class folders).
 */
public abstract class Meter {
    private int total;

    /** What one unit weighs: each subclass says. */
    protected abstract int unit();

    /** Adds n units, at most 100 at a time, and returns the new total. */
    public int add(int n) {
        if (n > 100) {
            n = 100;
        }
        total += n * unit();
        return total;
    }

    /** The project's one subclass. */
    public static final class Kilo extends Meter {
        @Override
        protected int unit() {
            return 1000;
        }
    }
}
