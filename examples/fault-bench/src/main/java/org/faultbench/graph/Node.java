package org.faultbench.graph;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;

/** A vertex of a directed graph with its outgoing edges, in the order they were added. */
public final class Node {

    private final String name;
    private final List<Node> neighbours = new ArrayList<>();

    public Node(String name) {
        this.name = Objects.requireNonNull(name, "name");
    }

    public String getName() {
        return name;
    }

    public List<Node> getNeighbours() {
        return Collections.unmodifiableList(neighbours);
    }

    /** Adds an edge from this node to other; returns this, to chain. */
    public Node connect(Node other) {
        neighbours.add(Objects.requireNonNull(other, "other"));
        return this;
    }

    @Override
    public String toString() {
        return name;
    }
}
