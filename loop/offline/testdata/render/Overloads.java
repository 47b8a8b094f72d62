package org.acme;

/**
 * A fixture of the offline agent's renderer: overloaded methods of one parameter whose null
 * argument is ambiguous in a test without a cast (count(null) matches both).
 */
public class Overloads {
    public static int count(String s) {
        if (s == null) {
            return -1;
        }
        return s.length();
    }

    public static int count(StringBuilder s) {
        return s == null ? -2 : s.length() * 2;
    }
}
