package advertest.offline;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;

/** Picking a few simple combinations out of pools of values, simplest first. */
final class Combinations {
    private Combinations() {
    }

    /** gs without null (just null when that is all there is). */
    static List<Gen> nonNull(List<Gen> gs) {
        List<Gen> out = new ArrayList<>();
        for (Gen g : gs) {
            if (g != Gen.NULL) {
                out.add(g);
            }
        }
        if (out.isEmpty()) {
            out.add(Gen.NULL);
        }
        return out;
    }

    /** Small element lists: singletons, pairs in both orders, a triple. */
    static List<List<Gen>> small(List<Gen> elems) {
        List<Gen> e = nonNull(elems);
        List<List<Gen>> out = new ArrayList<>();
        for (int i = 0; i < Math.min(4, e.size()); i++) {
            out.add(Collections.singletonList(e.get(i)));
        }
        if (e.size() >= 3) {
            out.add(Arrays.asList(e.get(1), e.get(2)));
            out.add(Arrays.asList(e.get(2), e.get(1)));
            out.add(Arrays.asList(e.get(1), e.get(1)));
            out.add(Arrays.asList(e.get(2), e.get(0), e.get(1)));
        }
        return out;
    }

    /** The size of each pool. */
    static int[] sizes(List<List<Gen>> pools) {
        int[] s = new int[pools.size()];
        for (int i = 0; i < s.length; i++) {
            s[i] = pools.get(i).size();
        }
        return s;
    }

    /** One value of each pool, by index. */
    static List<Gen> pick(List<List<Gen>> pools, int[] idx) {
        List<Gen> out = new ArrayList<>();
        for (int i = 0; i < idx.length; i++) {
            out.add(pools.get(i).get(idx[i]));
        }
        return out;
    }

    /** Index tuples in order of increasing index sum (simplest first), at most limit of them. */
    static List<int[]> diagonal(int[] sizes, int limit) {
        List<int[]> out = new ArrayList<>();
        for (int s : sizes) {
            if (s == 0) {
                return out;
            }
        }
        int maxSum = 0;
        for (int s : sizes) {
            maxSum += s - 1;
        }
        for (int sum = 0; sum <= maxSum && out.size() < limit; sum++) {
            fill(sizes, 0, sum, new int[sizes.length], out, limit);
        }
        return out;
    }

    private static void fill(int[] sizes, int pos, int left, int[] cur, List<int[]> out, int limit) {
        if (out.size() >= limit) {
            return;
        }
        if (pos == sizes.length) {
            if (left == 0) {
                out.add(cur.clone());
            }
            return;
        }
        if (pos == sizes.length - 1) {
            if (left < sizes[pos]) {
                cur[pos] = left;
                fill(sizes, pos + 1, 0, cur, out, limit);
            }
            return;
        }
        for (int v = 0; v <= Math.min(left, sizes[pos] - 1); v++) {
            cur[pos] = v;
            fill(sizes, pos + 1, left - v, cur, out, limit);
        }
    }
}
