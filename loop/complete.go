package loop

import (
	"context"
	"fmt"

	"github.com/advertest/advertest-lsp/loop/engine"
	"github.com/advertest/advertest-lsp/loop/mutants"
	"github.com/advertest/advertest-lsp/loop/report"
)

// completeAnalysis finishes an analysis whose first baseline left test classes for later
// (engine.Baseline.Pending: the project had no coverage map yet, docs/coverage-map.md). It
// publishes the first verdicts (the likely tests'), runs the suite on the original again with
// the map — the pending classes, recorded now, and the tests known to reach the method — and
// plays the survivors and the timeouts against that baseline: a test of a pending class may
// kill one. A timeout too: a mutant that a test kills is killed whether another test timed out
// on it or not, so its verdict is the one a run with a map (no pending classes) gives, and a
// second process, or a shard, that finds the map agrees with the first (docs/reports.md,
// "Deterministic verdicts"). It returns
// the verdicts, the complete baseline (nil when it failed) and the stats of both evaluations
// (Mutants counts each mutant once). Called from AnalyzeSuite's goroutine.
func completeAnalysis(ctx context.Context, proj Project, subj engine.Subject, suite engine.Suite, first *engine.Baseline, ms []mutants.Mutant,
	verdicts []report.Mutant, stats engine.Stats, eopts engine.Options, sink EventSink) ([]report.Mutant, *engine.Baseline, engine.Stats, error) {
	c := report.Counts(verdicts)
	sink.emit(Event{Phase: PhaseEvaluate, Mutants: len(verdicts), Killed: c[report.Killed], Survived: c[report.Survived],
		Verdicts: append([]report.Mutant(nil), verdicts...),
		Message:  fmt.Sprintf("first verdicts, from the likely tests; %d more test classes complete them", len(first.Pending))})
	sink.emit(Event{Phase: PhaseBaseline, Message: fmt.Sprintf("running %d more test classes on the original", len(first.Pending))})
	base, err := engine.RunBaseline(ctx, proj, subj, suite)
	if err != nil {
		return verdicts, nil, stats, fmt.Errorf("completing the baseline: %w", err)
	}
	survivors := map[string]int{} // and timeouts
	for i, v := range verdicts {
		if v.Status == report.Survived || v.Status == report.Timeout {
			survivors[v.ID] = i
		}
	}
	var again []mutants.Mutant
	for _, m := range ms {
		if _, ok := survivors[m.ID]; ok {
			again = append(again, m)
		}
	}
	if len(again) == 0 {
		return verdicts, base, stats, nil
	}
	eopts.Schema = nil // prepared for every mutant: Evaluate builds the survivors' own
	more, st, err := engine.Evaluate(ctx, proj, subj, suite, base, again, eopts)
	for _, v := range more {
		if i, ok := survivors[v.ID]; ok {
			verdicts[i] = v
		}
	}
	stats.TestExecutions += st.TestExecutions
	stats.Wall += st.Wall
	return verdicts, base, stats, err
}
