package org.faultbench.collect;

import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/** Counting values and words. */
public final class Histogram {

    private Histogram() {
    }

    /**
     * How many values fall in each bucket of the given width: bucket k holds the values in
     * [k * width, (k + 1) * width), so -1 is in bucket -1 for width 10.
     */
    public static SortedMap<Integer, Integer> bucketCounts(List<Integer> values, int width) {
        if (width <= 0) {
            throw new IllegalArgumentException("width must be positive: " + width);
        }
        SortedMap<Integer, Integer> counts = new TreeMap<>();
        for (int v : values) {
            int bucket = Math.floorDiv(v, width);
            counts.merge(bucket, 1, Integer::sum);
        }
        return counts;
    }

    /**
     * The most frequent word, ignoring case (answered in lower case); a tie goes to the word
     * that comes first alphabetically. null for no words.
     */
    public static String mostFrequent(List<String> words) {
        Map<String, Integer> counts = new HashMap<>();
        for (String w : words) {
            counts.merge(w.toLowerCase(Locale.ROOT), 1, Integer::sum);
        }
        String best = null;
        int bestCount = 0;
        for (Map.Entry<String, Integer> e : counts.entrySet()) {
            String word = e.getKey();
            int count = e.getValue();
            if (count > bestCount || (count == bestCount && word.compareTo(best) < 0)) {
                best = word;
                bestCount = count;
            }
        }
        return best;
    }
}
