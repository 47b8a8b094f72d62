package org.faultbench.graph;

/** A weighted edge to a target vertex. */
public final class Edge {

    private final Vertex target;
    private final int weight;

    Edge(Vertex target, int weight) {
        this.target = target;
        this.weight = weight;
    }

    public Vertex getTarget() {
        return target;
    }

    public int getWeight() {
        return weight;
    }
}
