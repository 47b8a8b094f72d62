package org.multi.app;

import org.multi.core.Greeter;

public class App {
    public String welcome(String user) {
        return new Greeter().greet(user.trim());
    }
}
