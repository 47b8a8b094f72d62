package javaparse

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"

	sitter "github.com/smacker/go-tree-sitter"
	"github.com/smacker/go-tree-sitter/java"
)

// index is what one snapshot knows about its declarations.
type index struct {
	methods []*Method // by StartByte
	// methodClass[i] is the class of methods[i] (a Method handed out by the
	// lazy path and adopted into methods has none of its own).
	methodClass []*classInfo
	classes     []*classInfo
	errors      []SyntaxError
	pkg         string
	imports     []string

	// memo records what the walk found in each error-free member, by node
	// id, for the index of the next version of the text (incremental.go).
	memo map[uintptr]*memberRecord
	// tree keeps the nodes behind memo's ids alive: a live tree's subtrees
	// are not freed, so no other subtree can take their address.
	tree *sitter.Tree
	// replayed counts the members taken from the previous index's records
	// (for the tests).
	replayed int
}

// declQuerySource finds every declaration the index needs in one pass of
// tree-sitter's query engine. The indexer uses it for subtrees with syntax
// errors, and the tests use it as the reference for the indexer's walk. The
// capture names say what each match is.
const declQuerySource = `
(class_declaration) @type
(interface_declaration) @type
(enum_declaration) @type
(record_declaration) @type
(annotation_type_declaration) @type
(object_creation_expression (class_body) @anon)
(enum_constant (class_body) @anon)
(method_declaration) @method
(constructor_declaration) @method
(compact_constructor_declaration) @method
(field_declaration) @field
(constant_declaration) @field
(enum_constant) @constant
(package_declaration) @package
(import_declaration) @import
`

// declQuery is compiled once, on first use: it is a constant of the grammar,
// and a compiled tree-sitter query is immutable and may be shared by cursors on
// several goroutines.
var declQuery = sync.OnceValues(func() (*sitter.Query, error) {
	return sitter.NewQuery([]byte(declQuerySource), java.GetLanguage())
})

type capture struct {
	what       string
	node       *sitter.Node
	start, end int
}

// indexer builds one snapshot's index. Walking every node from Go (a cgo call
// per step) or with a tree-sitter query (which also visits every node) costs
// about as much as a full parse, so it walks only the declarations: the members
// of each type body, and inside members only the places where the text has the
// keyword of a nested class (`new`, `class`, `interface`, `enum`, `record`).
// A subtree with a syntax error goes to the query instead, which finds
// declarations however the error recovery nested them.
type indexer struct {
	src      []byte
	lines    *LineMap
	ix       *index
	pkgParts []string
	// keywords are the offsets of the words that may start a nested class,
	// in source order, if allKeywords; otherwise each walked member's text
	// is scanned when it is walked.
	keywords    []keyword
	allKeywords bool
	cursor      *sitter.TreeCursor

	// prev are the records of the previous version's index (nil for a fresh
	// parse); memo collects this index's; children are the records made
	// while walking the member being recorded (its inner ones).
	prev     map[uintptr]*memberRecord
	memo     map[uintptr]*memberRecord
	children []*memberRecord

	// counting is the lazy path's mode (lazy.go): the walk makes classes
	// (which numbers them) but no methods, fields or records, and does not
	// enter the classes it makes; found is the class made for the node that
	// starts at target.
	counting   bool
	target     int
	targetAnon bool
	found      *classInfo
}

type keyword struct {
	offset int
	word   string
}

// buildIndex indexes the tree of src. prev is the index of the version the
// tree was re-parsed from (nil if none): its records of the members the edits
// did not touch are replayed instead of walking those members again.
func buildIndex(tree *sitter.Tree, src []byte, lines *LineMap, prev *index) *index {
	root := tree.RootNode()
	x := &indexer{src: src, lines: lines, ix: &index{tree: tree}, memo: map[uintptr]*memberRecord{}}
	if prev != nil {
		// Most members will be replayed: scan only the ones walked.
		x.prev = prev.memo
	} else {
		x.keywords, x.allKeywords = scanKeywords(src, 0, len(src)), true
	}
	x.cursor = sitter.NewTreeCursor(root)
	defer x.cursor.Close()
	for i := 0; i < int(root.ChildCount()); i++ {
		c := root.Child(i)
		t, hasError := c.Type(), c.HasError()
		switch {
		case c.IsError() || (hasError && !isTypeDeclaration(t)):
			x.query(c, nil)
		case t == "package_declaration":
			x.pkg(c)
		case t == "import_declaration":
			x.ix.imports = append(x.ix.imports, importText(c, src))
		case isTypeDeclaration(t) && !hasError:
			x.member(c, nil, func() { x.typeDecl(c, nil) })
		case isTypeDeclaration(t):
			x.typeDecl(c, nil)
		case c.Type() == "line_comment" || c.Type() == "block_comment" || c.Type() == ";":
		default:
			// Statements at the top level: the grammar accepts them, and
			// broken code (a '}' too many) leaves declarations in them.
			x.query(c, nil)
		}
	}
	// Source order; the walk appends in that order except around query
	// fallbacks.
	slices.SortStableFunc(x.ix.methods, func(a, b *Method) int { return cmp.Compare(a.StartByte, b.StartByte) })
	x.ix.errors = syntaxErrors(root, src, lines)
	x.ix.memo = x.memo
	x.ix.methodClass = make([]*classInfo, len(x.ix.methods))
	for i, m := range x.ix.methods {
		x.ix.methodClass[i] = m.class
	}
	return x.ix
}

func isTypeDeclaration(t string) bool {
	switch t {
	case "class_declaration", "interface_declaration", "enum_declaration", "record_declaration", "annotation_type_declaration":
		return true
	}
	return false
}

func (x *indexer) pkg(n *sitter.Node) {
	if x.ix.pkg != "" {
		return
	}
	if id := FirstChildOfType(n, "scoped_identifier", "identifier"); id != nil {
		x.ix.pkg = collapse(id.Content(x.src))
		x.pkgParts = strings.Split(x.ix.pkg, ".")
	}
}

// typeDecl indexes a named type declaration (member, top-level or local).
func (x *indexer) typeDecl(n *sitter.Node, encl *classInfo) {
	ci := x.class("type", n, encl)
	if ci == nil {
		return
	}
	for i := 0; i < int(n.ChildCount()); i++ {
		switch c := n.Child(i); {
		case c.Type() == "class_body" || c.Type() == "interface_body" || c.Type() == "enum_body" || c.Type() == "annotation_type_body":
			x.typeBody(c, ci)
		case c.HasError():
			// Broken code may leave members in an ERROR beside the body.
			x.query(c, ci)
		}
	}
}

// typeBody indexes the members of a class, interface, enum, record or
// annotation body, or of an anonymous class.
func (x *indexer) typeBody(body *sitter.Node, ci *classInfo) {
	for i := 0; i < int(body.ChildCount()) && x.found == nil; i++ {
		c := body.Child(i)
		t, hasError := c.Type(), c.HasError()
		// A member type with an error keeps the walk: its own members are
		// checked one by one.
		if c.IsError() || (hasError && !isTypeDeclaration(t)) {
			x.query(c, ci)
			continue
		}
		if !hasError && !x.counting && reusableMember(t) {
			x.member(c, ci, func() { x.bodyMember(c, t, ci) })
			continue
		}
		x.bodyMember(c, t, ci)
	}
}

// bodyMember indexes one member of a type body; t is its type.
func (x *indexer) bodyMember(c *sitter.Node, t string, ci *classInfo) {
	switch {
	case isTypeDeclaration(t):
		x.typeDecl(c, ci)
	case t == "method_declaration" || t == "constructor_declaration" || t == "compact_constructor_declaration":
		if !x.counting {
			x.method(c, ci)
		}
		x.nested(c, ci)
	case t == "field_declaration" || t == "constant_declaration":
		if !x.counting {
			ci.fields = append(ci.fields, collapse(c.Content(x.src)))
		}
		x.nested(c, ci)
	case t == "enum_constant":
		x.enumConstant(c, ci)
	case t == "enum_body_declarations":
		x.typeBody(c, ci)
	default: // initializers, annotation elements, punctuation, comments
		x.nested(c, ci)
	}
}

func (x *indexer) method(n *sitter.Node, ci *classInfo) {
	if m := newMethod(n, ci, x.pkgParts, x.src, x.lines); m != nil {
		x.ix.methods = append(x.ix.methods, m)
		if m.Kind == KindConstructor {
			ci.ctors = append(ci.ctors, m.Signature)
		} else {
			ci.methodSigs = append(ci.methodSigs, m.Signature)
		}
	}
}

func (x *indexer) enumConstant(n *sitter.Node, ci *classInfo) {
	start, end := int(n.StartByte()), int(n.EndByte())
	body := n.ChildByFieldName("body")
	if body != nil {
		end = int(body.StartByte())
	}
	if ci.kind == "enum" && !x.counting {
		ci.fields = append(ci.fields, collapse(string(x.src[start:end])))
	}
	// javac numbers anonymous classes in the arguments before the body's.
	if args := n.ChildByFieldName("arguments"); args != nil {
		x.nested(args, ci)
	}
	if body != nil {
		x.anonymous(body, ci)
	}
}

func (x *indexer) anonymous(body *sitter.Node, encl *classInfo) {
	if ci := x.class("anon", body, encl); ci != nil {
		x.typeBody(body, ci)
	}
}

// class indexes the class that node n declares (what: "type" or "anon") and returns it for
// its members to be indexed; nil when it is not a class, or when only classes are counted.
func (x *indexer) class(what string, n *sitter.Node, encl *classInfo) *classInfo {
	ci := newClassInfo(capture{what: what, node: n, start: int(n.StartByte()), end: int(n.EndByte())}, encl, x.src)
	if ci == nil {
		return nil
	}
	x.ix.classes = append(x.ix.classes, ci)
	if x.counting {
		x.counted(ci)
		return nil
	}
	return ci
}

// nested indexes the anonymous and local classes inside n (an error-free
// member or part of one), in source order, leaving those nested in them to
// their own typeBody.
func (x *indexer) nested(n *sitter.Node, ci *classInfo) {
	start, end := int(n.StartByte()), int(n.EndByte())
	skip := start
	for _, k := range x.keywordsIn(start, end) {
		if x.found != nil {
			return // counting, and the target is numbered
		}
		if k.offset < skip {
			continue
		}
		leaf, parent := x.tokenAt(n, k.offset)
		if leaf == nil || parent == nil || leaf.Type() != k.word {
			continue // in a comment, a string, or "record" as a name
		}
		switch pt := parent.Type(); {
		case k.word == "new" && pt == "object_creation_expression":
			body := LastChildOfType(parent, "class_body")
			if body == nil {
				continue // its arguments are scanned as the loop goes on
			}
			if args := parent.ChildByFieldName("arguments"); args != nil {
				x.nested(args, ci)
			}
			x.anonymous(body, ci)
			skip = int(parent.EndByte())
		case k.word != "new" && isTypeDeclaration(pt):
			x.typeDecl(parent, ci)
			skip = int(parent.EndByte())
		}
	}
}

// tokenAt returns the leaf of n's subtree that starts at offset, and its
// parent; nil if no leaf starts there.
func (x *indexer) tokenAt(n *sitter.Node, offset int) (leaf, parent *sitter.Node) {
	c := x.cursor
	c.Reset(n)
	depth := 0
	// Tree-sitter moves to the first child whose end is >= the goal: ask
	// for offset+1 so that a token ending at offset (the "(" of "(new") is
	// passed over.
	for c.GoToFirstChildForByte(uint32(offset)+1) >= 0 {
		depth++
	}
	if depth == 0 {
		return nil, nil
	}
	leaf = c.CurrentNode()
	if int(leaf.StartByte()) != offset {
		return nil, nil
	}
	if !c.GoToParent() {
		return nil, nil
	}
	return leaf, c.CurrentNode()
}

// keywordsIn returns the keywords that start in [start, end).
func (x *indexer) keywordsIn(start, end int) []keyword {
	if !x.allKeywords {
		return scanKeywords(x.src, start, end)
	}
	i, _ := slices.BinarySearchFunc(x.keywords, start, func(k keyword, off int) int { return cmp.Compare(k.offset, off) })
	j := i
	for j < len(x.keywords) && x.keywords[j].offset < end {
		j++
	}
	return x.keywords[i:j]
}

// scanKeywords finds the words of src that may start a nested class and
// start in [from, to). Words are the maximal runs of identifier bytes of the
// whole text: a word that begins before from is not one, and one that begins
// before to is read to its end.
func scanKeywords(src []byte, from, to int) []keyword {
	var out []keyword
	i := from
	for i > 0 && isIdentByte(src[i-1]) {
		i-- // inside a word that starts before from
	}
	for i < to {
		if !isIdentByte(src[i]) {
			i++
			continue
		}
		j := i
		for j < len(src) && isIdentByte(src[j]) {
			j++
		}
		if n := j - i; i >= from && (n == 3 || n == 4 || n == 5 || n == 6 || n == 9) {
			switch w := string(src[i:j]); w {
			case "new", "class", "interface", "enum", "record":
				out = append(out, keyword{offset: i, word: w})
			}
		}
		i = j
	}
	return out
}

// query indexes n's subtree with the declaration query: for subtrees with
// syntax errors, where declarations may sit anywhere in ERROR nodes. encl is
// the class n is in (nil at the top level).
func (x *indexer) query(n *sitter.Node, encl *classInfo) {
	q, err := declQuery()
	if err != nil {
		// The query is a constant checked by the tests; this cannot happen
		// with the pinned grammar.
		panic(fmt.Sprintf("javaparse: compiling the declaration query: %v", err))
	}
	qc := sitter.NewQueryCursor()
	defer qc.Close()
	qc.Exec(q, n)
	var caps []capture
	for {
		m, ok := qc.NextMatch()
		if !ok {
			break
		}
		for _, c := range m.Captures {
			caps = append(caps, capture{
				what:  q.CaptureNameForId(c.Index),
				node:  c.Node,
				start: int(c.Node.StartByte()),
				end:   int(c.Node.EndByte()),
			})
		}
	}
	// Outer declarations first; at equal ranges keep the query's order.
	slices.SortStableFunc(caps, func(a, b capture) int {
		if c := cmp.Compare(a.start, b.start); c != 0 {
			return c
		}
		return cmp.Compare(b.end, a.end)
	})
	var stack []*classInfo
	if encl != nil {
		stack = append(stack, encl)
	}
	for _, c := range caps {
		for len(stack) > 0 && stack[len(stack)-1].end <= c.start {
			stack = stack[:len(stack)-1]
		}
		var top *classInfo
		if len(stack) > 0 {
			top = stack[len(stack)-1]
		}
		switch c.what {
		case "package":
			if top == nil {
				x.pkg(c.node)
			}
		case "import":
			if top == nil {
				x.ix.imports = append(x.ix.imports, importText(c.node, x.src))
			}
		case "type", "anon":
			ci := newClassInfo(c, top, x.src)
			if ci == nil {
				continue
			}
			x.ix.classes = append(x.ix.classes, ci)
			stack = append(stack, ci)
		case "method":
			if top != nil {
				x.method(c.node, top)
			}
		case "field":
			if top != nil {
				top.fields = append(top.fields, collapse(c.node.Content(x.src)))
			}
		case "constant":
			if top != nil && top.kind == "enum" {
				end := c.end
				if body := c.node.ChildByFieldName("body"); body != nil {
					end = int(body.StartByte())
				}
				top.fields = append(top.fields, collapse(string(x.src[c.start:end])))
			}
		}
	}
}

// memberParents are the node types whose type declarations are members (or
// top-level types); a type declared anywhere else is local.
var memberParents = map[string]bool{
	"program": true, "class_body": true, "interface_body": true, "enum_body": true,
	"enum_body_declarations": true, "annotation_type_body": true, "ERROR": true,
}

// newClassInfo names a type as javac does: a member type by its name, a local
// class as <n><Name> (n counting same-named local classes of the enclosing
// class), an anonymous class as <n> (counting the enclosing class's anonymous
// classes), all in source order.
func newClassInfo(c capture, encl *classInfo, src []byte) *classInfo {
	ci := &classInfo{start: c.start, end: c.end}
	var element string
	if c.what == "anon" {
		if encl == nil {
			return nil
		}
		encl.anonCount++
		element = strconv.Itoa(encl.anonCount)
		ci.kind = "anonymous"
		// The header is what precedes the body: "new Runnable()" or the
		// enum constant "PLUS(\"+\")".
		if p := c.node.Parent(); p != nil {
			ci.declaration = collapse(string(src[p.StartByte():c.node.StartByte()]))
		}
	} else {
		name := c.node.ChildByFieldName("name")
		if name == nil || name.EndByte() == name.StartByte() {
			return nil
		}
		element = name.Content(src)
		switch c.node.Type() {
		case "interface_declaration":
			ci.kind = "interface"
		case "enum_declaration":
			ci.kind = "enum"
		case "record_declaration":
			ci.kind = "record"
		case "annotation_type_declaration":
			ci.kind = "annotation"
		default:
			ci.kind = "class"
		}
		if encl != nil {
			if p := c.node.Parent(); p != nil && !memberParents[p.Type()] {
				if encl.localCount == nil {
					encl.localCount = map[string]int{}
				}
				encl.localCount[element]++
				element = strconv.Itoa(encl.localCount[element]) + element
			}
		}
		headerEnd := c.end
		if body := c.node.ChildByFieldName("body"); body != nil {
			headerEnd = int(body.StartByte())
		}
		ci.declaration = headerText(c.node, headerEnd, src)
		if ci.kind == "record" {
			if params := c.node.ChildByFieldName("parameters"); params != nil {
				ci.recordParams = paramsOf(params, src)
				for _, p := range ci.recordParams {
					ci.fields = append(ci.fields, p.Type+" "+p.Name)
				}
			}
		}
	}
	if encl != nil {
		ci.path = append(slices.Clip(encl.path), element)
	} else {
		ci.path = []string{element}
	}
	return ci
}

func newMethod(n *sitter.Node, encl *classInfo, pkgParts []string, src []byte, lines *LineMap) *Method {
	// One pass over the children (each accessor is a cgo call).
	var name, body, typ, dims, params *sitter.Node
	var header []span
	var mods []string
	for i := 0; i < int(n.ChildCount()); i++ {
		c := n.Child(i)
		t := c.Type()
		switch n.FieldNameForChild(i) {
		case "name":
			name = c
		case "body":
			body = c
			continue // not part of the header
		case "type":
			typ = c
		case "dimensions":
			dims = c
		case "parameters":
			params = c
		}
		switch {
		case t == "modifiers":
			for j := 0; j < int(c.ChildCount()); j++ {
				mc := c.Child(j)
				if isAnnotationOrComment(mc.Type()) {
					continue
				}
				sp := span{int(mc.StartByte()), int(mc.EndByte())}
				header = append(header, sp)
				mods = append(mods, string(src[sp.start:sp.end]))
			}
		case isAnnotationOrComment(t), t == ";":
		default:
			header = append(header, span{int(c.StartByte()), int(c.EndByte())})
		}
	}
	if name == nil || name.EndByte() == name.StartByte() {
		return nil
	}
	m := &Method{
		Name:          name.Content(src),
		Kind:          KindMethod,
		Signature:     joinSpans(header, src),
		Modifiers:     mods,
		Static:        slices.Contains(mods, "static"),
		ClassPath:     encl.path,
		StartByte:     int(n.StartByte()),
		EndByte:       int(n.EndByte()),
		NameStartByte: int(name.StartByte()),
		NameEndByte:   int(name.EndByte()),
		BodyStartByte: -1,
		class:         encl,
	}
	nt := n.Type()
	if nt != "method_declaration" {
		m.Kind = KindConstructor
	}
	if body != nil {
		m.BodyStartByte = int(body.StartByte())
	}
	if m.Kind == KindMethod && typ != nil {
		m.ReturnType = collapse(typ.Content(src))
		if dims != nil {
			m.ReturnType += collapse(dims.Content(src))
		}
	}
	if nt == "compact_constructor_declaration" {
		m.Params = encl.recordParams
	} else if params != nil {
		m.Params = paramsOf(params, src)
	}
	pkg := strings.Join(pkgParts, ".")
	if pkg != "" {
		pkg += "."
	}
	m.BinaryClassName = pkg + strings.Join(encl.path, "$")
	m.TopLevelClass = pkg + encl.path[0]
	m.StartLine = lines.Line(m.StartByte)
	m.EndLine = lines.Line(max(m.StartByte, m.EndByte-1))
	return m
}

// paramsOf lists formal parameters (and spread parameters) as written; a
// receiver parameter is not a parameter.
func paramsOf(params *sitter.Node, src []byte) []Param {
	var out []Param
	for i := 0; i < int(params.NamedChildCount()); i++ {
		p := params.NamedChild(i)
		pt := p.Type()
		if pt != "formal_parameter" && pt != "spread_parameter" {
			continue // receiver parameter, comments
		}
		// One pass over the parameter's children: a formal parameter has
		// the fields type, name and dimensions; a spread parameter has its
		// type first and a variable_declarator.
		var prm Param
		var dims string
		for j := 0; j < int(p.ChildCount()); j++ {
			c := p.Child(j)
			ct := c.Type()
			switch field := p.FieldNameForChild(j); {
			case field == "type":
				prm.Type = collapse(c.Content(src))
			case field == "name":
				prm.Name = c.Content(src)
			case field == "dimensions":
				dims = collapse(c.Content(src))
			case ct == "modifiers" || ct == "..." || !c.IsNamed() || isAnnotationOrComment(ct):
			case ct == "variable_declarator":
				if nm := c.ChildByFieldName("name"); nm != nil {
					prm.Name = nm.Content(src)
				}
				if d := c.ChildByFieldName("dimensions"); d != nil {
					dims = collapse(d.Content(src))
				}
			case prm.Type == "":
				prm.Type = collapse(c.Content(src))
			}
		}
		if pt == "spread_parameter" {
			prm.Type += "..."
		}
		prm.Type += dims
		out = append(out, prm)
	}
	return out
}

func isAnnotationOrComment(t string) bool {
	switch t {
	case "marker_annotation", "annotation", "line_comment", "block_comment", "comment":
		return true
	}
	return false
}

// headerText is a declaration's source from its start to end with its own
// annotations and comments left out and whitespace collapsed.
func headerText(n *sitter.Node, end int, src []byte) string {
	var spans []span
	add := func(c *sitter.Node) {
		s, e := int(c.StartByte()), int(c.EndByte())
		if e > end {
			e = end
		}
		if s < e {
			spans = append(spans, span{s, e})
		}
	}
	for i := 0; i < int(n.ChildCount()); i++ {
		c := n.Child(i)
		if int(c.StartByte()) >= end {
			break
		}
		switch t := c.Type(); {
		case t == "modifiers":
			for j := 0; j < int(c.ChildCount()); j++ {
				if mc := c.Child(j); !isAnnotationOrComment(mc.Type()) {
					add(mc)
				}
			}
		case isAnnotationOrComment(t), t == ";":
		default:
			add(c)
		}
	}
	return joinSpans(spans, src)
}

type span struct{ start, end int }

// joinSpans joins pieces of src by one space where the source had anything
// between them (whitespace, a left-out annotation or comment), and collapses
// the whitespace inside them.
func joinSpans(spans []span, src []byte) string {
	var b strings.Builder
	for i, s := range spans {
		if i > 0 && s.start > spans[i-1].end {
			b.WriteByte(' ')
		}
		b.Write(src[s.start:s.end])
	}
	return collapse(b.String())
}

// collapse replaces every run of whitespace with one space and trims the ends.
func collapse(s string) string {
	return strings.Join(strings.Fields(s), " ")
}

// importText is an import as "java.util.List", "static org.x.Y.z" or
// "java.util.*".
func importText(n *sitter.Node, src []byte) string {
	var b strings.Builder
	for i := 0; i < int(n.ChildCount()); i++ {
		c := n.Child(i)
		switch c.Type() {
		case "import", ";", "line_comment", "block_comment":
		case "static":
			b.WriteString("static ")
		default:
			b.WriteString(strings.Join(strings.Fields(c.Content(src)), ""))
		}
	}
	return b.String()
}
