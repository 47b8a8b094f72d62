package mutants

import (
	"strconv"
	"strings"
)

// ParseIntLiteral reads a Java integer literal as written: decimal, hex (0x), binary (0b)
// or octal (leading 0), with underscores and an optional long suffix. v is the literal's
// digits as an unsigned number; long reports the L suffix. BND mutates constants with it
// and the offline T seeds its inputs from the method's constants.
func ParseIntLiteral(s string) (v uint64, long, ok bool) {
	s = strings.ReplaceAll(s, "_", "")
	if strings.HasSuffix(s, "L") || strings.HasSuffix(s, "l") {
		long, s = true, s[:len(s)-1]
	}
	base := 10
	switch {
	case strings.HasPrefix(s, "0x") || strings.HasPrefix(s, "0X"):
		base, s = 16, s[2:]
	case strings.HasPrefix(s, "0b") || strings.HasPrefix(s, "0B"):
		base, s = 2, s[2:]
	case len(s) > 1 && s[0] == '0':
		base, s = 8, s[1:]
	}
	v, err := strconv.ParseUint(s, base, 64)
	return v, long, err == nil
}

// ParseFloatLiteral reads a Java floating-point literal (underscores and the f/d suffix
// dropped).
func ParseFloatLiteral(s string) (float64, bool) {
	s = strings.TrimRight(strings.ReplaceAll(s, "_", ""), "fFdD")
	f, err := strconv.ParseFloat(s, 64)
	return f, err == nil
}

// formatIntLiteral writes v in the style of literal orig: its base, hex prefix and digit
// case, and its long suffix.
func formatIntLiteral(orig string, v uint64) string {
	suffix := ""
	if strings.HasSuffix(orig, "L") || strings.HasSuffix(orig, "l") {
		suffix = orig[len(orig)-1:]
	}
	if len(orig) > 2 && (orig[1] == 'x' || orig[1] == 'X') {
		digits := strconv.FormatUint(v, 16)
		if strings.ContainsAny(orig[2:], "ABCDEF") {
			digits = strings.ToUpper(digits)
		}
		return orig[:2] + digits + suffix
	}
	return strconv.FormatUint(v, 10) + suffix
}
