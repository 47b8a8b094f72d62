package org.faultbench.account;

import java.util.Map;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;

/** Stock levels per SKU. A SKU whose quantity reaches zero is forgotten. */
public class Inventory {

    private final Map<String, Integer> stock = new TreeMap<>();

    public void add(String sku, int quantity) {
        if (quantity <= 0) {
            throw new IllegalArgumentException("quantity must be positive: " + quantity);
        }
        stock.merge(sku, quantity, Integer::sum);
    }

    public int quantity(String sku) {
        return stock.getOrDefault(sku, 0);
    }

    public SortedSet<String> skus() {
        return new TreeSet<>(stock.keySet());
    }

    /** Takes quantity of sku out of stock; refuses to go below zero. */
    public void remove(String sku, int quantity) {
        if (quantity <= 0) {
            throw new IllegalArgumentException("quantity must be positive: " + quantity);
        }
        int have = quantity(sku);
        if (have < quantity) {
            throw new IllegalStateException("only " + have + " of " + sku + " in stock");
        }
        if (have == quantity) {
            stock.remove(sku);
        } else {
            stock.put(sku, have - quantity);
        }
    }
}
