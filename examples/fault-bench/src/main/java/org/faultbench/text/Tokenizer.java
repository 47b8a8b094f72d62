package org.faultbench.text;

import java.util.ArrayList;
import java.util.List;

/** Splits arithmetic expressions into tokens: numbers, names, operators and parentheses. */
public final class Tokenizer {

    private static final String SYMBOLS = "+-*/^(),";

    private Tokenizer() {
    }

    /**
     * The tokens of input: a number is digits with an optional decimal point ("3.25"), a name
     * starts with a letter and goes on with letters and digits ("x2"), every symbol of
     * {@code + - * / ^ ( ) ,} is a token of its own, and whitespace only separates.
     */
    public static List<String> tokenize(String input) {
        List<String> tokens = new ArrayList<>();
        int i = 0;
        while (i < input.length()) {
            char c = input.charAt(i);
            if (Character.isWhitespace(c)) {
                i++;
            } else if (Character.isDigit(c)) {
                int start = i;
                while (i < input.length() && (Character.isDigit(input.charAt(i)) || input.charAt(i) == '.')) {
                    i++;
                }
                tokens.add(input.substring(start, i));
            } else if (Character.isLetter(c)) {
                int start = i;
                while (i < input.length() && Character.isLetterOrDigit(input.charAt(i))) {
                    i++;
                }
                tokens.add(input.substring(start, i));
            } else if (SYMBOLS.indexOf(c) >= 0) {
                tokens.add(String.valueOf(c));
                i++;
            } else {
                throw new IllegalArgumentException("unexpected '" + c + "' at " + i);
            }
        }
        return tokens;
    }
}
