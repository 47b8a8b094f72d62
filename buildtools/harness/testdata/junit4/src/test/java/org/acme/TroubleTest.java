package org.acme;

import static org.junit.Assert.assertEquals;

import org.junit.Test;

public class TroubleTest {
    @Test
    public void exits() {
        Exits.exit();
    }

    @Test
    public void halts() {
        Exits.halt();
    }

    @Test
    public void badInit() {
        assertEquals(0, BadInit.VALUE);
    }

    @Test
    public void hogs() {
        Hog.hog();
    }

    @Test
    public void spins() {
        assertEquals(0, Spin.untilZero(0));
    }

    @Test
    public void noisy() {
        assertEquals(1, Calc.shout("x"));
    }
}
