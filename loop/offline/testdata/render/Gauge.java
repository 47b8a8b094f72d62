package org.acme;

import java.util.List;

/**
 * A fixture of an abstract class that no class of the project extends: a generated minimal
 * subclass (its protected constructor, its abstract methods returning default values) makes the
 * receiver of its concrete method.
 */
public abstract class Gauge {
    private final int scale;

    protected Gauge(int scale) {
        if (scale <= 0) {
            throw new IllegalArgumentException("scale " + scale);
        }
        this.scale = scale;
    }

    /** The reading, which only a subclass knows. */
    protected abstract double read();

    /** A label made of parts, which only a subclass knows. */
    public abstract String label(List<String> parts);

    /** The scaled value of a raw count, zero below zero. */
    public int scaled(int raw) {
        if (raw < 0) {
            return 0;
        }
        return raw * scale;
    }
}
