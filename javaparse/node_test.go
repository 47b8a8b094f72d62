package javaparse

import (
	"bytes"
	"go/ast"
	"go/parser"
	"go/printer"
	"go/token"
	"io/fs"
	"path/filepath"
	"strings"
	"testing"

	sitter "github.com/smacker/go-tree-sitter"
)

func TestNodeHelpers(t *testing.T) {
	src := []byte("class C {\n  int f(int a, /* b */ int b) {\n    g(a, /* x */ b);\n    // last\n    return a;\n  }\n}\n")
	f, err := Parse(src)
	if err != nil {
		t.Fatal(err)
	}
	f.WithTree(func(root *sitter.Node, src []byte) {
		var call, block *sitter.Node
		var names []string
		Walk(root, func(n *sitter.Node) bool {
			switch n.Type() {
			case "method_invocation":
				call = n
			case "block":
				block = n
			case "method_declaration":
				names = append(names, FieldText(n, "name", src))
			}
			return n.Type() != "method_invocation" // the call's arguments are not walked
		})
		if call == nil || block == nil || strings.Join(names, ",") != "f" {
			t.Fatalf("Walk found call %v, block %v, methods %v", call, block, names)
		}
		args := call.ChildByFieldName("arguments")
		var texts []string
		for _, a := range CodeChildren(args) {
			texts = append(texts, Text(a, src))
		}
		if strings.Join(texts, ",") != "a,b" {
			t.Errorf("CodeChildren(arguments) = %v, want a, b (no comment)", texts)
		}
		if c := FirstCodeChild(block); Text(c, src) != "g(a, /* x */ b);" {
			t.Errorf("FirstCodeChild(block) = %q", Text(c, src))
		}
		last := LastCodeChild(block)
		if Text(last, src) != "return a;" || IsComment(last) {
			t.Errorf("LastCodeChild(block) = %q", Text(last, src))
		}
		if n := block.NamedChild(int(block.NamedChildCount()) - 2); !IsComment(n) {
			t.Errorf("IsComment(%q) = false", Text(n, src))
		}
		if FirstChildOfType(args, "(") == nil || LastChildOfType(args, ")") == nil || FirstChildOfType(args, "{") != nil {
			t.Error("FirstChildOfType/LastChildOfType: the parentheses of the arguments")
		}
		if Text(nil, src) != "" || FieldText(block, "name", src) != "" {
			t.Error("Text of a missing node is not empty")
		}
		g, _ := Parse(src)
		g.WithTree(func(root2 *sitter.Node, _ []byte) {
			var call2 *sitter.Node
			Walk(root2, func(n *sitter.Node) bool {
				if n.Type() == "method_invocation" {
					call2 = n
				}
				return true
			})
			if !SameNode(call, call2) || SameNode(call, args) || SameNode(call, nil) {
				t.Error("SameNode: the same call in two parses is the same node, its arguments not")
			}
		})
	})
}

// TestNodeHelpersAreWrittenOnce: no function outside javaparse has the body of one of node.go's
// helpers (its parameters and its own name aside): the other packages call these.
func TestNodeHelpersAreWrittenOnce(t *testing.T) {
	fset := token.NewFileSet()
	helpers := map[string]string{} // normalized body → helper
	f, err := parser.ParseFile(fset, "node.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range f.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok {
			helpers[normalizedBody(fset, fd)] = fd.Name.Name
		}
	}
	if len(helpers) < 8 {
		t.Fatalf("node.go has %d helpers", len(helpers))
	}
	err = filepath.WalkDir("..", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if name := d.Name(); path != ".." && (strings.HasPrefix(name, ".") || name == "testdata" || name == "javaparse" || name == "node_modules" || name == "third_party") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		g, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			return err
		}
		for _, d := range g.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Body != nil {
				if h, dup := helpers[normalizedBody(fset, fd)]; dup {
					t.Errorf("%s: %s is a copy of javaparse.%s", fset.Position(fd.Pos()), fd.Name.Name, h)
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// normalizedBody is fd's body as gofmt prints it, with its parameters named p0, p1, ... and its
// own name (a recursive call) SELF.
func normalizedBody(fset *token.FileSet, fd *ast.FuncDecl) string {
	names := map[string]string{fd.Name.Name: "SELF"}
	i := 0
	for _, field := range fd.Type.Params.List {
		for _, n := range field.Names {
			names[n.Name] = "p" + string(rune('0'+i))
			i++
		}
	}
	body := &ast.BlockStmt{List: fd.Body.List}
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.SelectorExpr:
			ast.Inspect(n.X, func(m ast.Node) bool {
				if id, ok := m.(*ast.Ident); ok && names[id.Name] != "" {
					id.Name = names[id.Name]
				}
				return true
			})
			return false // the selected name is a method or a field, never a parameter
		case *ast.Ident:
			if r := names[n.Name]; r != "" {
				n.Name = r
			}
		}
		return true
	})
	var b bytes.Buffer
	printer.Fprint(&b, fset, body)
	return b.String()
}
