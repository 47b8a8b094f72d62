package mutants

import (
	"github.com/advertest/advertest-lsp/javaparse"
	sitter "github.com/smacker/go-tree-sitter"
)

// VAR, the wrong variable: a read of a local or parameter replaced by another local or
// parameter of the same declared type that is visible and definitely assigned there (see
// visibleLocals), the nearest declarations first, at most maxVarReplacements per
// occurrence. Only reads are replaced: never a declaration's name, an assignment's target
// or an operand of ++/--, and never a field, a method name or a label. A replacement that
// would give an operator, a call or a ?: the same variable twice (`lo < lo`,
// `Math.min(hi, hi)`, `c ? b : b`; see collapses) is skipped: it is a constant, not a
// slip; so is the
// variable that ends a loop, in the loop's condition (`i < n` keeps its `i`: another
// variable there would not change, and the loop would not end).
const maxVarReplacements = 2

func replaceVariable(g *generator, n *sitter.Node) {
	if !readSite(n) || drivesLoop(n, g.src) {
		return
	}
	name := g.text(n)
	locals := g.visibleLocals(n)
	var typ string
	for _, l := range locals {
		if l.name == name {
			typ = l.typ
		}
	}
	if typ == "" {
		return // a field, a class name, a pattern binding, or a variable of unknown type
	}
	ctx := n.Parent()
	if ctx.Type() == "argument_list" && ctx.Parent() != nil {
		ctx = ctx.Parent() // the call
	}
	made := 0
	for _, l := range locals {
		if made == maxVarReplacements {
			break
		}
		if l.name == name || l.typ != typ || g.collapses(n, l.name) {
			continue
		}
		g.add(n, l.name, ctx)
		made++
	}
}

// readSite reports an identifier in a place where it is read as a value: an operand, an
// argument, an index or array, a returned or assigned value, a receiver, a cast's operand,
// a condition, an enhanced for's iterable.
func readSite(n *sitter.Node) bool {
	p := n.Parent()
	if p == nil {
		return false
	}
	switch p.Type() {
	case "binary_expression", "argument_list", "array_access", "return_statement", "parenthesized_expression",
		"ternary_expression", "dimensions_expr":
		return true
	}
	field, ok := readField[p.Type()]
	return ok && javaparse.SameNode(p.ChildByFieldName(field), n)
}

// readField names, for a parent node type, the one child field that is read.
var readField = map[string]string{
	"unary_expression": "operand", "variable_declarator": "value", "assignment_expression": "right",
	"method_invocation": "object", "field_access": "object", "cast_expression": "value",
	"enhanced_for_statement": "value", "for_statement": "condition",
}

// collapses reports a replacement of identifier n by name that would make the nearest
// operation around n take the same thing twice: the two operands of a binary expression
// (`a[i] == a[j]` → `a[j] == a[j]`), two arguments of a call or the receiver and an
// argument (`a.compareTo(b)` → `b.compareTo(b)`), the two branches of a ?:, or a plain
// assignment's target and value (`max = price` → `max = max`).
func (g *generator) collapses(n *sitter.Node, name string) bool {
	// with is node x's text after the replacement.
	with := func(x *sitter.Node) string {
		if x == nil {
			return ""
		}
		if !within(n, x) {
			return g.text(x)
		}
		return string(g.src[x.StartByte():n.StartByte()]) + name + string(g.src[n.EndByte():x.EndByte()])
	}
	same := func(a, b *sitter.Node) bool { return a != nil && b != nil && with(a) == with(b) }
	for p := n.Parent(); p != nil; p = p.Parent() {
		switch p.Type() {
		case "binary_expression":
			return same(p.ChildByFieldName("left"), p.ChildByFieldName("right"))
		case "ternary_expression":
			return same(p.ChildByFieldName("consequence"), p.ChildByFieldName("alternative"))
		case "assignment_expression":
			op := p.ChildByFieldName("operator")
			return op != nil && op.Type() == "=" && same(p.ChildByFieldName("left"), p.ChildByFieldName("right"))
		case "method_invocation", "object_creation_expression", "explicit_constructor_invocation":
			args := p.ChildByFieldName("arguments")
			if args == nil {
				return false
			}
			parts := []*sitter.Node{p.ChildByFieldName("object")}
			for i := 0; i < int(args.NamedChildCount()); i++ {
				parts = append(parts, args.NamedChild(i))
			}
			seen := map[string]bool{}
			for _, x := range parts {
				if x == nil {
					continue
				}
				t := with(x)
				if seen[t] {
					return true
				}
				seen[t] = true
			}
			return false
		case "expression_statement", "local_variable_declaration", "return_statement", "block", "lambda_expression",
			"if_statement", "while_statement", "for_statement", "do_statement", "enhanced_for_statement":
			return false
		}
	}
	return false
}

// drivesLoop reports an identifier in the condition of a loop that the loop's body or
// update assigns: the variable that ends the loop. Another variable there would mostly
// never change, and the mutant would loop for ever.
func drivesLoop(n *sitter.Node, src []byte) bool {
	child := n
	for p := n.Parent(); p != nil; child, p = p, p.Parent() {
		switch p.Type() {
		case "for_statement", "while_statement", "do_statement":
			if cond := p.ChildByFieldName("condition"); cond != nil && within(child, cond) {
				return assigns(p, n.Content(src), src)
			}
			return false
		case "block", "lambda_expression", "class_body", "method_declaration", "constructor_declaration":
			return false
		}
	}
	return false
}

// assigns reports an assignment to, or an increment of, variable name inside n.
func assigns(n *sitter.Node, name string, src []byte) bool {
	switch n.Type() {
	case "assignment_expression":
		if l := n.ChildByFieldName("left"); l != nil && l.Type() == "identifier" && l.Content(src) == name {
			return true
		}
	case "update_expression":
		for i := 0; i < int(n.NamedChildCount()); i++ {
			if c := n.NamedChild(i); c.Type() == "identifier" && c.Content(src) == name {
				return true
			}
		}
	case "class_body":
		return false
	}
	for i := 0; i < int(n.NamedChildCount()); i++ {
		if assigns(n.NamedChild(i), name, src) {
			return true
		}
	}
	return false
}
