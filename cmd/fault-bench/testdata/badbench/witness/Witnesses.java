import p.Counter;

final class Witnesses {

    static void nextCounts() {
        Counter c = new Counter();
        c.next();
        if (c.next() != 2) {
            throw new AssertionError("second next is 2");
        }
    }

    static void twiceDoubles() {
        if (Counter.twice(3) != 6) {
            throw new AssertionError("twice(3) is 6");
        }
    }

    static void absOfMinValue() {
        if (Counter.abs(-1) != 1) {
            throw new AssertionError("abs(-1) is 1");
        }
    }
}
