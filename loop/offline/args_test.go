package offline

import (
	"regexp"
	"strings"
	"testing"

	"github.com/advertest/advertest-lsp/buildtools/harness"
	"github.com/advertest/advertest-lsp/javaparse"
	"github.com/advertest/advertest-lsp/loop/agent"
)

// The explorer's real argument types (Jdk.java, Lambdas.java, Impls.java), on the fixture
// testdata/render/Args.java explored as a class of the calculator project.

// TestCharSequenceMutantOnlyAStringBuilderKills: a mutant of same(CharSequence, CharSequence)
// that Strings never tell apart (negating `cs1 instanceof String && cs2 instanceof String`, as in
// StringUtils.equals) is killed by a test that passes a StringBuilder, and is never called
// equivalent: the search tries both kinds of a CharSequence.
func TestCharSequenceMutantOnlyAStringBuilderKills(t *testing.T) {
	proj, _ := calculator(t)
	a := newAgent(t, proj)
	s := renderFixture(t, proj, "Args", "same", "")
	m := mutantOn(t, s, "if (cs1 instanceof String && cs2 instanceof String) {", "if (!(cs1 instanceof String && cs2 instanceof String)) {")
	tests, ev, err := a.ExplainedKillMutant(testCtx(t), s, m)
	if err != nil {
		t.Fatal(err)
	}
	if ev.Infection != nil && ev.Infection.LikelyEquivalent() || strings.HasPrefix(ev.Why, "probably equivalent") {
		t.Errorf("called equivalent: %s", ev)
	}
	checkKills(t, proj, s, m, tests)
	builder := false
	for _, tc := range tests {
		builder = builder || strings.Contains(tc.Source, "new StringBuilder(")
	}
	if !builder {
		t.Errorf("no test passes a StringBuilder:\n%s", tests[0].Source)
	}
}

// TestSearchEvidenceNeedsEveryKindTried: counts over inputs that never had a kind of argument
// the explorer can build (a CharSequence tried only as String) are no evidence of equivalence.
func TestSearchEvidenceNeedsEveryKindTried(t *testing.T) {
	m := &javaparse.Method{Params: []javaparse.Param{{Name: "cs1", Type: "CharSequence"}, {Name: "n", Type: "int"}}}
	kinds := []paramKinds{{Can: []string{"String", "StringBuilder"}, Tried: []string{"String"}}, {Can: []string{"Integer"}, Tried: []string{"Integer"}}}
	inf := &agent.Infection{Reached: 40, Infected: 12, Propagated: 0, Untried: untriedKinds(kinds, m)}
	if got := strings.Join(inf.Untried, ","); got != "cs1 as StringBuilder" {
		t.Fatalf("untried %q", got)
	}
	if inf.LikelyEquivalent() {
		t.Error("likely equivalent with a kind untried")
	}
	e := infectionEvidence(agent.Evidence{}, inf)
	if !strings.Contains(e.Why, "did not try every kind of argument") || !strings.Contains(e.Why, "cs1 as StringBuilder") {
		t.Errorf("why: %s", e.Why)
	}
	kinds[0].Tried = append(kinds[0].Tried, "StringBuilder")
	inf.Untried = untriedKinds(kinds, m)
	if !inf.LikelyEquivalent() || !strings.HasPrefix(infectionEvidence(agent.Evidence{}, inf).Why, "probably equivalent") {
		t.Errorf("every kind tried, yet not likely equivalent: %+v", inf)
	}
	// every kind tried, but too few inputs changed the value: no verdict, and the evidence says why
	inf.Infected = agent.MinInfectedForEquivalence - 1
	if e := infectionEvidence(agent.Evidence{}, inf); inf.LikelyEquivalent() || !strings.HasPrefix(e.Why, "not evidence of equivalence: too few inputs") {
		t.Errorf("%d infected inputs: likely equivalent %v, why %q", inf.Infected, inf.LikelyEquivalent(), e.Why)
	}
}

// reflective is what a generated test must never contain.
var reflective = regexp.MustCompile(`java\.lang\.reflect|getDeclared|setAccessible|\.invoke\(|Class\.forName`)

// TestRealArgumentTypes: the initial suites of methods taking a writer, an interface and an
// abstract class that only the fixture's own implementations make, an enum with varargs, a
// nested array of char sequences, a locale, a time zone with a date, a lambda and a class
// compile, pass, use no reflection and build their arguments as the test says.
func TestRealArgumentTypes(t *testing.T) {
	proj, _ := calculator(t)
	a := newAgent(t, proj)
	for _, c := range []struct {
		method string
		want   []string // each in some test
	}{
		{"escape", []string{"new StringWriter()", "String.valueOf(out)"}},
		{"describe", []string{"new Args.Square("}},
		{"twice", []string{"new Args.Rect("}},
		{"join", []string{"Args.Level.", "new String[]{"}},
		{"cells", []string{"new CharSequence[][]{"}},
		{"tag", []string{"Locale."}},
		{"hourIn", []string{"TimeZone.getTimeZone(", "new Date("}},
		{"applyTwice", []string{"p0 -> "}},
		{"kind", []string{".class"}},
		{"buffered", []string{"result.markSupported()"}},
		{"sum", []string{"Arrays.<double[]>asList(", "Collections.<double[]>emptyIterator()"}},
		{"atLeast", []string{"Args.atLeast("}},
		{"appends", []string{"StandardOpenOption.APPEND"}},
		{"isSet", []string{"(Args.Strict) null"}},
		{"twiceOf", []string{"new Args.Num("}},
	} {
		t.Run(c.method, func(t *testing.T) {
			s := renderFixture(t, proj, "Args", c.method, "")
			tests := fixtureSuite(t, a, proj, "Args", c.method, "")
			var all []string
			for _, tc := range tests {
				all = append(all, tc.Source)
				if reflective.MatchString(tc.Source) {
					t.Errorf("a generated test uses reflection:\n%s", tc.Source)
				}
			}
			text := strings.Join(all, "\n")
			t.Logf("%s:\n%s", c.method, text)
			for _, w := range c.want {
				if !strings.Contains(text, w) {
					t.Errorf("no test has %q:\n%s", w, text)
				}
			}
			// the kept tests compile and pass as a class of their own
			class, ids := suiteClass(s, s.TestClassName, tests)
			for id, r := range runOn(t, proj, s, s.Source, class, ids) {
				if r.Outcome != harness.Passed {
					t.Errorf("%s: %s %s\n%s", id, r.Outcome, r.Message, class.Text)
				}
			}
		})
	}
}
