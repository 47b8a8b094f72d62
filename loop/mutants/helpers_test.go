package mutants

import (
	"context"
	"testing"

	sitter "github.com/smacker/go-tree-sitter"
	"github.com/smacker/go-tree-sitter/java"
)

// parseJava parses src with the raw tree-sitter Java grammar.
func parseJava(t testing.TB, src []byte) *sitter.Tree {
	t.Helper()
	p := sitter.NewParser()
	p.SetLanguage(java.GetLanguage())
	tree, err := p.ParseCtx(context.Background(), nil, src)
	if err != nil {
		t.Fatalf("parse: %v", err)
	}
	return tree
}

// rawMethod is what the tests need of a method: its node range, name and return type.
type rawMethod struct {
	name, returnType string
	start, end       int
}

// rawMethods lists the methods and constructors of src (nested ones included), in source order.
func rawMethods(t testing.TB, src []byte) []rawMethod {
	t.Helper()
	tree := parseJava(t, src)
	var out []rawMethod
	var walk func(n *sitter.Node)
	walk = func(n *sitter.Node) {
		if isMethodNode(n) {
			m := rawMethod{name: n.ChildByFieldName("name").Content(src), start: int(n.StartByte()), end: int(n.EndByte())}
			if ty := n.ChildByFieldName("type"); ty != nil && n.Type() == "method_declaration" {
				m.returnType = ty.Content(src)
			}
			out = append(out, m)
		}
		for i := 0; i < int(n.NamedChildCount()); i++ {
			walk(n.NamedChild(i))
		}
	}
	walk(tree.RootNode())
	return out
}

// gen generates the mutants of the method called name (the first one) in src.
func gen(t testing.TB, src []byte, name string, opts Options) []Mutant {
	t.Helper()
	for _, m := range rawMethods(t, src) {
		if m.name == name {
			tree := parseJava(t, src)
			if opts.Class == "" {
				opts.Class = "Sample"
			}
			if opts.Method == "" {
				opts.Method = name
			}
			return generate(tree.RootNode(), src, m.start, m.end, m.returnType, opts)
		}
	}
	t.Fatalf("no method %s", name)
	return nil
}
