package org.acme;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * A deliberately weak suite: every test passes, but boundaries and several branches are never
 * checked, so many mutants of PriceCalculator survive. AdverTest's job is to fix that.
 */
class PriceCalculatorTest {

    @Test
    void clampKeepsAValueInside() {
        assertEquals(5, PriceCalculator.clamp(5, 0, 10));
    }

    @Test
    void clampRaisesLowValues() {
        assertTrue(PriceCalculator.clamp(-3, 0, 10) >= 0);
    }

    @Test
    void addItemCounts() {
        PriceCalculator calc = new PriceCalculator(20);
        calc.addItem(100);
        assertEquals(2, calc.addItem(250));
    }

    @Test
    void subtotalSumsItems() {
        PriceCalculator calc = new PriceCalculator(0);
        calc.addItem(100);
        calc.addItem(200);
        assertEquals(300, calc.subtotal());
    }

    @Test
    void totalIsPositive() {
        PriceCalculator calc = new PriceCalculator(10);
        calc.addItem(1_000);
        assertTrue(calc.total() > 0);
    }

    @Test
    void rejectsNegativeTax() {
        assertThrows(IllegalArgumentException.class, () -> new PriceCalculator(-1));
    }

    @Test
    void bulkPriceOfNothingIsZero() {
        assertEquals(0, PriceCalculator.bulkPrice(100, 0, 3));
    }
}
