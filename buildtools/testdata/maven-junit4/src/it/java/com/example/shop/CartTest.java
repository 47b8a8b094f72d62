package com.example.shop;

import static org.junit.Assert.assertEquals;

import org.junit.Test;

public class CartTest {
    @Test
    public void addsItems() {
        Cart cart = new Cart();
        cart.add(2);
        assertEquals(2, cart.size());
    }
}
