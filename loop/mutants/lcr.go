package mutants

import sitter "github.com/smacker/go-tree-sitter"

// LCR, the logical connector replacement: records LCR/default and LCR/strong. A condition
// that binds a pattern variable (`o instanceof Foo f && f.ok()`) is left: f would be out of
// scope after the change.

var lcrSwap = map[string][]string{"&&": {"||"}, "||": {"&&"}}

// dropOperand is LCR/strong: `a && b` → `a`, `b`.
func dropOperand(g *generator, n *sitter.Node) {
	b, ok := binaryParts(n)
	if ok && (b.op == "&&" || b.op == "||") && noPatternBinding(g, b) && oneLine(n, g.src) {
		g.add(n, g.text(b.left), n)
		g.add(n, g.text(b.right), n)
	}
}

func noPatternBinding(_ *generator, b binary) bool { return !hasPatternBinding(b.n) }
