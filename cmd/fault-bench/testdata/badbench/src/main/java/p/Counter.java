package p;

public class Counter {

    private int count;

    public int next() {
        count = count + 1;
        return count;
    }

    public static int twice(int x) {
        return x * 2;
    }

    public static int abs(int x) {
        return x < 0 ? -x : x;
    }

    public static int abs(long x) {
        return (int) (x < 0 ? -x : x);
    }

    public static int sum(int a, int b) {
        int s = a + b;
        int t = a + b;
        return s;
    }
}
