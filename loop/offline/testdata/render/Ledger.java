package org.acme;

import java.util.function.Function;

/**
 * A fixture of an abstract class that leaves generic interfaces' methods to its subclasses: a
 * minimal subclass implements them with the types they have here (compareTo(Ledger),
 * Integer apply(String)), not their erasures, which would not compile.
 */
public abstract class Ledger implements Comparable<Ledger>, Function<String, Integer> {
    /** The weight of an entry: twice its length, -1 for an empty one. */
    public int weight(String entry) {
        if (entry.isEmpty()) {
            return -1;
        }
        return entry.length() * 2;
    }
}
