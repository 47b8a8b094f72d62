package offline

import (
	"strings"

	"github.com/advertest/advertest-lsp/javaparse"
)

// erasedParamTypes are the method's parameter types as the explorer matches them against the
// class file: a parameter typed by one of the method's own type variables is written as its
// bound's erasure (T extends Collection<?> → Collection; T alone → Object), so that overloads
// that differ only in the bound (Validate.validIndex over a Collection, a CharSequence, an
// array) are told apart; T[] and T... keep their dimensions.
func erasedParamTypes(m *javaparse.Method) []string {
	bounds := typeParamBounds(m)
	var out []string
	for _, p := range m.Params {
		t := strings.TrimSpace(p.Type)
		base, dims := t, ""
		for {
			switch {
			case strings.HasSuffix(base, "[]"):
				base, dims = strings.TrimSpace(base[:len(base)-2]), dims+"[]"
				continue
			case strings.HasSuffix(base, "..."):
				base, dims = strings.TrimSpace(base[:len(base)-3]), dims+"..."
				continue
			}
			break
		}
		if b, ok := bounds[strings.TrimPrefix(base, "final ")]; ok {
			t = b + dims
		}
		out = append(out, t)
	}
	return out
}

// typeParamBounds reads the method's type parameters from its signature (the modifiers, then
// <T extends A & B, U>): each name with its first bound's erasure, simple name only.
func typeParamBounds(m *javaparse.Method) map[string]string {
	sig := strings.TrimSpace(m.Signature)
	for _, mod := range m.Modifiers {
		sig = strings.TrimSpace(strings.TrimPrefix(sig, mod+" "))
	}
	if !strings.HasPrefix(sig, "<") {
		return nil
	}
	depth, end := 0, -1
	for i, r := range sig {
		if r == '<' {
			depth++
		} else if r == '>' {
			depth--
			if depth == 0 {
				end = i
				break
			}
		}
	}
	if end < 0 {
		return nil
	}
	out := map[string]string{}
	for _, tp := range javaparse.SplitTopLevel(sig[1:end]) {
		name, bound, _ := strings.Cut(strings.TrimSpace(tp), " extends ")
		name = strings.TrimSpace(name)
		if name == "" {
			continue
		}
		erased := "Object"
		if bound = strings.TrimSpace(bound); bound != "" {
			first, _, _ := strings.Cut(bound, "&")
			first = strings.TrimSpace(first)
			if i := strings.IndexByte(first, '<'); i >= 0 {
				first = first[:i]
			}
			if i := strings.LastIndexByte(first, '.'); i >= 0 {
				first = first[i+1:]
			}
			erased = first
		}
		out[name] = erased
	}
	// a bound naming another type variable (U extends T) is that variable's bound
	for n, b := range out {
		for i := 0; i < len(out); i++ {
			if bb, ok := out[b]; ok && bb != b {
				b = bb
			}
		}
		out[n] = b
	}
	return out
}
