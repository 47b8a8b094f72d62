package org.faultbench.text;

/** Checks of user input. */
public final class Validators {

    private Validators() {
    }

    /**
     * A user name is 3 to 16 characters, starts with a letter and goes on with letters, digits
     * or underscores.
     */
    public static boolean isValidUsername(String name) {
        if (name == null) {
            return false;
        }
        if (name.length() < 3 || name.length() > 16) {
            return false;
        }
        if (!Character.isLetter(name.charAt(0))) {
            return false;
        }
        for (int i = 1; i < name.length(); i++) {
            char c = name.charAt(i);
            if (!Character.isLetterOrDigit(c) && c != '_') {
                return false;
            }
        }
        return true;
    }

    /** A dotted-quad IPv4 address: four decimal parts 0..255, no leading zeros, nothing else. */
    public static boolean isValidIPv4(String s) {
        if (s == null) {
            return false;
        }
        String[] parts = s.split("\\.", -1);
        if (parts.length != 4) {
            return false;
        }
        for (String part : parts) {
            if (part.isEmpty() || part.length() > 3) {
                return false;
            }
            for (int i = 0; i < part.length(); i++) {
                if (part.charAt(i) < '0' || part.charAt(i) > '9') {
                    return false;
                }
            }
            if (part.length() > 1 && part.charAt(0) == '0') {
                return false;
            }
            if (Integer.parseInt(part) > 255) {
                return false;
            }
        }
        return true;
    }
}
