package mutants

import sitter "github.com/smacker/go-tree-sitter"

// removeCondition is CDR/strong: `if (c)` → `if (true)`, `if (false)`, likewise a ternary's
// condition. Loops are left: a loop on a constant false does not compile.
func removeCondition(g *generator, n *sitter.Node) {
	if inner := g.conditionOf(n); inner != nil {
		g.add(inner, "true", inner)
		g.add(inner, "false", inner)
	}
}
