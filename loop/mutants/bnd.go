package mutants

import (
	"github.com/advertest/advertest-lsp/javaparse"
	sitter "github.com/smacker/go-tree-sitter"
)

// constantBoundary is BND/strong: an integer constant c → c+1, c-1, 0 within the literal's
// type: a constant assigned straight to a byte, short or char stays in its range, the
// extremes are left, and the base and long suffix are kept.
func constantBoundary(g *generator, n *sitter.Node) {
	text := g.text(n)
	v, long, ok := ParseIntLiteral(text)
	if !ok {
		return
	}
	limit := uint64(1<<31 - 1)
	if long {
		limit = 1<<63 - 1
	}
	if v > limit {
		return // 2147483648 only stands after a unary minus; leave the extremes alone
	}
	// A constant assigned straight to a narrow variable must stay in its range.
	if p := n.Parent(); p != nil && p.Type() == "variable_declarator" && p.Parent() != nil {
		switch javaparse.Text(p.Parent().ChildByFieldName("type"), g.src) {
		case "byte":
			limit = 127
		case "short":
			limit = 32767
		case "char":
			limit = 65535
		}
		if v > limit {
			return
		}
	}
	var vals []uint64
	if v < limit {
		vals = append(vals, v+1)
	}
	if v > 0 {
		vals = append(vals, v-1)
	}
	if v > 1 {
		vals = append(vals, 0)
	}
	ctx := n
	if p := n.Parent(); p != nil && (p.Type() == "binary_expression" || p.Type() == "unary_expression") {
		ctx = p
	}
	for _, nv := range vals {
		g.add(n, formatIntLiteral(text, nv), ctx)
	}
}
