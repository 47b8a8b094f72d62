package javaparse

import (
	"fmt"
	"strings"

	sitter "github.com/smacker/go-tree-sitter"
)

// SyntaxError is one ERROR or MISSING node of the tree.
type SyntaxError struct {
	Line    int // 1-based
	Column  int // 1-based, in bytes
	Offset  int // 0-based byte offset
	Message string
}

func (e SyntaxError) String() string {
	return fmt.Sprintf("%d:%d: %s", e.Line, e.Column, e.Message)
}

// syntaxErrors walks only the subtrees that hold an error; it does not report
// errors nested inside an ERROR node.
func syntaxErrors(root *sitter.Node, src []byte, lines *LineMap) []SyntaxError {
	if !root.HasError() {
		return nil
	}
	var out []SyntaxError
	var walk func(n *sitter.Node)
	walk = func(n *sitter.Node) {
		switch {
		case n.IsMissing():
			out = append(out, newSyntaxError(int(n.StartByte()), "missing "+describeMissing(n), lines))
			return
		case n.IsError():
			out = append(out, newSyntaxError(int(n.StartByte()), unexpected(n, src), lines))
			return
		}
		for i := 0; i < int(n.ChildCount()); i++ {
			if c := n.Child(i); c.HasError() || c.IsMissing() {
				walk(c)
			}
		}
	}
	walk(root)
	return out
}

func newSyntaxError(offset int, msg string, lines *LineMap) SyntaxError {
	return SyntaxError{Line: lines.Line(offset), Column: lines.Column(offset), Offset: offset, Message: msg}
}

// describeMissing names a missing token as written (`;`) and a missing named
// node by its kind ("identifier").
func describeMissing(n *sitter.Node) string {
	if n.IsNamed() {
		return strings.ReplaceAll(n.Type(), "_", " ")
	}
	return "`" + n.Type() + "`"
}

// unexpected describes an ERROR node by its first token.
func unexpected(n *sitter.Node, src []byte) string {
	leaf := n
	for leaf.ChildCount() > 0 {
		leaf = leaf.Child(0)
	}
	text := strings.TrimSpace(leaf.Content(src))
	if text == "" {
		text = strings.TrimSpace(n.Content(src))
	}
	if i := strings.IndexAny(text, "\r\n"); i >= 0 {
		text = text[:i]
	}
	if r := []rune(text); len(r) > 30 {
		text = string(r[:30]) + "…"
	}
	if text == "" {
		return "unexpected end of input"
	}
	return "unexpected `" + text + "`"
}
