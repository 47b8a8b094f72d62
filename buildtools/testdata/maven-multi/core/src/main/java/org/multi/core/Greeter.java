package org.multi.core;

public class Greeter {
    public String greet(String name) {
        return name == null || name.isEmpty() ? "Hello!" : "Hello, " + name + "!";
    }
}
