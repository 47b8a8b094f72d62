package org.faultbench.numeric;

/** Floating-point comparisons and roots with tolerances. */
public final class Doubles {

    private Doubles() {
    }

    /**
     * Whether a and b are close: within absTol of each other, or within relTol of the larger
     * magnitude. NaN is close to nothing; an infinity only to itself.
     */
    public static boolean approxEqual(double a, double b, double relTol, double absTol) {
        if (a == b) {
            return true;
        }
        if (Double.isNaN(a) || Double.isNaN(b) || Double.isInfinite(a) || Double.isInfinite(b)) {
            return false;
        }
        double diff = Math.abs(a - b);
        return diff <= absTol || diff <= relTol * Math.max(Math.abs(a), Math.abs(b));
    }

    /** The square root of x by Newton's method, to a relative error of about tolerance. */
    public static double sqrt(double x, double tolerance) {
        if (x < 0) {
            throw new IllegalArgumentException("negative: " + x);
        }
        if (x == 0) {
            return 0;
        }
        double guess = x > 1 ? x / 2 : 1;
        while (Math.abs(guess * guess - x) > tolerance * x) {
            guess = (guess + x / guess) / 2;
        }
        return guess;
    }
}
