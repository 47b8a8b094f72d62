package mutants

import (
	"strings"

	"github.com/advertest/advertest-lsp/javaparse"
	sitter "github.com/smacker/go-tree-sitter"
)

// What the fault-like operators know of scope: which locals and parameters a site can read,
// with their declared types. It is deliberately narrow, so that a variable it offers always
// compiles where it is put: only variables definitely assigned at the site (parameters,
// for-loop and enhanced-for variables, locals declared with an initialiser in an earlier
// statement of an enclosing block), never `var` (its type is not written), never a pattern
// binding or a catch parameter, and inside a lambda only what the lambda declares (a
// captured local must be effectively final, which a read elsewhere cannot tell).

// local is a local variable or parameter visible at a site.
type local struct {
	name string
	typ  string // the declared type as written, whitespace dropped: "int", "List<String>", "int[]"
}

// visibleLocals lists the locals and parameters readable at node n, the nearest
// declaration first: the innermost block's latest declaration, then outwards, the
// method's parameters last (the last parameter first).
func (g *generator) visibleLocals(n *sitter.Node) []local {
	var out []local
	seen := map[string]bool{}
	add := func(name, typ string) {
		typ = strings.Join(strings.Fields(typ), "")
		if name == "" || typ == "" || typ == "var" || seen[name] {
			return
		}
		seen[name] = true
		out = append(out, local{name, typ})
	}
	// declared adds the declarators of a local variable declaration that have an initialiser,
	// the last one first.
	declared := func(decl *sitter.Node) {
		typ := javaparse.Text(decl.ChildByFieldName("type"), g.src)
		for i := int(decl.NamedChildCount()) - 1; i >= 0; i-- {
			d := decl.NamedChild(i)
			if d.Type() != "variable_declarator" || d.ChildByFieldName("value") == nil {
				continue
			}
			t := typ
			if dims := d.ChildByFieldName("dimensions"); dims != nil {
				t += dims.Content(g.src)
			}
			add(javaparse.Text(d.ChildByFieldName("name"), g.src), t)
		}
	}
	params := func(ps *sitter.Node) {
		if ps == nil {
			return
		}
		for i := int(ps.NamedChildCount()) - 1; i >= 0; i-- {
			p := ps.NamedChild(i)
			if p.Type() != "formal_parameter" {
				continue // a spread parameter's type is an array of what it says; leave it
			}
			t := javaparse.Text(p.ChildByFieldName("type"), g.src)
			if d := p.ChildByFieldName("dimensions"); d != nil {
				t += d.Content(g.src)
			}
			add(javaparse.Text(p.ChildByFieldName("name"), g.src), t)
		}
	}
	child := n
	for p := n.Parent(); p != nil; child, p = p, p.Parent() {
		switch p.Type() {
		case "block", "constructor_body", "switch_block_statement_group":
			for i := int(p.NamedChildCount()) - 1; i >= 0; i-- {
				s := p.NamedChild(i)
				if s.StartByte() >= child.StartByte() {
					continue
				}
				if s.Type() == "local_variable_declaration" {
					declared(s)
				}
			}
		case "for_statement":
			if init := p.ChildByFieldName("init"); init != nil && init.Type() == "local_variable_declaration" &&
				!within(child, init) {
				declared(init)
			}
		case "enhanced_for_statement":
			if body := p.ChildByFieldName("body"); body != nil && within(child, body) {
				add(javaparse.Text(p.ChildByFieldName("name"), g.src), javaparse.Text(p.ChildByFieldName("type"), g.src))
			}
		case "lambda_expression":
			if ps := p.ChildByFieldName("parameters"); ps != nil && ps.Type() == "formal_parameters" {
				params(ps)
			}
			return out
		case "method_declaration", "constructor_declaration", "compact_constructor_declaration":
			params(p.ChildByFieldName("parameters"))
			return out
		case "class_body", "enum_body", "interface_body":
			return out
		}
	}
	return out
}

// within reports whether node n lies inside node outer (or is it).
func within(n, outer *sitter.Node) bool {
	return n.StartByte() >= outer.StartByte() && n.EndByte() <= outer.EndByte()
}

// localNamed returns the local or parameter called name visible at n.
func (g *generator) localNamed(n *sitter.Node, name string) (local, bool) {
	for _, l := range g.visibleLocals(n) {
		if l.name == name {
			return l, true
		}
	}
	return local{}, false
}

// declaredType is the type of expression n where it is certain: a literal's, or the
// declared type of the variable it names (locals, parameters and fields, as typeEnv knows
// them; `var` is not a type). "" means not known.
func (g *generator) declaredType(n *sitter.Node) string {
	switch n.Type() {
	case "decimal_integer_literal", "hex_integer_literal", "octal_integer_literal", "binary_integer_literal":
		if t := g.text(n); strings.HasSuffix(t, "l") || strings.HasSuffix(t, "L") {
			return "long"
		}
		return "int"
	case "decimal_floating_point_literal":
		if t := g.text(n); strings.HasSuffix(t, "f") || strings.HasSuffix(t, "F") {
			return "float"
		}
		return "double"
	case "string_literal":
		return "String"
	case "character_literal":
		return "char"
	case "true", "false":
		return "boolean"
	case "identifier":
		if l, ok := g.localNamed(n, g.text(n)); ok {
			return l.typ
		}
		if t, ok := g.env[g.text(n)]; ok && t != "var" {
			return strings.Join(strings.Fields(t), "")
		}
	case "field_access":
		if obj := n.ChildByFieldName("object"); obj != nil && obj.Type() == "this" {
			if t, ok := g.env[javaparse.Text(n.ChildByFieldName("field"), g.src)]; ok && t != "var" {
				return strings.Join(strings.Fields(t), "")
			}
		}
	}
	return ""
}

// isConstant reports a literal (possibly negated) or a CONSTANT_NAME, plain or qualified
// (Integer.MAX_VALUE): what a clamp's bound usually is.
func isConstant(n *sitter.Node, src []byte) bool {
	switch n.Type() {
	case "decimal_integer_literal", "hex_integer_literal", "octal_integer_literal", "binary_integer_literal",
		"decimal_floating_point_literal", "hex_floating_point_literal", "character_literal", "string_literal",
		"true", "false", "null_literal":
		return true
	case "unary_expression":
		if u, ok := unaryParts(n, src); ok && (u.op == "-" || u.op == "+") {
			return isConstant(u.operand, src)
		}
	case "identifier":
		return isConstantName(n.Content(src))
	case "field_access":
		return isConstantName(javaparse.Text(n.ChildByFieldName("field"), src))
	case "parenthesized_expression":
		if c := javaparse.FirstCodeChild(n); c != nil {
			return isConstant(c, src)
		}
	}
	return false
}

// isConstantName: MAX, LIMIT, MAX_VALUE, but not a one-letter name (N is often a variable).
func isConstantName(s string) bool {
	if len(s) < 2 {
		return false
	}
	for i, r := range s {
		switch {
		case r >= 'A' && r <= 'Z', r == '_', i > 0 && r >= '0' && r <= '9':
		default:
			return false
		}
	}
	return true
}

// isPrimaryExpression: an expression that needs no parentheses wherever it is put.
func isPrimaryExpression(n *sitter.Node) bool {
	switch n.Type() {
	case "identifier", "field_access", "method_invocation", "array_access", "parenthesized_expression", "this",
		"decimal_integer_literal", "hex_integer_literal", "octal_integer_literal", "binary_integer_literal",
		"decimal_floating_point_literal", "hex_floating_point_literal", "character_literal", "string_literal",
		"true", "false", "null_literal", "object_creation_expression", "class_literal":
		return true
	}
	return false
}

// asReplacement is the text of expression e to stand in the place of node site: in
// parentheses when e is not primary and the site is an operand (of an operator, a cast, a
// member access or an index), so that the replacement binds as the original did.
func (g *generator) asReplacement(e, site *sitter.Node) string {
	return g.asOperandText(g.text(e), isPrimaryExpression(e), site)
}

func (g *generator) asOperandText(text string, primary bool, site *sitter.Node) string {
	if primary {
		return text
	}
	if p := site.Parent(); p != nil {
		switch p.Type() {
		case "binary_expression", "unary_expression", "cast_expression", "field_access", "array_access",
			"instanceof_expression", "update_expression", "ternary_expression":
			if p.Type() == "ternary_expression" && !javaparse.SameNode(p.ChildByFieldName("condition"), site) {
				return text // a branch of ?: takes any expression but an assignment or lambda
			}
			return "(" + text + ")"
		case "method_invocation":
			if javaparse.SameNode(p.ChildByFieldName("object"), site) {
				return "(" + text + ")"
			}
		}
	}
	return text
}
