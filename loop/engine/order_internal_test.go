package engine

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/advertest/advertest-lsp/buildtools/harness"
	"github.com/advertest/advertest-lsp/loop/mutants"
	"github.com/advertest/advertest-lsp/loop/report"
)

// stoppingRunner plays the worker of a run that stops at the first failure: it runs the
// spec's tests in order, each with its fixed outcome on the mutant, and stops after the first
// that does not pass (a timeout included). It records each run's tests.
type stoppingRunner struct {
	outcome map[harness.TestID]harness.Outcome
	runs    [][]harness.TestID
	ran     []harness.TestID // every test run, in order
}

func (r *stoppingRunner) Run(_ context.Context, spec harness.RunSpec) (*harness.RunResult, error) {
	r.runs = append(r.runs, slices.Clone(spec.Tests))
	res := &harness.RunResult{Compile: &harness.CompileResult{OK: true}}
	for _, id := range spec.Tests {
		o := r.outcome[id]
		res.Tests = append(res.Tests, harness.TestResult{Test: id, Outcome: o, Duration: time.Millisecond})
		r.ran = append(r.ran, id)
		if spec.StopAtFirstFailure && o != harness.Passed && o != harness.Skipped {
			break
		}
	}
	return res, nil
}

func (r *stoppingRunner) Compile(context.Context, []harness.Source) (*harness.CompileResult, error) {
	return &harness.CompileResult{OK: true}, nil
}

// TestVerdictDoesNotDependOnTestOrder: a mutant that one covering test times out on and another
// kills is killed, whichever runs first. The order of a mutant's tests follows their times on
// the original (fastest first), which differ between two runs on a loaded machine: before, the
// run stopped at the timeout and the mutant was `timeout` in one run and `killed` in the other
// (a sharded run merged against the unsharded one on examples/fault-bench, Tokenizer#tokenize).
func TestVerdictDoesNotDependOnTestOrder(t *testing.T) {
	src := []byte("class A {\n  int f(int x) {\n    return x + 1;\n  }\n}\n")
	m := mutants.Mutant{ID: "m1", Line: 3, Original: "    return x + 1;", Mutated: "    return x - 1;"}
	slow := harness.TestID{Class: "ATest", Method: "loops"}
	kill := harness.TestID{Class: "ATest", Method: "kills"}
	pass := harness.TestID{Class: "ATest", Method: "passes"}
	outcomes := map[harness.TestID]harness.Outcome{slow: harness.Timeout, kill: harness.Failed, pass: harness.Passed}
	cases := []struct {
		name      string
		order     []harness.TestID
		outcomes  map[harness.TestID]harness.Outcome
		allKill   bool
		want      report.Status
		killedBy  []string
		wantRuns  int
		wantTests int
	}{
		{"the timeout first", []harness.TestID{slow, pass, kill}, outcomes, false, report.Killed, []string{"ATest.kills"}, 2, 3},
		{"the killer first", []harness.TestID{kill, slow, pass}, outcomes, false, report.Killed, []string{"ATest.kills"}, 1, 1},
		{"a timeout and no killer", []harness.TestID{pass, slow},
			map[harness.TestID]harness.Outcome{slow: harness.Timeout, pass: harness.Passed}, false, report.Timeout, nil, 1, 2},
		{"two timeouts and no killer", []harness.TestID{slow, pass, kill},
			map[harness.TestID]harness.Outcome{slow: harness.Timeout, kill: harness.Timeout, pass: harness.Passed}, false, report.Timeout, nil, 2, 3},
		{"every killer, the timeout first", []harness.TestID{slow, kill}, outcomes, true, report.Killed, []string{"ATest.kills"}, 1, 2},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			base := &Baseline{
				Results:   map[harness.TestID]harness.TestResult{},
				lineTests: map[int][]harness.TestID{3: c.order},
				codeLines: map[int]bool{3: true},
			}
			for _, id := range c.order {
				base.Results[id] = harness.TestResult{Test: id, Outcome: harness.Passed, Duration: time.Millisecond, Steps: 10}
			}
			r := &stoppingRunner{outcome: c.outcomes}
			v, st, err := evaluateOne(context.Background(), r, Subject{Class: "A", Source: src, StartLine: 2, EndLine: 4},
				Suite{}, base, m, nil, Options{AllKillers: c.allKill}, nil)
			if err != nil {
				t.Fatal(err)
			}
			if v.Status != c.want || !slices.Equal(v.KilledBy, append([]string{}, c.killedBy...)) {
				t.Errorf("status %s killed by %q; want %s by %q", v.Status, v.KilledBy, c.want, c.killedBy)
			}
			if len(r.runs) != c.wantRuns || st.TestExecutions != c.wantTests {
				t.Errorf("%d runs %v, %d test executions; want %d runs, %d executions", len(r.runs), r.runs, st.TestExecutions, c.wantRuns, c.wantTests)
			}
			// A later run starts after the test that timed out: no test runs twice.
			if unique := slices.Compact(slices.SortedFunc(slices.Values(r.ran), func(a, b harness.TestID) int {
				return strings.Compare(a.String(), b.String())
			})); len(unique) != len(r.ran) {
				t.Errorf("tests run %v: one ran twice", r.ran)
			}
		})
	}
}
