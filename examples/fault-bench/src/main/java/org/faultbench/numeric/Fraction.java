package org.faultbench.numeric;

/** An exact fraction in lowest terms, the sign on the numerator. */
public final class Fraction implements Comparable<Fraction> {

    private final long num;
    private final long den;

    public Fraction(long num, long den) {
        if (den == 0) {
            throw new ArithmeticException("zero denominator");
        }
        if (den < 0) {
            num = -num;
            den = -den;
        }
        long g = gcd(Math.abs(num), den);
        this.num = num / g;
        this.den = den / g;
    }

    private static long gcd(long a, long b) {
        while (b != 0) {
            long t = a % b;
            a = b;
            b = t;
        }
        return a;
    }

    public long numerator() {
        return num;
    }

    public long denominator() {
        return den;
    }

    public Fraction plus(Fraction o) {
        return new Fraction(num * o.den + o.num * den, den * o.den);
    }

    public Fraction times(Fraction o) {
        return new Fraction(num * o.num, den * o.den);
    }

    @Override
    public int compareTo(Fraction o) {
        return Long.compare(num * o.den, o.num * den);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Fraction && ((Fraction) o).num == num && ((Fraction) o).den == den;
    }

    @Override
    public int hashCode() {
        return Long.hashCode(num) * 31 + Long.hashCode(den);
    }

    @Override
    public String toString() {
        return num + "/" + den;
    }
}
