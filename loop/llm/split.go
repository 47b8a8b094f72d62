package llm

import (
	"regexp"
	"strings"

	"github.com/advertest/advertest-lsp/javaparse"
	"github.com/advertest/advertest-lsp/loop"
	"github.com/advertest/advertest-lsp/loop/agent"
)

// A generated class's members other than its tests (fields and constants, helpers, set-up
// and tear-down methods, initialisers, nested classes) travel with each of its tests
// (agent.Test.Members): the suite keeps each member once and renames one only when it clashes
// with a different member of the same name (loop/members.go, docs/contracts.md "Test files").

// SplitResult is what SplitTests made of a class.
type SplitResult struct {
	Tests []agent.Test
	// Dropped are the tests left out, with why (reflection on the project's classes).
	Dropped []agent.DroppedTest
	// Broken names the test methods left out because they hold syntax errors (a class
	// that could not be repaired as a whole still gives its sound tests).
	Broken []string
}

// reflectionRE matches the reflective access a test would use to reach members it cannot
// call: private methods, fields and constructors of the project's classes.
var reflectionRE = regexp.MustCompile(`\.(getDeclaredMethods?|getDeclaredFields?|getDeclaredConstructors?|setAccessible)\s*\(|\.(getMethod|getField)\s*\(\s*"|\bjava\.lang\.reflect\b|\bMethodHandles\s*\.\s*privateLookupIn\b`)

// ReasonReflection is why a test that reaches the class under test by reflection is dropped.
const ReasonReflection = "uses reflection on the project's classes: tests must call the class through its accessible methods"

// SplitTests takes a generated test class apart into its test methods, each carrying the
// class's other members. A test that uses reflection (itself or through a helper it calls) is
// dropped, with that reason.
func SplitTests(src string, origin, target string) (SplitResult, error) {
	tc, err := loop.ParseTestClass([]byte(src), "")
	if err != nil {
		return SplitResult{}, err
	}
	res := SplitResult{Broken: tc.Broken}
	imports := tc.Imports
	for _, t := range tc.Tests {
		if reflectionRE.MatchString(t.Source) || reflectionRE.MatchString(helpersOf(t.Source, tc.Members)) {
			res.Dropped = append(res.Dropped, agent.DroppedTest{Name: t.Name, Reason: ReasonReflection})
			continue
		}
		res.Tests = append(res.Tests, agent.Test{
			Name: t.Name, Source: t.Source, Imports: imports, Target: target, Origin: origin, Members: tc.Members,
		})
	}
	return res, nil
}

// helpersOf is the text of the methods, lifecycle methods and initialisers of members that a
// test reaches (called by name, transitively, and those JUnit runs around it).
func helpersOf(test string, members []agent.Member) string {
	var b strings.Builder
	seen := map[int]bool{}
	var visit func(text string)
	visit = func(text string) {
		for i, m := range members {
			if seen[i] || m.Kind == agent.MemberField {
				continue
			}
			reached := m.Kind == agent.MemberInitializer || strings.Contains(m.Source, "@Before") || strings.Contains(m.Source, "@After")
			for _, n := range m.Names {
				reached = reached || callRE(n).MatchString(text)
			}
			if reached {
				seen[i] = true
				b.WriteString(m.Source + "\n")
				visit(m.Source)
			}
		}
	}
	visit(test)
	return b.String()
}

func callRE(name string) *regexp.Regexp {
	return regexp.MustCompile(`(^|[^\w$.])` + regexp.QuoteMeta(name) + `\s*\(`)
}

var voidMethodRE = regexp.MustCompile(`(?m)^[ \t]*(@[\w.]+(\([^)\n]*\))?\s*)*((public|protected|private|static|final|synchronized)\s+)*void\s+[\w$]+\s*\([^)]*\)[^{;]*\{`)

// salvageClass rebuilds a class that tree-sitter cannot make sense of (a reply cut off in the
// middle, say) from its sound parts: the text before its first method (package, imports, the
// class header, fields), then every void method whose braces close before the next method
// starts, then the class's closing brace. "" when nothing is sound.
func salvageClass(src string) string {
	locs := voidMethodRE.FindAllStringIndex(src, -1)
	if len(locs) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString(strings.TrimRight(src[:locs[0][0]], " \t"))
	kept := 0
	for i, loc := range locs {
		limit := len(src)
		if i+1 < len(locs) {
			limit = locs[i+1][0]
		}
		end := matchingBrace(src, loc[1]-1, limit)
		if end < 0 {
			continue
		}
		// Sound means it parses on its own (the braces of a cut method may close on the
		// ones a rule appended).
		probe, err := javaparse.Parse([]byte("class Probe {\n" + src[loc[0]:end+1] + "\n}\n"))
		if err != nil || len(probe.SyntaxErrors()) > 0 {
			continue
		}
		b.WriteString(src[loc[0] : end+1])
		b.WriteString("\n\n")
		kept++
	}
	if kept == 0 {
		return ""
	}
	return strings.TrimRight(b.String(), "\n") + "\n}\n"
}

// matchingBrace is the offset of the '}' that closes the '{' at open, looking no further than
// limit (strings, chars and comments skipped); -1 when it does not close in time.
func matchingBrace(src string, open, limit int) int {
	_, at := scanBraces(src, open, limit, func(_, depth int) bool { return depth == 0 })
	return at
}
