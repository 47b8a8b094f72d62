package mutants

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strings"
)

// Origin says which agent produced a mutant.
type Origin string

const (
	OriginRule Origin = "rule" // the offline, rule-based M of this package
	OriginLLM  Origin = "llm"  // the LLM's M
)

// Mutant is a single-line change of a method: the whole line before and after.
type Mutant struct {
	ID                string // stable: NewID(class, method, original, mutated), see Generate for the "-k" suffix
	Line              int    // 1-based line in the source file
	Original, Mutated string // the whole line before/after, indentation kept, no terminator
	Origin            Origin
	Operator          string // a registry code: "ROR", "AOR", "NEG", "LCR", "RET", "MATH", "CHAR", "VCR", "WRAP", "SWAP", "LOOP", "EXIT", "BND", "INC", "CDR", "VAR", "ARG", "IDX"
	Description       string // "`a < b` → `a <= b`", "`foo();` removed"
}

// NewID derives a mutant's id from the class, the method and the mutated line's text
// before and after. The line texts are trimmed, so moving the line or re-indenting it
// keeps the id; the id changes only when the code of the line or the mutation does.
func NewID(class, method, original, mutated string) string {
	h := sha256.New()
	h.Write([]byte(class))
	h.Write([]byte{0})
	h.Write([]byte(method))
	h.Write([]byte{0})
	h.Write([]byte(strings.TrimSpace(original)))
	h.Write([]byte{0})
	h.Write([]byte(strings.TrimSpace(mutated)))
	return "m" + hex.EncodeToString(h.Sum(nil))[:12]
}

// lineSpan is one line of a source text: [start, end) is its text without the
// terminator; next is where the following line starts.
type lineSpan struct{ start, end, next int }

// splitLines breaks src on "\n", "\r\n" and a lone "\r", as LSP (and javaparse.LineMap) do.
// A text that ends with a terminator has a last, empty line.
func splitLines(src []byte) []lineSpan {
	var lines []lineSpan
	start := 0
	for i := 0; i < len(src); i++ {
		switch src[i] {
		case '\n':
			lines = append(lines, lineSpan{start, i, i + 1})
			start = i + 1
		case '\r':
			next := i + 1
			if next < len(src) && src[next] == '\n' {
				next++
			}
			lines = append(lines, lineSpan{start, i, next})
			start = next
			i = next - 1
		}
	}
	return append(lines, lineSpan{start, len(src), len(src)})
}

// lineOf returns the 1-based line that holds byte offset off.
func lineOf(lines []lineSpan, off int) int {
	lo, hi := 0, len(lines)-1
	for lo < hi {
		mid := (lo + hi + 1) / 2
		if lines[mid].start <= off {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	return lo + 1
}

// Apply returns a copy of src with line m.Line replaced by m.Mutated; the line's
// terminator and every other line are kept byte for byte. It fails when the line does
// not exist or its current text is not m.Original, so a stale mutant never lands on the
// wrong line (carry it over with Relocate first).
func Apply(src []byte, m Mutant) ([]byte, error) {
	if strings.ContainsAny(m.Mutated, "\r\n") {
		return nil, fmt.Errorf("apply mutant %s: mutated text spans more than one line", m.ID)
	}
	lines := splitLines(src)
	if m.Line < 1 || m.Line > len(lines) {
		return nil, fmt.Errorf("apply mutant %s: line %d outside the file's %d lines", m.ID, m.Line, len(lines))
	}
	ls := lines[m.Line-1]
	if got := string(src[ls.start:ls.end]); got != m.Original {
		return nil, fmt.Errorf("apply mutant %s: line %d is %q, not the mutant's original %q", m.ID, m.Line, got, m.Original)
	}
	out := make([]byte, 0, len(src)-(ls.end-ls.start)+len(m.Mutated))
	out = append(out, src[:ls.start]...)
	out = append(out, m.Mutated...)
	out = append(out, src[ls.end:]...)
	return out, nil
}

// Relocate carries a mutant across an edit: it looks for m.Original among lines
// startLine..endLine (1-based, inclusive; typically the method's new range) of src and
// returns the mutant moved there, the nearest line to m.Line winning (the earlier one on a
// tie). A line with exactly the original text is preferred; failing that, a line whose
// trimmed text matches is taken and the mutant is re-indented to it (Original becomes that
// line, Mutated gets its indentation). The id is kept: it does not depend on position or
// indentation. ok is false when no line matches.
func Relocate(src []byte, m Mutant, startLine, endLine int) (Mutant, bool) {
	lines := splitLines(src)
	if startLine < 1 {
		startLine = 1
	}
	if endLine > len(lines) {
		endLine = len(lines)
	}
	text := func(l int) string { return string(src[lines[l-1].start:lines[l-1].end]) }
	nearest := func(match func(string) bool) int {
		best := 0
		for l := startLine; l <= endLine; l++ {
			if !match(text(l)) {
				continue
			}
			if best == 0 || abs(l-m.Line) < abs(best-m.Line) {
				best = l
			}
		}
		return best
	}
	if l := nearest(func(s string) bool { return s == m.Original }); l != 0 {
		m.Line = l
		return m, true
	}
	trimmed := strings.TrimSpace(m.Original)
	if trimmed == "" {
		return m, false
	}
	l := nearest(func(s string) bool { return strings.TrimSpace(s) == trimmed })
	if l == 0 {
		return m, false
	}
	oldIndent := leadingSpace(m.Original)
	newLine := text(l)
	if strings.HasPrefix(m.Mutated, oldIndent) {
		m.Mutated = leadingSpace(newLine) + m.Mutated[len(oldIndent):]
	}
	m.Original = newLine
	m.Line = l
	return m, true
}

func leadingSpace(s string) string {
	return s[:len(s)-len(strings.TrimLeft(s, " \t"))]
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
