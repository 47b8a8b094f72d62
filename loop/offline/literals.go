package offline

import (
	"math"
	"slices"
	"strconv"
	"strings"

	sitter "github.com/smacker/go-tree-sitter"

	"github.com/advertest/advertest-lsp/javaparse"
	"github.com/advertest/advertest-lsp/loop/mutants"
)

// literals are the constants written in the method's text: boundaries the explorer tries
// (with their neighbours ±1) before anything random.
type literals struct {
	ints    []int64
	doubles []float64
	strings []string
	chars   string
	// seeds are the tokens a seeding pass saw the method compare with (seeds.go), which the
	// explorer combines into strings (Seeds.combos), seedChars and seedInts the characters and
	// int constants it saw compared; none from the method's text. They are kept apart from
	// the method's own literals: the explorer puts them after the values it makes without them.
	seeds     []string
	seedChars string
	seedInts  []int64
}

// maxLiterals bounds each kind, so a method full of constants keeps a small pool.
const maxLiterals = 16

// scanLiterals collects the literals inside [start, end) of f's tree, in source order, once each.
func scanLiterals(f *javaparse.File, start, end int) literals {
	var lits literals
	f.WithTree(func(root *sitter.Node, src []byte) {
		var walk func(n *sitter.Node)
		walk = func(n *sitter.Node) {
			if int(n.EndByte()) <= start || int(n.StartByte()) >= end {
				return
			}
			text := n.Content(src)
			switch n.Type() {
			case "decimal_integer_literal", "hex_integer_literal", "octal_integer_literal", "binary_integer_literal":
				// int64 keeps a long literal's bits: 0xFFFFFFFFFFFFFFFFL is -1.
				if u, _, ok := mutants.ParseIntLiteral(text); ok && !slices.Contains(lits.ints, int64(u)) && len(lits.ints) < maxLiterals {
					lits.ints = append(lits.ints, int64(u))
				}
				return
			case "decimal_floating_point_literal", "hex_floating_point_literal":
				if v, ok := mutants.ParseFloatLiteral(text); ok && !math.IsInf(v, 0) &&
					!slices.Contains(lits.doubles, v) && len(lits.doubles) < maxLiterals {
					lits.doubles = append(lits.doubles, v)
				}
				return
			case "string_literal":
				if s, ok := unquoteJava(text); ok && !slices.Contains(lits.strings, s) && len(lits.strings) < maxLiterals {
					lits.strings = append(lits.strings, s)
				}
				return
			case "character_literal":
				if s, ok := unquoteJava(text); ok && len([]rune(s)) == 1 && !strings.Contains(lits.chars, s) {
					lits.chars += s
				}
				return
			}
			for i := 0; i < int(n.ChildCount()); i++ {
				walk(n.Child(i))
			}
		}
		walk(root)
	})
	return lits
}

// unquoteJava reads a Java string or char literal; text blocks and odd escapes are skipped.
func unquoteJava(text string) (string, bool) {
	if strings.HasPrefix(text, `"""`) || len(text) < 2 {
		return "", false
	}
	q := text
	if text[0] == '\'' {
		q = `"` + strings.ReplaceAll(text[1:len(text)-1], `"`, `\"`) + `"`
		q = strings.ReplaceAll(q, `\'`, `'`)
	}
	s, err := strconv.Unquote(q)
	if err != nil {
		return "", false
	}
	return s, true
}
