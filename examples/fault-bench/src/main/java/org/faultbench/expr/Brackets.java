package org.faultbench.expr;

import java.util.List;

/** Checks of bracket tokens in a token stream. */
public final class Brackets {

    private Brackets() {
    }

    /**
     * The deepest nesting of "(" ... ")" among the tokens (other tokens, numbers or words, are
     * skipped): 0 for none, 2 for [1, "(", "(", 2, ")", ")"]. Unbalanced brackets are an error.
     */
    public static int maxDepth(List<Object> tokens) {
        int depth = 0;
        int max = 0;
        for (Object token : tokens) {
            if ("(".equals(token)) {
                depth++;
                max = Math.max(max, depth);
            } else if (")".equals(token)) {
                depth--;
                if (depth < 0) {
                    throw new IllegalArgumentException("')' without '('");
                }
            }
        }
        if (depth != 0) {
            throw new IllegalArgumentException("'(' without ')'");
        }
        return max;
    }
}
