package org.faultbench.text;

/** Small string helpers. */
public final class TextUtils {

    private TextUtils() {
    }

    /** s with pad in front until it is width characters long; a longer s is kept whole. */
    public static String padLeft(String s, int width, char pad) {
        if (s.length() >= width) {
            return s;
        }
        StringBuilder sb = new StringBuilder(width);
        for (int i = s.length(); i < width; i++) {
            sb.append(pad);
        }
        return sb.append(s).toString();
    }

    /** s cut to at most maxLength characters, ending in "..." when it was cut. */
    public static String truncate(String s, int maxLength) {
        if (maxLength < 3) {
            throw new IllegalArgumentException("maxLength must leave room for the dots: " + maxLength);
        }
        if (s.length() <= maxLength) {
            return s;
        }
        return s.substring(0, maxLength - 3) + "...";
    }

    /** Whether s reads the same backwards, looking only at letters and digits, ignoring case. */
    public static boolean isPalindrome(String s) {
        int i = 0;
        int j = s.length() - 1;
        while (i < j) {
            char a = s.charAt(i);
            char b = s.charAt(j);
            if (!Character.isLetterOrDigit(a)) {
                i++;
            } else if (!Character.isLetterOrDigit(b)) {
                j--;
            } else if (Character.toLowerCase(a) != Character.toLowerCase(b)) {
                return false;
            } else {
                i++;
                j--;
            }
        }
        return true;
    }

    /** s as the inside of a JSON string literal: quotes, backslashes and control characters escaped. */
    public static String escapeJson(String s) {
        StringBuilder sb = new StringBuilder(s.length() + 8);
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '"' || c == '\\') {
                sb.append('\\').append(c);
            } else if (c == '\n') {
                sb.append("\\n");
            } else if (c == '\t') {
                sb.append("\\t");
            } else if (c < 0x20) {
                sb.append(String.format("\\u%04x", (int) c));
            } else {
                sb.append(c);
            }
        }
        return sb.toString();
    }
}
