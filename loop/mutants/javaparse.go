package mutants

import (
	"strings"

	sitter "github.com/smacker/go-tree-sitter"

	"github.com/advertest/advertest-lsp/javaparse"
)

// Generate makes the rule-based mutants of method m of f: the default group, or with
// opts.Strong the stronger operators. The result is sorted by line, column, operator, and
// free of duplicates; every mutant changes exactly one line of code (never a comment or a
// string) and has Origin "rule".
//
// Ids: NewID(class, method, original, mutated). When the same trimmed line text occurs
// more than once in the method, the k-th occurrence in source order (k ≥ 2) gets the
// suffix "-k", so two identical lines with the same change keep distinct, deterministic ids.
//
// m must come from f's current text (f.Methods() after the last ApplyEdits).
func Generate(f *javaparse.File, m *javaparse.Method, opts Options) []Mutant {
	if f == nil || m == nil || m.BodyStartByte < 0 {
		return nil
	}
	if opts.Class == "" {
		opts.Class = m.BinaryClassName
	}
	if opts.Method == "" { // "name(T1,T2)", whitespace dropped from the types
		types := make([]string, len(m.Params))
		for i, p := range m.Params {
			types[i] = strings.Join(strings.Fields(p.Type), "")
		}
		opts.Method = m.Name + "(" + strings.Join(types, ",") + ")"
	}
	var out []Mutant
	f.WithTree(func(root *sitter.Node, src []byte) {
		out = generate(root, src, m.StartByte, m.EndByte, m.ReturnType, opts)
	})
	return out
}
