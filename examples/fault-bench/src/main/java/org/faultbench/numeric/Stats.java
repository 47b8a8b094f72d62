package org.faultbench.numeric;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/** Descriptive statistics. */
public final class Stats {

    private Stats() {
    }

    /** The arithmetic mean of values; 0 for none. Exact for any int values. */
    public static double average(int[] values) {
        if (values.length == 0) {
            return 0;
        }
        long sum = 0;
        for (int v : values) {
            sum += v;
        }
        return (double) sum / values.length;
    }

    /** The median: the middle value, or the mean of the two middle values for an even count. */
    public static double median(List<Integer> values) {
        if (values.isEmpty()) {
            throw new IllegalArgumentException("no values");
        }
        List<Integer> sorted = new ArrayList<>(values);
        Collections.sort(sorted);
        int mid = sorted.size() / 2;
        if (sorted.size() % 2 == 1) {
            return sorted.get(mid);
        }
        return (sorted.get(mid - 1) + sorted.get(mid)) / 2.0;
    }
}
