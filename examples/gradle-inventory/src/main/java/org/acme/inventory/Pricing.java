package org.acme.inventory;

/** Unit prices with volume discounts, in cents. */
public final class Pricing {

    private Pricing() {
    }

    /** 10% off from 10 units, 20% off from 100 units. */
    public static int orderPrice(int unitCents, int quantity) {
        if (quantity <= 0) {
            return 0;
        }
        int gross = unitCents * quantity;
        if (quantity >= 100) {
            return gross * 80 / 100;
        }
        if (quantity >= 10) {
            return gross * 90 / 100;
        }
        return gross;
    }

    /** Restricts value to the range [lo, hi]. */
    public static int clamp(int value, int lo, int hi) {
        return Math.max(lo, Math.min(hi, value));
    }
}
