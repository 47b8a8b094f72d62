package org.acme.inventory;

import static org.junit.Assert.assertEquals;

import org.junit.Test;

/** Deliberately weak: no test sits on a discount boundary. */
public class PricingTest {

    @Test
    public void smallOrdersPayFullPrice() {
        assertEquals(300, Pricing.orderPrice(100, 3));
    }

    @Test
    public void clampKeepsInside() {
        assertEquals(4, Pricing.clamp(4, 0, 10));
    }
}
