package org.acme;

import junit.framework.TestCase;

public class OldStyleTest extends TestCase {
    public void testAdds() {
        assertEquals(2, Calc.add(1, 1));
    }
}
