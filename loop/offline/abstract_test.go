package offline

import (
	"errors"
	"strings"
	"testing"

	"github.com/advertest/advertest-lsp/buildtools/harness"
)

// TestAbstractReceivers: a concrete method of an abstract class runs on the project's own
// subclass (Meter.Kilo; Shelf.Words, whose type argument String the K argument takes), or,
// with none, on a generated minimal subclass nested in the test class (Gauge, with a protected
// constructor and abstract methods; Ledger, whose generic interfaces' methods it implements
// with their type arguments); an interface's default
// method on a minimal implementation (Pricing). Each kept test uses no reflection, compiles
// and passes on the original, and fails on a mutant of the method's own body. A class that
// neither makes (Tone: private constructor, private subclass) runs on its public constant.
func TestAbstractReceivers(t *testing.T) {
	proj, _ := calculator(t)
	a := newAgent(t, proj)
	for _, c := range []struct {
		class, method, from, to, recv string
	}{
		{"Meter", "add", "n = 100;", "n = 10;", "Meter meter = new Meter.Kilo();"},
		{"Gauge", "scaled", "if (raw < 0) {", "if (raw < -1) {", "Gauge gauge = new MinimalGauge(3);"},
		{"Pricing", "total", "if (qty > 10) {", "if (qty > 11) {", "Pricing pricing = new MinimalPricing();"},
		{"Shelf", "slots", "if (w > 3) {", "if (w > 4) {", "Shelf shelf = new Shelf.Words();"},
		{"Ledger", "weight", "return -1;", "return 1;", "Ledger ledger = new MinimalLedger();"},
		{"Tone", "boosted", "return 50;", "return 51;", "Tone tone = Tone.LOUD;"},
	} {
		t.Run(c.class, func(t *testing.T) {
			s := renderFixture(t, proj, c.class, c.method, "")
			m := mutantOn(t, s, c.from, c.to)
			tests, ev, err := a.ExplainedKillMutant(testCtx(t), s, m)
			if err != nil {
				t.Fatal(err)
			}
			if len(tests) == 0 {
				t.Fatalf("no test kills %s: %s", m.Description, ev.Why)
			}
			checkKills(t, proj, s, m, tests)
			for _, tc := range tests {
				t.Logf("%s", tc.Source)
				if reflective.MatchString(tc.Source) {
					t.Errorf("a generated test uses reflection:\n%s", tc.Source)
				}
				if !strings.Contains(tc.Source, c.recv) {
					t.Errorf("the receiver is not %q:\n%s", c.recv, tc.Source)
				}
				minimal := strings.Contains(c.recv, "Minimal")
				if minimal != (len(tc.Members) == 1) {
					t.Errorf("members %v for receiver %q", tc.Members, c.recv)
				}
				for _, mb := range tc.Members {
					if reflective.MatchString(mb.Source) || !strings.Contains(mb.Source, "static final class Minimal"+c.class) {
						t.Errorf("the minimal subclass:\n%s", mb.Source)
					}
				}
			}
			// the initial suite's tests, the minimal subclass with them, compile and pass as a class
			tests = fixtureSuite(t, a, proj, c.class, c.method, "")
			class, ids := suiteClass(s, s.TestClassName, tests)
			for id, r := range runOn(t, proj, s, s.Source, class, ids) {
				if r.Outcome != harness.Passed {
					t.Errorf("%s: %s %s\n%s", id, r.Outcome, r.Message, class.Text)
				}
			}
		})
	}
}

// TestAbstractReceiverNeitherWay: an abstract class no class extends, whose one constructor is
// private, gives no test and one sentence saying what was tried and why it failed.
func TestAbstractReceiverNeitherWay(t *testing.T) {
	proj, _ := calculator(t)
	a := newAgent(t, proj)
	_, _, err := a.ExplainedInitialSuite(testCtx(t), renderFixture(t, proj, "Vault", "over", ""))
	var ue *UnsupportedError
	if !errors.As(err, &ue) {
		t.Fatalf("not unsupported: %v", err)
	}
	for _, w := range []string{"abstract class", "no implementation in the project", "no constructor of it is accessible"} {
		if !strings.Contains(ue.Reason, w) {
			t.Errorf("the reason %q does not say %q", ue.Reason, w)
		}
	}
}
