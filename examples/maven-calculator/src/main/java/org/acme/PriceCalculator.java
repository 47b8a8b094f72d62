package org.acme;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * A small shopping-cart price calculator: the method AdverTest demonstrates on.
 * Prices are in cents.
 */
public class PriceCalculator {

    private final int taxPercent;
    private final List<Integer> items = new ArrayList<>();
    private int discountPercent;

    public PriceCalculator(int taxPercent) {
        if (taxPercent < 0 || taxPercent > 100) {
            throw new IllegalArgumentException("tax must be between 0 and 100: " + taxPercent);
        }
        this.taxPercent = taxPercent;
    }

    /** Restricts value to the range [lo, hi]. */
    public static int clamp(int value, int lo, int hi) {
        if (lo > hi) {
            throw new IllegalArgumentException("lo > hi");
        }
        if (value < lo) {
            return lo;
        }
        if (value > hi) {
            return hi;
        }
        return value;
    }

    /** Adds an item to the cart; returns the number of items. */
    public int addItem(int priceCents) {
        if (priceCents <= 0) {
            throw new IllegalArgumentException("price must be positive");
        }
        items.add(priceCents);
        return items.size();
    }

    public void setDiscountPercent(int percent) {
        discountPercent = clamp(percent, 0, 50);
    }

    public int getDiscountPercent() {
        return discountPercent;
    }

    /** Sum of the items before discount and tax. */
    public int subtotal() {
        int sum = 0;
        for (int i = 0; i < items.size(); i++) {
            sum += items.get(i);
        }
        return sum;
    }

    /** Total after the discount, plus tax, rounded half up to the cent. */
    public int total() {
        int discounted = subtotal() * (100 - discountPercent);
        long taxed = (long) discounted * (100 + taxPercent);
        return (int) ((taxed + 5_000) / 10_000);
    }

    /** Shipping: free from 50.00, else 4.99; an empty cart ships nothing. */
    public int shipping() {
        if (items.isEmpty()) {
            return 0;
        }
        return subtotal() >= 5_000 ? 0 : 499;
    }

    /** The most expensive item, or -1 for an empty cart. */
    public int maxItem() {
        int max = -1;
        for (int price : items) {
            if (price > max) {
                max = price;
            }
        }
        return max;
    }

    /** Bulk price: every n-th item (1-based) is free. */
    public static int bulkPrice(int unitCents, int count, int everyNthFree) {
        if (count <= 0) {
            return 0;
        }
        int free = everyNthFree > 0 ? count / everyNthFree : 0;
        return unitCents * (count - free);
    }

    /** The items, cheapest first. */
    public List<Integer> sortedItems() {
        List<Integer> copy = new ArrayList<>(items);
        Collections.sort(copy);
        return copy;
    }
}
