package org.acme;

/**
 * A fixture of the offline agent's entry points (entry.go): methods a test cannot call (private
 * helpers, a method of a private nested class), reached through the public methods and
 * constructors that call them.
 */
public class Reach {
    private static boolean enabled;

    private final long cents;

    /** A private helper reached through a constructor. */
    public Reach(String amount) {
        this.cents = parseCents(amount);
    }

    private static long parseCents(String amount) {
        int dot = amount.indexOf('.');
        if (dot < 0) {
            return Long.parseLong(amount) * 100;
        }
        return Long.parseLong(amount.substring(0, dot)) * 100 + Long.parseLong(amount.substring(dot + 1));
    }

    public long cents() {
        return cents;
    }

    /** A private static helper reached through a public static method. */
    public static int vowels(String s) {
        int n = 0;
        for (char c : s.toCharArray()) {
            if (isVowel(c)) {
                n++;
            }
        }
        return n;
    }

    private static boolean isVowel(char c) {
        return c == 'a' || c == 'e' || c == 'i' || c == 'o' || c == 'u';
    }

    /** A private nested class's method reached through its owner's public API. */
    private static final class Window {
        private final int size;

        Window(int size) {
            this.size = size;
        }

        int clip(int x) {
            if (x > size) {
                return size;
            }
            if (x < 0) {
                return 0;
            }
            return x;
        }
    }

    public static int clipTo(int size, int x) {
        return new Window(size).clip(x);
    }

    /** Reaches its helper only for values above 100: the inputs below do not count for it. */
    public static int bucket(int x) {
        if (x > 100) {
            return scale(x);
        }
        return x;
    }

    private static int scale(int x) {
        return x / 10 * 3;
    }

    /** Never reaches its helper: the flag is never set. */
    public static int guarded(int x) {
        return enabled ? never(x) : x;
    }

    private static int never(int x) {
        return x * 2;
    }
}
