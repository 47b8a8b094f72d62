package org.faultbench.collect;

/** Searches over sorted int arrays. */
public final class Search {

    private Search() {
    }

    /**
     * The index of key in sorted, or -(insertion point) - 1 when it is absent, as
     * java.util.Arrays.binarySearch answers.
     */
    public static int binarySearch(int[] sorted, int key) {
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

    /** The first index whose value is at least key; sorted.length when every value is smaller. */
    public static int lowerBound(int[] sorted, int key) {
        int lo = 0;
        int hi = sorted.length;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (sorted[mid] < key) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }
}
