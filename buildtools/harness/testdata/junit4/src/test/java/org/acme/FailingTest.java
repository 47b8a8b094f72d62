package org.acme;

import static org.junit.Assert.assertEquals;

import org.junit.Test;

public class FailingTest {
    @Test
    public void addsWrong() {
        assertEquals("one and one", 3, Calc.add(1, 1));
    }
}
