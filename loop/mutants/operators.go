package mutants

import (
	"strconv"
	"strings"

	sitter "github.com/smacker/go-tree-sitter"
)

// The operators. Each entry is "from → to"; the default group is what the first M move
// uses, the strong group what later moves add on chosen lines.
var (
	// ROR, default: the boundary and the negation of each relational operator (as PIT's
	// CONDITIONALS_BOUNDARY and NEGATE_CONDITIONALS); strong: the remaining ones.
	rorDefault = map[string][]string{
		"<": {"<=", ">="}, "<=": {"<", ">"}, ">": {">=", "<="}, ">=": {">", "<"},
		"==": {"!="}, "!=": {"=="},
	}
	rorStrong = map[string][]string{
		"<": {">", "==", "!="}, "<=": {">=", "==", "!="}, ">": {"<", "==", "!="}, ">=": {"<=", "==", "!="},
		"==": {"<", "<=", ">", ">="}, "!=": {"<", "<=", ">", ">="}, // numeric operands only
	}
	// AOR, default: PIT's MATH mutator; strong: the rest of + - * / %, and the bitwise and
	// shift swaps.
	aorDefault = map[string][]string{"+": {"-"}, "-": {"+"}, "*": {"/"}, "/": {"*"}, "%": {"*"}}
	aorStrong  = map[string][]string{
		"+": {"*", "/", "%"}, "-": {"*", "/", "%"}, "*": {"+", "-", "%"}, "/": {"+", "-", "%"}, "%": {"+", "-", "/"},
		"&": {"|"}, "|": {"&"}, "^": {"&"}, "<<": {">>"}, ">>": {"<<"}, ">>>": {">>"},
	}
	// INC (strong): increments and compound assignments.
	incSwap = map[string]string{"++": "--", "--": "++", "+=": "-=", "-=": "+=", "*=": "/=", "/=": "*="}

	precedence = map[string]int{
		"*": 12, "/": 12, "%": 12, "+": 11, "-": 11, "<<": 10, ">>": 10, ">>>": 10,
		"<": 9, "<=": 9, ">": 9, ">=": 9, "==": 8, "!=": 8, "&": 7, "^": 6, "|": 5, "&&": 4, "||": 3,
	}
)

// visit walks the method body. inLambda: inside a lambda body, whose returns are the lambda's.
func (g *generator) visit(n *sitter.Node, inLambda bool) {
	switch n.Type() {
	case "line_comment", "block_comment", "string_literal", "text_block", "character_literal":
		return // no code inside
	case "class_body", "class_declaration", "interface_declaration", "enum_declaration",
		"record_declaration", "annotation_type_declaration":
		return // a nested or anonymous class's methods are methods of their own
	case "annotation", "marker_annotation", "switch_label":
		return // constants there must stay constant and distinct
	case "assert_statement":
		return // assertions are off by default: every mutant there would be equivalent
	case "lambda_expression":
		if body := n.ChildByFieldName("body"); body != nil {
			g.visit(body, true)
		}
		return
	case "binary_expression":
		g.binary(n)
	case "unary_expression":
		g.unary(n)
	case "update_expression", "assignment_expression":
		g.increment(n)
	case "if_statement":
		g.condition(n.ChildByFieldName("condition"), true, true)
	case "while_statement", "do_statement":
		g.condition(n.ChildByFieldName("condition"), true, false)
	case "for_statement":
		g.condition(n.ChildByFieldName("condition"), false, false)
	case "ternary_expression":
		g.condition(n.ChildByFieldName("condition"), false, true)
	case "return_statement":
		if !inLambda {
			g.returnValue(n)
		}
	case "expression_statement":
		g.callRemoval(n)
	case "method_invocation":
		g.math(n)
	case "decimal_integer_literal", "hex_integer_literal":
		g.constant(n)
	}
	for i := 0; i < int(n.NamedChildCount()); i++ {
		g.visit(n.NamedChild(i), inLambda)
	}
}

// binary handles ROR, AOR and LCR on a binary expression.
func (g *generator) binary(n *sitter.Node) {
	opNode := n.ChildByFieldName("operator")
	left, right := n.ChildByFieldName("left"), n.ChildByFieldName("right")
	if opNode == nil || left == nil || right == nil {
		return
	}
	op := opNode.Type()
	lk, rk := g.env.kindOf(left, g.src), g.env.kindOf(right, g.src)
	numeric := (lk == kindNum || rk == kindNum) && isNumberish(lk) && isNumberish(rk)
	switch op {
	case "<", "<=", ">", ">=", "==", "!=":
		for _, to := range rorDefault[op] {
			g.replaceOperator(n, opNode, to, "ROR", false)
		}
		for _, to := range rorStrong[op] {
			if (op == "==" || op == "!=") && !numeric {
				continue // `x == null` has no `x < null`
			}
			g.replaceOperator(n, opNode, to, "ROR", true)
		}
	case "+", "-", "*", "/", "%":
		if op == "+" && !numeric {
			return // a String concatenation, or types we cannot tell
		}
		for _, to := range aorDefault[op] {
			g.replaceOperator(n, opNode, to, "AOR", false)
		}
		for _, to := range aorStrong[op] {
			g.replaceOperator(n, opNode, to, "AOR", true)
		}
	case "&", "|", "^", "<<", ">>", ">>>":
		for _, to := range aorStrong[op] {
			g.replaceOperator(n, opNode, to, "AOR", true)
		}
	case "&&", "||":
		if hasPatternBinding(n) {
			return // `o instanceof Foo f && f.ok()`: f is out of scope after a change
		}
		to := "||"
		if op == "||" {
			to = "&&"
		}
		g.replaceOperator(n, opNode, to, "LCR", false)
		if oneLine(n, g.src) {
			g.add(n, g.text(left), "LCR", true, n)
			g.add(n, g.text(right), "LCR", true, n)
		}
	}
}

func isNumberish(k kind) bool { return k == kindNum || k == kindUnknown }

// replaceOperator swaps the operator token of binary expression n for to. When the new
// operator binds differently from the old one, the operands or the whole expression are
// parenthesised so the mutant means what its description says (`a - b * c` with `*` → `+`
// becomes `a - (b + c)`); that rewrites the whole expression, which must lie on one line.
func (g *generator) replaceOperator(n, opNode *sitter.Node, to, name string, strong bool) {
	from := opNode.Type()
	newPrec := precedence[to]
	wrapWhole := false
	if p := n.Parent(); p != nil && p.Type() == "binary_expression" && newPrec < precedence[from] {
		// Binary operators associate to the left: a left operand needs parentheses only under
		// a tighter parent, a right operand also under an equal one.
		if pop := p.ChildByFieldName("operator"); pop != nil {
			pp := precedence[pop.Type()]
			isLeft := p.ChildByFieldName("left") != nil && p.ChildByFieldName("left").StartByte() == n.StartByte()
			wrapWhole = pp > newPrec || (!isLeft && pp >= newPrec)
		}
	}
	left, right := n.ChildByFieldName("left"), n.ChildByFieldName("right")
	wrapLeft := left.Type() == "binary_expression" && precedence[contentOf(left.ChildByFieldName("operator"), g.src)] < newPrec
	wrapRight := right.Type() == "binary_expression" && precedence[contentOf(right.ChildByFieldName("operator"), g.src)] <= newPrec
	if !wrapWhole && !wrapLeft && !wrapRight {
		g.add(opNode, to, name, strong, n)
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
	g.add(n, repl, name, strong, n)
}

// unary: removing `!` (NEG, strong) and unary minus (AOR, strong).
func (g *generator) unary(n *sitter.Node) {
	op, operand := n.ChildByFieldName("operator"), n.ChildByFieldName("operand")
	if op == nil || operand == nil || !oneLine(n, g.src) {
		return
	}
	switch op.Type() {
	case "!":
		if !hasPatternBinding(operand) {
			g.add(n, g.text(operand), "NEG", true, n)
		}
	case "-":
		g.add(n, g.text(operand), "AOR", true, n)
	}
}

// increment: INC on `i++`, `--i`, `x += d`, `x *= d` (strong).
func (g *generator) increment(n *sitter.Node) {
	if n.Type() == "assignment_expression" {
		op := n.ChildByFieldName("operator")
		if op == nil {
			return
		}
		to, ok := incSwap[op.Type()]
		if !ok {
			return
		}
		if op.Type() == "+=" {
			lk := g.env.kindOf(n.ChildByFieldName("left"), g.src)
			rk := g.env.kindOf(n.ChildByFieldName("right"), g.src)
			if !(lk == kindNum || rk == kindNum) || !isNumberish(lk) || !isNumberish(rk) {
				return // `s += "x"` on a String
			}
		}
		g.add(op, to, "INC", true, n)
		return
	}
	for i := 0; i < int(n.ChildCount()); i++ {
		c := n.Child(i)
		if t := c.Type(); !c.IsNamed() && (t == "++" || t == "--") {
			g.add(c, incSwap[t], "INC", true, n)
		}
	}
}

// condition: NEG (default) on the condition of if/while/do/for/ternary, and CDR (strong)
// `if (c)` → `if (true)` / `if (false)` where dropping the condition is legal (if and
// ternary; a loop on a constant false would not compile). parenthesized: the condition
// node is `( c )`.
func (g *generator) condition(cond *sitter.Node, parenthesized, removable bool) {
	if cond == nil {
		return
	}
	inner := cond
	if parenthesized {
		inner = firstCodeChild(cond)
		if inner == nil {
			return
		}
	}
	if !oneLine(inner, g.src) || hasPatternBinding(inner) {
		return
	}
	switch inner.Type() {
	case "true", "false":
		return
	case "unary_expression":
		if op := inner.ChildByFieldName("operator"); op != nil && op.Type() == "!" {
			g.add(inner, g.text(inner.ChildByFieldName("operand")), "NEG", false, inner)
		} else {
			g.add(inner, "!("+g.text(inner)+")", "NEG", false, inner)
		}
	case "binary_expression":
		switch contentOf(inner.ChildByFieldName("operator"), g.src) {
		case "<", "<=", ">", ">=", "==", "!=":
			// ROR's negation already makes this mutant.
		default:
			g.add(inner, "!("+g.text(inner)+")", "NEG", false, inner)
		}
	case "identifier", "method_invocation", "field_access", "array_access", "parenthesized_expression":
		g.add(inner, "!"+g.text(inner), "NEG", false, inner)
	default:
		g.add(inner, "!("+g.text(inner)+")", "NEG", false, inner)
	}
	if removable {
		g.add(inner, "true", "CDR", true, inner)
		g.add(inner, "false", "CDR", true, inner)
	}
}

// firstCodeChild is the first named child that is not a comment.
func firstCodeChild(n *sitter.Node) *sitter.Node {
	for i := 0; i < int(n.NamedChildCount()); i++ {
		if c := n.NamedChild(i); c.Type() != "line_comment" && c.Type() != "block_comment" {
			return c
		}
	}
	return nil
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

// returnValue: RET (default), by the method's declared return type.
func (g *generator) returnValue(n *sitter.Node) {
	expr := firstCodeChild(n)
	if expr == nil || !oneLine(expr, g.src) {
		return
	}
	if containsCall(expr) && inCheckedTry(n, g.src) {
		return // the call may be the only one that throws what the catch expects
	}
	for _, v := range g.returnValues(expr) {
		g.add(expr, v, "RET", false, n)
	}
}

// returnValues lists the replacement values for returned expression expr: values that
// compile for the declared type and differ from what is returned.
func (g *generator) returnValues(expr *sitter.Node) []string {
	t := g.returnType
	if t == "" || t == "void" {
		return nil
	}
	text := g.text(expr)
	typ := expr.Type()
	isNull := typ == "null_literal"
	zero := isZeroLiteral(expr, g.src)
	var vals []string
	numeric := func(zeroText, oneText string) {
		if zero {
			vals = append(vals, oneText)
		} else {
			vals = append(vals, zeroText)
		}
	}
	orNull := func() {
		if !isNull {
			vals = append(vals, "null")
		}
	}
	if strings.HasSuffix(t, "]") || strings.HasSuffix(t, "...") {
		elem := strings.TrimSpace(t[:strings.IndexByte(t, '[')])
		if isPrimitive(elem) && strings.Count(t, "[") == 1 {
			vals = append(vals, "new "+elem+"[0]")
		}
		orNull()
		return dropSame(vals, text)
	}
	qualifier := ""
	if base := t; strings.IndexByte(base, '<') >= 0 {
		t = base[:strings.IndexByte(base, '<')]
	}
	t = strings.TrimSpace(t)
	if i := strings.LastIndexByte(t, '.'); i >= 0 {
		qualifier, t = t[:i+1], t[i+1:]
	}
	switch t {
	case "boolean", "Boolean":
		switch typ {
		case "true":
			vals = append(vals, "false")
		case "false":
			vals = append(vals, "true")
		default:
			vals = append(vals, "true", "false")
		}
		if t == "Boolean" {
			orNull()
		}
	case "int", "short", "byte", "char", "long", "float", "double":
		numeric("0", "1")
	case "Integer":
		numeric("0", "1")
		orNull()
	case "Long":
		numeric("0L", "1L")
		orNull()
	case "Double":
		numeric("0.0", "1.0")
		orNull()
	case "Float":
		numeric("0.0f", "1.0f")
		orNull()
	case "String":
		if text != `""` {
			vals = append(vals, `""`)
		}
		orNull()
	case "Optional", "OptionalInt", "OptionalLong", "OptionalDouble":
		vals = append(vals, qualifier+t+".empty()")
	case "List", "Collection", "Iterable", "Set", "Map":
		empty := map[string]string{"List": "emptyList", "Collection": "emptyList", "Iterable": "emptyList", "Set": "emptySet", "Map": "emptyMap"}[t]
		if qualifier == "" || qualifier == "java.util." {
			vals = append(vals, g.collectionsName()+"."+empty+"()")
		}
		orNull()
	default:
		orNull() // any other reference type, a type variable included
	}
	return dropSame(vals, text)
}

// collectionsName is how the method can name java.util.Collections.
func (g *generator) collectionsName() string {
	for _, imp := range g.imports {
		if imp == "java.util.Collections" || imp == "java.util.*" {
			return "Collections"
		}
	}
	return "java.util.Collections"
}

func dropSame(vals []string, text string) []string {
	out := vals[:0]
	for _, v := range vals {
		if v != text {
			out = append(out, v)
		}
	}
	return out
}

func isPrimitive(t string) bool {
	switch t {
	case "int", "long", "short", "byte", "char", "float", "double", "boolean":
		return true
	}
	return false
}

func isZeroLiteral(n *sitter.Node, src []byte) bool {
	switch n.Type() {
	case "decimal_integer_literal", "hex_integer_literal", "octal_integer_literal", "binary_integer_literal":
		v, _, ok := parseIntLiteral(n.Content(src))
		return ok && v == 0
	case "decimal_floating_point_literal":
		s := strings.TrimRight(strings.ReplaceAll(n.Content(src), "_", ""), "fFdD")
		f, err := strconv.ParseFloat(s, 64)
		return err == nil && f == 0
	}
	return false
}

// callRemoval: VCR (default), removing a call statement `foo(x);` that sits on one line.
// In a block the statement disappears; where a statement is required (`if (c) foo();`) it
// becomes the empty statement `;`. Calls in switch rules (`case 1 -> foo();`) are left,
// and `super(...)`/`this(...)` are never expression statements.
func (g *generator) callRemoval(n *sitter.Node) {
	call := firstCodeChild(n)
	if call == nil || call.Type() != "method_invocation" || !oneLine(n, g.src) {
		return
	}
	if obj := call.ChildByFieldName("object"); obj != nil && isLoggerName(g.text(obj)) {
		return // removing a log call changes nothing a test sees (PIT skips them too)
	}
	p := n.Parent()
	if p == nil || inCheckedTry(n, g.src) {
		return // removing the call may leave a checked exception's catch without a thrower
	}
	repl := ";"
	switch p.Type() {
	case "switch_rule":
		return
	case "block", "constructor_body", "switch_block_statement_group":
		repl = ""
	}
	g.edits = append(g.edits, edit{start: int(n.StartByte()), end: int(n.EndByte()), repl: repl, op: "VCR", removal: true})
}

// isLoggerName reports a receiver that names a logger: log, LOG, logger, this.logger, ...
func isLoggerName(obj string) bool {
	obj = strings.ToLower(strings.TrimPrefix(obj, "this."))
	return obj == "log" || obj == "logger"
}

// math: MATH (default), Math.max ↔ Math.min.
func (g *generator) math(n *sitter.Node) {
	obj, name := n.ChildByFieldName("object"), n.ChildByFieldName("name")
	if obj == nil || name == nil {
		return
	}
	switch g.text(obj) {
	case "Math", "StrictMath", "java.lang.Math", "java.lang.StrictMath":
	default:
		return
	}
	switch g.text(name) {
	case "max":
		g.add(name, "min", "MATH", false, n)
	case "min":
		g.add(name, "max", "MATH", false, n)
	}
}

// constant: BND (strong), an integer literal c → c+1, c-1, 0, within the literal's type.
func (g *generator) constant(n *sitter.Node) {
	text := g.text(n)
	v, long, ok := parseIntLiteral(text)
	if !ok {
		return
	}
	limit := uint64(1<<31 - 1)
	if long {
		limit = 1<<63 - 1
	}
	if v > limit {
		return // 2147483648 only stands after a unary minus; leave the extremes alone
	}
	// A constant assigned straight to a narrow variable must stay in its range.
	if p := n.Parent(); p != nil && p.Type() == "variable_declarator" && p.Parent() != nil {
		switch contentOf(p.Parent().ChildByFieldName("type"), g.src) {
		case "byte":
			limit = 127
		case "short":
			limit = 32767
		case "char":
			limit = 65535
		}
		if v > limit {
			return
		}
	}
	var vals []uint64
	if v < limit {
		vals = append(vals, v+1)
	}
	if v > 0 {
		vals = append(vals, v-1)
	}
	if v > 1 {
		vals = append(vals, 0)
	}
	ctx := n
	if p := n.Parent(); p != nil && (p.Type() == "binary_expression" || p.Type() == "unary_expression") {
		ctx = p
	}
	for _, nv := range vals {
		g.add(n, formatIntLiteral(text, nv), "BND", true, ctx)
	}
}

// parseIntLiteral reads a decimal or hex (or octal, binary) Java integer literal.
func parseIntLiteral(s string) (v uint64, long, ok bool) {
	s = strings.ReplaceAll(s, "_", "")
	if strings.HasSuffix(s, "L") || strings.HasSuffix(s, "l") {
		long, s = true, s[:len(s)-1]
	}
	base := 10
	switch {
	case strings.HasPrefix(s, "0x") || strings.HasPrefix(s, "0X"):
		base, s = 16, s[2:]
	case strings.HasPrefix(s, "0b") || strings.HasPrefix(s, "0B"):
		base, s = 2, s[2:]
	case len(s) > 1 && s[0] == '0':
		base, s = 8, s[1:]
	}
	v, err := strconv.ParseUint(s, base, 64)
	return v, long, err == nil
}

// formatIntLiteral writes v in the style of literal orig: its base, hex prefix and digit
// case, and its long suffix.
func formatIntLiteral(orig string, v uint64) string {
	suffix := ""
	if strings.HasSuffix(orig, "L") || strings.HasSuffix(orig, "l") {
		suffix = orig[len(orig)-1:]
	}
	if len(orig) > 2 && (orig[1] == 'x' || orig[1] == 'X') {
		digits := strconv.FormatUint(v, 16)
		if strings.ContainsAny(orig[2:], "ABCDEF") {
			digits = strings.ToUpper(digits)
		}
		return orig[:2] + digits + suffix
	}
	return strconv.FormatUint(v, 10) + suffix
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
	var walk func(n *sitter.Node)
	walk = func(n *sitter.Node) {
		switch n.Type() {
		case "type_identifier":
			if !uncheckedExceptions[n.Content(src)] {
				checked = true
			}
			return
		case "scoped_type_identifier":
			// java.io.IOException: the last identifier names the type.
			if c := n.NamedChild(int(n.NamedChildCount()) - 1); c != nil && !uncheckedExceptions[c.Content(src)] {
				checked = true
			}
			return
		case "block":
			return
		}
		for i := 0; i < int(n.NamedChildCount()); i++ {
			walk(n.NamedChild(i))
		}
	}
	walk(clause)
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
