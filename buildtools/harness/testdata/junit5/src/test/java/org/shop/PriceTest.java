package org.shop;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Disabled;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class PriceTest {
    @Test
    void noDiscount() {
        assertEquals(100, Price.discount(100, 0));
    }

    @Test
    void half() {
        assertEquals(50, Price.discount(100, 50));
    }

    @Test
    void wrongOnPurpose() {
        assertEquals(99, Price.discount(100, 100), "free is not 99");
    }

    @Disabled("not today")
    @Test
    void disabled() {
        assertEquals(1, 2);
    }

    @ParameterizedTest
    @ValueSource(ints = {100, 200})
    void fullIsFree(int price) {
        assertEquals(0, Price.discount(price, 100));
    }
}
