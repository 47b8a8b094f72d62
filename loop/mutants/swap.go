package mutants

import sitter "github.com/smacker/go-tree-sitter"

// SWAP, the operands of a non-commutative operation in the wrong order: `a - b` → `b - a`,
// `a / b` → `b / a`, `a % b` → `b % a`, and a String concatenation `s + t` → `t + s`.
//
// Left out, because the swap would not be a likely fault or would repeat another operator:
// a numeric operation whose right operand is a constant (`n - 1` → `1 - n`, `x / 2`); two
// constants; a concatenation in a throw statement or a log call (a message a test rarely
// reads); comparisons, since `b < a` is ROR's `a > b`; shifts (`2 << n` for `n << 2` is
// not a slip of the pen); and a `+` that may be a number's.
func swapOperands(g *generator, n *sitter.Node) {
	b, ok := binaryParts(n)
	if !ok || !oneLine(n, g.src) || g.text(b.left) == g.text(b.right) {
		return
	}
	switch b.op {
	case "-", "/", "%":
		if isConstant(b.right, g.src) {
			return
		}
	case "+":
		if g.env.kindOf(n, g.src) != kindString || isConstant(b.left, g.src) && isConstant(b.right, g.src) || inMessage(n, g.src) {
			return
		}
	default:
		return
	}
	g.add(n, g.binaryText(b.right, b.op, b.left), n)
}

// inMessage reports an expression inside a throw statement or the arguments of a log call.
func inMessage(n *sitter.Node, src []byte) bool {
	for p := n.Parent(); p != nil; p = p.Parent() {
		switch p.Type() {
		case "throw_statement":
			return true
		case "method_invocation":
			if obj := p.ChildByFieldName("object"); obj != nil && isLoggerName(obj.Content(src)) {
				return true
			}
		case "expression_statement", "local_variable_declaration", "return_statement", "lambda_expression",
			"block", "class_body":
			return false
		}
	}
	return false
}
