package mutants

import (
	"github.com/advertest/advertest-lsp/javaparse"
	sitter "github.com/smacker/go-tree-sitter"
)

// LOOP, a nested loop bounded by the wrong thing: in a `for` loop nested in other `for`
// loops, whose condition compares the loop's own variable (declared or assigned in its
// init) with a bound by <, <=, > or >=, `j < B` (or `B > j`), the bound B is replaced by the bound of the
// enclosing loop and by the enclosing loop's variable, the innermost enclosing loop first,
// at most maxLoopBounds: `for (j = 0; j < a[i].length; j++)` inside `for (i = 0; i <
// a.length; i++)` gets `j < a.length` and `j < i`. Both are in scope and definitely
// assigned at the inner loop, as the enclosing loop's condition reads them. Loops in a
// lambda nested in the loop are left (its captured locals must be effectively final).
// Swapped variables of non-nested loops (`a.length` for `b.length`, `n` for `m`) are VAR's.
const maxLoopBounds = 2

func wrongLoopBound(g *generator, n *sitter.Node) {
	v, bound, cmp, ok := loopBound(n, g.src)
	if !ok || !oneLine(bound, g.src) {
		return
	}
	boundOnRight := javaparse.SameNode(cmp.right, bound)
	made := 0
	seen := map[string]bool{g.text(bound): true, v: true}
	try := func(text string) {
		if made < maxLoopBounds && !seen[text] {
			seen[text] = true
			g.add(bound, text, bound.Parent())
			made++
		}
	}
	child := n
	for p := n.Parent(); p != nil && made < maxLoopBounds; child, p = p, p.Parent() {
		switch p.Type() {
		case "lambda_expression", "class_body", "method_declaration", "constructor_declaration", "compact_constructor_declaration":
			return
		case "for_statement":
			if body := p.ChildByFieldName("body"); body == nil || !within(child, body) {
				continue
			}
			if ov, ob, _, ok := loopBound(p, g.src); ok && oneLine(ob, g.src) {
				text := g.text(ob)
				if needsParens(ob, cmp.op, boundOnRight) {
					text = "(" + text + ")"
				}
				try(text)
				try(ov)
			}
		}
	}
}

// loopBound returns, for a for statement whose condition orders its own variable v
// (declared or assigned in the init) against another expression (<, <=, >, >=: both are
// numbers), v, that expression and the condition.
func loopBound(n *sitter.Node, src []byte) (string, *sitter.Node, binary, bool) {
	cond := n.ChildByFieldName("condition")
	init := n.ChildByFieldName("init")
	if cond == nil || init == nil {
		return "", nil, binary{}, false
	}
	b, ok := binaryParts(cond)
	if !ok {
		return "", nil, binary{}, false
	}
	switch b.op {
	case "<", "<=", ">", ">=":
	default:
		return "", nil, binary{}, false
	}
	initVars := map[string]bool{}
	switch init.Type() {
	case "local_variable_declaration":
		for i := 0; i < int(init.NamedChildCount()); i++ {
			if d := init.NamedChild(i); d.Type() == "variable_declarator" {
				initVars[javaparse.Text(d.ChildByFieldName("name"), src)] = true
			}
		}
	case "assignment_expression":
		initVars[javaparse.Text(init.ChildByFieldName("left"), src)] = true
	}
	if b.left.Type() == "identifier" && initVars[b.left.Content(src)] {
		return b.left.Content(src), b.right, b, true
	}
	if b.right.Type() == "identifier" && initVars[b.right.Content(src)] {
		return b.right.Content(src), b.left, b, true
	}
	return "", nil, binary{}, false
}
