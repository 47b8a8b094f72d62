package mutants

import (
	"github.com/advertest/advertest-lsp/javaparse"
	sitter "github.com/smacker/go-tree-sitter"
)

// EXIT, a missing early exit: a `return`, `break` or `continue` that ends a branch of an
// `if` removed, so control goes on after the if. Records EXIT/default and EXIT/strong; each
// removal is one only where the mutant still compiles.
//
// EXIT/default removes a return from an if branch
//   - in a void method or a constructor, anywhere (`if (done) return;`);
//   - elsewhere, when the if (the outermost of an else-if chain or of ifs nested as the
//     last statement of a branch) is followed by another statement of its block: a guard
//     clause `if (x < lo) return lo;` before more code. The code after the if was reachable
//     before, so the method still cannot fall off its end without a return.
//
// EXIT/strong removes the rest:
//   - a return whose if ends the body of a loop (`for (...) { if (a[i] == k) return i; }`):
//     the loop goes on, and so does the code after it, as it could before; such a mutant
//     may loop for ever (a binary search that stops moving), which costs a timeout;
//   - a `break` or `continue` in an if branch, but not a break out of a loop that only a
//     break ends (`while (true)`, `for (;;)`): the code after it would be unreachable;
//     labelled breaks are left for the same reason, labelled continues are taken.
//
// Returns in lambdas are the lambda's and are left, as are returns whose value holds a call
// in a try that catches a checked exception (the call may be what the catch expects).

// exitDefault is EXIT/default.
func exitDefault(g *generator, n *sitter.Node) {
	if n.Type() != "return_statement" || g.inLambda {
		return
	}
	top, ok := branchExit(n)
	if !ok || !g.exitRemovable(n) {
		return
	}
	if g.returnType == "" || g.returnType == "void" || followed(top) {
		g.removeExit(n)
	}
}

// exitStrong is EXIT/strong.
func exitStrong(g *generator, n *sitter.Node) {
	if g.inLambda {
		return
	}
	top, ok := branchExit(n)
	if !ok || !g.exitRemovable(n) {
		return
	}
	switch n.Type() {
	case "return_statement":
		if g.returnType == "" || g.returnType == "void" || followed(top) {
			return // EXIT/default's
		}
		if endsLoopBody(top, g.src) {
			g.removeExit(n)
		}
	case "break_statement":
		if n.NamedChildCount() > 0 {
			return // a labelled break
		}
		if target := breakTarget(n); target != nil && !endlessLoop(target, g.src) {
			g.removeExit(n)
		}
	case "continue_statement":
		g.removeExit(n)
	}
}

func (g *generator) exitRemovable(n *sitter.Node) bool {
	if !oneLine(n, g.src) {
		return false
	}
	if expr := javaparse.FirstCodeChild(n); expr != nil && n.Type() == "return_statement" && containsCall(expr) && inCheckedTry(n, g.src) {
		return false
	}
	return true
}

// removeExit removes statement n: from a block it disappears, as an if's branch it becomes
// the empty statement.
func (g *generator) removeExit(n *sitter.Node) {
	if p := n.Parent(); p != nil && p.Type() == "block" {
		g.remove(n, "")
	} else {
		g.remove(n, ";")
	}
}

// branchExit reports whether statement n ends a branch of an if (is the branch, or the
// last statement of the branch's block), and returns the outermost if whose completing
// normally it lets through: it climbs else-if chains and ifs that end a branch of an
// enclosing if.
func branchExit(n *sitter.Node) (*sitter.Node, bool) {
	top, ok := endsBranch(n)
	if !ok {
		return nil, false
	}
	for {
		up, ok := endsBranch(top)
		if !ok {
			return top, true
		}
		top = up
	}
}

// endsBranch: statement s is a branch of an if, or the last statement of a block that is
// one; the if is returned.
func endsBranch(s *sitter.Node) (*sitter.Node, bool) {
	p := s.Parent()
	if p == nil {
		return nil, false
	}
	if p.Type() == "block" {
		if last := javaparse.LastCodeChild(p); last == nil || !javaparse.SameNode(last, s) {
			return nil, false
		}
		s, p = p, p.Parent()
		if p == nil {
			return nil, false
		}
	}
	if p.Type() != "if_statement" {
		return nil, false
	}
	if javaparse.SameNode(p.ChildByFieldName("consequence"), s) || javaparse.SameNode(p.ChildByFieldName("alternative"), s) {
		return p, true
	}
	return nil, false
}

// followed reports a statement s that has another statement after it in its block.
func followed(s *sitter.Node) bool {
	p := s.Parent()
	if p == nil || (p.Type() != "block" && p.Type() != "constructor_body") {
		return false
	}
	last := javaparse.LastCodeChild(p)
	return last != nil && !javaparse.SameNode(last, s)
}

// endsLoopBody reports a statement s that is a loop's body, or the last statement of the
// block that is, where the loop can end other than by a break.
func endsLoopBody(s *sitter.Node, src []byte) bool {
	p := s.Parent()
	if p != nil && p.Type() == "block" {
		if last := javaparse.LastCodeChild(p); last == nil || !javaparse.SameNode(last, s) {
			return false
		}
		s, p = p, p.Parent()
	}
	if p == nil || !isLoop(p) || !javaparse.SameNode(p.ChildByFieldName("body"), s) {
		return false
	}
	return !endlessLoop(p, src)
}

func isLoop(n *sitter.Node) bool {
	switch n.Type() {
	case "for_statement", "enhanced_for_statement", "while_statement", "do_statement":
		return true
	}
	return false
}

// breakTarget is the loop or switch an unlabelled break leaves.
func breakTarget(n *sitter.Node) *sitter.Node {
	for p := n.Parent(); p != nil; p = p.Parent() {
		switch p.Type() {
		case "for_statement", "enhanced_for_statement", "while_statement", "do_statement", "switch_expression",
			"switch_statement":
			return p
		case "lambda_expression", "class_body", "method_declaration", "constructor_declaration":
			return nil
		}
	}
	return nil
}

// endlessLoop reports a loop whose condition is missing or the constant true: only a
// break (or a return, or a throw) leaves it.
func endlessLoop(n *sitter.Node, src []byte) bool {
	switch n.Type() {
	case "for_statement", "while_statement", "do_statement":
	default:
		return false
	}
	cond := n.ChildByFieldName("condition")
	if cond == nil {
		return true
	}
	for cond.Type() == "parenthesized_expression" {
		c := javaparse.FirstCodeChild(cond)
		if c == nil {
			break
		}
		cond = c
	}
	return cond.Type() == "true"
}
