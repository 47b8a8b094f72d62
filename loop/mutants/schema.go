package mutants

import (
	"fmt"
	"regexp"
	"sort"
	"strings"

	sitter "github.com/smacker/go-tree-sitter"

	"github.com/advertest/advertest-lsp/javaparse"
)

// SchemaSwitch is the field a schema's sites compare with their variants' ids; the worker sets
// it for each run (buildtools/harness, RunSpec.ActiveMutant).
const SchemaSwitch = "advertest.worker.hook.Mutant.active"

// SchemaDiscard is the method a switched for update calls with its value: a ?: is not a
// statement expression, a method call is.
const SchemaDiscard = "advertest.worker.hook.Mutant.discard"

// Schema is one class text that holds many rule mutants at once (Major's conditional mutation,
// Stryker's mutant schemata): each mutated site becomes a switch on the run's active mutant,
//
//	{ if (Mutant.active == 3) { <mutated statement> } else { <original statement> } }
//	while ((Mutant.active == 4 ? <mutated condition> : <original>))
//	for (...; ...; Mutant.discard(Mutant.active == 5 ? (<mutated update>) : (<original>)))
//
// so one compile serves every mutant of a method. Only the (operator, context) pairs of
// schemaContexts go in, the ones the corpus test proves safe: a mutant in a schema compiles
// alone and behaves alone as in the schema with its id active. The others (a call in a for
// update, a switch label, a narrowing or final initialiser, a condition made constant, LLM mutants, ...)
// stay out and are compiled one by one. The schema keeps every line where it was: a javac error
// on line L belongs to the sites of line L (SitesOnLine), which the caller drops before
// compiling again.
type Schema struct {
	// Text is the class's source with the sites switched.
	Text string
	// IDs maps a mutant id to its schema id (1, 2, ...): the RunSpec.ActiveMutant of its runs.
	IDs map[string]int
	// Context is where each mutant in the schema is switched: statement, return, condition, local.
	Context map[string]string
	// Out are the mutants left out, each with why (Mutant.ID → reason).
	Out map[string]string

	lines map[int][]string // line → the ids of the mutants on it
}

// SitesOnLine are the ids of the schema's mutants on a line (1-based).
func (s *Schema) SitesOnLine(line int) []string { return s.lines[line] }

// schemaContexts are the contexts a site may be switched in, and the operators allowed there:
// TestSchemaCompilesOnlyWhatCompilesAlone proves each pair on the corpus.
var schemaContexts = map[string]map[string]bool{
	// a whole expression statement on one line: calls, assignments, increments
	"statement": set("ROR", "AOR", "NEG", "LCR", "MATH", "CHAR", "VCR", "WRAP", "SWAP", "BND", "INC", "VAR", "ARG", "IDX"),
	// a whole return statement on one line: the value changed or the return removed
	"return": set("ROR", "AOR", "NEG", "LCR", "RET", "MATH", "CHAR", "WRAP", "SWAP", "BND", "VAR", "ARG", "IDX", "EXIT"),
	// the condition of an if, while, do or for, switched as a boolean (?:). CDR fits an if: a
	// constant if condition changes neither reachability nor, where the original's condition is
	// not constant, definite assignment (the original's flow holds for either branch); a loop's
	// condition that is or becomes constant stays out (reachability)
	"condition": set("ROR", "AOR", "NEG", "LCR", "MATH", "CHAR", "WRAP", "SWAP", "BND", "VAR", "ARG", "IDX", "CDR"),
	// an update of a for statement that is an increment or an assignment, switched as a value
	// and dropped by SchemaDiscard (the update must stay a statement expression)
	"update": set("INC"),
	// the initialiser of a local variable (not final, not var, not byte/short/char)
	"local": set("ROR", "AOR", "NEG", "LCR", "MATH", "CHAR", "WRAP", "SWAP", "BND", "VAR", "ARG", "IDX", "CDR"),
}

func set(codes ...string) map[string]bool {
	m := map[string]bool{}
	for _, c := range codes {
		m[c] = true
	}
	return m
}

// site is one switched range of the source: [start, end) is replaced by a switch between the
// variants and the original.
type site struct {
	start, end int
	statement  bool // an if/else of statements, else a ?: of expressions
	update     bool // a ?: of a for update's expressions, passed to SchemaDiscard
	variants   []variant
}

type variant struct {
	id   int
	text string // the range's text with the mutant applied
}

// BuildSchema puts the rule mutants of ms that fit into one schema of src. The mutants must
// come from src's current text.
func BuildSchema(src []byte, ms []Mutant) (*Schema, error) {
	f, err := javaparse.Parse(src)
	if err != nil {
		return nil, fmt.Errorf("schema: %w", err)
	}
	s := &Schema{IDs: map[string]int{}, Context: map[string]string{}, Out: map[string]string{}, lines: map[int][]string{}}
	lines := splitLines(src)
	sites := map[[2]int]*site{}
	f.WithTree(func(root *sitter.Node, text []byte) {
		for _, m := range ms {
			node, ed, repl, ctx, ok := locate(root, text, lines, m)
			if !ok {
				s.Out[m.ID] = ctx
				continue
			}
			key := [2]int{int(node.StartByte()), int(node.EndByte())}
			st := sites[key]
			if st == nil {
				st = &site{start: key[0], end: key[1], statement: ctx == "statement" || ctx == "return", update: ctx == "update"}
				sites[key] = st
			}
			id := len(s.IDs) + 1
			s.IDs[m.ID] = id
			s.Context[m.ID] = ctx
			s.lines[m.Line] = append(s.lines[m.Line], m.ID)
			v := string(text[key[0]:ed.s]) + repl + string(text[ed.e:key[1]])
			st.variants = append(st.variants, variant{id: id, text: v})
		}
	})
	all := make([]*site, 0, len(sites))
	for _, st := range sites {
		all = append(all, st)
	}
	// Outer sites first at the same start: a site's original text renders the sites inside it.
	sort.Slice(all, func(i, j int) bool {
		if all[i].start != all[j].start {
			return all[i].start < all[j].start
		}
		return all[i].end > all[j].end
	})
	var b strings.Builder
	render(&b, src, 0, len(src), all)
	s.Text = b.String()
	return s, nil
}

// render writes src[start:end) with the sites inside it switched; sites are sorted by start,
// outer first, and nest without partial overlaps (they are syntax nodes).
func render(b *strings.Builder, src []byte, start, end int, sites []*site) {
	at := start
	for i := 0; i < len(sites); {
		st := sites[i]
		// The sites inside st follow it in the order.
		j := i + 1
		for j < len(sites) && sites[j].start < st.end {
			j++
		}
		b.Write(src[at:st.start])
		var orig strings.Builder
		render(&orig, src, st.start, st.end, sites[i+1:j])
		if st.statement {
			b.WriteString("{ ")
			for k, v := range st.variants {
				if k > 0 {
					b.WriteString(" else ")
				}
				fmt.Fprintf(b, "if (%s == %d) { %s }", SchemaSwitch, v.id, v.text)
			}
			fmt.Fprintf(b, " else { %s } }", orig.String())
		} else {
			if st.update {
				b.WriteString(SchemaDiscard)
			}
			b.WriteString("(")
			for _, v := range st.variants {
				fmt.Fprintf(b, "%s == %d ? (%s) : ", SchemaSwitch, v.id, v.text)
			}
			fmt.Fprintf(b, "(%s))", orig.String())
		}
		at = st.end
		i = j
	}
	b.Write(src[at:end])
}

// span is a byte range of the source.
type span struct{ s, e int }

// constantCondition matches a condition without a variable, call or field: true, !false, 1 < 2.
var constantCondition = regexp.MustCompile(`^[\s()!&|<>=+\-*/%0-9.]*(true|false)?[\s()!&|<>=+\-*/%0-9.]*$`)

// locate finds where mutant m goes in a schema: the node to switch (start), the edit inside
// it and the context; ok false (with the reason in ctx) leaves the mutant out.
func locate(root *sitter.Node, src []byte, lines []lineSpan, m Mutant) (node *sitter.Node, edit span, repl, ctx string, ok bool) {
	if m.Origin != OriginRule {
		return nil, span{}, "", "not a rule mutant", false
	}
	if m.Line < 1 || m.Line > len(lines) {
		return nil, span{}, "", "outside the file", false
	}
	ls := lines[m.Line-1]
	if string(src[ls.start:ls.end]) != m.Original || strings.ContainsAny(m.Mutated, "\r\n") {
		return nil, span{}, "", "stale", false
	}
	// The edit: what the mutated line changes, between the common prefix and suffix.
	o, mu := m.Original, m.Mutated
	p := 0
	for p < len(o) && p < len(mu) && o[p] == mu[p] {
		p++
	}
	q := 0
	for q < len(o)-p && q < len(mu)-p && o[len(o)-1-q] == mu[len(mu)-1-q] {
		q++
	}
	edit = span{ls.start + p, ls.end - q}
	repl = mu[p : len(mu)-q]

	// The innermost named node that holds the edit, then its statement.
	n := innermost(root, edit)
	var stmt, below *sitter.Node
	for c := n; c != nil; c = c.Parent() {
		if isStatement(c) {
			stmt = c
			break
		}
		below = c
	}
	if stmt == nil {
		return nil, span{}, "", "not in a statement", false
	}
	switch stmt.Type() {
	case "expression_statement", "return_statement":
		ctx = "statement"
		if stmt.Type() == "return_statement" {
			ctx = "return"
		}
		if !oneLine(stmt, src) {
			return nil, span{}, "", ctx + " over several lines", false
		}
		if !schemaContexts[ctx][m.Operator] {
			return nil, span{}, "", m.Operator + " in a " + ctx, false
		}
		return stmt, edit, repl, ctx, true
	case "if_statement", "while_statement", "do_statement", "for_statement":
		if below != nil && isForUpdate(stmt, below) {
			return forUpdate(below, edit, repl, m, src)
		}
		cond := stmt.ChildByFieldName("condition")
		if cond == nil || below == nil || !javaparse.SameNode(below, cond) {
			return nil, span{}, "", "in a " + stmt.Type() + " outside its condition", false
		}
		ctx = "condition"
		loop := stmt.Type() != "if_statement"
		mutated := string(src[cond.StartByte():edit.s]) + repl + string(src[edit.e:cond.EndByte()])
		if loop && (constantCondition.MatchString(cond.Content(src)) || constantCondition.MatchString(mutated)) {
			return nil, span{}, "", "a loop condition that is or becomes constant (reachability)", false
		}
		if hasBindingOrAssignment(cond) {
			return nil, span{}, "", "a condition with a pattern binding or an assignment", false
		}
		if !loop && constantCondition.MatchString(cond.Content(src)) {
			// The original compiled leaning on a constant (definite assignment); the schema's
			// condition is not one.
			return nil, span{}, "", "an if condition that is constant", false
		}
	case "local_variable_declaration":
		if below == nil || below.Type() != "variable_declarator" {
			return nil, span{}, "", "in a declaration outside its initialiser", false
		}
		value := below.ChildByFieldName("value")
		if value == nil || int(value.StartByte()) > edit.s {
			return nil, span{}, "", "in a declaration outside its initialiser", false
		}
		typ := stmt.ChildByFieldName("type")
		if typ == nil || localTypeUnsafe(typ.Content(src)) || strings.Contains(stmt.Content(src)[:int(typ.StartByte()-stmt.StartByte())], "final") {
			return nil, span{}, "", "a final, var or narrowing initialiser (constant expressions)", false
		}
		ctx = "local"
	default:
		return nil, span{}, "", "in a " + stmt.Type(), false
	}
	if !schemaContexts[ctx][m.Operator] {
		return nil, span{}, "", m.Operator + " in a " + ctx, false
	}
	// Switch the innermost expression that holds the edit and may stand for any value of its type.
	e := n
	for e != nil && !javaparse.SameNode(e, stmt) && !switchable(e) {
		e = e.Parent()
	}
	if e == nil || javaparse.SameNode(e, stmt) || !oneLine(e, src) {
		return nil, span{}, "", "no expression to switch in the " + ctx, false
	}
	return e, edit, repl, ctx, true
}

// isForUpdate says whether n is one of the update expressions of for statement stmt.
func isForUpdate(stmt, n *sitter.Node) bool {
	if stmt.Type() != "for_statement" {
		return false
	}
	for i := 0; i < int(stmt.ChildCount()); i++ {
		if stmt.FieldNameForChild(i) == "update" && javaparse.SameNode(stmt.Child(i), n) {
			return true
		}
	}
	return false
}

// forUpdate places a mutant inside for update u: the whole update is switched when it is an
// increment or an assignment on one line (INC keeps the form in its variants).
func forUpdate(u *sitter.Node, edit span, repl string, m Mutant, src []byte) (*sitter.Node, span, string, string, bool) {
	if t := u.Type(); t != "update_expression" && t != "assignment_expression" {
		return nil, span{}, "", "a for update that is not an increment or an assignment", false
	}
	if !oneLine(u, src) {
		return nil, span{}, "", "a for update over several lines", false
	}
	if !schemaContexts["update"][m.Operator] {
		return nil, span{}, "", m.Operator + " in an update", false
	}
	return u, edit, repl, "update", true
}

// innermost is the deepest named node that holds the range.
func innermost(root *sitter.Node, r span) *sitter.Node {
	n := root
	for {
		var next *sitter.Node
		for i := 0; i < int(n.NamedChildCount()); i++ {
			c := n.NamedChild(i)
			if int(c.StartByte()) <= r.s && r.e <= int(c.EndByte()) {
				next = c
				break
			}
		}
		if next == nil {
			return n
		}
		n = next
	}
}

func isStatement(n *sitter.Node) bool {
	switch n.Type() {
	case "expression_statement", "return_statement", "local_variable_declaration", "if_statement", "while_statement",
		"do_statement", "for_statement", "enhanced_for_statement", "switch_expression", "switch_statement", "throw_statement",
		"yield_statement", "break_statement", "continue_statement", "try_statement", "try_with_resources_statement",
		"synchronized_statement", "labeled_statement", "assert_statement", "block", "explicit_constructor_invocation",
		"switch_block_statement_group", "switch_rule", "method_declaration", "constructor_declaration", "field_declaration":
		return true
	}
	return false
}

// switchable reports whether expression n may be replaced by a (c ? a : n) of the same type:
// not a target of an assignment or update, not a method's or field's name.
func switchable(n *sitter.Node) bool {
	switch n.Type() {
	case "binary_expression", "unary_expression", "parenthesized_expression", "method_invocation", "array_access",
		"field_access", "identifier", "decimal_integer_literal", "hex_integer_literal", "octal_integer_literal",
		"binary_integer_literal", "decimal_floating_point_literal", "true", "false", "character_literal", "ternary_expression",
		"cast_expression", "instanceof_expression", "object_creation_expression", "array_creation_expression":
	default:
		return false
	}
	p := n.Parent()
	if p == nil {
		return false
	}
	switch p.Type() {
	case "update_expression":
		return false
	case "assignment_expression":
		if l := p.ChildByFieldName("left"); l != nil && javaparse.SameNode(l, n) {
			return false
		}
	case "method_invocation", "field_access":
		if nm := p.ChildByFieldName("name"); nm != nil && javaparse.SameNode(nm, n) {
			return false
		}
		if f := p.ChildByFieldName("field"); f != nil && javaparse.SameNode(f, n) {
			return false
		}
	case "lambda_expression", "inferred_parameters", "formal_parameter", "catch_formal_parameter":
		return false
	}
	return true
}

func hasBindingOrAssignment(n *sitter.Node) bool {
	switch n.Type() {
	case "assignment_expression", "update_expression", "type_pattern", "record_pattern", "lambda_expression":
		return true
	case "instanceof_expression":
		if n.ChildByFieldName("name") != nil || n.NamedChildCount() > 2 {
			return true
		}
	}
	for i := 0; i < int(n.NamedChildCount()); i++ {
		if hasBindingOrAssignment(n.NamedChild(i)) {
			return true
		}
	}
	return false
}

// localTypeUnsafe: var infers from the switch's type, and byte, short and char take a constant
// int only while it stays a constant.
func localTypeUnsafe(t string) bool {
	switch strings.TrimSpace(t) {
	case "var", "byte", "short", "char", "Byte", "Short", "Character":
		return true
	}
	return false
}
