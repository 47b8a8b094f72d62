package org.faultbench.expr;

import java.util.List;

import org.faultbench.text.Tokenizer;

/**
 * Evaluates infix arithmetic: + - * / with the usual precedence, left to right, unary minus
 * and parentheses, over the tokens of {@link Tokenizer}.
 */
public final class ExpressionEvaluator {

    private final List<String> tokens;
    private int pos;

    private ExpressionEvaluator(List<String> tokens) {
        this.tokens = tokens;
    }

    /** The value of expression, e.g. "2 * (3 + 4) - 1" is 13. */
    public static double evaluate(String expression) {
        ExpressionEvaluator e = new ExpressionEvaluator(Tokenizer.tokenize(expression));
        double value = e.sum();
        if (e.pos != e.tokens.size()) {
            throw new IllegalArgumentException("unexpected '" + e.tokens.get(e.pos) + "' in " + expression);
        }
        return value;
    }

    private double sum() {
        double value = product();
        while (peekIs("+") || peekIs("-")) {
            String op = tokens.get(pos++);
            double right = product();
            value = op.equals("+") ? value + right : value - right;
        }
        return value;
    }

    private double product() {
        double value = factor();
        while (peekIs("*") || peekIs("/")) {
            String op = tokens.get(pos++);
            double right = factor();
            value = op.equals("*") ? value * right : value / right;
        }
        return value;
    }

    private double factor() {
        if (pos >= tokens.size()) {
            throw new IllegalArgumentException("unexpected end of expression");
        }
        String token = tokens.get(pos++);
        if (token.equals("-")) {
            return -factor();
        }
        if (token.equals("(")) {
            double value = sum();
            if (!peekIs(")")) {
                throw new IllegalArgumentException("missing ')'");
            }
            pos++;
            return value;
        }
        try {
            return Double.parseDouble(token);
        } catch (NumberFormatException ex) {
            throw new IllegalArgumentException("not a number: " + token, ex);
        }
    }

    private boolean peekIs(String symbol) {
        return pos < tokens.size() && tokens.get(pos).equals(symbol);
    }
}
