package org.acme;

import static org.junit.Assert.assertEquals;

import org.junit.Test;

public class CalcTest {
    @Test
    public void clampsLow() {
        assertEquals(0, Calc.clamp(-5, 0, 10));
    }

    @Test
    public void clampsHigh() {
        assertEquals(10, Calc.clamp(50, 0, 10));
    }

    @Test
    public void passesThrough() {
        assertEquals(5, Calc.clamp(5, 0, 10));
    }

    @Test
    public void sums() {
        assertEquals(15, Calc.sumTo(5));
    }
}
