package mutants

import (
	"fmt"
	"sort"
	"strings"

	sitter "github.com/smacker/go-tree-sitter"
)

// Options selects which rule-based mutants Generate makes.
type Options struct {
	// Class and Method go into the ids (NewID). Empty: the method's binary class name and
	// its name with parameter types, e.g. "clamp(int,int,int)".
	Class, Method string
	// Strong selects the strong group of the selected operators (full ROR, BND, INC, CDR, the
	// rest of AOR and LCR, `!`/unary-minus removal, the rest of EXIT, VAR, ARG, IDX) instead
	// of the default group; none of them repeats a mutant of the selected default group.
	Strong bool
	// Lines (1-based) limits the mutants to these lines; empty means every line of the method.
	Lines []int
	// Operators are the operators allowed (the setting mutants.operators, see Select); the
	// zero Selection allows every operator of the registry.
	Operators Selection
}

// edit is one candidate mutation: replace src[start:end] by repl.
type edit struct {
	start, end int
	repl       string
	op         string
	strong     bool
	// ctx is the expression the description shows (before and after); nil shows the
	// replaced text itself.
	ctx *sitter.Node
	// removal marks a statement removal ("`foo();` removed").
	removal bool
}

// generator collects the candidate edits of one method.
type generator struct {
	src        []byte
	returnType string
	env        typeEnv
	imports    []string // import declarations' names, "java.util.*"
	edits      []edit
	// byType maps a node type to the operators that apply to it, in registry order.
	byType map[string][]*Operator
	// cur is the operator whose mutate runs: add and remove record edits under it.
	cur *Operator
	// inLambda: the walk is inside a lambda body, whose returns are the lambda's.
	inLambda bool
}

// generate is the core of Generate on a raw tree: the method is the method or constructor
// node that spans [startByte, endByte).
func generate(root *sitter.Node, src []byte, startByte, endByte int, returnType string, opts Options) []Mutant {
	method := findMethod(root, startByte, endByte)
	if method == nil {
		return nil
	}
	body := method.ChildByFieldName("body")
	if body == nil {
		return nil
	}
	g := &generator{src: src, returnType: strings.TrimSpace(returnType), env: newTypeEnv(method, src), imports: importsOf(root, src),
		byType: map[string][]*Operator{}}
	if method.Type() != "method_declaration" {
		g.returnType = "" // constructors return nothing
	}
	for _, op := range opts.Operators.Operators() {
		// The strong group needs the default one too, so that it never repeats it.
		if op.Group == GroupDefault || opts.Strong {
			for _, t := range op.NodeTypes {
				g.byType[t] = append(g.byType[t], op)
			}
		}
	}
	g.visit(body)

	lines := splitLines(src)
	firstLine := lineOf(lines, int(method.StartByte()))
	lastLine := lineOf(lines, int(method.EndByte())-1)
	var want map[int]bool
	if len(opts.Lines) > 0 {
		want = map[int]bool{}
		for _, l := range opts.Lines {
			want[l] = true
		}
	}
	type keyed struct {
		m      Mutant
		start  int
		strong bool
	}
	var all []keyed
	for _, e := range g.edits {
		m, ok := g.mutant(lines, e)
		if !ok {
			continue
		}
		all = append(all, keyed{m, e.start, e.strong})
	}
	sort.SliceStable(all, func(i, j int) bool {
		a, b := all[i], all[j]
		if a.m.Line != b.m.Line {
			return a.m.Line < b.m.Line
		}
		if a.start != b.start {
			return a.start < b.start
		}
		if a.m.Operator != b.m.Operator {
			return a.m.Operator < b.m.Operator
		}
		return a.m.Mutated < b.m.Mutated
	})
	// The strong group must not repeat the default one.
	type lineText struct {
		line int
		text string
	}
	seen := map[lineText]bool{}
	var defaults, strong []Mutant
	for _, k := range all {
		if k.strong {
			continue
		}
		key := lineText{k.m.Line, k.m.Mutated}
		if !seen[key] {
			seen[key] = true
			defaults = append(defaults, k.m)
		}
	}
	for _, k := range all {
		if !k.strong {
			continue
		}
		key := lineText{k.m.Line, k.m.Mutated}
		if !seen[key] {
			seen[key] = true
			strong = append(strong, k.m)
		}
	}
	picked := defaults
	if opts.Strong {
		picked = strong
	}
	// Occurrence number of each line's trimmed text within the method, for the id suffix.
	occurrence := map[int]int{}
	count := map[string]int{}
	for l := firstLine; l <= lastLine && l <= len(lines); l++ {
		t := strings.TrimSpace(string(src[lines[l-1].start:lines[l-1].end]))
		count[t]++
		occurrence[l] = count[t]
	}
	out := make([]Mutant, 0, len(picked))
	for _, m := range picked {
		if want != nil && !want[m.Line] {
			continue
		}
		m.ID = NewID(opts.Class, opts.Method, m.Original, m.Mutated)
		if k := occurrence[m.Line]; k >= 2 {
			m.ID += fmt.Sprintf("-%d", k)
		}
		out = append(out, m)
	}
	return out
}

// findMethod returns the method, constructor or compact constructor node that spans
// exactly [start, end), or failing that the innermost one containing start.
func findMethod(root *sitter.Node, start, end int) *sitter.Node {
	var best *sitter.Node
	n := root
	for n != nil {
		if isMethodNode(n) && int(n.StartByte()) <= start && int(n.EndByte()) >= end {
			best = n
			if int(n.StartByte()) == start && int(n.EndByte()) == end {
				return n
			}
		}
		var next *sitter.Node
		for i := 0; i < int(n.NamedChildCount()); i++ {
			c := n.NamedChild(i)
			if int(c.StartByte()) <= start && int(c.EndByte()) >= end {
				next = c
				break
			}
		}
		n = next
	}
	return best
}

func isMethodNode(n *sitter.Node) bool {
	switch n.Type() {
	case "method_declaration", "constructor_declaration", "compact_constructor_declaration":
		return true
	}
	return false
}

func importsOf(root *sitter.Node, src []byte) []string {
	var out []string
	for i := 0; i < int(root.NamedChildCount()); i++ {
		c := root.NamedChild(i)
		if c.Type() != "import_declaration" {
			continue
		}
		t := strings.TrimSpace(c.Content(src))
		t = strings.TrimSuffix(strings.TrimPrefix(t, "import"), ";")
		out = append(out, strings.Join(strings.Fields(t), ""))
	}
	return out
}

// mutant turns an edit into a one-line mutant; ok is false when the edit would span lines
// or change nothing.
func (g *generator) mutant(lines []lineSpan, e edit) (Mutant, bool) {
	if strings.ContainsAny(e.repl, "\r\n") || e.start > e.end {
		return Mutant{}, false
	}
	line := lineOf(lines, e.start)
	ls := lines[line-1]
	if e.end > ls.end {
		return Mutant{}, false
	}
	orig := string(g.src[ls.start:ls.end])
	before, after := orig[:e.start-ls.start], orig[e.end-ls.start:]
	if e.removal {
		if strings.TrimSpace(before) == "" && strings.TrimSpace(after) == "" {
			// The statement was the line's only code: keep the indentation alone.
			before, after = leadingSpace(orig), ""
		} else if e.repl == "" && strings.HasSuffix(before, " ") && strings.HasPrefix(after, " ") {
			after = after[1:]
		}
	}
	mut := before + e.repl + after
	if mut == orig || strings.Join(strings.Fields(mut), " ") == strings.Join(strings.Fields(orig), " ") && !e.removal {
		return Mutant{}, false
	}
	return Mutant{
		Line:        line,
		Original:    orig,
		Mutated:     mut,
		Origin:      OriginRule,
		Operator:    e.op,
		Description: g.describe(e, ls),
	}, true
}

const maxDescribed = 60 // longer expressions are described by the changed token alone

func (g *generator) describe(e edit, ls lineSpan) string {
	if e.removal {
		return "`" + strings.TrimSpace(string(g.src[e.start:e.end])) + "` removed"
	}
	before, after := string(g.src[e.start:e.end]), e.repl
	if c := e.ctx; c != nil {
		cs, ce := int(c.StartByte()), int(c.EndByte())
		if cs >= ls.start && ce <= ls.end && cs <= e.start && ce >= e.end && ce-cs <= maxDescribed {
			before = string(g.src[cs:ce])
			after = string(g.src[cs:e.start]) + e.repl + string(g.src[e.end:ce])
		}
	}
	return "`" + before + "` → `" + after + "`"
}

// visit walks the method body and runs the operators on the nodes they apply to.
func (g *generator) visit(n *sitter.Node) {
	switch n.Type() {
	case "line_comment", "block_comment", "string_literal", "text_block", "character_literal":
		return // no code inside
	case "class_body", "class_declaration", "interface_declaration", "enum_declaration",
		"record_declaration", "annotation_type_declaration":
		return // a nested or anonymous class's methods are methods of their own
	case "annotation", "marker_annotation", "switch_label":
		return // constants there must stay constant and distinct
	case "assert_statement":
		return // assertions are off by default: every mutant there would be equivalent
	case "lambda_expression":
		if body := n.ChildByFieldName("body"); body != nil {
			outer := g.inLambda
			g.inLambda = true
			g.visit(body)
			g.inLambda = outer
		}
		return
	}
	for _, op := range g.byType[n.Type()] {
		g.cur = op
		op.mutate(g, n)
	}
	for i := 0; i < int(n.NamedChildCount()); i++ {
		g.visit(n.NamedChild(i))
	}
}

// add records a candidate of the current operator replacing node n's text; ctx is the
// expression the description shows.
func (g *generator) add(n *sitter.Node, repl string, ctx *sitter.Node) {
	g.addSpan(int(n.StartByte()), int(n.EndByte()), repl, ctx)
}

// addSpan records a candidate of the current operator replacing src[start:end], which may
// span several nodes (two arguments and the comma between them).
func (g *generator) addSpan(start, end int, repl string, ctx *sitter.Node) {
	g.edits = append(g.edits, edit{start: start, end: end, repl: repl,
		op: g.cur.Code, strong: g.cur.Group == GroupStrong, ctx: ctx})
}

// remove records a candidate of the current operator removing statement n (repl is what
// stands in its place: nothing, or the empty statement).
func (g *generator) remove(n *sitter.Node, repl string) {
	g.edits = append(g.edits, edit{start: int(n.StartByte()), end: int(n.EndByte()), repl: repl,
		op: g.cur.Code, strong: g.cur.Group == GroupStrong, removal: true})
}

func (g *generator) text(n *sitter.Node) string { return n.Content(g.src) }

// oneLine reports whether node n lies on one line.
func oneLine(n *sitter.Node, src []byte) bool {
	for _, b := range src[n.StartByte():n.EndByte()] {
		if b == '\n' || b == '\r' {
			return false
		}
	}
	return true
}
