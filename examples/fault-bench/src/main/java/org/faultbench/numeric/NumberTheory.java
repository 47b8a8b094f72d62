package org.faultbench.numeric;

/** Divisors and primes. */
public final class NumberTheory {

    private NumberTheory() {
    }

    /** The greatest common divisor, never negative; gcd(0, 0) is 0. */
    public static int gcd(int a, int b) {
        if (b == 0) {
            return Math.abs(a);
        }
        return gcd(b, a % b);
    }

    /** The least common multiple, never negative; 0 when either is 0. */
    public static long lcm(int a, int b) {
        if (a == 0 || b == 0) {
            return 0;
        }
        return Math.abs((long) a / gcd(a, b) * b);
    }

    public static boolean isPrime(int n) {
        if (n < 2) {
            return false;
        }
        for (int d = 2; (long) d * d <= n; d++) {
            if (n % d == 0) {
                return false;
            }
        }
        return true;
    }
}
