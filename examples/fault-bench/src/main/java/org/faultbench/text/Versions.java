package org.faultbench.text;

/** Dotted version numbers such as "1.10.2". */
public final class Versions {

    private Versions() {
    }

    /**
     * Compares a and b part by part as numbers, a missing part counting as 0: "1.10" is after
     * "1.9", and "1.0" equals "1.0.0". Negative, zero or positive as Comparator answers.
     */
    public static int compare(String a, String b) {
        String[] x = a.split("\\.");
        String[] y = b.split("\\.");
        for (int i = 0; i < Math.max(x.length, y.length); i++) {
            int p = i < x.length ? Integer.parseInt(x[i]) : 0;
            int q = i < y.length ? Integer.parseInt(y[i]) : 0;
            if (p != q) {
                return Integer.compare(p, q);
            }
        }
        return 0;
    }
}
