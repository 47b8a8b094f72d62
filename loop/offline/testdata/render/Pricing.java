package org.acme;

/** A fixture of an interface's default method: no class implements the interface. */
public interface Pricing {
    /** The fixed part of a price. */
    int base();

    /** The price of qty items: ten each, nine each past ten items. */
    default int total(int qty) {
        if (qty > 10) {
            return qty * 9;
        }
        return qty * 10 + base();
    }
}
