package org.acme;

import java.util.function.IntUnaryOperator;

/**
 * The corpus of trivial compiler equivalence: mutants of these lines that javac compiles to the
 * original's bytecode (constant folding, code under a compile-time constant condition), mutants
 * that it does not (javac does not fold x * 1), killable ones and duplicates. The cases are in
 * loop/engine/tce_test.go.
 */
public class Folding {
    static final boolean DEBUG = false;
    static final int SCALE = 4;
    static final String PREFIX = "id-";

    public static int scaled(int x) {
        return x * (2 * 3);
    }

    public static int traced(int x) {
        int calls = x;
        if (DEBUG) {
            System.out.println("traced " + x);
        }
        return calls + SCALE;
    }

    public static int stepped(int x) {
        return DEBUG ? x - 1 : x + 1;
    }

    public static int guarded(int x) {
        if (DEBUG && x > 10) {
            return -1;
        }
        return x;
    }

    public static String label(int x) {
        String tag = PREFIX + x;
        return tag;
    }

    public static IntUnaryOperator adder() {
        return v -> v + (1 + 1);
    }

    static final class Box {
        int get(int x) {
            return x + (1 + 1);
        }
    }
}
