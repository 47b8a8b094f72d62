package org.shop;

public class Price {
    public static int discount(int price, int percent) {
        if (percent <= 0) {
            return price;
        }
        if (percent >= 100) {
            return 0;
        }
        return price - price * percent / 100;
    }
}
