package javaparse

import (
	"slices"

	sitter "github.com/smacker/go-tree-sitter"
)

// The tree-sitter node helpers the packages that walk a parse tree share (loop/mutants, the
// test class reader in loop, loop/offline, loop/llm, the benchmarks): written once, here.

// IsComment reports a line or block comment.
func IsComment(n *sitter.Node) bool {
	t := n.Type()
	return t == "line_comment" || t == "block_comment"
}

// CodeChildren are n's named children that are not comments (the arguments of a call, the
// statements of a block).
func CodeChildren(n *sitter.Node) []*sitter.Node {
	var out []*sitter.Node
	for i := 0; i < int(n.NamedChildCount()); i++ {
		if c := n.NamedChild(i); !IsComment(c) {
			out = append(out, c)
		}
	}
	return out
}

// FirstCodeChild is n's first named child that is not a comment (nil for none).
func FirstCodeChild(n *sitter.Node) *sitter.Node {
	for i := 0; i < int(n.NamedChildCount()); i++ {
		if c := n.NamedChild(i); !IsComment(c) {
			return c
		}
	}
	return nil
}

// LastCodeChild is n's last named child that is not a comment (nil for none).
func LastCodeChild(n *sitter.Node) *sitter.Node {
	for i := int(n.NamedChildCount()) - 1; i >= 0; i-- {
		if c := n.NamedChild(i); !IsComment(c) {
			return c
		}
	}
	return nil
}

// FirstChildOfType is n's first child (named or not) of one of the types (nil for none).
func FirstChildOfType(n *sitter.Node, types ...string) *sitter.Node {
	for i := 0; i < int(n.ChildCount()); i++ {
		if c := n.Child(i); slices.Contains(types, c.Type()) {
			return c
		}
	}
	return nil
}

// LastChildOfType is n's last child (named or not) of type t (nil for none).
func LastChildOfType(n *sitter.Node, t string) *sitter.Node {
	for i := int(n.ChildCount()) - 1; i >= 0; i-- {
		if c := n.Child(i); c.Type() == t {
			return c
		}
	}
	return nil
}

// SameNode reports two nodes of one tree, or of two parses of one text, that cover the same
// bytes with the same type (nodes are values: == compares more than the place).
func SameNode(a, b *sitter.Node) bool {
	return a != nil && b != nil && a.StartByte() == b.StartByte() && a.EndByte() == b.EndByte() && a.Type() == b.Type()
}

// Text is n's source text, "" for a nil node.
func Text(n *sitter.Node, src []byte) string {
	if n == nil {
		return ""
	}
	return n.Content(src)
}

// FieldText is the text of n's child in field ("name", "type"), "" when it has none.
func FieldText(n *sitter.Node, field string, src []byte) string {
	return Text(n.ChildByFieldName(field), src)
}

// Walk visits n and its named descendants in source order; visit returns false to skip a
// node's children. Operators are anonymous nodes: expressions are visited as wholes.
func Walk(n *sitter.Node, visit func(*sitter.Node) bool) {
	if !visit(n) {
		return
	}
	for i := 0; i < int(n.NamedChildCount()); i++ {
		Walk(n.NamedChild(i), visit)
	}
}
