package loop_test

import (
	"context"
	"slices"
	"testing"

	"github.com/advertest/advertest-lsp/javaparse"
	"github.com/advertest/advertest-lsp/loop"
	"github.com/advertest/advertest-lsp/loop/agent"
	"github.com/advertest/advertest-lsp/loop/mutants"
)

const ruleSample = `package p;

class Sample {
    int clamp(int x, int lo, int hi) {
        if (x < lo) {
            return lo;
        }
        return Math.min(x, hi) + 1;
    }
}
`

func ruleSubject(t *testing.T) *agent.Subject {
	t.Helper()
	f, err := javaparse.Parse([]byte(ruleSample))
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range f.Methods() {
		if m.Name == "clamp" {
			return &agent.Subject{Source: []byte(ruleSample), Parsed: f, Method: m}
		}
	}
	t.Fatal("no method clamp")
	return nil
}

// operatorsOf lists "CODE/group" of each mutant, in order, given which ids the default
// group has.
func operatorsOf(ms []mutants.Mutant, defaultIDs map[string]bool) []string {
	var out []string
	for _, m := range ms {
		g := "strong"
		if defaultIDs[m.ID] {
			g = "default"
		}
		if n := m.Operator + "/" + g; !slices.Contains(out, n) {
			out = append(out, n)
		}
	}
	slices.Sort(out)
	return out
}

func TestRuleMutantAgentStagesDefaultThenStrongOnBlindSpots(t *testing.T) {
	ctx := context.Background()
	s := ruleSubject(t)
	m := loop.RuleMutantAgent{}
	first, err := m.InitialMutants(ctx, s)
	if err != nil {
		t.Fatal(err)
	}
	if want := mutants.Generate(s.Parsed, s.Method, mutants.Options{}); !slices.EqualFunc(first, want, func(a, b mutants.Mutant) bool { return a == b }) {
		t.Fatalf("first move %+v, want the default group %+v", first, want)
	}
	// One survivor on line 5 (`if (x < lo) {`), nothing uncovered: the strong group on line 5.
	var survivor mutants.Mutant
	for _, mu := range first {
		if mu.Line == 5 {
			survivor = mu
		}
	}
	more, err := m.MoreMutants(ctx, s, agent.Feedback{Survivors: []mutants.Mutant{survivor}, Known: first})
	if err != nil {
		t.Fatal(err)
	}
	want := mutants.Generate(s.Parsed, s.Method, mutants.Options{Strong: true, Lines: []int{5}})
	if len(more) == 0 || !slices.EqualFunc(more, want, func(a, b mutants.Mutant) bool { return a == b }) {
		t.Errorf("second move %+v, want the strong group on line 5 %+v", more, want)
	}
}

func TestRuleMutantAgentKeepsToTheSelectedOperators(t *testing.T) {
	ctx := context.Background()
	s := ruleSubject(t)
	defaultIDs := map[string]bool{}
	for _, mu := range mutants.Generate(s.Parsed, s.Method, mutants.Options{}) {
		defaultIDs[mu.ID] = true
	}
	for _, tc := range []struct {
		selection   []string
		first, more []string // CODE/group of the mutants, sorted
	}{
		// The staging applies within the selection.
		{[]string{"ROR", "AOR"}, []string{"AOR/default", "ROR/default"}, []string{"AOR/strong", "ROR/strong"}},
		// No default-group operator selected: the first move plays the selection.
		{[]string{"strong"}, []string{"AOR/strong", "BND/strong", "CDR/strong", "ROR/strong", "VAR/strong"}, nil},
		// The default group alone: the first move has played it on every line.
		{[]string{"default"}, []string{"AOR/default", "EXIT/default", "MATH/default", "RET/default", "ROR/default", "WRAP/default"}, nil},
		{[]string{"default", "BND"}, []string{"AOR/default", "EXIT/default", "MATH/default", "RET/default", "ROR/default", "WRAP/default"}, []string{"BND/strong"}},
	} {
		sel, err := mutants.Select(tc.selection)
		if err != nil {
			t.Fatal(err)
		}
		m := loop.RuleMutantAgent{Operators: sel}
		first, err := m.InitialMutants(ctx, s)
		if err != nil {
			t.Fatal(err)
		}
		if got := operatorsOf(first, defaultIDs); !slices.Equal(got, tc.first) {
			t.Errorf("%q: first move plays %q, want %q", tc.selection, got, tc.first)
		}
		// Every line is a blind spot: the later move may add anything the selection allows.
		more, err := m.MoreMutants(ctx, s, agent.Feedback{UncoveredLines: []int{4, 5, 6, 7, 8, 9}, Known: first})
		if err != nil {
			t.Fatal(err)
		}
		if got := operatorsOf(more, defaultIDs); !slices.Equal(got, tc.more) {
			t.Errorf("%q: later move plays %q, want %q", tc.selection, got, tc.more)
		}
	}
}
