package org.faultbench.graph;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Algorithms over Node graphs. */
public final class Graphs {

    private Graphs() {
    }

    /** The number of edges on a shortest path from start to goal, or -1 when goal is out of reach. */
    public static int distance(Node start, Node goal) {
        Map<Node, Integer> dist = new HashMap<>();
        Deque<Node> queue = new ArrayDeque<>();
        dist.put(start, 0);
        queue.add(start);
        while (!queue.isEmpty()) {
            Node current = queue.poll();
            if (current == goal) {
                return dist.get(current);
            }
            for (Node next : current.getNeighbours()) {
                if (!dist.containsKey(next)) {
                    dist.put(next, dist.get(current) + 1);
                    queue.add(next);
                }
            }
        }
        return -1;
    }

    /**
     * The nodes and every node they reach, ordered so that each edge goes from an earlier node
     * to a later one (Kahn's algorithm, ties in the order met). A cycle is an error.
     */
    public static List<Node> topologicalOrder(Collection<Node> nodes) {
        Map<Node, Integer> inDegree = new LinkedHashMap<>();
        Deque<Node> pending = new ArrayDeque<>(nodes);
        while (!pending.isEmpty()) {
            Node n = pending.poll();
            if (inDegree.putIfAbsent(n, 0) == null) {
                pending.addAll(n.getNeighbours());
            }
        }
        for (Node n : new ArrayList<>(inDegree.keySet())) {
            for (Node m : n.getNeighbours()) {
                inDegree.merge(m, 1, Integer::sum);
            }
        }
        Deque<Node> ready = new ArrayDeque<>();
        for (Map.Entry<Node, Integer> e : inDegree.entrySet()) {
            if (e.getValue() == 0) {
                ready.add(e.getKey());
            }
        }
        List<Node> order = new ArrayList<>();
        while (!ready.isEmpty()) {
            Node n = ready.poll();
            order.add(n);
            for (Node m : n.getNeighbours()) {
                if (inDegree.merge(m, -1, Integer::sum) == 0) {
                    ready.add(m);
                }
            }
        }
        if (order.size() != inDegree.size()) {
            throw new IllegalArgumentException("the graph has a cycle");
        }
        return order;
    }
}
