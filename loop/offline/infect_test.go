package offline

import (
	"strings"
	"testing"

	"github.com/advertest/advertest-lsp/loop/agent"
	"github.com/advertest/advertest-lsp/loop/mutants"
)

// TestProbedSources: the probe wraps the same expression in the original and in the mutant,
// the smallest one that holds the change, and nothing when the change is not an expression.
func TestProbedSources(t *testing.T) {
	const src = `package p;

class C {
    static int f(int value, int lo, boolean on, int[] a, int i) {
        if (value < lo) {
            return lo;
        }
        if (on) {
            a[i] = value + 1;
        }
        i++;
        foo();
        java.util.function.IntUnaryOperator op = k -> {
            int j = k * 2;
            return j;
        };
        return Math.max(value, lo);
    }

    static void foo() {
    }
}
`
	cases := []struct {
		from, to   string
		orig, mut  string // the wrapped expression; "" when nothing is wrapped
		noWrapping bool
	}{
		{from: "if (value < lo) {", to: "if (value <= lo) {", orig: "value < lo", mut: "value <= lo"},
		{from: "if (on) {", to: "if (!on) {", orig: "on", mut: "!on"},
		{from: "if (value < lo) {", to: "if (value < 0) {", orig: "value < lo", mut: "value < 0"},
		{from: "a[i] = value + 1;", to: "a[i] = value;", orig: "a[i] = value + 1", mut: "a[i] = value"},
		{from: "a[i] = value + 1;", to: "a[i] = value + 2;", orig: "value + 1", mut: "value + 2"},
		{from: "a[i] = value + 1;", to: "a[i + 1] = value + 1;", orig: "i", mut: "i + 1"},
		{from: "i++;", to: "i--;", orig: "i++", mut: "i--"},
		{from: "return Math.max(value, lo);", to: "return Math.min(value, lo);", orig: "Math.max(value, lo)", mut: "Math.min(value, lo)"},
		{from: "foo();", to: "", noWrapping: true},
		{from: "int j = k * 2;", to: "int j = k * 3;", orig: "k * 2", mut: "k * 3"},
		{from: "return j;", to: "return j + 1;", orig: "j", mut: "j + 1"},
		{from: "int j = k * 2;", to: "long j = k * 2;", noWrapping: true},
	}
	lines := strings.Split(src, "\n")
	for _, c := range cases {
		t.Run(c.from+" → "+c.to, func(t *testing.T) {
			var m mutants.Mutant
			for i, l := range lines {
				if strings.TrimSpace(l) == c.from {
					m = mutants.Mutant{ID: "m1", Line: i + 1, Original: l, Mutated: strings.Replace(l, c.from, c.to, 1)}
				}
			}
			orig, mut, ok := probedSources([]byte(src), m)
			if c.noWrapping {
				if ok {
					t.Fatalf("wrapped a statement's removal:\n%s", orig)
				}
				return
			}
			if !ok {
				t.Fatal("nothing wrapped")
			}
			for _, w := range []struct {
				text []byte
				want string
			}{{orig, c.orig}, {mut, c.mut}} {
				if !strings.Contains(string(w.text), probeClass+".p("+w.want+")") {
					t.Errorf("%s.p(%s) not in:\n%s", probeClass, w.want, w.text)
				}
				if strings.Count(string(w.text), probeClass+".p(") != 1 {
					t.Errorf("not exactly one probe call")
				}
				if !strings.HasSuffix(strings.TrimSpace(string(w.text)), "}") || !strings.Contains(string(w.text), "final class "+probeClass) {
					t.Errorf("the probe class is not appended")
				}
			}
		})
	}
}

// TestSearchEvidenceClampBoundaries: the example's two boundary mutants of clamp are reached,
// infected at the boundary (the condition's value flips there) and never observable (both
// sides return the same value): likely equivalent, with the counts.
func TestSearchEvidenceClampBoundaries(t *testing.T) {
	proj, file := calculator(t)
	a := newAgent(t, proj)
	s := subject(t, proj, file, "clamp")
	for _, c := range []struct{ from, to string }{
		{"value < lo", "value <= lo"},
		{"value > hi", "value >= hi"},
	} {
		t.Run(c.to, func(t *testing.T) {
			m := mutantOn(t, s, c.from, c.to)
			tests, e := searchEvidence(t, a, s, m)
			if len(tests) != 0 {
				t.Fatalf("an equivalent mutant got a test:\n%s", tests[0].Source)
			}
			inf := *e.Infection
			if inf.Reached == 0 || inf.Infected == 0 || inf.Propagated != 0 || inf.Infected > inf.Reached {
				t.Errorf("infection = %+v, want reached > 0, 0 < infected <= reached, propagated 0", inf)
			}
			if !inf.LikelyEquivalent() || !strings.HasPrefix(e.Why, "probably equivalent: ") ||
				!strings.Contains(e.Why, "reached this line") || !strings.Contains(e.Why, "none changed the result") {
				t.Errorf("why = %q", e.Why)
			}
		})
	}
}

// unlockExtra is a method whose interesting state hides behind a hash: killable mutants that
// the search cannot kill, because no input it makes has the hash ("kq9Z".hashCode() is
// 3298087).
const unlockExtra = `
    /** 1 or 2 for the secret code (2 above level 2), else 0. */
    public static int unlock(String code, int level) {
        int h = code == null ? 0 : code.hashCode();
        if (h == 3298087) {
            return level > 2 ? 2 : 1;
        }
        return 0;
    }
`

// TestSearchEvidenceNotInfected: killable survivors that the search fails to kill are not
// likely equivalent. A condition evaluated on every input whose value no input changes is "not
// reached the distinguishing state"; a line no input reaches says so. Neither is a verdict.
func TestSearchEvidenceNotInfected(t *testing.T) {
	proj, file := calculator(t)
	a := newAgent(t, proj)
	s := withExtra(t, proj, file, unlockExtra, "unlock")
	for _, c := range []struct {
		from, to string
		reached  bool
		why      string
	}{
		{"if (h == 3298087) {", "if (h == 3298088) {", true, "the search did not reach the distinguishing state"},
		{"return level > 2 ? 2 : 1;", "return level >= 2 ? 2 : 1;", false, "no input the search tried reached the mutated expression"},
	} {
		t.Run(c.to, func(t *testing.T) {
			m := mutantOn(t, s, c.from, c.to)
			// killable: the secret code tells them apart
			kill := agent.Test{Name: "secretCode", Source: "    @org.junit.jupiter.api.Test\n    public void secretCode() {\n" +
				"        org.junit.jupiter.api.Assertions.assertEquals(1, PriceCalculator.unlock(\"kq9Z\", 2));\n    }\n"}
			checkKills(t, proj, s, m, []agent.Test{kill})

			tests, e := searchEvidence(t, a, s, m)
			if len(tests) != 0 {
				t.Skipf("the search found the secret code after all:\n%s", tests[0].Source)
			}
			inf := *e.Infection
			if inf.LikelyEquivalent() || inf.Infected != 0 || (inf.Reached > 0) != c.reached {
				t.Errorf("infection = %+v, want infected 0, reached %v", inf, c.reached)
			}
			if !strings.HasPrefix(e.Why, c.why) {
				t.Errorf("why = %q, want it to start %q", e.Why, c.why)
			}
		})
	}
}

// searchEvidence asks the agent for a test against m and, when it writes none, for its
// evidence, which must hold infection counts.
func searchEvidence(t *testing.T, a *Agent, s *agent.Subject, m mutants.Mutant) ([]agent.Test, agent.Evidence) {
	t.Helper()
	tests, e, err := a.ExplainedKillMutant(testCtx(t), s, m)
	if err != nil {
		t.Fatal(err)
	}
	if len(tests) != 0 {
		return tests, agent.Evidence{}
	}
	if e.Why == "" || e.Infection == nil {
		t.Fatalf("no infection evidence: %+v", e)
	}
	t.Logf("%s: %s", m.Description, e)
	return nil, e
}

// kindExtra has a mutant the search cannot tell apart whose change is a case label's constant:
// a probe call there does not compile.
const kindExtra = `
    public static int kind(int x) {
        switch (x) {
            case 1:
                return 10;
            default:
                return 10;
        }
    }
`

// TestSearchEvidenceWithoutProbe: where the probed code does not compile, the site is not
// watched: no counts, the plain evidence, no verdict.
func TestSearchEvidenceWithoutProbe(t *testing.T) {
	proj, file := calculator(t)
	a := newAgent(t, proj)
	s := withExtra(t, proj, file, kindExtra, "kind")
	m := mutantOn(t, s, "case 1:", "case 2:")
	if _, _, ok := probedSources(s.Source, m); !ok {
		t.Fatal("nothing wrapped: the test no longer reaches the compile")
	}
	tests, e, err := a.ExplainedKillMutant(testCtx(t), s, m)
	if err != nil || len(tests) != 0 {
		t.Fatalf("tests %d, err %v: want none", len(tests), err)
	}
	if e.Why == "" || e.Infection != nil || !strings.HasPrefix(e.Why, "no input the search tried told the mutant apart") {
		t.Errorf("evidence %+v, want the plain one without counts", e)
	}
}
