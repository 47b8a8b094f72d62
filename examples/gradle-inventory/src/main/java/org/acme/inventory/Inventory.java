package org.acme.inventory;

import java.util.LinkedHashMap;
import java.util.Map;

/** Stock levels per SKU, with a reorder rule. */
public class Inventory {

    private final Map<String, Integer> stock = new LinkedHashMap<>();
    private final int reorderLevel;

    public Inventory(int reorderLevel) {
        if (reorderLevel < 0) {
            throw new IllegalArgumentException("reorder level must not be negative");
        }
        this.reorderLevel = reorderLevel;
    }

    /** Adds quantity units of sku; returns the new level. */
    public int add(String sku, int quantity) {
        if (quantity <= 0) {
            throw new IllegalArgumentException("quantity must be positive");
        }
        int level = stock.getOrDefault(sku, 0) + quantity;
        stock.put(sku, level);
        return level;
    }

    /** Removes up to quantity units; returns how many were really removed. */
    public int remove(String sku, int quantity) {
        int level = stock.getOrDefault(sku, 0);
        int removed = Math.min(level, quantity);
        if (removed > 0) {
            stock.put(sku, level - removed);
        }
        return removed;
    }

    public int level(String sku) {
        return stock.getOrDefault(sku, 0);
    }

    public boolean needsReorder(String sku) {
        return level(sku) <= reorderLevel;
    }

    /** Number of SKUs at or below the reorder level. */
    public int countToReorder() {
        int count = 0;
        for (String sku : stock.keySet()) {
            if (needsReorder(sku)) {
                count++;
            }
        }
        return count;
    }

    public int totalUnits() {
        int total = 0;
        for (int level : stock.values()) {
            total += level;
        }
        return total;
    }
}
