package org.acme.crlf;

public class Crlf {
    public int first(int a) {
        return a + 1;
    }

    @Deprecated
    public int second(int b) {
        return b - 1;
    }
}
