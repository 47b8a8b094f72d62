package org.acme.inventory;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import org.junit.Test;

/** Deliberately weak: all pass, but boundaries and branches go unchecked, so mutants survive. */
public class InventoryTest {

    @Test
    public void addRaisesTheLevel() {
        Inventory inventory = new Inventory(2);
        inventory.add("apple", 5);
        assertEquals(5, inventory.level("apple"));
    }

    @Test
    public void removeTakesUnits() {
        Inventory inventory = new Inventory(2);
        inventory.add("pear", 5);
        assertTrue(inventory.remove("pear", 2) > 0);
    }

    @Test
    public void emptySkuNeedsReorder() {
        assertTrue(new Inventory(2).needsReorder("plum"));
    }
}
