package org.faultbench.expr;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;

/** Evaluates expressions in reverse Polish notation. */
public final class RpnCalculator {

    private RpnCalculator() {
    }

    /**
     * The value of a postfix expression given as tokens: integers and the operators + - * /
     * (integer division). ["3", "4", "-"] is -1.
     */
    public static long evaluate(List<String> tokens) {
        Deque<Long> stack = new ArrayDeque<>();
        for (String token : tokens) {
            switch (token) {
                case "+":
                    stack.push(operand(stack) + operand(stack));
                    break;
                case "*":
                    stack.push(operand(stack) * operand(stack));
                    break;
                case "-": {
                    long right = operand(stack);
                    long left = operand(stack);
                    stack.push(left - right);
                    break;
                }
                case "/": {
                    long right = operand(stack);
                    long left = operand(stack);
                    if (right == 0) {
                        throw new ArithmeticException("division by zero");
                    }
                    stack.push(left / right);
                    break;
                }
                default:
                    try {
                        stack.push(Long.parseLong(token));
                    } catch (NumberFormatException e) {
                        throw new IllegalArgumentException("not a number or operator: " + token, e);
                    }
            }
        }
        if (stack.size() != 1) {
            throw new IllegalArgumentException("malformed expression: " + tokens);
        }
        return stack.pop();
    }

    private static long operand(Deque<Long> stack) {
        if (stack.isEmpty()) {
            throw new IllegalArgumentException("missing operand");
        }
        return stack.pop();
    }
}
