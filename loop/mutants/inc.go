package mutants

import sitter "github.com/smacker/go-tree-sitter"

var incSwap = map[string]string{"++": "--", "--": "++", "+=": "-=", "-=": "+=", "*=": "/=", "/=": "*="}

// swapIncrement is INC/strong: `i++` ↔ `i--` (prefix too), `x += d` ↔ `x -= d`, `x *= d` ↔
// `x /= d`; never `s += "x"` on a String.
func swapIncrement(g *generator, n *sitter.Node) {
	if n.Type() == "assignment_expression" {
		op := n.ChildByFieldName("operator")
		if op == nil {
			return
		}
		to, ok := incSwap[op.Type()]
		if !ok {
			return
		}
		if op.Type() == "+=" && !g.numeric(n.ChildByFieldName("left"), n.ChildByFieldName("right")) {
			return // `s += "x"` on a String
		}
		g.add(op, to, n)
		return
	}
	for i := 0; i < int(n.ChildCount()); i++ {
		c := n.Child(i)
		if t := c.Type(); !c.IsNamed() && (t == "++" || t == "--") {
			g.add(c, incSwap[t], n)
		}
	}
}
