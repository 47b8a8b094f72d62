package org.acme;

public class BadInit {
    public static final int VALUE = compute();

    private static int compute() {
        throw new IllegalStateException("boom in static init");
    }
}
