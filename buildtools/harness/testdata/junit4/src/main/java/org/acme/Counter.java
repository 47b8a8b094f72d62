package org.acme;

public class Counter {
    private static int count;

    public static int next() {
        return ++count;
    }
}
