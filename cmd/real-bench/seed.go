package main

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"slices"
	"strconv"
	"strings"

	sitter "github.com/smacker/go-tree-sitter"

	"github.com/advertest/advertest-lsp/javaparse"
)

// The seeder plants the faults the benchmark asks the generated suites to detect. It is the
// benchmark's own and imports nothing from loop/mutants: faults made by the tool's own
// operators would measure the tool against itself. Its kinds are the fault benchmark's
// (docs/fault-bench.md), the mistakes a developer makes in one place:
//
//	boundary          a < b → a <= b (and the other strict/non-strict swaps)
//	wrong-operator    == ↔ !=, && ↔ ||, + ↔ -, * ↔ /
//	swapped-operands  a - b → b - a (also /, % and the relations), f(x, y) → f(y, x)
//	off-by-one        e + 1 → e, e - 1 → e
//	missing-check     a guard that returns or throws never fires: if (c) throw … → if (false) throw …
//	wrong-call        a call to a look-alike: startsWith ↔ endsWith, Math.max ↔ Math.min, …
//	missing-negation  !e → e
//	wrong-return      return true ↔ return false
//	missing-abs       Math.abs(e) → (e)
//	missing-call      a call left out: s.append(x); → ;  b.set(x).build() → b.build()
//	wrong-constant    a small integer constant one off: substring(0, 3) → substring(0, 4)
//
// A fault that does not compile is no fault; the caller compiles each and drops those.

// SeederVersion changes when the seeder would plant other faults, or the faults would be judged
// otherwise (faults.go): cached faults of another version are planted and judged again.
const SeederVersion = 4

// Fault is one seeded fault: a text replacement in a source file.
type Fault struct {
	// ID is a short hash of the method's key, the place and the replacement.
	ID   string `json:"id"`
	Kind string `json:"kind"`
	// Line is the 1-based line the change starts on; Start and End its byte range in the file,
	// Original the text there and Replacement what it becomes.
	Line        int    `json:"line"`
	Start       int    `json:"start"`
	End         int    `json:"end"`
	Original    string `json:"original"`
	Replacement string `json:"replacement"`
	// Before and After are the whole changed line before and after, when the change stays on
	// one line (a mutant of the tool's can only coincide with such a fault); empty otherwise.
	Before string `json:"before,omitempty"`
	After  string `json:"after,omitempty"`
}

// Description is the change as a person reads it: "`a < b` → `a <= b`".
func (f Fault) Description() string {
	return fmt.Sprintf("`%s` → `%s`", oneLine(f.Original), oneLine(f.Replacement))
}

// Apply returns src with the fault planted.
func (f Fault) Apply(src []byte) ([]byte, error) {
	if f.Start < 0 || f.End > len(src) || f.Start > f.End || string(src[f.Start:f.End]) != f.Original {
		return nil, fmt.Errorf("fault %s does not apply: the source changed", f.ID)
	}
	out := append([]byte(nil), src[:f.Start]...)
	out = append(out, f.Replacement...)
	return append(out, src[f.End:]...), nil
}

func oneLine(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > 60 {
		s = s[:57] + "…"
	}
	return s
}

// callSwaps are the look-alike calls a wrong-call fault puts in each other's place (by method
// name: the call's receiver and arguments stay).
var callSwaps = map[string]string{
	"max": "min", "min": "max", "startsWith": "endsWith", "endsWith": "startsWith",
	"indexOf": "lastIndexOf", "lastIndexOf": "indexOf", "toUpperCase": "toLowerCase",
	"toLowerCase": "toUpperCase", "isUpperCase": "isLowerCase", "isLowerCase": "isUpperCase",
	"isLetter": "isLetterOrDigit", "isLetterOrDigit": "isLetter", "isDigit": "isLetter",
	"isWhitespace": "isSpaceChar", "equals": "equalsIgnoreCase", "equalsIgnoreCase": "equals",
	"floor": "ceil", "ceil": "floor", "isEmpty": "isBlank", "isBlank": "isEmpty",
	"addFirst": "addLast", "addLast": "addFirst", "removeFirst": "removeLast",
	"removeLast": "removeFirst", "trim": "strip", "round": "floor",
}

var (
	boundaryFlips = map[string]string{"<": "<=", "<=": "<", ">": ">=", ">=": ">"}
	operatorFlips = map[string]string{"==": "!=", "!=": "==", "&&": "||", "||": "&&", "+": "-", "-": "+", "*": "/", "/": "*"}
	// swappable are the operators whose operands' order matters.
	swappable = map[string]bool{"-": true, "/": true, "%": true, "<": true, "<=": true, ">": true, ">=": true}
)

// SeedCandidates lists every fault the seeder can plant in the body of the method of the file
// src that starts on line (1-based, as Method.Line), in a fixed order: the kinds in turn, each
// kind's faults by a hash of key (the method's Key) and the fault, so that Pick's first n are
// spread over the kinds.
func SeedCandidates(src []byte, line int, key string) ([]Fault, error) {
	f, err := javaparse.Parse(src)
	if err != nil {
		return nil, err
	}
	m := f.MethodAtLine(line)
	if m == nil || m.BodyStartByte < 0 {
		return nil, fmt.Errorf("no method with a body at line %d", line)
	}
	lines := f.Lines()
	var faults []Fault
	add := func(kind string, start, end int, repl string) {
		orig := string(src[start:end])
		if orig == repl {
			return
		}
		fl := Fault{Kind: kind, Line: lines.Line(start), Start: start, End: end, Original: orig, Replacement: repl}
		if !strings.Contains(orig, "\n") && !strings.Contains(repl, "\n") {
			ls, le := lineBounds(src, start, end)
			fl.Before = strings.TrimSuffix(string(src[ls:le]), "\r")
			fl.After = strings.TrimSuffix(string(src[ls:start])+repl+string(src[end:le]), "\r")
		}
		h := sha256.Sum256([]byte(fmt.Sprintf("%s\x00%d\x00%s\x00%s", key, start, orig, repl)))
		fl.ID = hex.EncodeToString(h[:6])
		faults = append(faults, fl)
	}
	f.WithTree(func(root *sitter.Node, text []byte) {
		body := nodeAt(root, m.BodyStartByte, m.EndByte)
		if body == nil {
			return
		}
		javaparse.Walk(body, func(n *sitter.Node) bool {
			if n.StartByte() != body.StartByte() && isNestedScope(n.Type()) {
				return false // a lambda's or an inner class's code belongs to another method
			}
			seedAt(n, text, add)
			return true
		})
	})
	return orderFaults(faults, key), nil
}

// isNestedScope: node types whose code is not the method's own.
func isNestedScope(t string) bool {
	return t == "class_body" || t == "lambda_expression"
}

// seedAt adds the faults that one node offers.
func seedAt(n *sitter.Node, src []byte, add func(kind string, start, end int, repl string)) {
	text := func(n *sitter.Node) string { return n.Content(src) }
	switch n.Type() {
	case "binary_expression":
		op, left, right := n.ChildByFieldName("operator"), n.ChildByFieldName("left"), n.ChildByFieldName("right")
		if op == nil || left == nil || right == nil {
			return
		}
		o := op.Type()
		if r, ok := boundaryFlips[o]; ok {
			add("boundary", int(op.StartByte()), int(op.EndByte()), r)
		}
		if r, ok := operatorFlips[o]; ok && !isStringy(left, src) && !isStringy(right, src) {
			add("wrong-operator", int(op.StartByte()), int(op.EndByte()), r)
		}
		if swappable[o] && text(left) != text(right) {
			add("swapped-operands", int(left.StartByte()), int(right.EndByte()),
				operand(right, src)+string(src[left.EndByte():right.StartByte()])+operand(left, src))
		}
		if (o == "+" || o == "-") && right.Type() == "decimal_integer_literal" && text(right) == "1" && !isStringy(left, src) {
			add("off-by-one", int(n.StartByte()), int(n.EndByte()), text(left))
		}
	case "unary_expression":
		if op := n.ChildByFieldName("operator"); op != nil && op.Type() == "!" {
			if operandNode := n.ChildByFieldName("operand"); operandNode != nil {
				add("missing-negation", int(n.StartByte()), int(n.EndByte()), text(operandNode))
			}
		}
	case "method_invocation":
		name, args := n.ChildByFieldName("name"), n.ChildByFieldName("arguments")
		if name == nil || args == nil {
			return
		}
		obj := n.ChildByFieldName("object")
		if to, ok := callSwaps[text(name)]; ok {
			add("wrong-call", int(name.StartByte()), int(name.EndByte()), to)
		}
		if text(name) == "abs" && obj != nil && text(obj) == "Math" && args.NamedChildCount() == 1 {
			add("missing-abs", int(n.StartByte()), int(n.EndByte()), "("+text(args.NamedChild(0))+")")
		}
		// A call in a chain that is left out: the chain goes on from the call's receiver.
		if obj != nil && obj.Type() == "method_invocation" {
			if inner := obj.ChildByFieldName("object"); inner != nil {
				add("missing-call", int(obj.StartByte()), int(obj.EndByte()), text(inner))
			}
		}
		if args.NamedChildCount() >= 2 {
			a, b := args.NamedChild(0), args.NamedChild(1)
			if text(a) != text(b) && a.Type() != "comment" && b.Type() != "comment" {
				add("swapped-operands", int(a.StartByte()), int(b.EndByte()),
					text(b)+string(src[a.EndByte():b.StartByte()])+text(a))
			}
		}
	case "expression_statement":
		// A call made for its effect, left out.
		if n.NamedChildCount() == 1 && n.NamedChild(0).Type() == "method_invocation" {
			add("missing-call", int(n.StartByte()), int(n.EndByte()), ";")
		}
	case "decimal_integer_literal":
		if v, err := strconv.Atoi(text(n)); err == nil && v < 1000 && !isPlusMinusOne(n, src) {
			add("wrong-constant", int(n.StartByte()), int(n.EndByte()), strconv.Itoa(v+1))
		}
	case "if_statement":
		cond, cons := n.ChildByFieldName("condition"), n.ChildByFieldName("consequence")
		if cond == nil || cons == nil || n.ChildByFieldName("alternative") != nil || !isGuard(cons) {
			return
		}
		add("missing-check", int(cond.StartByte()), int(cond.EndByte()), "(false)")
	case "return_statement":
		if n.NamedChildCount() == 1 {
			v := n.NamedChild(0)
			switch v.Type() {
			case "true":
				add("wrong-return", int(v.StartByte()), int(v.EndByte()), "false")
			case "false":
				add("wrong-return", int(v.StartByte()), int(v.EndByte()), "true")
			}
		}
	}
}

// isPlusMinusOne: the literal 1 of `e + 1` or `e - 1`, which off-by-one already changes.
func isPlusMinusOne(n *sitter.Node, src []byte) bool {
	p := n.Parent()
	if p == nil || p.Type() != "binary_expression" || n.Content(src) != "1" {
		return false
	}
	op := p.ChildByFieldName("operator")
	return op != nil && (op.Type() == "+" || op.Type() == "-")
}

// isGuard: a consequence that leaves the method (a return or a throw, alone or in a block).
func isGuard(n *sitter.Node) bool {
	if n.Type() == "block" {
		if n.NamedChildCount() != 1 {
			return false
		}
		n = n.NamedChild(0)
	}
	return n.Type() == "return_statement" || n.Type() == "throw_statement"
}

// isStringy: a string literal, or a concatenation with one (a + that joins text, which no
// arithmetic fault applies to).
func isStringy(n *sitter.Node, src []byte) bool {
	switch n.Type() {
	case "string_literal", "character_literal", "text_block":
		return n.Type() != "character_literal"
	case "binary_expression":
		op, l, r := n.ChildByFieldName("operator"), n.ChildByFieldName("left"), n.ChildByFieldName("right")
		if op == nil || op.Type() != "+" {
			return false
		}
		return (l != nil && isStringy(l, src)) || (r != nil && isStringy(r, src))
	case "parenthesized_expression":
		return n.NamedChildCount() == 1 && isStringy(n.NamedChild(0), src)
	}
	return false
}

// operand is n's text, parenthesized when moving it to the other side could change how it
// parses.
func operand(n *sitter.Node, src []byte) string {
	switch n.Type() {
	case "binary_expression", "ternary_expression", "assignment_expression", "instanceof_expression",
		"lambda_expression", "cast_expression", "unary_expression", "update_expression":
		return "(" + n.Content(src) + ")"
	}
	return n.Content(src)
}

// orderFaults puts the faults in the order Pick draws: by kind in turn (the kinds ordered by
// their first fault), each kind's faults by a hash of key and the fault.
func orderFaults(faults []Fault, key string) []Fault {
	rank := func(f Fault) string {
		h := sha256.Sum256([]byte(key + "\x00" + f.ID))
		return hex.EncodeToString(h[:])
	}
	byKind := map[string][]Fault{}
	var kinds []string
	for _, f := range faults {
		if _, ok := byKind[f.Kind]; !ok {
			kinds = append(kinds, f.Kind)
		}
		byKind[f.Kind] = append(byKind[f.Kind], f)
	}
	for _, k := range kinds {
		slices.SortFunc(byKind[k], func(a, b Fault) int { return strings.Compare(rank(a), rank(b)) })
	}
	slices.SortFunc(kinds, func(a, b string) int { return strings.Compare(rank(byKind[a][0]), rank(byKind[b][0])) })
	var out []Fault
	for i := 0; len(out) < len(faults); i++ {
		for _, k := range kinds {
			if i < len(byKind[k]) {
				out = append(out, byKind[k][i])
			}
		}
	}
	return out
}

// lineBounds are the start of the line holding start and the end of the line holding end.
func lineBounds(src []byte, start, end int) (int, int) {
	ls := start
	for ls > 0 && src[ls-1] != '\n' {
		ls--
	}
	le := end
	for le < len(src) && src[le] != '\n' {
		le++
	}
	return ls, le
}

// nodeAt is the named node spanning exactly [start, end), or else the smallest one holding it.
func nodeAt(root *sitter.Node, start, end int) *sitter.Node {
	n := root
	for {
		if int(n.StartByte()) == start && int(n.EndByte()) == end {
			return n
		}
		var next *sitter.Node
		for i := 0; i < int(n.NamedChildCount()); i++ {
			c := n.NamedChild(i)
			if int(c.StartByte()) <= start && end <= int(c.EndByte()) {
				next = c
				break
			}
		}
		if next == nil {
			return n
		}
		n = next
	}
}
