package mutants

import (
	"strings"

	"github.com/advertest/advertest-lsp/javaparse"
	sitter "github.com/smacker/go-tree-sitter"
)

// returnValue is RET/default: the returned value replaced by one of the declared type that
// differs from it. Lambdas' returns are the lambda's, so they are left, as are void
// methods and constructors.
func returnValue(g *generator, n *sitter.Node) {
	if g.inLambda {
		return
	}
	expr := javaparse.FirstCodeChild(n)
	if expr == nil || !oneLine(expr, g.src) {
		return
	}
	if containsCall(expr) && inCheckedTry(n, g.src) {
		return // the call may be the only one that throws what the catch expects
	}
	for _, v := range g.returnValues(expr) {
		g.add(expr, v, n)
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
		v, _, ok := ParseIntLiteral(n.Content(src))
		return ok && v == 0
	case "decimal_floating_point_literal":
		f, ok := ParseFloatLiteral(n.Content(src))
		return ok && f == 0
	}
	return false
}
