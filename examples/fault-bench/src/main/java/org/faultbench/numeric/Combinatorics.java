package org.faultbench.numeric;

import java.util.ArrayList;
import java.util.List;

/** Subsets and orderings, built recursively. */
public final class Combinatorics {

    private Combinatorics() {
    }

    /**
     * Every subset of items: the subsets without the first item come first, then the same
     * subsets with it in front. 2^n lists for n items.
     */
    public static List<List<Integer>> powerSet(List<Integer> items) {
        if (items.isEmpty()) {
            List<List<Integer>> base = new ArrayList<>();
            base.add(new ArrayList<>());
            return base;
        }
        Integer first = items.get(0);
        List<List<Integer>> rest = powerSet(items.subList(1, items.size()));
        List<List<Integer>> result = new ArrayList<>(rest);
        for (List<Integer> subset : rest) {
            List<Integer> with = new ArrayList<>();
            with.add(first);
            with.addAll(subset);
            result.add(with);
        }
        return result;
    }

    /** Every ordering of the characters of s, in the order of picking each character first. */
    public static List<String> permutations(String s) {
        List<String> out = new ArrayList<>();
        if (s.length() <= 1) {
            out.add(s);
            return out;
        }
        for (int i = 0; i < s.length(); i++) {
            String rest = s.substring(0, i) + s.substring(i + 1);
            for (String p : permutations(rest)) {
                out.add(s.charAt(i) + p);
            }
        }
        return out;
    }
}
