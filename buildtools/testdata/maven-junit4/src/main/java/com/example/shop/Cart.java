package com.example.shop;

public class Cart {
    private int items;

    public int add(int n) {
        if (n <= 0) {
            throw new IllegalArgumentException("n must be positive");
        }
        items += n;
        return items;
    }

    public int size() {
        return items;
    }
}
