package llm

import (
	"regexp"
	"strings"

	"github.com/advertest/advertest-lsp/loop/internal/javatext"
)

// ConvertJUnit is the deterministic rule for a test class written for the other JUnit version
// than the project's (junit: 4 or 5): its imports, annotations and assertions are converted,
// before the compiler or a model repair sees the class. JUnit 5 to 4: the Jupiter imports
// become org.junit's (Assertions to Assert, Assumptions to Assume), @BeforeEach/@AfterEach/
// @BeforeAll/@AfterAll/@Disabled become @Before/@After/@BeforeClass/@AfterClass/@Ignore,
// @DisplayName goes, an assertion's message moves from last to first, and the class and its
// test and lifecycle methods become public (JUnit 4 runs nothing else). JUnit 4 to 5: the
// reverse, and @Test(expected = X.class) becomes an assertThrows around the body. It reports
// whether it changed anything; a class that mixes both versions is converted whole.
func ConvertJUnit(src string, junit int) (string, bool) {
	out := src
	if junit == 4 {
		if !strings.Contains(src, "org.junit.jupiter") {
			return src, false
		}
		out = to4(out)
	} else {
		if !junit4ImportRE.MatchString(src) {
			return src, false
		}
		out = to5(out)
	}
	out = dedupeImports(out)
	return out, out != src
}

var junit4ImportRE = regexp.MustCompile(`(?m)^\s*import\s+(static\s+)?org\.junit\.(Test|Assert|Assume|Before|After|BeforeClass|AfterClass|Ignore|\*)\b`)

// The annotations and packages of the two versions, JUnit 5 first.
var junitPairs = [][2]string{
	{"BeforeEach", "Before"}, {"AfterEach", "After"}, {"BeforeAll", "BeforeClass"}, {"AfterAll", "AfterClass"},
	{"Disabled", "Ignore"}, {"Test", "Test"},
}

// The assertions whose message argument moves, with how many arguments they take without it
// (several counts for overloads with a delta).
var messageArity = map[string][]int{
	"assertEquals": {2, 3}, "assertNotEquals": {2, 3}, "assertArrayEquals": {2, 3}, "assertTrue": {1}, "assertFalse": {1},
	"assertNull": {1}, "assertNotNull": {1}, "assertSame": {2}, "assertNotSame": {2}, "assertThrows": {2},
	"assumeTrue": {1}, "assumeFalse": {1},
}

func to4(src string) string {
	src = regexp.MustCompile(`(?m)^[ \t]*import\s+org\.junit\.jupiter\.api\.DisplayName\s*;[ \t]*\n`).ReplaceAllString(src, "")
	src = regexp.MustCompile(`(?m)^[ \t]*@(org\.junit\.jupiter\.api\.)?DisplayName\([^)\n]*\)[ \t]*\n`).ReplaceAllString(src, "")
	// Qualified names first, then the simple ones.
	src = strings.NewReplacer(
		"org.junit.jupiter.api.Assertions", "org.junit.Assert",
		"org.junit.jupiter.api.Assumptions", "org.junit.Assume",
	).Replace(src)
	for _, p := range junitPairs {
		src = strings.ReplaceAll(src, "org.junit.jupiter.api."+p[0], "org.junit."+p[1])
		src = regexp.MustCompile(`@`+p[0]+`\b`).ReplaceAllString(src, "@"+p[1])
	}
	src = strings.ReplaceAll(src, "org.junit.jupiter.api.*", "org.junit.*")
	src = regexp.MustCompile(`(^|[^\w.])Assertions\.`).ReplaceAllString(src, "${1}Assert.")
	src = regexp.MustCompile(`(^|[^\w.])Assumptions\.`).ReplaceAllString(src, "${1}Assume.")
	src = moveMessages(src, true)
	return makePublic(src)
}

func to5(src string) string {
	src = regexp.MustCompile(`(^|[^\w.])Assert\.`).ReplaceAllString(src, "${1}Assertions.")
	src = regexp.MustCompile(`(^|[^\w.])Assume\.`).ReplaceAllString(src, "${1}Assumptions.")
	src = strings.NewReplacer(
		"org.junit.Assert", "org.junit.jupiter.api.Assertions",
		"org.junit.Assume", "org.junit.jupiter.api.Assumptions",
		"org.junit.*", "org.junit.jupiter.api.*",
	).Replace(src)
	for _, p := range junitPairs {
		src = regexp.MustCompile(`\borg\.junit\.`+p[1]+`\b`).ReplaceAllString(src, "org.junit.jupiter.api."+p[0])
		if p[0] != p[1] {
			src = regexp.MustCompile(`@`+p[1]+`\b`).ReplaceAllString(src, "@"+p[0])
		}
	}
	src = expectedToAssertThrows(src)
	return moveMessages(src, false)
}

// moveMessages moves an assertion's message: from last to first (toFirst, JUnit 5 to 4) or
// from first to last. Only a message that is a string literal (or starts with one) moves, and
// only when the call has one argument more than the assertion without a message.
func moveMessages(src string, toFirst bool) string {
	var b strings.Builder
	for i := 0; i < len(src); {
		if j := javatext.SkipNonCode(src, i); j > i {
			b.WriteString(src[i:j])
			i = j
			continue
		}
		name, open := callAt(src, i)
		arities, ok := messageArity[name]
		if !ok || open < 0 {
			b.WriteByte(src[i])
			i++
			continue
		}
		args, end := splitArgs(src, open)
		if end < 0 {
			b.WriteByte(src[i])
			i++
			continue
		}
		n := len(args)
		moved := false
		for _, a := range arities {
			if n != a+1 {
				continue
			}
			if toFirst && isStringArg(args[n-1]) {
				args = append([]string{args[n-1]}, args[:n-1]...)
				moved = true
			} else if !toFirst && isStringArg(args[0]) {
				args = append(args[1:], args[0])
				moved = true
			}
			break
		}
		if !moved {
			b.WriteString(src[i : open+1])
			i = open + 1
			continue
		}
		for k := range args {
			args[k] = strings.TrimSpace(args[k])
		}
		b.WriteString(src[i:open+1] + strings.Join(args, ", ") + ")")
		i = end + 1
	}
	return b.String()
}

// callAt returns the name of the call that starts at i and the offset of its '(' (-1 when
// none does).
func callAt(src string, i int) (string, int) {
	if i > 0 && (javatext.IsIdentPart(src[i-1])) {
		return "", -1
	}
	j := i
	for j < len(src) && javatext.IsIdentPart(src[j]) {
		j++
	}
	if j == i {
		return "", -1
	}
	k := j
	for k < len(src) && (src[k] == ' ' || src[k] == '\t') {
		k++
	}
	if k >= len(src) || src[k] != '(' {
		return "", -1
	}
	return src[i:j], k
}

// splitArgs splits the argument list whose '(' is at open; end is its ')' (-1 when it does
// not close).
func splitArgs(src string, open int) ([]string, int) {
	depth := 0
	start := open + 1
	var args []string
	for i := open; i < len(src); i++ {
		if j := javatext.SkipNonCode(src, i); j > i {
			i = j - 1
			continue
		}
		switch src[i] {
		case '(', '[', '{':
			depth++
		case ')', ']', '}':
			depth--
			if depth == 0 {
				if a := strings.TrimSpace(src[start:i]); a != "" || len(args) > 0 {
					args = append(args, src[start:i])
				}
				return args, i
			}
		case '<':
			// Generic arguments hold commas too: `new HashMap<String, Integer>()`.
			if depth >= 1 && i > 0 && javatext.IsIdentPart(src[i-1]) {
				if k := strings.IndexAny(src[i:], ">;()"); k > 0 && src[i+k] == '>' {
					i += k
				}
			}
		case ',':
			if depth == 1 {
				args = append(args, src[start:i])
				start = i + 1
			}
		}
	}
	return nil, -1
}

func isStringArg(a string) bool { return strings.HasPrefix(strings.TrimSpace(a), `"`) }

var (
	classDeclRE     = regexp.MustCompile(`(?m)^([ \t]*)((?:final\s+|abstract\s+)*)class\s`)
	lifecycleDeclRE = regexp.MustCompile(`(?m)^([ \t]*@(?:Test|Before|After|BeforeClass|AfterClass)\b[^\n]*\n(?:[ \t]*@[^\n]*\n)*[ \t]*)((?:static\s+|final\s+)*)(void\s)`)
)

// makePublic makes the top-level class and the test and lifecycle methods public.
func makePublic(src string) string {
	if loc := classDeclRE.FindStringSubmatchIndex(src); loc != nil && !strings.Contains(src[max(0, loc[0]-40):loc[1]], "public") {
		src = src[:loc[4]] + "public " + src[loc[4]:]
	}
	return lifecycleDeclRE.ReplaceAllString(src, "${1}public ${2}${3}")
}

var expectedRE = regexp.MustCompile(`@Test\s*\(\s*expected\s*=\s*([\w.]+)\.class\s*\)`)

// expectedToAssertThrows turns `@Test(expected = X.class) void t() { body }` into `@Test void
// t() { assertThrows(X.class, () -> { body }); }`.
func expectedToAssertThrows(src string) string {
	for {
		loc := expectedRE.FindStringSubmatchIndex(src)
		if loc == nil {
			return src
		}
		exc := src[loc[2]:loc[3]]
		open := strings.IndexByte(src[loc[1]:], '{')
		if open < 0 {
			return src
		}
		open += loc[1]
		closeAt := matchingBrace(src, open, len(src))
		if closeAt < 0 {
			return src
		}
		body := src[open+1 : closeAt]
		src = src[:loc[0]] + "@Test" + src[loc[1]:open+1] + "\n        org.junit.jupiter.api.Assertions.assertThrows(" + exc +
			".class, () -> {" + body + "});\n    " + src[closeAt:]
	}
}

// dedupeImports drops an import line that repeats an earlier one (a conversion can make two
// the same).
func dedupeImports(src string) string {
	lines := strings.Split(src, "\n")
	seen := map[string]bool{}
	out := lines[:0]
	for _, l := range lines {
		t := strings.Join(strings.Fields(l), " ")
		if strings.HasPrefix(t, "import ") {
			if seen[t] {
				continue
			}
			seen[t] = true
		}
		out = append(out, l)
	}
	return strings.Join(out, "\n")
}
