package org.faultbench.graph;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;

/** A vertex of a directed graph whose edges carry non-negative weights. */
public final class Vertex {

    private final String name;
    private final List<Edge> edges = new ArrayList<>();

    public Vertex(String name) {
        this.name = Objects.requireNonNull(name, "name");
    }

    public String getName() {
        return name;
    }

    /** The outgoing edges, in the order they were added. */
    public List<Edge> getEdges() {
        return Collections.unmodifiableList(edges);
    }

    /** Adds an edge of the given weight from this vertex to other; returns this, to chain. */
    public Vertex connect(Vertex other, int weight) {
        if (weight < 0) {
            throw new IllegalArgumentException("negative weight " + weight);
        }
        edges.add(new Edge(Objects.requireNonNull(other, "other"), weight));
        return this;
    }

    @Override
    public String toString() {
        return name;
    }
}
