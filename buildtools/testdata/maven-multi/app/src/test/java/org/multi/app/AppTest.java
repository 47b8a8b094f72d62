package org.multi.app;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class AppTest {
    @Test
    void welcomesTrimmed() {
        assertEquals("Hello, Bob!", new App().welcome(" Bob "));
    }
}
