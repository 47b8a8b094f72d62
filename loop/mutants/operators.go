package mutants

import (
	"github.com/advertest/advertest-lsp/javaparse"
	sitter "github.com/smacker/go-tree-sitter"
)

// What the operators share: the parts of binary and unary expressions, operator swaps that
// keep the meaning of precedence, conditions, pattern bindings and checked exceptions.

// precedence of Java's binary operators, higher binds tighter.
var precedence = map[string]int{
	"*": 12, "/": 12, "%": 12, "+": 11, "-": 11, "<<": 10, ">>": 10, ">>>": 10,
	"<": 9, "<=": 9, ">": 9, ">=": 9, "==": 8, "!=": 8, "&": 7, "^": 6, "|": 5, "&&": 4, "||": 3,
}

// binary is a binary expression's parts.
type binary struct {
	n, opNode, left, right *sitter.Node
	op                     string
}

func binaryParts(n *sitter.Node) (binary, bool) {
	b := binary{n: n, opNode: n.ChildByFieldName("operator"), left: n.ChildByFieldName("left"), right: n.ChildByFieldName("right")}
	if b.opNode == nil || b.left == nil || b.right == nil {
		return binary{}, false
	}
	b.op = b.opNode.Type()
	return b, true
}

// unary is a one-line unary expression's parts.
type unary struct {
	operand *sitter.Node
	op      string
}

func unaryParts(n *sitter.Node, src []byte) (unary, bool) {
	op, operand := n.ChildByFieldName("operator"), n.ChildByFieldName("operand")
	if op == nil || operand == nil || !oneLine(n, src) {
		return unary{}, false
	}
	return unary{operand: operand, op: op.Type()}, true
}

// numericOperands reports operands that may both be numbers, one of them surely.
func (g *generator) numericOperands(b binary) bool { return g.numeric(b.left, b.right) }

func (g *generator) numeric(left, right *sitter.Node) bool {
	lk, rk := g.env.kindOf(left, g.src), g.env.kindOf(right, g.src)
	return (lk == kindNum || rk == kindNum) && isNumberish(lk) && isNumberish(rk)
}

func isNumberish(k kind) bool { return k == kindNum || k == kindUnknown }

// binaryNodeTypes are what the operators on binary expressions apply to.
var binaryNodeTypes = []string{"binary_expression"}

// swapBinary is the function of an operator that swaps a binary expression's operator by a
// table ("<": {"<=", ">="}), where the expression passes guard.
func swapBinary(table map[string][]string, guard func(*generator, binary) bool) func(*generator, *sitter.Node) {
	return func(g *generator, n *sitter.Node) {
		b, ok := binaryParts(n)
		if !ok || len(table[b.op]) == 0 || !guard(g, b) {
			return
		}
		for _, to := range table[b.op] {
			g.replaceOperator(b, to)
		}
	}
}

func anyOperands(*generator, binary) bool { return true }

// replaceOperator swaps the operator token of binary expression b for to. When the new
// operator binds differently from the old one, the operands or the whole expression are
// parenthesised so the mutant means what its description says (`a - b * c` with `*` → `+`
// becomes `a - (b + c)`); that rewrites the whole expression, which must lie on one line.
func (g *generator) replaceOperator(b binary, to string) {
	n, opNode, left, right := b.n, b.opNode, b.left, b.right
	newPrec := precedence[to]
	wrapWhole := false
	if p := n.Parent(); p != nil && p.Type() == "binary_expression" && newPrec < precedence[b.op] {
		// Binary operators associate to the left: a left operand needs parentheses only under
		// a tighter parent, a right operand also under an equal one.
		if pop := p.ChildByFieldName("operator"); pop != nil {
			pp := precedence[pop.Type()]
			isLeft := p.ChildByFieldName("left") != nil && p.ChildByFieldName("left").StartByte() == n.StartByte()
			wrapWhole = pp > newPrec || (!isLeft && pp >= newPrec)
		}
	}
	wrapLeft := left.Type() == "binary_expression" && precedence[javaparse.Text(left.ChildByFieldName("operator"), g.src)] < newPrec
	wrapRight := right.Type() == "binary_expression" && precedence[javaparse.Text(right.ChildByFieldName("operator"), g.src)] <= newPrec
	if !wrapWhole && !wrapLeft && !wrapRight {
		g.add(opNode, to, n)
		return
	}
	if !oneLine(n, g.src) {
		return
	}
	l, r := g.text(left), g.text(right)
	if wrapLeft {
		l = "(" + l + ")"
	}
	if wrapRight {
		r = "(" + r + ")"
	}
	mid := string(g.src[left.EndByte():opNode.StartByte()]) + to + string(g.src[opNode.EndByte():right.StartByte()])
	repl := l + mid + r
	if wrapWhole {
		repl = "(" + repl + ")"
	}
	g.add(n, repl, n)
}

// conditionNodeTypes are the nodes with a condition: statements whose condition is
// parenthesised, the for loop's and the ternary's bare one.
var conditionNodeTypes = []string{"if_statement", "while_statement", "do_statement", "for_statement", "ternary_expression"}

// conditionOf returns the condition of statement or ternary n without its parentheses, or
// nil where it must not be mutated: a constant, more than one line, a pattern binding.
func (g *generator) conditionOf(n *sitter.Node) *sitter.Node {
	cond := n.ChildByFieldName("condition")
	if cond == nil {
		return nil
	}
	inner := cond
	switch n.Type() {
	case "if_statement", "while_statement", "do_statement":
		if inner = javaparse.FirstCodeChild(cond); inner == nil {
			return nil
		}
	}
	if !oneLine(inner, g.src) || hasPatternBinding(inner) {
		return nil
	}
	if t := inner.Type(); t == "true" || t == "false" {
		return nil
	}
	return inner
}

// hasPatternBinding reports an `instanceof` pattern that binds a variable (`o instanceof
// Foo f`, record patterns) in n: negating or dropping such a condition takes the variable
// out of scope, so the mutant would not compile.
func hasPatternBinding(n *sitter.Node) bool {
	if n == nil {
		return false
	}
	if n.Type() == "instanceof_expression" {
		if n.ChildByFieldName("name") != nil || n.ChildByFieldName("pattern") != nil {
			return true
		}
		for i := 0; i < int(n.NamedChildCount()); i++ {
			if t := n.NamedChild(i).Type(); t == "record_pattern" || t == "type_pattern" {
				return true
			}
		}
	}
	for i := 0; i < int(n.NamedChildCount()); i++ {
		if hasPatternBinding(n.NamedChild(i)) {
			return true
		}
	}
	return false
}

// uncheckedExceptions are exception types (simple names) that a catch may name without
// anything in its try block throwing them.
var uncheckedExceptions = map[string]bool{
	"Exception": true, "Throwable": true, "RuntimeException": true, "Error": true,
	"IllegalArgumentException": true, "IllegalStateException": true, "NullPointerException": true,
	"ArithmeticException": true, "IndexOutOfBoundsException": true, "ArrayIndexOutOfBoundsException": true,
	"StringIndexOutOfBoundsException": true, "NumberFormatException": true, "UnsupportedOperationException": true,
	"ClassCastException": true, "NoSuchElementException": true, "ConcurrentModificationException": true,
	"AssertionError": true, "StackOverflowError": true, "OutOfMemoryError": true, "LinkageError": true,
	"NoClassDefFoundError": true, "ExceptionInInitializerError": true, "UncheckedIOException": true,
	"DateTimeException": true, "ArrayStoreException": true, "NegativeArraySizeException": true,
	"SecurityException": true,
}

// inCheckedTry reports whether statement n lies in the block of a try statement (of this
// method, not of a lambda or nested class) that catches a checked exception: javac rejects
// a catch of a checked exception that nothing in the block can throw, so removing a call
// there may not compile.
func inCheckedTry(n *sitter.Node, src []byte) bool {
	child := n
	for p := n.Parent(); p != nil; child, p = p, p.Parent() {
		switch p.Type() {
		case "lambda_expression", "class_body", "method_declaration", "constructor_declaration", "compact_constructor_declaration":
			return false
		case "try_statement", "try_with_resources_statement":
			body := p.ChildByFieldName("body")
			if body == nil || body.StartByte() != child.StartByte() || body.EndByte() != child.EndByte() {
				continue // in a catch or finally block
			}
			for i := 0; i < int(p.NamedChildCount()); i++ {
				c := p.NamedChild(i)
				if c.Type() == "catch_clause" && catchesChecked(c, src) {
					return true
				}
			}
		}
	}
	return false
}

// catchesChecked reports a catch clause naming a type not known to be unchecked.
func catchesChecked(clause *sitter.Node, src []byte) bool {
	checked := false
	javaparse.Walk(clause, func(n *sitter.Node) bool {
		switch n.Type() {
		case "type_identifier":
			if !uncheckedExceptions[n.Content(src)] {
				checked = true
			}
			return false
		case "scoped_type_identifier":
			// java.io.IOException: the last identifier names the type.
			if c := n.NamedChild(int(n.NamedChildCount()) - 1); c != nil && !uncheckedExceptions[c.Content(src)] {
				checked = true
			}
			return false
		case "block":
			return false
		}
		return true
	})
	return checked
}

// containsCall reports a method call or object creation in n (outside lambdas), the
// only expressions that throw checked exceptions.
func containsCall(n *sitter.Node) bool {
	switch n.Type() {
	case "method_invocation", "object_creation_expression":
		return true
	case "lambda_expression", "class_body":
		return false
	}
	for i := 0; i < int(n.NamedChildCount()); i++ {
		if containsCall(n.NamedChild(i)) {
			return true
		}
	}
	return false
}
