package org.faultbench.graph;

import java.util.AbstractMap;
import java.util.HashMap;
import java.util.Map;
import java.util.PriorityQueue;

/** Shortest paths over weighted graphs. */
public final class Paths {

    private Paths() {
    }

    /**
     * The total weight of a lightest path from start to goal (Dijkstra's algorithm), or -1 when
     * goal is out of reach. Sums are exact: weights are ints, distances longs.
     */
    public static long distance(Vertex start, Vertex goal) {
        Map<Vertex, Long> dist = new HashMap<>();
        PriorityQueue<Map.Entry<Vertex, Long>> queue = new PriorityQueue<>(Map.Entry.comparingByValue());
        dist.put(start, 0L);
        queue.add(new AbstractMap.SimpleEntry<>(start, 0L));
        while (!queue.isEmpty()) {
            Map.Entry<Vertex, Long> entry = queue.poll();
            Vertex v = entry.getKey();
            long d = entry.getValue();
            if (d > dist.get(v)) {
                continue;
            }
            if (v == goal) {
                return d;
            }
            for (Edge e : v.getEdges()) {
                long candidate = d + e.getWeight();
                Long known = dist.get(e.getTarget());
                if (known == null || candidate < known) {
                    dist.put(e.getTarget(), candidate);
                    queue.add(new AbstractMap.SimpleEntry<>(e.getTarget(), candidate));
                }
            }
        }
        return -1;
    }
}
