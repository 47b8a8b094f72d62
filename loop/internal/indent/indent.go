// Package indent lays out blocks of Java source text: the generated suite's methods (package
// loop) and the classes rebuilt from an LLM's reply (loop/llm) share it.
package indent

import "strings"

// Block puts text's lines at prefix, keeping their relative indentation; blank lines at its
// edges go, those inside stay (empty), and every line ends with a newline.
func Block(text, prefix string) string {
	lines := strings.Split(strings.Trim(text, "\n"), "\n")
	minIndent := -1
	for _, l := range lines {
		if strings.TrimSpace(l) == "" {
			continue
		}
		n := len(l) - len(strings.TrimLeft(l, " \t"))
		if minIndent < 0 || n < minIndent {
			minIndent = n
		}
	}
	var b strings.Builder
	for i, l := range lines {
		if strings.TrimSpace(l) == "" {
			if i > 0 && i < len(lines)-1 {
				b.WriteString("\n")
			}
			continue
		}
		// A single-line text (a field) may start unindented while its continuation lines
		// are indented: only strip what the line has.
		cut := min(minIndent, len(l)-len(strings.TrimLeft(l, " \t")))
		b.WriteString(prefix + strings.TrimRight(l[cut:], " \t") + "\n")
	}
	return b.String()
}
