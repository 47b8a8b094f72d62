package org.faultbench.text;

import java.util.Locale;

/** URL slugs from titles. */
public final class Slug {

    private Slug() {
    }

    /**
     * title in lower case with every run of characters other than a-z and 0-9 turned into one
     * dash, and no dash at either end: "Hello, World!" is "hello-world".
     */
    public static String slugify(String title) {
        StringBuilder sb = new StringBuilder(title.length());
        for (char c : title.toLowerCase(Locale.ROOT).toCharArray()) {
            if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9')) {
                sb.append(c);
            } else if (sb.length() > 0 && sb.charAt(sb.length() - 1) != '-') {
                sb.append('-');
            }
        }
        if (sb.length() > 0 && sb.charAt(sb.length() - 1) == '-') {
            sb.setLength(sb.length() - 1);
        }
        return sb.toString();
    }
}
