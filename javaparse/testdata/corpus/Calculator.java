package org.acme.calc;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import static java.lang.Math.max;
import java.io.*;

/**
 * A calculator with generics, annotations and overloads.
 */
public final class Calculator<T extends Number> extends Object implements Comparable<Calculator<T>> {
    private int count = 0;
    protected final List<String> log = new ArrayList<>();
    static final Map<String, List<Integer>> CACHE = null;

    public Calculator() {
        this(0);
    }

    @SuppressWarnings("unused")
    Calculator(int start) {
        count = start;
    }

    /** Clamps x into [lo, hi]. */
    @Deprecated
    @SuppressWarnings({"a", "b"})
    public static int clamp(int x, int lo, int hi) {
        if (x < lo) {
            return lo;
        }
        return Math.min(x, hi);
    }

    public static long clamp(long x, long lo, long hi) {
        return x < lo ? lo : Math.min(x, hi);
    }

    public <U extends Comparable<U>> U maxOf(List<? extends U> items, U... extra) throws IOException {
        U best = null;
        for (U u : items) {
            if (best == null || u.compareTo(best) > 0) {
                best = u;
            }
        }
        return best;
    }

    public int sum(int[] values) {
        int s = 0;
        for (int v : values) s += v;
        Runnable r = () -> {
            log.add("summed");
        };
        r.run();
        return max(s, 0);
    }

    @Override
    public int compareTo(Calculator<T> other) { return Integer.compare(count, other.count); }

    public int
        split(
            int a,
            int b)
    {
        return a
            + b;
    }
}
