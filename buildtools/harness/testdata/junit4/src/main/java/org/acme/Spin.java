package org.acme;

/**
 * A loop in a project class: it is not instrumented and calls nothing that is (it only reads a
 * field of Calc, which a test's override may change), so only a worker restart stops it.
 */
public class Spin {
    public static int untilZero(int n) {
        int steps = 0;
        while (Calc.offset + n != 0) {
            steps++;
        }
        return steps;
    }
}
