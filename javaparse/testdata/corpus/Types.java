package org.acme.types;

record Point(int x, int y) {
    public Point {
        if (x < 0 || y < 0) {
            throw new IllegalArgumentException("negative");
        }
    }

    public Point(int x) {
        this(x, 0);
    }

    public int manhattan() {
        return Math.abs(x) + Math.abs(y);
    }

    static Point origin() { return new Point(0, 0); }
}

enum Op {
    PLUS("+") {
        int apply(int a, int b) { return a + b; }
    },
    MINUS("-") {
        int apply(int a, int b) { return a - b; }
    },
    TIMES("*");

    private final String symbol;

    Op(String symbol) {
        this.symbol = symbol;
    }

    int apply(int a, int b) {
        return a * b;
    }

    String symbol() { return symbol; }
}

@interface Marker {
    int value() default 0;
}
