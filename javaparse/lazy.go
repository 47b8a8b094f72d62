package javaparse

import (
	"reflect"

	sitter "github.com/smacker/go-tree-sitter"
)

// Before a version's index is built, MethodAt and MethodAtLine answer from the
// tree: they collect the method nodes whose ranges match (only the nodes on
// the path to the offset or line are visited), pick the innermost as the index
// would, and build that one Method. Its class path needs javac's numbers only
// for anonymous and local classes, and those are counted by running the
// index's own walk over the one enclosing class, in a mode that only counts.
//
// This is exact where the index's walk reaches every method node through type
// bodies: in top-level type declarations without syntax errors, when the top
// level holds only the package and imports (without errors), type
// declarations (an error in another one does not matter: the walk of each
// top-level type is on its own) and comments. Each link from a method up to its
// top-level type is checked to be one the walk takes; anything else is
// answered from the full index. When the index is built, it takes the Methods already handed out
// in place of its own equal ones, so a Method has one address per version.

// lazyEligible says whether the top level of the tree is one the lazy path
// may answer for; the top-level types it looks into must also be error-free.
func lazyEligible(root *sitter.Node) bool {
	for i := 0; i < int(root.ChildCount()); i++ {
		c := root.Child(i)
		switch t := c.Type(); {
		case t == "package_declaration", t == "import_declaration":
			if c.HasError() {
				return false
			}
		case isTypeDeclaration(t) && !c.IsError(), t == "line_comment", t == "block_comment", t == ";":
		default:
			return false
		}
	}
	return true
}

func isMethodNode(t string) bool {
	return t == "method_declaration" || t == "constructor_declaration" || t == "compact_constructor_declaration"
}

// lazyMethod returns the innermost method whose range matches, given that
// every matching method node starts at or before p and ends at or after q; ok
// is false if the tree is not one the lazy path answers for. s.treeMu must be
// held.
func (s *snapshot) lazyMethod(p, q int, match func(*Method) bool, withLines bool) (m *Method, ok bool) {
	root := s.tree.RootNode()
	if !lazyEligible(root) {
		return nil, false
	}
	var nodes []*sitter.Node
	if p >= 0 && q <= len(s.src)+1 {
		c := sitter.NewTreeCursor(root)
		defer c.Close()
		for i := 0; i < int(root.ChildCount()); i++ {
			top := root.Child(i)
			if int(top.StartByte()) > p || int(top.EndByte()) < q {
				continue
			}
			if top.HasError() {
				return nil, false
			}
			c.Reset(top)
			collectMethodNodes(c, p, q, &nodes)
		}
	}
	if len(nodes) == 0 {
		return nil, true
	}
	// Pre-order is source order, as the index sorts its methods.
	lines := s.lineMap()
	cands := make([]*Method, len(nodes))
	for i, n := range nodes {
		c := &Method{StartByte: int(n.StartByte()), EndByte: int(n.EndByte())}
		if withLines {
			c.StartLine = lines.Line(c.StartByte)
			c.EndLine = lines.Line(max(c.StartByte, c.EndByte-1))
		}
		cands[i] = c
	}
	best := innermost(cands, match)
	if best == nil {
		return nil, true
	}
	for i, c := range cands {
		if c == best {
			return s.lazyBuild(root, nodes[i])
		}
	}
	return nil, false
}

// collectMethodNodes appends the method nodes under the cursor's node that
// start at or before p and end at or after q, in pre-order.
func collectMethodNodes(c *sitter.TreeCursor, p, q int, out *[]*sitter.Node) {
	// The first child reaching q-1 (tree-sitter's rule is end >= goal or
	// end > goal depending on the version; either is before every child
	// that reaches q).
	if c.GoToFirstChildForByte(uint32(max(0, q-1))) < 0 {
		return
	}
	for {
		n := c.CurrentNode()
		if int(n.StartByte()) > p {
			break
		}
		if int(n.EndByte()) >= q {
			if isMethodNode(n.Type()) {
				*out = append(*out, n)
			}
			collectMethodNodes(c, p, q, out)
		}
		if !c.GoToNextSibling() {
			break
		}
	}
	c.GoToParent()
}

// lazyBuild builds the Method of node n as the index would, or says it cannot
// vouch for the answer (ok false). s.treeMu must be held.
func (s *snapshot) lazyBuild(root *sitter.Node, n *sitter.Node) (*Method, bool) {
	start := int(n.StartByte())
	if m := s.lazy[start]; m != nil {
		return m, true
	}
	// The enclosing types, innermost first: named declarations and the
	// bodies of anonymous classes.
	var chain []*sitter.Node
	for p := n.Parent(); p != nil; p = p.Parent() {
		switch t := p.Type(); {
		case isTypeDeclaration(t):
			chain = append(chain, p)
		case t == "class_body":
			if pp := p.Parent(); pp != nil && (pp.Type() == "object_creation_expression" || pp.Type() == "enum_constant") {
				chain = append(chain, p)
			}
		}
	}
	if len(chain) == 0 {
		return nil, false
	}
	top := chain[len(chain)-1]
	if pt := top.Parent(); pt == nil || pt.Type() != "program" || !memberOfBody(n, chain[0]) {
		return nil, false
	}
	x := &indexer{src: s.src, lines: s.lineMap(), ix: &index{}, counting: true}
	x.cursor = sitter.NewTreeCursor(root)
	defer x.cursor.Close()
	for i := 0; i < int(root.ChildCount()); i++ {
		if c := root.Child(i); c.Type() == "package_declaration" {
			x.pkg(c)
		}
	}
	var ci *classInfo
	var ciNode *sitter.Node
	for i := len(chain) - 1; i >= 0; i-- {
		a := chain[i]
		anon := a.Type() == "class_body"
		var next *classInfo
		switch {
		case ci == nil:
			next = newClassInfo(capture{what: "type", node: a, start: int(a.StartByte()), end: int(a.EndByte())}, nil, s.src)
		case !anon && memberOfBody(a, ciNode):
			// A member type: named, no javac number.
			next = newClassInfo(capture{what: "type", node: a, start: int(a.StartByte()), end: int(a.EndByte())}, ci, s.src)
		default:
			// Anonymous or local: the index's walk of the enclosing
			// class, counting only, numbers it.
			next = x.countTo(ciNode, ci, a)
		}
		if next == nil {
			return nil, false
		}
		ci, ciNode = next, a
	}
	m := newMethod(n, ci, x.pkgParts, s.src, x.lines)
	if m == nil {
		return nil, false
	}
	m.class = nil // the index's Context finds the class
	if s.lazy == nil {
		s.lazy = map[int]*Method{}
	}
	s.lazy[start] = m
	return m, true
}

// memberOfBody says whether n is a member of the body of typeNode (a type
// declaration, or an anonymous class's body), as the index's walk of type
// bodies reaches its members.
func memberOfBody(n, typeNode *sitter.Node) bool {
	p := n.Parent()
	if p == nil {
		return false
	}
	if typeNode.Type() == "class_body" {
		return p.Equal(typeNode)
	}
	switch p.Type() {
	case "class_body", "interface_body", "enum_body", "annotation_type_body":
		pp := p.Parent()
		return pp != nil && pp.Equal(typeNode)
	case "enum_body_declarations":
		pp := p.Parent()
		if pp == nil || pp.Type() != "enum_body" {
			return false
		}
		ppp := pp.Parent()
		return ppp != nil && ppp.Equal(typeNode)
	}
	return false
}

// countTo runs the index's walk of the class declared by eNode (a type
// declaration or an anonymous class body) with eci as its class, counting
// only, and returns the class the walk makes for target (an anonymous class
// body or a local class declaration directly inside it); nil if the walk does
// not reach it.
func (x *indexer) countTo(eNode *sitter.Node, eci *classInfo, target *sitter.Node) *classInfo {
	x.target = int(target.StartByte())
	x.targetAnon = target.Type() == "class_body"
	x.found = nil
	if eNode.Type() == "class_body" {
		x.typeBody(eNode, eci)
	} else {
		for i := 0; i < int(eNode.ChildCount()) && x.found == nil; i++ {
			switch c := eNode.Child(i); c.Type() {
			case "class_body", "interface_body", "enum_body", "annotation_type_body":
				x.typeBody(c, eci)
			}
		}
	}
	return x.found
}

// counted notes ci, just made by the counting walk, if it is the target's.
func (x *indexer) counted(ci *classInfo) {
	if ci != nil && x.found == nil && ci.start == x.target && (ci.kind == "anonymous") == x.targetAnon {
		x.found = ci
	}
}

// adoptLazy puts the Methods the lazy path handed out into ix in place of its
// own equal ones. s.treeMu must be held, and ix not yet published.
func (s *snapshot) adoptLazy(ix *index) {
	if len(s.lazy) == 0 {
		return
	}
	for i, m := range ix.methods {
		lm := s.lazy[m.StartByte]
		if lm == nil {
			continue
		}
		a, b := *lm, *m
		a.class, b.class = nil, nil
		if reflect.DeepEqual(a, b) {
			ix.methods[i] = lm
		}
	}
	s.lazy = nil
}
