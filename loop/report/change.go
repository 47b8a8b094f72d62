package report

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Span is the part of a mutant's line that the mutation changes: what other formats mark in
// the source (SARIF regions, mte locations).
type Span struct {
	// StartColumn and EndColumn are 1-based in UTF-16 code units (as editors and browsers
	// count), EndColumn exclusive: the original text is the line's [StartColumn, EndColumn).
	StartColumn, EndColumn int
	// Original is the changed text of the original line; Replacement the text the mutant has
	// in its place ("" for a removal).
	Original, Replacement string
}

// Span returns the changed part of the line: the text between the longest common prefix and
// suffix of Original and Mutated, widened to whole tokens (`>` → `>=` rather than “ → `=`,
// `100` → `101` rather than `0` → `1`).
func (m *Mutant) Span() Span {
	o, n := []rune(m.Original), []rune(m.Mutated)
	p := 0
	for p < len(o) && p < len(n) && o[p] == n[p] {
		p++
	}
	s := 0
	for s < len(o)-p && s < len(n)-p && o[len(o)-1-s] == n[len(n)-1-s] {
		s++
	}
	start, oEnd, nEnd := p, len(o)-s, len(n)-s
	// Widen to the token around each end: while the common text next to the change is of the
	// same token class as the changed text's edge, it belongs to the same token.
	edgeLeft := func() rune {
		if start < oEnd {
			return o[start]
		}
		return n[start]
	}
	for start > 0 && start < max(oEnd, nEnd) && sameToken(o[start-1], edgeLeft()) {
		start--
	}
	edgeRight := func() rune {
		if oEnd > start {
			return o[oEnd-1]
		}
		return n[nEnd-1]
	}
	for oEnd < len(o) && max(oEnd, nEnd) > start && sameToken(o[oEnd], edgeRight()) {
		oEnd++
		nEnd++
	}
	if start == oEnd && start < nEnd {
		// A pure insertion (`c` → `!c`, `a` → `a + 1`): mark the word or operator it joins,
		// after it or else before it.
		switch {
		case oEnd < len(o) && isTokenChar(o[oEnd]):
			first := o[oEnd]
			for oEnd < len(o) && sameToken(o[oEnd], first) {
				oEnd++
				nEnd++
			}
		case start > 0 && isTokenChar(o[start-1]):
			last := o[start-1]
			for start > 0 && sameToken(o[start-1], last) {
				start--
			}
		case oEnd < len(o):
			oEnd++
			nEnd++
		}
	}
	if start == oEnd && start == nEnd { // identical lines: mark the code of the line
		start, oEnd = leadingSpace(o), len(o)-trailingSpace(o)
		nEnd = oEnd
	}
	return Span{
		StartColumn: utf16Len(o[:start]) + 1,
		EndColumn:   utf16Len(o[:oEnd]) + 1,
		Original:    string(o[start:oEnd]),
		Replacement: string(n[start:nEnd]),
	}
}

// Describe names the change as diagnostics do: the mutant's description, else "`orig` →
// `mutated`" from the lines, or "`orig` removed" when the mutated line holds no code.
func (m *Mutant) Describe() string {
	if m.Description != "" {
		return m.Description
	}
	orig, mut := strings.TrimSpace(m.Original), strings.TrimSpace(m.Mutated)
	if mut == "" || mut == ";" {
		return fmt.Sprintf("`%s` removed", orig)
	}
	return fmt.Sprintf("`%s` → `%s`", orig, mut)
}

// sameToken reports whether a and b belong to one token: both word characters, or both
// operator characters.
func sameToken(a, b rune) bool {
	word := func(r rune) bool { return r == '_' || r == '$' || unicode.IsLetter(r) || unicode.IsDigit(r) }
	op := func(r rune) bool { return strings.ContainsRune("<>=!&|+-*/%^~?:", r) }
	return word(a) && word(b) || op(a) && op(b)
}

// isTokenChar reports a character of a word or an operator.
func isTokenChar(r rune) bool { return sameToken(r, r) }

func leadingSpace(r []rune) int {
	i := 0
	for i < len(r) && unicode.IsSpace(r[i]) {
		i++
	}
	return i
}

func trailingSpace(r []rune) int {
	i := 0
	for i < len(r) && unicode.IsSpace(r[len(r)-1-i]) {
		i++
	}
	return i
}

// utf16Len counts UTF-16 code units.
func utf16Len(r []rune) int {
	n := 0
	for _, c := range r {
		if c >= 0x10000 && c <= utf8.MaxRune {
			n += 2
		} else {
			n++
		}
	}
	return n
}
