package offline

import (
	"regexp"
	"strconv"
	"strings"
	"unicode"
)

// Classifying an argument: what a test's name can tell about one argument from the Java
// expression the explorer wrote for it (a null, a number and its sign, a string, a size, a named
// constant), read without running anything.

// argFact is what names.go can tell about one argument from its Java expression.
type argFact struct {
	null    bool
	num     bool
	n       float64
	special string // "Max", "Min", "NaN", "Infinite": a named constant of a number type
	str     bool
	s       string
	char    bool
	c       rune
	boolean string // "True", "False"
	size    int    // elements of an array or collection; -1 when not one
	named   string // an enum-like constant or a lambda, in words
}

var (
	numberConst = regexp.MustCompile(`^-?(Byte|Short|Integer|Long|Float|Double|Character)\.(MAX_VALUE|MIN_VALUE|NaN|POSITIVE_INFINITY|NEGATIVE_INFINITY)$`)
	namedConst  = regexp.MustCompile(`^[A-Z][A-Za-z0-9_]*(\.[A-Za-z][A-Za-z0-9_]*)*\.([A-Z][A-Z_]*)$`)
	wrapsString = regexp.MustCompile(`^new [A-Za-z.]+\(("(?:[^"\\]|\\.)*")\)$`)
	emptyNew    = regexp.MustCompile(`^new [A-Za-z.]+(<[^()]*>)?\(\)$`)
	arrayInit   = regexp.MustCompile(`^new [A-Za-z0-9_.<>]+(\[\])+\{(.*)\}$`)
)

// classify reads an argument's Java expression as the explorer writes it (docs/explorer.md,
// `args`); token is its word of the explorer's, used only for lambdas.
func classify(expr, token string) argFact {
	f := argFact{size: -1}
	e := strings.TrimSpace(expr)
	switch {
	case e == "null":
		f.null = true
	case e == "true" || e == "false":
		f.boolean = capitalize(e)
	case strings.HasPrefix(e, `"`):
		f.s, f.str = unquoteJava(e)
	case strings.HasPrefix(e, `'`):
		if s, ok := unquoteJava(e); ok && len([]rune(s)) == 1 {
			f.char, f.c = true, []rune(s)[0]
		}
	case numberConst.MatchString(e):
		f.num = true
		f.special = numberWord(e)
	case wrapsString.MatchString(e): // new StringBuilder("ab"), new StringReader("")
		f.s, f.str = unquoteJava(wrapsString.FindStringSubmatch(e)[1])
	case emptyNew.MatchString(e) && !strings.Contains(e, "Object"):
		if strings.Contains(e, "<") || strings.Contains(e, "List") || strings.Contains(e, "Set") || strings.Contains(e, "Map") {
			f.size = 0
		}
	case strings.HasPrefix(e, "Collections.empty"):
		f.size = 0
	case arrayInit.MatchString(e):
		f.size = countElements(arrayInit.FindStringSubmatch(e)[2])
	case strings.Contains(e, "asList(") || strings.Contains(e, "List.of(") || strings.Contains(e, "Set.of("):
		i := strings.Index(e, "(")
		for _, p := range []string{"asList(", "List.of(", "Set.of("} {
			if j := strings.Index(e, p); j >= 0 {
				i = j + len(p) - 1
				break
			}
		}
		if inner, ok := balanced(e[i:]); ok {
			f.size = countElements(inner)
		}
	case strings.Contains(e, "->"):
		if wordsOnly(token) {
			f.named = token
		}
	case namedConst.MatchString(e):
		if w := camelWords(strings.ToLower(namedConst.FindStringSubmatch(e)[2])); wordsOnly(w) {
			f.named = w
		}
	default:
		if n, ok := parseNumber(e); ok {
			f.num, f.n = true, n
		}
	}
	return f
}

// parseNumber reads a number literal: 5, -1L, 2.5f, (short) (-3), (byte) 7.
func parseNumber(e string) (float64, bool) {
	for _, c := range []string{"(short)", "(byte)", "(char)", "(int)", "(long)", "(float)", "(double)"} {
		e = strings.TrimSpace(strings.TrimPrefix(e, c))
	}
	e = strings.TrimSuffix(strings.TrimPrefix(e, "("), ")")
	e = strings.ReplaceAll(e, "_", "")
	if strings.HasPrefix(e, "0x") || strings.HasPrefix(e, "-0x") {
		n, err := strconv.ParseInt(strings.TrimRight(e, "Ll"), 0, 64)
		return float64(n), err == nil
	}
	e = strings.TrimRight(e, "LlFfDd")
	n, err := strconv.ParseFloat(e, 64)
	return n, err == nil
}

// numberWord names a number type's constant: Integer.MAX_VALUE → Max.
func numberWord(e string) string {
	switch {
	case strings.HasSuffix(e, "NaN"):
		return "NaN"
	case strings.HasSuffix(e, "INFINITY"):
		return "Infinite"
	case strings.HasSuffix(e, "MAX_VALUE") && !strings.HasPrefix(e, "-"):
		return "Max"
	default:
		return "Min"
	}
}

// scanCode calls visit with each character of s outside string literals and the depth of
// brackets it is at (an opening bracket at the depth inside it); visit returns false to stop.
func scanCode(s string, visit func(i int, c rune, depth int) bool) {
	depth, inStr := 0, false
	for i, c := range s {
		if c == '"' && (i == 0 || s[i-1] != '\\') {
			inStr = !inStr
			continue
		}
		if inStr {
			continue
		}
		switch c {
		case '(', '{', '[':
			depth++
		case ')', '}', ']':
			depth--
		}
		if !visit(i, c, depth) {
			return
		}
	}
}

// balanced returns the text inside the bracket s starts with.
func balanced(s string) (string, bool) {
	inner, ok := "", false
	scanCode(s, func(i int, c rune, depth int) bool {
		if depth == 0 {
			inner, ok = s[1:i], true
			return false
		}
		return true
	})
	return inner, ok
}

// countElements counts the top-level, comma-separated elements of a list's text.
func countElements(s string) int {
	if strings.TrimSpace(s) == "" {
		return 0
	}
	n := 1
	scanCode(s, func(_ int, c rune, depth int) bool {
		if c == ',' && depth == 0 {
			n++
		}
		return true
	})
	return n
}

// wordsOnly says w is a short CamelCase phrase with no digits (no raw value in a name).
func wordsOnly(w string) bool {
	if w == "" || len(w) > 20 {
		return false
	}
	for _, c := range w {
		if c >= 128 || !unicode.IsLetter(c) {
			return false
		}
	}
	return true
}
