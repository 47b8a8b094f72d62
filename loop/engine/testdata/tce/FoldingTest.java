package org.acme;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class FoldingTest {
    @Test
    void scaled() {
        assertEquals(12, Folding.scaled(2));
    }

    @Test
    void traced() {
        assertEquals(7, Folding.traced(3));
    }

    @Test
    void stepped() {
        assertEquals(4, Folding.stepped(3));
    }

    @Test
    void guarded() {
        assertEquals(5, Folding.guarded(5));
    }

    @Test
    void label() {
        assertEquals("id-5", Folding.label(5));
    }

    @Test
    void adder() {
        assertEquals(4, Folding.adder().applyAsInt(2));
    }

    @Test
    void box() {
        assertEquals(3, new Folding.Box().get(1));
    }
}
