package org.acme;

import static org.junit.Assert.assertEquals;

import org.junit.Test;

public class CounterTest {
    @Test
    public void firstIsOne() {
        assertEquals(1, Counter.next());
        assertEquals(2, Counter.next());
    }
}
