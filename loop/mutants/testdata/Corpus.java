package org.acme;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/** A corpus of realistic methods for the rule-based mutant operators (x < y in a comment). */
public class Corpus extends Base {
    private int count;
    private final String name;
    private static final int LIMIT = 100;

    public Corpus(String name, int count) {
        super(name.length());
        this.name = name;
        this.count = count;
        validate();
    }

    public static int clamp(int x, int lo, int hi) {
        if (x < lo) {
            return lo;
        }
        return Math.min(x, hi); // x > hi gives hi
    }

    public int sum(int[] values) {
        int total = 0;
        for (int i = 0; i < values.length; i++) {
            total += values[i];
        }
        return total;
    }

    public String greet(String who) {
        // if (who == null) return "a < b";
        String msg = "Hello, " + who + "! (x < y && y > z)";
        if (who.isEmpty() || who.length() > LIMIT) {
            return "nobody";
        }
        return msg + count;
    }

    public boolean inRange(int x) {
        return x >= 0 && x <= LIMIT; /* x >= 0 || x - 1 */
    }

    public char grade(int score) {
        char c = score >= 90 ? 'A' : score >= 80 ? 'B' : '<';
        return c;
    }

    public List<String> upper(List<String> items) {
        List<String> out = new ArrayList<>();
        items.forEach(s -> {
            if (s != null) {
                out.add(s.toUpperCase());
            }
        });
        Function<String, Integer> len = s -> { return s.length() * 2; };
        out.sort(String::compareTo);
        return out;
    }

    public Optional<String> find(Map<String, Integer> m, String key) {
        Integer v = m.get(key);
        if (v == null) return Optional.empty();
        return Optional.of(key + "=" + v);
    }

    public long mix(long a, long b) {
        long r = (a << 2) ^ (b >>> 1) & 0xFFL;
        r = r * 31 + b % 7;
        while (r > 1_000L) { r /= 2; }
        do { r++; } while (r < 10);
        return -r;
    }

    public void reset() {
        count = 0;
        log("reset");
        if (count == 0) notifyListeners();
    }

    public int describe(Object o) {
        if (o instanceof String s && !s.isEmpty()) {
            return s.length();
        }
        switch (count) {
            case 1:
                log("one");
                break;
            default:
                count--;
        }
        Runnable r = new Runnable() {
            @Override
            public void run() {
                log("x");
            }
        };
        return o == null ? -1 : o.hashCode() % LIMIT;
    }

    public double average(List<Integer> xs) {
        if (xs.isEmpty()) return 0.0;
        double s = 0;
        for (int x : xs) {
            s += x;
        }
        return s / xs.size();
    }

    public String banner(int width) {
        String t = """
            a < b && c
            """;
        return t.repeat(width > 1 ? width : 1);
    }

    public int weighted(int a, int b, int c) {
        return a - b * c + (a + b) / 2;
    }

    public List<Integer> evens(int n) {
        List<Integer> out = new ArrayList<>();
        for (int i = 0; i <= n; i += 2) {
            out.add(i);
        }
        return out;
    }

    public Integer boxed(int a) { return a > 0 ? a : null; }

    public String[] names() { return new String[] {name}; }

    public int[] counts() { return new int[] {count, count + 1}; }

    <T extends Comparable<T>> T maxOf(T a, T b) { return a.compareTo(b) >= 0 ? a : b; }

    private void validate() {
        if (count < 0) throw new IllegalArgumentException("count < 0");
    }

    private void log(String s) {
    }

    private void notifyListeners() {
    }

    static class Inner {
        int twice(int x) {
            return x * 2;
        }
    }

    // Sites of the fault-like operators (WRAP, SWAP, LOOP, EXIT, VAR, ARG, IDX).

    public int nonNegative(int a, int b) {
        return Math.max(0, a - b) * 2;
    }

    public long safeTotal(long a, long b, int n) {
        long t = Math.addExact(a, b);
        int r = Math.floorMod(n, 7);
        return Math.abs(t) + Math.toIntExact(t) * r;
    }

    public String label(String first, String last) {
        String key = java.util.Objects.requireNonNull(first, "first");
        String tail = last.trim();
        return key.toLowerCase() + ", " + tail;
    }

    public int countPairs(int[] a, int[][] grid, List<Integer> xs) {
        int pairs = 0;
        for (int i = 0; i < a.length; i++) {
            for (int j = i + 1; j < a.length; j++) {
                if (a[i] == a[j]) {
                    pairs++;
                }
            }
        }
        for (int r = 0; r < grid.length; r++) {
            for (int c = 0; c < grid[r].length; c++) {
                if (grid[r][c] < 0) continue;
                pairs += grid[r][c];
            }
        }
        for (int k = 0; k < xs.size(); k++) {
            if (xs.get(k) == null) break;
            pairs -= xs.get(k);
        }
        return pairs;
    }

    public int position(int[] values, int key) {
        for (int i = 0; i < values.length; i++) {
            if (values[i] == key) {
                return i;
            }
        }
        return -1;
    }

    public void visit(List<String> names, String prefix) {
        if (names.isEmpty()) {
            return;
        }
        for (String n : names) {
            if (n.startsWith(prefix)) {
                log(n);
            }
        }
    }

    public String between(String s, int from, int to) {
        if (from > to) return "";
        return s.substring(from, to) + s.charAt(from);
    }

    public int sign(int x, boolean strict) {
        int s;
        if (x > 0) {
            s = 1;
        } else {
            s = strict ? -1 : 0;
        }
        final int bound;
        if (x > LIMIT) bound = LIMIT; else bound = x;
        return s * bound;
    }

    public int share(int count, int every) {
        int free = every > 0 ? count / every : 0;
        boolean many = count > LIMIT && every != 0;
        if (true) {
            free++;
        }
        return many ? count - free : free;
    }

    public int fixed(int x) {
        int y;
        if (1 < 2) {
            y = x;
        }
        return y;
    }

    public int ratio(int total, int parts, int rest) {
        while (true) {
            if (parts > 0) break;
            parts++;
        }
        return total / parts - rest % parts;
    }
}

class Base {
    Base(int n) {
    }
}
