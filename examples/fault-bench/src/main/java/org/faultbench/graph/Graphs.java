package org.faultbench.graph;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Deque;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

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

    /** Every node reachable from start (start included), in the order a depth-first search meets them. */
    public static Set<Node> reachable(Node start) {
        Set<Node> seen = new LinkedHashSet<>();
        Deque<Node> stack = new ArrayDeque<>();
        stack.push(start);
        while (!stack.isEmpty()) {
            Node n = stack.pop();
            if (seen.add(n)) {
                List<Node> next = n.getNeighbours();
                for (int i = next.size() - 1; i >= 0; i--) {
                    stack.push(next.get(i));
                }
            }
        }
        return seen;
    }

    /**
     * A path with the fewest edges from start to goal, both included ([start] when they are the
     * same node), or an empty list when goal is out of reach.
     */
    public static List<Node> shortestPath(Node start, Node goal) {
        Map<Node, Node> parent = new HashMap<>();
        Deque<Node> queue = new ArrayDeque<>();
        parent.put(start, null);
        queue.add(start);
        while (!queue.isEmpty()) {
            Node current = queue.poll();
            if (current == goal) {
                List<Node> path = new ArrayList<>();
                for (Node n = goal; n != null; n = parent.get(n)) {
                    path.add(n);
                }
                Collections.reverse(path);
                return path;
            }
            for (Node next : current.getNeighbours()) {
                if (!parent.containsKey(next)) {
                    parent.put(next, current);
                    queue.add(next);
                }
            }
        }
        return new ArrayList<>();
    }

    /**
     * The number of connected components of the nodes, edges taken in both directions; edges to
     * nodes outside the collection are ignored.
     */
    public static int componentCount(Collection<Node> nodes) {
        Map<Node, Node> parent = new HashMap<>();
        for (Node n : nodes) {
            parent.put(n, n);
        }
        int count = parent.size();
        for (Node n : nodes) {
            for (Node m : n.getNeighbours()) {
                if (!parent.containsKey(m)) {
                    continue;
                }
                Node a = root(parent, n);
                Node b = root(parent, m);
                if (a != b) {
                    parent.put(a, b);
                    count--;
                }
            }
        }
        return count;
    }

    private static Node root(Map<Node, Node> parent, Node n) {
        while (parent.get(n) != n) {
            n = parent.get(n);
        }
        return n;
    }
}
