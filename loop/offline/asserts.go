package offline

import (
	"fmt"
	"strings"
)

// fieldPrefix marks an observation of a field that a test in the class's package can read (a
// class without getters and toString): the explorer observes no other field, as a test sees
// private state only through what it can call (docs/explorer.md, "Observations").
const fieldPrefix = "field:"

// fieldRead is the expression that reads an accessible field name, declared in the class decl,
// of value (whose static type is st): value.name, with a cast to decl where st is another type
// (a field of the runtime class that the declared type lacks).
func fieldRead(value, st, decl, name string) string {
	if st == "" || lastDot(strings.ReplaceAll(st, "$", ".")) != lastDot(decl) {
		return fmt.Sprintf("((%s) %s).%s", decl, value, name)
	}
	return value + "." + name
}

// maxObjectAsserts bounds the getters asserted on a returned object.
const maxObjectAsserts = 3

// changedFirst orders a returned object's observations so that those whose value differs from
// the receiver's observer of the same name come first, the others keeping their order: a
// method returning a changed copy (CSVFormat.withDelimiter) shows its effect only in the
// getters that differ, and alphabetical order put three unchanged ones under maxObjectAsserts.
func changedFirst(obs, recv []observed) []observed {
	before := map[string]value{}
	for _, o := range recv {
		before[o.M] = o.R
	}
	var changed, same []observed
	for _, o := range obs {
		if b, ok := before[o.M]; ok && !sameValue(&b, &o.R) {
			changed = append(changed, o)
		} else {
			same = append(same, o)
		}
	}
	return append(changed, same...)
}

// usedImport reports whether the test's text names the import's last segment as a word (the
// explorer collects imports for every value it renders, also those the test leaves out).
func usedImport(imp, src string) bool {
	name := lastDot(strings.TrimPrefix(imp, "static "))
	for i := 0; ; {
		j := strings.Index(src[i:], name)
		if j < 0 {
			return false
		}
		j += i
		before := j == 0 || !isIdentByte(src[j-1])
		end := j + len(name)
		after := end >= len(src) || !isIdentByte(src[end])
		if before && after {
			return true
		}
		i = j + 1
	}
}

func isIdentByte(c byte) bool {
	return c == '_' || c == '$' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

var boxedToPrimitive = map[string]string{
	"Integer": "int", "Long": "long", "Short": "short", "Byte": "byte", "Character": "char",
	"Boolean": "boolean", "Double": "double", "Float": "float",
	"java.lang.Integer": "int", "java.lang.Long": "long", "java.lang.Short": "short", "java.lang.Byte": "byte",
	"java.lang.Character": "char", "java.lang.Boolean": "boolean", "java.lang.Double": "double", "java.lang.Float": "float",
}

var primitives = map[string]bool{"int": true, "long": true, "short": true, "byte": true, "char": true, "boolean": true, "double": true, "float": true}

// assertValue writes the assertions that actual (of static type st) equals v.
func (r *renderer) assertValue(actual string, v value, st string, asserts, imports map[string]bool) []string {
	use := func(name string) string { asserts[name] = true; return name }
	prim := primitives[st]
	_, boxed := boxedToPrimitive[st]
	switch v.K {
	case "null":
		return []string{fmt.Sprintf("%s(%s);", use("assertNull"), actual)}
	case "prim":
		exp := v.V
		if boxed {
			exp = boxOf(v.T) + ".valueOf(" + v.V + ")"
		}
		return []string{fmt.Sprintf("%s(%s, %s);", use("assertEquals"), exp, actual)}
	case "bool":
		if prim || boxed {
			if v.V == "true" {
				return []string{fmt.Sprintf("%s(%s);", use("assertTrue"), actual)}
			}
			return []string{fmt.Sprintf("%s(%s);", use("assertFalse"), actual)}
		}
		return []string{fmt.Sprintf("%s(%s, %s);", use("assertEquals"), v.V, actual)}
	case "double", "float":
		if prim || boxed {
			delta := "1e-9"
			if v.K == "float" {
				delta = "1e-6f"
			}
			return []string{fmt.Sprintf("%s(%s, %s, %s);", use("assertEquals"), v.V, actual, delta)}
		}
		return []string{fmt.Sprintf("%s(%s, %s);", use("assertEquals"), v.V, actual)}
	case "string":
		switch v.Via {
		case "toString":
			actual = "String.valueOf(" + actual + ")"
		case "deep":
			imports["java.util.Arrays"] = true
			actual = "Arrays.deepToString(" + actual + ")"
		}
		return []string{fmt.Sprintf("%s(%s, %s);", use("assertEquals"), v.V, actual)}
	case "enum", "equals":
		return []string{fmt.Sprintf("%s(%s, %s);", use("assertEquals"), v.V, actual)}
	case "same":
		// a node of the input's graph: by identity, never by its toString
		return []string{fmt.Sprintf("%s(%s, %s);", use("assertSame"), v.V, actual)}
	case "array":
		return []string{fmt.Sprintf("%s(%s, %s);", use("assertArrayEquals"), v.V, actual)}
	case "darray":
		return []string{fmt.Sprintf("%s(%s, %s, 1e-9);", use("assertArrayEquals"), v.V, actual)}
	case "farray":
		return []string{fmt.Sprintf("%s(%s, %s, 1e-6f);", use("assertArrayEquals"), v.V, actual)}
	case "object":
		var out []string
		for _, o := range v.Obs {
			if o.R.K == "throws" || o.R.K == "opaque" || o.R.K == "object" {
				continue
			}
			if len(out) >= maxObjectAsserts {
				break
			}
			read := actual + "." + o.M
			if name, ok := strings.CutPrefix(o.M, fieldPrefix); ok {
				if !o.Acc || o.D == "" {
					continue // never private state (the explorer observes none): not asserted
				}
				read = fieldRead(actual, st, o.D, name)
			}
			out = append(out, r.assertValue(read, o.R, o.St, asserts, imports)...)
		}
		if len(out) == 0 {
			out = []string{fmt.Sprintf("%s(%s);", use("assertNotNull"), actual)}
		}
		return out
	case "opaque":
		return []string{fmt.Sprintf("%s(%s);", use("assertNotNull"), actual)}
	case "big":
		// a result too large to write out (or whose elements show identity hashes): its size
		return []string{fmt.Sprintf("%s(%s, %s.%s);", use("assertEquals"), v.V, actual, v.Via)}
	}
	return nil
}

func boxOf(prim string) string {
	switch prim {
	case "int":
		return "Integer"
	case "char":
		return "Character"
	}
	return strings.ToUpper(prim[:1]) + prim[1:]
}
