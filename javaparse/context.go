package javaparse

import (
	"fmt"
	"slices"
	"strings"
)

// Context is what a prompt needs to know about a method's surroundings.
type Context struct {
	Package          string
	Imports          []string // "java.util.List", "static org.x.Y.z", "java.util.*"
	ClassDeclaration string   // "public final class Calculator extends Base implements Foo"
	ClassKind        string   // class|interface|enum|record|annotation|anonymous
	// Fields of the enclosing class as written (whitespace collapsed), one per
	// declaration: "private int count = 0;"; an enum's constants ("PLUS(\"+\")")
	// and a record's components ("int x") come first.
	Fields           []string
	Constructors     []string // signatures
	MethodSignatures []string // every method signature of the enclosing class
	MethodText       string
	StartLine        int // the method's 1-based range
	EndLine          int
	Listing          string // the method's lines with the file's own line numbers: "12: code\n13: ..."
}

// Context describes m's enclosing class (the innermost one) and file. m must
// come from this File; a Method from an earlier version is looked up again by
// class, name and signature. It returns nil if m is nil or no longer exists.
func (f *File) Context(m *Method) *Context {
	if m == nil {
		return nil
	}
	s := f.cur.Load()
	ix := s.getIndex()
	i := slices.Index(ix.methods, m)
	if i < 0 {
		i = slices.IndexFunc(ix.methods, func(c *Method) bool {
			return c.BinaryClassName == m.BinaryClassName && c.Name == m.Name && c.Signature == m.Signature
		})
		if i < 0 {
			return nil
		}
		m = ix.methods[i]
	}
	lines := s.lineMap()
	ci := ix.methodClass[i]
	c := &Context{
		Package:          ix.pkg,
		Imports:          slices.Clone(ix.imports),
		ClassDeclaration: ci.declaration,
		ClassKind:        ci.kind,
		Fields:           slices.Clone(ci.fields),
		Constructors:     slices.Clone(ci.ctors),
		MethodSignatures: slices.Clone(ci.methodSigs),
		MethodText:       m.Text(s.src),
		StartLine:        m.StartLine,
		EndLine:          m.EndLine,
	}
	var b strings.Builder
	for l := m.StartLine; l <= m.EndLine; l++ {
		fmt.Fprintf(&b, "%d: %s\n", l, lines.LineText(l))
	}
	c.Listing = b.String()
	return c
}
