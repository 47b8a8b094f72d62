package mutants

import (
	"github.com/advertest/advertest-lsp/javaparse"
	sitter "github.com/smacker/go-tree-sitter"
)

// NEG, negation: records NEG/default (a statement's or a ternary's condition) and
// NEG/strong (any `!` removed).

// negateCondition is NEG/default: `c` → `!c`, `!c` → `c` on the condition of n, unless
// ROR's negation already makes the mutant.
func negateCondition(g *generator, n *sitter.Node) {
	inner := g.conditionOf(n)
	if inner == nil {
		return
	}
	switch inner.Type() {
	case "unary_expression":
		if op := inner.ChildByFieldName("operator"); op != nil && op.Type() == "!" {
			g.add(inner, g.text(inner.ChildByFieldName("operand")), inner)
		} else {
			g.add(inner, "!("+g.text(inner)+")", inner)
		}
	case "binary_expression":
		switch javaparse.Text(inner.ChildByFieldName("operator"), g.src) {
		case "<", "<=", ">", ">=", "==", "!=":
			// ROR's negation already makes this mutant.
		default:
			g.add(inner, "!("+g.text(inner)+")", inner)
		}
	case "identifier", "method_invocation", "field_access", "array_access", "parenthesized_expression":
		g.add(inner, "!"+g.text(inner), inner)
	default:
		g.add(inner, "!("+g.text(inner)+")", inner)
	}
}

// removeNot is NEG/strong: `!x` → `x`, unless x binds a pattern variable.
func removeNot(g *generator, n *sitter.Node) {
	if u, ok := unaryParts(n, g.src); ok && u.op == "!" && !hasPatternBinding(u.operand) {
		g.add(n, g.text(u.operand), n)
	}
}
