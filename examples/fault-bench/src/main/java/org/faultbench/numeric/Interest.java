package org.faultbench.numeric;

/** Savings arithmetic. */
public final class Interest {

    private Interest() {
    }

    /** principal after years of yearly compound interest at ratePercent, rounded to cents. */
    public static double compound(double principal, int ratePercent, int years) {
        if (years < 0) {
            throw new IllegalArgumentException("years must not be negative: " + years);
        }
        double amount = principal;
        for (int y = 0; y < years; y++) {
            amount *= 1 + ratePercent / 100.0;
        }
        return Math.round(amount * 100) / 100.0;
    }
}
