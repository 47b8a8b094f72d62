package org.faultbench.expr;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;

/** Evaluates infix arithmetic given as tokens: Integer operands and the strings + - * / ( ). */
public final class InfixEvaluator {

    private InfixEvaluator() {
    }

    /**
     * The value of the expression (shunting-yard; the operators are left-associative, * and /
     * bind tighter than + and -, / is integer division). [6, "-", 2, "-", 1] is 3.
     */
    public static long evaluate(List<Object> tokens) {
        Deque<Long> values = new ArrayDeque<>();
        Deque<String> ops = new ArrayDeque<>();
        for (Object token : tokens) {
            if (token instanceof Integer) {
                values.push(((Integer) token).longValue());
                continue;
            }
            String op = String.valueOf(token);
            switch (op) {
                case "(":
                    ops.push(op);
                    break;
                case ")":
                    while (!ops.isEmpty() && !ops.peek().equals("(")) {
                        apply(values, ops.pop());
                    }
                    if (ops.isEmpty()) {
                        throw new IllegalArgumentException("unbalanced ')'");
                    }
                    ops.pop();
                    break;
                case "+":
                case "-":
                case "*":
                case "/":
                    while (!ops.isEmpty() && precedence(ops.peek()) >= precedence(op)) {
                        apply(values, ops.pop());
                    }
                    ops.push(op);
                    break;
                default:
                    throw new IllegalArgumentException("not a token: " + token);
            }
        }
        while (!ops.isEmpty()) {
            String op = ops.pop();
            if (op.equals("(")) {
                throw new IllegalArgumentException("unbalanced '('");
            }
            apply(values, op);
        }
        if (values.size() != 1) {
            throw new IllegalArgumentException("malformed expression: " + tokens);
        }
        return values.pop();
    }

    private static int precedence(String op) {
        switch (op) {
            case "*":
            case "/":
                return 2;
            case "+":
            case "-":
                return 1;
            default:
                return 0;
        }
    }

    private static void apply(Deque<Long> values, String op) {
        if (values.size() < 2) {
            throw new IllegalArgumentException("missing operand for " + op);
        }
        long right = values.pop();
        long left = values.pop();
        switch (op) {
            case "+":
                values.push(left + right);
                break;
            case "-":
                values.push(left - right);
                break;
            case "*":
                values.push(left * right);
                break;
            default:
                if (right == 0) {
                    throw new ArithmeticException("division by zero");
                }
                values.push(left / right);
        }
    }
}
