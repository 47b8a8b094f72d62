package loop_test

import (
	"context"
	"testing"
	"time"

	"github.com/advertest/advertest-lsp/buildtools/harness"
	"github.com/advertest/advertest-lsp/loop"
	"github.com/advertest/advertest-lsp/loop/engine"
	"github.com/advertest/advertest-lsp/loop/mutants"
	"github.com/advertest/advertest-lsp/loop/report"
)

// firstVerdictsProject is a project without a coverage map: its first baseline
// (RunSpec.LikelyFirst) runs the likely test class p.CTest and leaves p.OtherTest pending. On
// a mutant p.CTest#hangs times out and p.OtherTest#kills fails; on the original both pass and
// execute f's lines.
type firstVerdictsProject struct {
	*fakeProject
	pending *int // how many runs left a class pending
}

func (p firstVerdictsProject) TestClassNames() []string { return []string{"p.CTest", "p.OtherTest"} }

func (p firstVerdictsProject) Run(ctx context.Context, spec engine.RunSpec) (*engine.RunResult, error) {
	hangs := engine.TestID{Class: "p.CTest", Method: "hangs"}
	kills := engine.TestID{Class: "p.OtherTest", Method: "kills"}
	res := &engine.RunResult{Compile: &engine.CompileResult{OK: true}}
	var tests []engine.TestID
	for _, id := range spec.Tests {
		switch {
		case id.Method != "":
			tests = append(tests, id)
		case id.Class == hangs.Class:
			tests = append(tests, hangs)
		case id.Class == kills.Class && spec.LikelyFirst:
			res.Pending = append(res.Pending, id)
			*p.pending++
		case id.Class == kills.Class:
			tests = append(tests, kills)
		}
	}
	for _, id := range tests {
		tr := engine.TestResult{Test: id, Outcome: harness.Passed, Duration: time.Millisecond, Steps: 10}
		switch {
		case spec.Original:
			lines := map[int]harness.LineCoverage{}
			for _, l := range fakeCovered {
				lines[l] = harness.LineCoverage{CoveredInstructions: 1}
			}
			tr.Coverage = &harness.Coverage{Classes: map[string]*harness.ClassCoverage{"p.C": {Lines: lines}}}
		case id == hangs:
			tr.Outcome = harness.Timeout
		default:
			tr.Outcome = harness.Failed
		}
		res.Tests = append(res.Tests, tr)
		if tr.Outcome != harness.Passed && spec.StopAtFirstFailure {
			break
		}
	}
	return res, ctx.Err()
}

// TestFirstVerdictsCompleteTimeouts: an analysis without a coverage map gives its first
// verdicts from the likely tests, then completes them with the pending classes. A mutant that
// a likely test timed out on and a pending test kills is killed, as in an analysis that finds
// the map (every class at once): before, only the survivors were played again, so the first
// process of a module (the one that records the map) said `timeout` where a later one, or
// another shard, said `killed`.
func TestFirstVerdictsCompleteTimeouts(t *testing.T) {
	fp, target := fakeGame(t)
	pending := 0
	proj := firstVerdictsProject{fp, &pending}
	ms := []mutants.Mutant{fakeMutant(6, "x")}
	a, err := loop.AnalyzeSuite(context.Background(), proj, target, loop.AnalyzeOptions{Mutants: ms}, loop.DefaultConfig(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(a.Report.Mutants) != 1 {
		t.Fatalf("mutants %+v", a.Report.Mutants)
	}
	if m := a.Report.Mutants[0]; m.Status != report.Killed || len(m.KilledBy) != 1 || m.KilledBy[0] != "p.OtherTest.kills" {
		t.Errorf("status %s, killed by %q; want killed by p.OtherTest.kills", m.Status, m.KilledBy)
	}
	if pending != 1 {
		t.Errorf("%d runs left a class pending; want the first baseline's: the test did not take the first verdicts' path", pending)
	}
}
