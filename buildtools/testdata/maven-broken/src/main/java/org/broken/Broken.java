package org.broken;

public class Broken {
    public int value() {
        return undefinedVariable;
    }
}
