package org.shop;

import org.junit.Assert;
import org.junit.Test;

public class LegacyTest {
    @Test
    public void quarter() {
        Assert.assertEquals(75, Price.discount(100, 25));
    }
}
