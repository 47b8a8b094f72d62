package javatext

import "strings"

// SkipNonCode returns the end of the comment or literal that starts at i in text (a line or
// block comment, a text block, a string or character literal), or i when none starts there. An
// unclosed one runs to the end of its line (a literal) or of the text.
func SkipNonCode(text string, i int) int {
	switch {
	case strings.HasPrefix(text[i:], "//"):
		if k := strings.IndexByte(text[i:], '\n'); k >= 0 {
			return i + k
		}
		return len(text)
	case strings.HasPrefix(text[i:], "/*"):
		if k := strings.Index(text[i+2:], "*/"); k >= 0 {
			return i + 2 + k + 2
		}
		return len(text)
	case strings.HasPrefix(text[i:], `"""`):
		if k := strings.Index(text[i+3:], `"""`); k >= 0 {
			return i + 3 + k + 3
		}
		return len(text)
	case text[i] == '"' || text[i] == '\'':
		q := text[i]
		j := i + 1
		for j < len(text) && text[j] != q && text[j] != '\n' {
			if text[j] == '\\' {
				j++
			}
			j++
		}
		return min(j+1, len(text))
	}
	return i
}

// IsIdentStart reports whether c may start a Java identifier (any byte of a multi-byte
// character counts: Java allows letters beyond ASCII).
func IsIdentStart(c byte) bool {
	return c == '_' || c == '$' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80
}

// IsIdentPart reports whether c may continue a Java identifier.
func IsIdentPart(c byte) bool { return IsIdentStart(c) || c >= '0' && c <= '9' }
