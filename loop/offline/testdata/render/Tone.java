package org.acme;

/**
 * A fixture of an abstract class that only its own constants make: its one subclass is private,
 * its constructor private too, so neither an implementation nor a generated subclass can make a
 * receiver; its public constant can.
 */
public abstract class Tone {
    /** The one instance a test can name. */
    public static final Tone LOUD = new Loud();

    private Tone() {
    }

    /** The tone's volume. */
    protected abstract int volume();

    /** The volume doubled, capped at 50. */
    public int boosted() {
        int v = volume() * 2;
        if (v > 50) {
            return 50;
        }
        return v;
    }

    private static final class Loud extends Tone {
        @Override
        protected int volume() {
            return 40;
        }
    }
}
