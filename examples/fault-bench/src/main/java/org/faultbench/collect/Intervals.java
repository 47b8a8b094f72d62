package org.faultbench.collect;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

/** Closed integer intervals given as {start, end} pairs. */
public final class Intervals {

    private Intervals() {
    }

    /**
     * Merges overlapping intervals, touching ones included ({1, 3} and {3, 5} become {1, 5});
     * the result is sorted by start.
     */
    public static int[][] merge(int[][] intervals) {
        int[][] sorted = Arrays.copyOf(intervals, intervals.length);
        Arrays.sort(sorted, Comparator.comparingInt(iv -> iv[0]));
        List<int[]> merged = new ArrayList<>();
        for (int[] iv : sorted) {
            if (iv[0] > iv[1]) {
                throw new IllegalArgumentException("start after end: " + Arrays.toString(iv));
            }
            int[] last = merged.isEmpty() ? null : merged.get(merged.size() - 1);
            if (last != null && iv[0] <= last[1]) {
                last[1] = Math.max(last[1], iv[1]);
            } else {
                merged.add(new int[] {iv[0], iv[1]});
            }
        }
        return merged.toArray(new int[0][]);
    }
}
