package org.acme;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** Deliberately weak, like PriceCalculatorTest: one hit in the middle, one miss. */
class SortedLookupTest {

    @Test
    void findsTheMiddleElement() {
        assertEquals(2, SortedLookup.indexOf(new int[] {10, 20, 30, 40, 50}, 30));
    }

    @Test
    void aMissingKeyIsNegative() {
        assertTrue(SortedLookup.indexOf(new int[] {10, 20, 30}, 25) < 0);
    }
}
