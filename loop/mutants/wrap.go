package mutants

import (
	"strings"

	"github.com/advertest/advertest-lsp/javaparse"
	sitter "github.com/smacker/go-tree-sitter"
)

// WRAP, a clamp, guard or normaliser taken away: the fault of the missing `Math.max(0, …)`.
// The call is replaced by the expression it wraps, of the same type, so the mutant compiles
// where the call did:
//
//	Math.max(a, b), Math.min(a, b)   the argument that is not the bound (Math.max(0, e) → e),
//	                                 see wrappedArguments
//	Math.abs(e)                      e
//	Math.floorMod(a, b), floorDiv    a % b, a / b (both operands of one known type)
//	Math.addExact, subtractExact,    a + b, a - b, a * b
//	multiplyExact(a, b)
//	Math.toIntExact(e)               (int) e
//	Objects.requireNonNull(e, ...),  e
//	requireNonNullElse(e, d)
//	s.trim(), strip(), toLowerCase(), toUpperCase()   s (s a String)
//
// Math is also StrictMath; max and min also Integer's, Long's, Float's and Double's. A
// requireNonNull or a String method that is a statement of its own is left (`s;` is no
// statement; VCR removes the call).

// wrapOperators maps an exact-arithmetic or floor method to the operator it guards.
var wrapOperators = map[string]string{
	"floorMod": "%", "floorDiv": "/", "addExact": "+", "subtractExact": "-", "multiplyExact": "*",
}

func removeWrapper(g *generator, n *sitter.Node) {
	obj, name, args := n.ChildByFieldName("object"), n.ChildByFieldName("name"), n.ChildByFieldName("arguments")
	if name == nil || args == nil || !oneLine(n, g.src) {
		return
	}
	as := javaparse.CodeChildren(args)
	method := g.text(name)
	receiver := ""
	if obj != nil {
		receiver = strings.TrimPrefix(g.text(obj), "java.lang.")
		receiver = strings.TrimPrefix(receiver, "java.util.")
	}
	statement := n.Parent() != nil && n.Parent().Type() == "expression_statement"
	isMath := receiver == "Math" || receiver == "StrictMath"
	switch {
	case (isMath || receiver == "Integer" || receiver == "Long" || receiver == "Float" || receiver == "Double") &&
		(method == "max" || method == "min") && len(as) == 2:
		for _, a := range wrappedArguments(as, g.src) {
			g.add(n, g.asReplacement(a, n), n)
		}
	case isMath && method == "abs" && len(as) == 1:
		g.add(n, g.asReplacement(as[0], n), n)
	case isMath && wrapOperators[method] != "" && len(as) == 2:
		op := wrapOperators[method]
		if op == "%" || op == "/" {
			// floorMod(long, int) is an int, `long % int` a long: only one known type.
			lt, rt := g.declaredType(as[0]), g.declaredType(as[1])
			if lt == "" || lt != rt {
				return
			}
		}
		g.add(n, g.asOperandText(g.binaryText(as[0], op, as[1]), false, n), n)
	case isMath && method == "toIntExact" && len(as) == 1:
		operand := g.text(as[0])
		if !isPrimaryExpression(as[0]) {
			operand = "(" + operand + ")"
		}
		// A cast binds tighter than any binary operator: it needs parentheses only where a
		// member is selected or an element indexed.
		cast := "(int) " + operand
		if p := n.Parent(); p != nil && (p.Type() == "field_access" || p.Type() == "array_access" ||
			p.Type() == "method_invocation" && javaparse.SameNode(p.ChildByFieldName("object"), n)) {
			cast = "(" + cast + ")"
		}
		g.add(n, cast, n)
	case (receiver == "Objects" || obj == nil && g.staticImport("java.util.Objects", method)) && !statement &&
		(method == "requireNonNull" && (len(as) == 1 || len(as) == 2) || method == "requireNonNullElse" && len(as) == 2):
		g.add(n, g.asReplacement(as[0], n), n)
	case obj != nil && !statement && g.env.kindOf(obj, g.src) == kindString &&
		(method == "trim" || method == "strip") && len(as) == 0,
		obj != nil && !statement && g.env.kindOf(obj, g.src) == kindString &&
			(method == "toLowerCase" || method == "toUpperCase") && len(as) <= 1:
		g.add(n, g.asReplacement(obj, n), n)
	}
}

// binaryText is `a op b` with each operand parenthesised where op would bind it otherwise.
func (g *generator) binaryText(a *sitter.Node, op string, b *sitter.Node) string {
	l, r := g.text(a), g.text(b)
	if needsParens(a, op, false) {
		l = "(" + l + ")"
	}
	if needsParens(b, op, true) {
		r = "(" + r + ")"
	}
	return l + " " + op + " " + r
}

// needsParens reports whether operand e of a binary op needs parentheses: a binary
// operand that binds more loosely (or, on the right, equally), or a ternary, an
// assignment, a lambda or an instanceof.
func needsParens(e *sitter.Node, op string, right bool) bool {
	switch e.Type() {
	case "binary_expression":
		p := precedence[e.ChildByFieldName("operator").Type()]
		return p < precedence[op] || right && p == precedence[op]
	case "ternary_expression", "assignment_expression", "lambda_expression", "instanceof_expression":
		return true
	}
	return false
}

// staticImport reports an `import static cls.name;` or `import static cls.*;`.
func (g *generator) staticImport(cls, name string) bool {
	for _, imp := range g.imports {
		imp, static := strings.CutPrefix(imp, "static")
		if static && (imp == cls+"."+name || imp == cls+".*") {
			return true
		}
	}
	return false
}

// wrappedArguments picks, of max's or min's two arguments, the expression a clamp wraps:
// each one that is not a bound. A bound is a constant (0, LIMIT, Integer.MAX_VALUE) or a
// variable named like one (lo, hi, min, maxSize, upperBound, limit, cap: see boundWords);
// of two others, a plain variable is the bound of a compound expression (in `Math.max(lo,
// Math.min(hi, v))` the inner call is what is clamped); two plain variables are both kept
// (`Math.min(level, quantity)` → `level`, `quantity`).
func wrappedArguments(args []*sitter.Node, src []byte) []*sitter.Node {
	var kept []*sitter.Node
	for _, a := range args {
		if !isConstant(a, src) && !boundName(a, src) {
			kept = append(kept, a)
		}
	}
	if len(kept) == 2 {
		simple0, simple1 := isVariable(kept[0]), isVariable(kept[1])
		switch {
		case simple0 && !simple1:
			kept = kept[1:]
		case simple1 && !simple0:
			kept = kept[:1]
		}
	}
	return kept
}

func isVariable(n *sitter.Node) bool { return n.Type() == "identifier" || n.Type() == "field_access" }

// boundWords are the words of a variable's name that make it a bound.
var boundWords = map[string]bool{
	"lo": true, "hi": true, "low": true, "high": true, "min": true, "max": true, "minimum": true, "maximum": true,
	"limit": true, "cap": true, "bound": true, "floor": true, "ceil": true, "ceiling": true, "upper": true, "lower": true,
}

// boundName reports a variable (or this.field) whose camelCase or snake_case name has a
// bound word: hi, maxSize, upperBound, MIN_LEVEL.
func boundName(n *sitter.Node, src []byte) bool {
	name := ""
	switch n.Type() {
	case "identifier":
		name = n.Content(src)
	case "field_access":
		name = javaparse.Text(n.ChildByFieldName("field"), src)
	default:
		return false
	}
	var word []rune
	flush := func() bool {
		w := strings.ToLower(string(word))
		word = word[:0]
		return boundWords[w]
	}
	prevLower := false
	for _, r := range name {
		upper := r >= 'A' && r <= 'Z'
		if r == '_' || r >= '0' && r <= '9' || upper && prevLower {
			if flush() {
				return true
			}
		}
		if r != '_' && !(r >= '0' && r <= '9') {
			word = append(word, r)
		}
		prevLower = r >= 'a' && r <= 'z'
	}
	return flush()
}
