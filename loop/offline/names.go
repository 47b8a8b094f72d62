package offline

import (
	"fmt"
	"strings"
	"unicode"

	"github.com/advertest/advertest-lsp/javaparse"
)

// name derives the test's name from the method, the original's outcome and the input:
// clampReturnsMinus1ForValueMinus1Lo0Hi10, shippingReturns0AfterAddItem5000.
func (r *renderer) name(rec *record, em emphasis) string {
	m := r.method
	base := m.Name
	if m.Kind == javaparse.KindConstructor {
		base = lowerCamel(m.Name)
	}
	var b strings.Builder
	b.WriteString(base)
	out := rec.outcome
	switch {
	case out.K == "throw":
		b.WriteString("Throws" + lastDot(out.X))
	case out.Ret == nil || out.Ret.K == "void" || out.Ret.K == unstableResult:
		if len(em.state) > 0 {
			obs := em.state[0]
			if i := strings.IndexByte(obs, '('); i >= 0 {
				obs = obs[:i] // quantity("b") → Quantity: arguments are no part of a name
			}
			b.WriteString("Updates" + capitalize(stripAccessor(strings.TrimPrefix(obs, fieldPrefix))))
		} else if len(em.afterArgs) > 0 && em.afterArgs[0] < len(m.Params) {
			b.WriteString("Updates" + capitalize(m.Params[em.afterArgs[0]].Name))
		} else {
			b.WriteString("Runs")
		}
	case m.Kind == javaparse.KindConstructor:
		b.WriteString("Accepts")
	default:
		b.WriteString("Returns" + valueToken(*out.Ret))
	}
	if em.timeout {
		b.WriteString("InTime")
	}
	var in strings.Builder
	for i, tok := range rec.Tokens {
		pn := fmt.Sprintf("Arg%d", i)
		if i < len(m.Params) {
			pn = capitalize(m.Params[i].Name)
		}
		in.WriteString(pn + tok)
	}
	if in.Len() > 0 {
		if m.Kind != javaparse.KindConstructor || out.K == "throw" {
			b.WriteString("For")
		}
		b.WriteString(in.String())
	}
	if rec.GraphToken != "" {
		b.WriteString("In" + rec.GraphToken)
	}
	if rec.RecvToken != "" {
		b.WriteString("After" + rec.RecvToken)
	}
	return sanitizeName(b.String())
}

func stripAccessor(m string) string {
	for _, p := range []string{"get", "is", "has"} {
		if strings.HasPrefix(m, p) && len(m) > len(p) && unicode.IsUpper(rune(m[len(p)])) {
			return m[len(p):]
		}
	}
	return m
}

// valueToken is a short CamelCase form of a value for a test name.
func valueToken(v value) string {
	switch v.K {
	case "null":
		return "Null"
	case "bool":
		return capitalize(v.V)
	case "prim", "double", "float":
		s := strings.TrimSuffix(strings.TrimSuffix(v.V, "L"), "f")
		if strings.HasPrefix(s, "'") {
			return "Char"
		}
		s = strings.ReplaceAll(s, "(short) ", "")
		s = strings.ReplaceAll(s, "(byte) ", "")
		s = strings.Trim(s, "()")
		s = strings.ReplaceAll(s, "-", "Minus")
		s = strings.ReplaceAll(s, ".", "Point")
		return camelWords(s)
	case "string":
		s, ok := unquoteJava(v.V)
		if ok && s == "" {
			return "Empty"
		}
		if ok && len(s) <= 12 && camelWords(s) != "" {
			return camelWords(s)
		}
		return "Text"
	case "enum":
		return camelWords(strings.ToLower(lastDot(v.V)))
	case "same":
		return "Node" + capitalize(v.V)
	case "array", "darray", "farray":
		if strings.HasSuffix(v.V, "{}") {
			return "EmptyArray"
		}
		return "Array"
	case "equals":
		if strings.HasPrefix(v.V, "Collections.empty") {
			return "Empty"
		}
		if strings.Contains(v.V, "HashSet") {
			return "Set"
		}
		return "List"
	}
	return "Object"
}

// camelWords keeps letters and digits, upper-casing the first letter of each word.
func camelWords(s string) string {
	var b strings.Builder
	up := true
	for _, c := range s {
		if c < 128 && (unicode.IsLetter(c) || unicode.IsDigit(c)) {
			if up {
				b.WriteRune(unicode.ToUpper(c))
			} else {
				b.WriteRune(c)
			}
			up = false
		} else {
			up = true
		}
	}
	return b.String()
}

func sanitizeName(s string) string {
	var b strings.Builder
	for _, c := range s {
		if c < 128 && (unicode.IsLetter(c) || unicode.IsDigit(c) || c == '_') {
			b.WriteRune(c)
		}
	}
	out := b.String()
	if out == "" || unicode.IsDigit(rune(out[0])) {
		out = "test" + out
	}
	if len(out) > 100 {
		out = out[:100]
	}
	return out
}

func capitalize(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

func lowerCamel(s string) string {
	if s == "" {
		return "subject"
	}
	// URLParser → urlParser, PriceCalculator → priceCalculator
	rs := []rune(s)
	i := 0
	for i < len(rs) && unicode.IsUpper(rs[i]) {
		i++
	}
	switch {
	case i == 0:
		return s
	case i == 1 || i == len(rs):
		return strings.ToLower(string(rs[:i])) + string(rs[i:])
	default:
		return strings.ToLower(string(rs[:i-1])) + string(rs[i-1:])
	}
}

func lastDot(s string) string {
	if i := strings.LastIndexByte(s, '.'); i >= 0 {
		return s[i+1:]
	}
	return s
}

// uniqueNames renames clashing tests name2, name3, ... in order.
func uniqueNames(ts []rendered) {
	seen := map[string]bool{}
	for i := range ts {
		n := ts[i].name
		if seen[n] {
			for k := 2; ; k++ {
				c := fmt.Sprintf("%s%d", n, k)
				if !seen[c] {
					ts[i].source = strings.Replace(ts[i].source, " "+n+"()", " "+c+"()", 1)
					ts[i].name = c
					break
				}
			}
		}
		seen[ts[i].name] = true
	}
}
