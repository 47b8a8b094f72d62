package org.acme;

import java.util.Comparator;
import java.util.Iterator;
import java.util.NoSuchElementException;

/**
 * A fixture of the entry through a factory's result (entry_result.go): the methods of a private
 * nested class, an inner class and an anonymous class run only when a test calls them on what a
 * public method returns as an interface a test can name.
 */
public class Tally {
    private final int[] counts;

    public Tally(int... counts) {
        this.counts = counts.clone();
    }

    /** The positive counts, in order. */
    public Iterator<Integer> positives() {
        return new Positives();
    }

    /** A scale that keeps values within [-bound, bound]. */
    public static Scale clamping(int bound) {
        return new Clamp(bound);
    }

    /** Shorter strings first, through an anonymous class. */
    public static Comparator<String> byLength() {
        return new Comparator<String>() {
            @Override
            public int compare(String a, String b) {
                if (a.length() < b.length()) {
                    return -1;
                }
                return a.length() == b.length() ? 0 : 1;
            }
        };
    }

    /** What a scale does to a value. */
    public interface Scale {
        int apply(int x);
    }

    private static final class Clamp implements Scale {
        private final int bound;

        Clamp(int bound) {
            this.bound = bound;
        }

        @Override
        public int apply(int x) {
            if (x > bound) {
                return bound;
            }
            if (x < -bound) {
                return -bound;
            }
            return x;
        }
    }

    private final class Positives implements Iterator<Integer> {
        private int i;

        @Override
        public boolean hasNext() {
            while (i < counts.length && counts[i] <= 0) {
                i++;
            }
            return i < counts.length;
        }

        @Override
        public Integer next() {
            if (!hasNext()) {
                throw new NoSuchElementException();
            }
            return counts[i++];
        }
    }
}
