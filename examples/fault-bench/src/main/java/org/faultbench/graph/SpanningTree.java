package org.faultbench.graph;

import java.util.Comparator;
import java.util.HashSet;
import java.util.PriorityQueue;
import java.util.Set;

/** Minimum spanning trees (Prim's algorithm) over graphs whose edges are added both ways. */
public final class SpanningTree {

    private SpanningTree() {
    }

    /**
     * The total weight of a minimum spanning tree of the vertices reachable from start: each
     * step adds the lightest edge from the tree to a vertex not yet in it. 0 for a lone vertex.
     */
    public static long weight(Vertex start) {
        Set<Vertex> inTree = new HashSet<>();
        PriorityQueue<Edge> queue = new PriorityQueue<>(Comparator.comparingInt(Edge::getWeight));
        inTree.add(start);
        queue.addAll(start.getEdges());
        long total = 0;
        while (!queue.isEmpty()) {
            Edge e = queue.poll();
            if (!inTree.add(e.getTarget())) {
                continue;
            }
            total += e.getWeight();
            queue.addAll(e.getTarget().getEdges());
        }
        return total;
    }
}
