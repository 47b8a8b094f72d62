package org.acme;

/** A loop in a project class: it is not instrumented, so only a worker restart stops it. */
public class Spin {
    public static int untilZero(int n) {
        int steps = 0;
        while (Calc.add(n, 0) != 0) {
            steps++;
        }
        return steps;
    }
}
