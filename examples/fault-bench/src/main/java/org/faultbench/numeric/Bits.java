package org.faultbench.numeric;

/** Bit twiddling. */
public final class Bits {

    private Bits() {
    }

    /** The number of one bits of n in two's complement (as Integer.bitCount). */
    public static int countOnes(int n) {
        int count = 0;
        while (n != 0) {
            count += n & 1;
            n >>>= 1;
        }
        return count;
    }
}
