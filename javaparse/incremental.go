package javaparse

import (
	"bytes"
	"maps"
	"slices"

	sitter "github.com/smacker/go-tree-sitter"
)

// The index of an edited text reuses what the previous version's index found
// in the declarations the edit did not touch, so that a keystroke costs a walk
// of the edited member, not of the file.
//
// The unit of reuse is an error-free member of a type body (a method, field,
// nested type, enum constant, initializer) or an error-free top-level type. Its
// walk appends methods and classes and adds fields, signatures and javac
// numbers to the enclosing class, and what it finds depends only on
//   - its subtree and the text it spans,
//   - the package, and the enclosing class's path, kind, record components and
//     javac counters (anonymous and local classes already numbered) when the
//     walk enters it.
//
// Tree-sitter shares unchanged subtrees between a tree and its incrementally
// re-parsed successor, and a shared subtree is never modified (tree-sitter
// copies a subtree before editing one with more than one owner). So a member
// node of the new tree whose id (its subtree's address) is that of a recorded
// member is the same subtree; the ids stay valid because the index that holds
// the records keeps its tree alive. On top of that, the member's text and the
// bytes around it (which decide where the keyword scan's words start and end)
// must be unchanged, and the entry state must be equal. Then replaying the
// record (copies of its methods and classes moved by the offset delta, lines
// recomputed, the same additions to the enclosing class) gives exactly what
// walking the member gives. Members with syntax errors go to the declaration
// query and are never recorded.

// memberRecord is what the walk of one member found, with the state it
// entered with.
type memberRecord struct {
	id uintptr // the member node's id in the tree of the index holding it
	// src is the text of the index that holds the record; start and end are
	// the member's range in it.
	src        []byte
	start, end int

	// The state the walk entered with.
	pkg          string
	encl         *classInfo // the enclosing class the templates point to; nil at the top level
	path         []string
	kind         string
	recordParams []Param
	anonCount    int
	localCount   map[string]int

	// Templates of what the walk appended, with offsets as in the text where
	// the member started at tmplStart. They are never modified.
	tmplStart int
	methods   []*Method
	classes   []*classInfo
	// What the walk added to the enclosing class.
	fields, ctors, methodSigs []string
	anonAdded                 int
	localAdded                map[string]int

	// inner are the records of the members walked inside this one (those of
	// its nested classes), in the same text.
	inner []*memberRecord
}

// reusableMember says which body members are worth recording: those that may
// hold methods or classes. Anything else is walked every time.
func reusableMember(t string) bool {
	switch t {
	case "method_declaration", "constructor_declaration", "compact_constructor_declaration",
		"field_declaration", "constant_declaration", "enum_constant", "static_initializer", "block",
		"annotation_type_element_declaration":
		return true
	}
	return isTypeDeclaration(t)
}

func isIdentByte(b byte) bool {
	return b == '_' || b == '$' || b >= 0x80 || (b >= 'a' && b <= 'z') || (b >= 'A' && b <= 'Z') || (b >= '0' && b <= '9')
}

// identAt says whether src[i] exists and is an identifier byte.
func identAt(src []byte, i int) bool {
	return i >= 0 && i < len(src) && isIdentByte(src[i])
}

// member walks the error-free member n of ci (nil: a top-level type) with
// walk, or replays the previous index's record of it when that gives the same
// answer, and records it for the next index.
func (x *indexer) member(n *sitter.Node, ci *classInfo, walk func()) {
	id := n.ID()
	start, end := int(n.StartByte()), int(n.EndByte())
	if rec := x.reusable(id, start, end, ci); rec != nil {
		x.ix.replayed++
		x.replay(rec, start, ci)
		return
	}
	rec := &memberRecord{id: id, src: x.src, start: start, end: end, pkg: x.ix.pkg, encl: ci, tmplStart: start}
	var f0, k0, s0 int
	if ci != nil {
		rec.path, rec.kind, rec.recordParams = ci.path, ci.kind, ci.recordParams
		rec.anonCount, rec.localCount = ci.anonCount, maps.Clone(ci.localCount)
		f0, k0, s0 = len(ci.fields), len(ci.ctors), len(ci.methodSigs)
	}
	m0, c0 := len(x.ix.methods), len(x.ix.classes)
	outer := x.children
	x.children = nil
	walk()
	rec.inner = x.children
	x.children = outer
	rec.methods = slices.Clone(x.ix.methods[m0:])
	rec.classes = slices.Clone(x.ix.classes[c0:])
	if ci != nil {
		rec.fields = slices.Clone(ci.fields[f0:])
		rec.ctors = slices.Clone(ci.ctors[k0:])
		rec.methodSigs = slices.Clone(ci.methodSigs[s0:])
		rec.anonAdded = ci.anonCount - rec.anonCount
		for name, n := range ci.localCount {
			if d := n - rec.localCount[name]; d != 0 {
				if rec.localAdded == nil {
					rec.localAdded = map[string]int{}
				}
				rec.localAdded[name] = d
			}
		}
	}
	// Every method must belong to ci or to a class the walk made; anything
	// else cannot be replayed (it does not happen for error-free members).
	for _, m := range rec.methods {
		if m.class != ci && !slices.Contains(rec.classes, m.class) {
			return
		}
	}
	x.store(rec)
}

// store adds rec to the new index's records, and to those of the member
// being walked around it.
func (x *indexer) store(rec *memberRecord) {
	if _, dup := x.memo[rec.id]; dup {
		// Two members with one id would be a tree-sitter surprise: reuse
		// neither.
		x.memo[rec.id] = nil
	} else {
		x.memo[rec.id] = rec
	}
	x.children = append(x.children, rec)
}

// reusable returns the previous index's record of the member with this id
// and range if replaying it gives what walking it gives, nil otherwise.
func (x *indexer) reusable(id uintptr, start, end int, ci *classInfo) *memberRecord {
	if x.prev == nil {
		return nil
	}
	rec := x.prev[id]
	if rec == nil || rec.end-rec.start != end-start || rec.pkg != x.ix.pkg {
		return nil
	}
	if !bytes.Equal(rec.src[rec.start:rec.end], x.src[start:end]) ||
		identAt(rec.src, rec.start-1) != identAt(x.src, start-1) || identAt(rec.src, rec.end) != identAt(x.src, end) {
		return nil
	}
	if (ci == nil) != (rec.encl == nil) {
		return nil
	}
	if ci != nil && (ci.kind != rec.kind || ci.anonCount != rec.anonCount || !slices.Equal(ci.path, rec.path) ||
		!slices.Equal(ci.recordParams, rec.recordParams) || !maps.Equal(ci.localCount, rec.localCount)) {
		return nil
	}
	return rec
}

// replay appends copies of rec's methods and classes for the member now at
// start, makes rec's additions to ci, and carries rec (moved to the new text)
// over to the new index.
func (x *indexer) replay(rec *memberRecord, start int, ci *classInfo) {
	d := start - rec.tmplStart
	classes := make([]*classInfo, len(rec.classes))
	for i, oc := range rec.classes {
		c := *oc
		c.start += d
		c.end += d
		classes[i] = &c
		x.ix.classes = append(x.ix.classes, &c)
	}
	for _, om := range rec.methods {
		m := *om
		m.StartByte += d
		m.EndByte += d
		m.NameStartByte += d
		m.NameEndByte += d
		if m.BodyStartByte >= 0 {
			m.BodyStartByte += d
		}
		m.StartLine = x.lines.Line(m.StartByte)
		m.EndLine = x.lines.Line(max(m.StartByte, m.EndByte-1))
		if om.class == rec.encl {
			m.class = ci
		} else {
			m.class = classes[slices.Index(rec.classes, om.class)]
		}
		x.ix.methods = append(x.ix.methods, &m)
	}
	if ci != nil {
		ci.fields = append(ci.fields, rec.fields...)
		ci.ctors = append(ci.ctors, rec.ctors...)
		ci.methodSigs = append(ci.methodSigs, rec.methodSigs...)
		ci.anonCount += rec.anonAdded
		for name, n := range rec.localAdded {
			if ci.localCount == nil {
				ci.localCount = map[string]int{}
			}
			ci.localCount[name] += n
		}
	}
	x.store(x.carry(rec, start-rec.start))
}

// carry copies rec and the records inside it into the new text, moved by
// delta, and adds the inner ones to the new index.
func (x *indexer) carry(rec *memberRecord, delta int) *memberRecord {
	c := *rec
	c.src = x.src
	c.start += delta
	c.end += delta
	c.inner = make([]*memberRecord, len(rec.inner))
	for i, r := range rec.inner {
		c.inner[i] = x.carry(r, delta)
		if _, dup := x.memo[r.id]; dup {
			x.memo[r.id] = nil
		} else {
			x.memo[r.id] = c.inner[i]
		}
	}
	return &c
}
