package org.acme.broken;

public class Broken {
    public int good(int a) {
        return a + 1;
    }

    public int bad(int a) {
        int x = a +;
        return x
    }

    public int alsoGood(int b) {
        return b * 2;
    }
}
