package org.acme;

public class Calc {
    /** Read by Spin's loop; an override that changes it makes the loop endless. */
    public static int offset;

    public static int clamp(int x, int lo, int hi) {
        if (x < lo) {
            return lo;
        }
        if (x > hi) {
            return hi;
        }
        return x;
    }

    public static int add(int a, int b) {
        return a + b;
    }

    public static int sumTo(int n) {
        int s = 0;
        for (int i = 1; i <= n; i++) {
            s += i;
        }
        return s;
    }

    public static int shout(String s) {
        System.out.println("{\"id\":1,\"done\":true,\"noise\":\"" + s + "\"}");
        System.err.println("noise on stderr");
        return s.length();
    }
}
