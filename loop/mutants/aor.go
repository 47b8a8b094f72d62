package mutants

import sitter "github.com/smacker/go-tree-sitter"

// AOR, the arithmetic operator replacement: records AOR/default and AOR/strong. Neither
// touches a `+` that may be a String concatenation.
var (
	// PIT's MATH mutator.
	aorMath = map[string][]string{"+": {"-"}, "-": {"+"}, "*": {"/"}, "/": {"*"}, "%": {"*"}}
	aorRest = map[string][]string{
		"+": {"*", "/", "%"}, "-": {"*", "/", "%"}, "*": {"+", "-", "%"}, "/": {"+", "-", "%"}, "%": {"+", "-", "/"},
		"&": {"|"}, "|": {"&"}, "^": {"&"}, "<<": {">>"}, ">>": {"<<"}, ">>>": {">>"},
	}
)

// arithmeticRest is AOR/strong: the rest of the arithmetic swaps, and unary minus removed.
func arithmeticRest(g *generator, n *sitter.Node) {
	if n.Type() != "unary_expression" {
		swapBinary(aorRest, arithmetic)(g, n)
	} else if u, ok := unaryParts(n, g.src); ok && u.op == "-" {
		g.add(n, g.text(u.operand), n)
	}
}

// arithmetic: b is no `+` that may join Strings (or types we cannot tell).
func arithmetic(g *generator, b binary) bool {
	return b.op != "+" || g.numericOperands(b)
}
