package org.acme;

/**
 * A fixture of dynamic seeding: a parser of an invented grammar, "zq:" then digits then "~wv"
 * (zq:42~wv). Neither token is written in run's text nor anywhere as a literal: its lexer makes
 * the head by joining letters at run time and the tail by reversing another string, so neither
 * the method's literals nor any dictionary of formats holds them; only the comparisons a
 * seeding pass records do. The deep branch, a whole command, returns "run " and the count.
 */
public class Commands {
    public static String run(String cmd) {
        Lexer lx = new Lexer(cmd);
        if (!lx.head()) {
            return "unknown";
        }
        int n = lx.count();
        if (n < 0) {
            return "no count";
        }
        if (!lx.tail()) {
            return "unterminated";
        }
        return "run " + n;
    }

    static final class Lexer {
        private static final String HEAD = String.join("", "z", "q", ":");
        private static final String TAIL = new StringBuilder("vw~").reverse().toString();

        private final String text;
        private int at;

        Lexer(String text) {
            this.text = text;
        }

        boolean head() {
            if (text == null || !text.startsWith(HEAD)) {
                return false;
            }
            at = HEAD.length();
            return true;
        }

        int count() {
            int start = at;
            while (at < text.length() && at - start < 6 && Character.isDigit(text.charAt(at))) {
                at++;
            }
            return at == start ? -1 : Integer.parseInt(text.substring(start, at));
        }

        boolean tail() {
            return text.substring(at).equals(TAIL);
        }
    }
}
