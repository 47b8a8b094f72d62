package mutants

import (
	"github.com/advertest/advertest-lsp/javaparse"
	sitter "github.com/smacker/go-tree-sitter"
)

// IDX, an index off by one: the index of an array access `a[i]`, of a list's `get(i)` and
// of a String's `charAt(i)` → `i + 1` and `i - 1`. Only an index that is a variable, a
// field, a call or an array element: a constant index is BND's (`a[0]` → `a[1]`), and
// `a[i - 1]` → `a[i - 1 + 1]` would be the original again. `get` counts only on a receiver
// declared as a List (a Map's get takes a key).

// listTypes are the simple names of the declared types whose get(int) is an index.
var listTypes = map[string]bool{"List": true, "ArrayList": true, "LinkedList": true, "CopyOnWriteArrayList": true, "Vector": true}

func shiftIndex(g *generator, n *sitter.Node) {
	var index *sitter.Node
	switch n.Type() {
	case "array_access":
		index = n.ChildByFieldName("index")
	case "method_invocation":
		obj, args := n.ChildByFieldName("object"), n.ChildByFieldName("arguments")
		if obj == nil || args == nil || args.NamedChildCount() != 1 {
			return
		}
		switch javaparse.Text(n.ChildByFieldName("name"), g.src) {
		case "get":
			if !listTypes[SimpleTypeName(g.declaredType(obj))] {
				return
			}
		case "charAt":
			if g.env.kindOf(obj, g.src) != kindString {
				return
			}
		default:
			return
		}
		index = args.NamedChild(0)
	}
	if index == nil || !oneLine(index, g.src) {
		return
	}
	switch index.Type() {
	case "identifier", "field_access", "method_invocation", "array_access":
	default:
		return
	}
	g.add(index, g.text(index)+" + 1", n)
	g.add(index, g.text(index)+" - 1", n)
}
