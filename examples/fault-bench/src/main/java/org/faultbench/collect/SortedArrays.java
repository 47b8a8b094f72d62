package org.faultbench.collect;

/** Operations on sorted int arrays. */
public final class SortedArrays {

    private SortedArrays() {
    }

    /** One sorted array holding the values of both sorted arrays, repeats kept. */
    public static int[] merge(int[] a, int[] b) {
        int[] out = new int[a.length + b.length];
        int i = 0;
        int j = 0;
        int k = 0;
        while (i < a.length && j < b.length) {
            if (a[i] <= b[j]) {
                out[k++] = a[i++];
            } else {
                out[k++] = b[j++];
            }
        }
        while (i < a.length) {
            out[k++] = a[i++];
        }
        while (j < b.length) {
            out[k++] = b[j++];
        }
        return out;
    }
}
