package mutants

import sitter "github.com/smacker/go-tree-sitter"

// swapMinMax is MATH/default: Math.max ↔ Math.min (StrictMath too, qualified or not).
func swapMinMax(g *generator, n *sitter.Node) {
	obj, name := n.ChildByFieldName("object"), n.ChildByFieldName("name")
	if obj == nil || name == nil {
		return
	}
	switch g.text(obj) {
	case "Math", "StrictMath", "java.lang.Math", "java.lang.StrictMath":
	default:
		return
	}
	switch g.text(name) {
	case "max":
		g.add(name, "min", n)
	case "min":
		g.add(name, "max", n)
	}
}
