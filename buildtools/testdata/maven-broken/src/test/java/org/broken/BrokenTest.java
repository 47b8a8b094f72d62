package org.broken;

import org.junit.Test;

public class BrokenTest {
    @Test
    public void nothing() {
    }
}
