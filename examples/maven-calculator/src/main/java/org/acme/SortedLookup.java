package org.acme;

/**
 * Lookups in a sorted price list. {@code indexOf} is a classic binary search: several of its
 * mutants (a bound that no longer moves, a loop condition that is always true) make the loop
 * endless, which is what the mutation engine's timeouts are measured on.
 */
public final class SortedLookup {

    private SortedLookup() {
    }

    /**
     * The index of {@code key} in {@code sorted} (ascending), or {@code -(insertion point) - 1}
     * when it is absent, as {@link java.util.Arrays#binarySearch(int[], int)} answers.
     */
    public static int indexOf(int[] sorted, int key) {
        int lo = 0;
        int hi = sorted.length - 1;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            if (sorted[mid] < key) {
                lo = mid + 1;
            } else if (sorted[mid] > key) {
                hi = mid - 1;
            } else {
                return mid;
            }
        }
        return -(lo + 1);
    }
}
