package mutants

import (
	"strings"

	"github.com/advertest/advertest-lsp/javaparse"
	sitter "github.com/smacker/go-tree-sitter"
)

// kind is the little type knowledge the operators need to avoid mutants that cannot
// compile: `a + b` on Strings has no `a - b`, `x == null` has no `x < null`.
type kind int

const (
	kindUnknown kind = iota
	kindNum          // a numeric primitive or its box (char included)
	kindBool         // boolean, Boolean
	kindString       // String
	kindNull         // the null literal
	kindOther        // some other reference type
)

// kindOfType classifies a declared type as written ("int", "List<String>", "java.lang.String").
func kindOfType(t string) kind {
	t = strings.TrimSpace(t)
	if t == "" || t == "var" {
		return kindUnknown
	}
	if strings.HasSuffix(t, "]") || strings.HasSuffix(t, "...") {
		return kindOther
	}
	switch SimpleTypeName(t) {
	case "int", "long", "short", "byte", "char", "float", "double",
		"Integer", "Long", "Short", "Byte", "Character", "Float", "Double":
		return kindNum
	case "boolean", "Boolean":
		return kindBool
	case "String":
		return kindString
	}
	return kindOther
}

// SimpleTypeName drops type arguments and the package: "java.util.List<String>" → "List".
func SimpleTypeName(t string) string {
	if i := strings.IndexByte(t, '<'); i >= 0 {
		t = t[:i]
	}
	t = strings.TrimSpace(t)
	if i := strings.LastIndexByte(t, '.'); i >= 0 {
		t = t[i+1:]
	}
	return t
}

// typeEnv maps a variable name to its declared type as written: the method's parameters
// and locals (which shadow) over the fields of the enclosing classes.
type typeEnv map[string]string

func newTypeEnv(method *sitter.Node, src []byte) typeEnv {
	env := typeEnv{}
	// Fields of the enclosing classes, outermost first so inner ones win.
	var bodies []*sitter.Node
	for p := method.Parent(); p != nil; p = p.Parent() {
		if t := p.Type(); t == "class_body" || t == "enum_body" || t == "interface_body" {
			bodies = append(bodies, p)
		}
		if p.Type() == "record_declaration" {
			if ps := p.ChildByFieldName("parameters"); ps != nil {
				env.addParams(ps, src)
			}
		}
	}
	for i := len(bodies) - 1; i >= 0; i-- {
		b := bodies[i]
		for j := 0; j < int(b.NamedChildCount()); j++ {
			if c := b.NamedChild(j); c.Type() == "field_declaration" || c.Type() == "constant_declaration" {
				env.addDeclarators(c, src)
			}
		}
	}
	if ps := method.ChildByFieldName("parameters"); ps != nil {
		env.addParams(ps, src)
	}
	visit := func(n *sitter.Node) bool {
		switch n.Type() {
		case "class_body", "class_declaration", "interface_declaration", "enum_declaration", "record_declaration":
			return false
		case "local_variable_declaration", "resource":
			env.addDeclarators(n, src)
			if n.Type() == "resource" {
				if name, typ := n.ChildByFieldName("name"), n.ChildByFieldName("type"); name != nil && typ != nil {
					env[name.Content(src)] = typ.Content(src)
				}
			}
		case "enhanced_for_statement":
			if name, typ := n.ChildByFieldName("name"), n.ChildByFieldName("type"); name != nil && typ != nil {
				env[name.Content(src)] = typ.Content(src)
			}
		case "catch_formal_parameter", "formal_parameter", "spread_parameter":
			env.addParam(n, src)
		}
		return true
	}
	if body := method.ChildByFieldName("body"); body != nil {
		javaparse.Walk(body, visit)
	}
	return env
}

func (env typeEnv) addParams(ps *sitter.Node, src []byte) {
	for i := 0; i < int(ps.NamedChildCount()); i++ {
		env.addParam(ps.NamedChild(i), src)
	}
}

func (env typeEnv) addParam(p *sitter.Node, src []byte) {
	typ := p.ChildByFieldName("type")
	name := p.ChildByFieldName("name")
	switch p.Type() {
	case "spread_parameter":
		// int... xs: the declarator holds the name.
		for i := 0; i < int(p.NamedChildCount()); i++ {
			c := p.NamedChild(i)
			if c.Type() == "variable_declarator" {
				name = c.ChildByFieldName("name")
			} else if typ == nil && c.Type() != "modifiers" {
				typ = c
			}
		}
		if typ != nil && name != nil {
			env[name.Content(src)] = typ.Content(src) + "[]"
		}
		return
	case "catch_formal_parameter":
		if name == nil {
			return
		}
		env[name.Content(src)] = "Throwable"
		return
	}
	if typ == nil || name == nil {
		return
	}
	t := typ.Content(src)
	if d := p.ChildByFieldName("dimensions"); d != nil {
		t += d.Content(src)
	}
	env[name.Content(src)] = t
}

func (env typeEnv) addDeclarators(decl *sitter.Node, src []byte) {
	typ := decl.ChildByFieldName("type")
	if typ == nil {
		return
	}
	t := typ.Content(src)
	for i := 0; i < int(decl.NamedChildCount()); i++ {
		d := decl.NamedChild(i)
		if d.Type() != "variable_declarator" {
			continue
		}
		name := d.ChildByFieldName("name")
		if name == nil {
			continue
		}
		dt := t
		if dims := d.ChildByFieldName("dimensions"); dims != nil {
			dt += dims.Content(src)
		}
		if dt == "var" {
			if v := d.ChildByFieldName("value"); v != nil {
				switch env.kindOf(v, src) {
				case kindNum:
					dt = "int"
				case kindString:
					dt = "String"
				case kindBool:
					dt = "boolean"
				}
			}
		}
		env[name.Content(src)] = dt
	}
}

// kindOf guesses the kind of an expression from literals, declared variables and a few
// well-known methods. kindUnknown means "could be anything".
func (env typeEnv) kindOf(n *sitter.Node, src []byte) kind {
	if n == nil {
		return kindUnknown
	}
	switch n.Type() {
	case "decimal_integer_literal", "hex_integer_literal", "octal_integer_literal", "binary_integer_literal",
		"decimal_floating_point_literal", "hex_floating_point_literal", "character_literal":
		return kindNum
	case "string_literal", "text_block":
		return kindString
	case "true", "false", "instanceof_expression":
		return kindBool
	case "null_literal":
		return kindNull
	case "identifier":
		if t, ok := env[n.Content(src)]; ok {
			return kindOfType(t)
		}
	case "field_access":
		obj, field := n.ChildByFieldName("object"), n.ChildByFieldName("field")
		if field == nil {
			break
		}
		if field.Content(src) == "length" {
			return kindNum // only arrays have a length field
		}
		if obj != nil && obj.Type() == "this" {
			if t, ok := env[field.Content(src)]; ok {
				return kindOfType(t)
			}
		}
	case "array_access":
		if a := n.ChildByFieldName("array"); a != nil && a.Type() == "identifier" {
			if t, ok := env[a.Content(src)]; ok && strings.HasSuffix(t, "]") {
				return kindOfType(strings.TrimSpace(t[:strings.LastIndexByte(t, '[')]))
			}
		}
	case "parenthesized_expression":
		if n.NamedChildCount() > 0 {
			return env.kindOf(n.NamedChild(0), src)
		}
	case "cast_expression":
		return kindOfType(javaparse.Text(n.ChildByFieldName("type"), src))
	case "ternary_expression":
		k := env.kindOf(n.ChildByFieldName("consequence"), src)
		if k == kindUnknown || k == kindNull {
			k = env.kindOf(n.ChildByFieldName("alternative"), src)
		}
		return k
	case "update_expression":
		return kindNum
	case "assignment_expression":
		return env.kindOf(n.ChildByFieldName("left"), src)
	case "object_creation_expression":
		return kindOfType(javaparse.Text(n.ChildByFieldName("type"), src))
	case "unary_expression":
		if op := n.ChildByFieldName("operator"); op != nil && op.Type() == "!" {
			return kindBool
		}
		return kindNum
	case "binary_expression":
		op := javaparse.Text(n.ChildByFieldName("operator"), src)
		switch op {
		case "<", "<=", ">", ">=", "==", "!=", "&&", "||":
			return kindBool
		case "-", "*", "/", "%", "<<", ">>", ">>>":
			return kindNum
		case "+":
			l, r := env.kindOf(n.ChildByFieldName("left"), src), env.kindOf(n.ChildByFieldName("right"), src)
			if l == kindString || r == kindString || l == kindOther || r == kindOther || l == kindNull || r == kindNull {
				return kindString
			}
			if l == kindNum && r == kindNum {
				return kindNum
			}
		case "&", "|", "^":
			l, r := env.kindOf(n.ChildByFieldName("left"), src), env.kindOf(n.ChildByFieldName("right"), src)
			if l == kindBool || r == kindBool {
				return kindBool
			}
			if l == kindNum || r == kindNum {
				return kindNum
			}
		}
	case "method_invocation":
		name := javaparse.Text(n.ChildByFieldName("name"), src)
		obj := javaparse.Text(n.ChildByFieldName("object"), src)
		if obj == "Math" || obj == "StrictMath" || obj == "java.lang.Math" {
			return kindNum
		}
		switch name {
		case "length", "size", "indexOf", "lastIndexOf", "compareTo", "compareToIgnoreCase", "compare",
			"hashCode", "intValue", "longValue", "doubleValue", "floatValue", "charAt", "ordinal",
			"parseInt", "parseLong", "parseDouble", "signum", "codePointAt":
			return kindNum
		case "toString", "substring", "trim", "strip", "toUpperCase", "toLowerCase", "concat", "repeat",
			"replace", "replaceAll", "name", "format", "join":
			return kindString
		case "equals", "equalsIgnoreCase", "isEmpty", "isBlank", "contains", "containsKey", "startsWith",
			"endsWith", "matches", "hasNext", "isPresent":
			return kindBool
		}
	}
	return kindUnknown
}
