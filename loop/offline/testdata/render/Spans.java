package org.acme;

/**
 * A fixture of the offline agent's renderer: a method that returns an object with no getter and
 * no toString. Span's state is private (no accessible method shows it: a test asserts none of
 * it); Bounds's fields are package-private (a test in the package reads them directly).
 */
public class Spans {
    public static Span longest(int[] xs) {
        int bestStart = 0;
        int bestLength = 0;
        int start = 0;
        for (int i = 1; i <= xs.length; i++) {
            if (i == xs.length || xs[i] < xs[i - 1]) {
                if (i - start > bestLength) {
                    bestStart = start;
                    bestLength = i - start;
                }
                start = i;
            }
        }
        return new Span(bestStart, bestLength);
    }

    public static Bounds bounds(int a, int b) {
        return a <= b ? new Bounds(a, b) : new Bounds(b, a);
    }
}

class Span {
    private final int start;
    private final int longest;

    Span(int start, int longest) {
        this.start = start;
        this.longest = longest;
    }
}

class Bounds {
    final int lo;
    final int hi;

    Bounds(int lo, int hi) {
        this.lo = lo;
        this.hi = hi;
    }
}
