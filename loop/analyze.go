package loop

import (
	"context"
	"fmt"
	"runtime"
	"strings"
	"time"

	"github.com/advertest/advertest-lsp/buildtools"
	"github.com/advertest/advertest-lsp/buildtools/harness"
	"github.com/advertest/advertest-lsp/loop/engine"
	"github.com/advertest/advertest-lsp/loop/mutants"
	"github.com/advertest/advertest-lsp/loop/report"
)

// Analyze is the mutation analysis behind `advertest mutate` and the server's analyzeMutants:
// the rule-based mutants of the method (every operator, on every line of it) played against
// the project's existing tests, with no generation. When ctx is cancelled it returns the
// partial report together with ctx's error.
func Analyze(ctx context.Context, proj *buildtools.Project, t *Target, cfg Config, sink EventSink) (*report.Report, error) {
	start := time.Now()
	rep := &report.Report{Target: t.ReportTarget(proj.Module.Root)}
	subj := t.Subject()
	suite := engine.Suite{Tests: ClassTests(proj.TestClasses)}
	if len(suite.Tests) == 0 {
		rep.Warnings = append(rep.Warnings, "the module has no test classes: every mutant survives")
	}

	sink.emit(Event{Phase: PhaseBaseline, Message: "running the existing tests on the original"})
	base, err := engine.RunBaseline(ctx, proj.Pool, subj, suite)
	if err != nil {
		return rep, fmt.Errorf("baseline of %s: %w", rep.Target.Method, err)
	}
	rep.Timing.BaselineMs = base.Duration.Milliseconds()
	for _, id := range base.Failing {
		rep.Warnings = append(rep.Warnings, fmt.Sprintf("test %s fails on the original: it cannot kill mutants (%s)", id, firstLine(base.Results[id].Message)))
	}

	ms := AllRuleMutants(t)
	sink.emit(Event{Phase: PhaseMutants, Agent: "M", Mutants: len(ms), Message: fmt.Sprintf("%d rule-based mutants", len(ms))})

	verdicts, stats, evalErr := engine.Evaluate(ctx, proj.Pool, subj, suite, base, ms, engine.Options{
		Parallelism:     workers(cfg),
		TimeoutFactor:   cfg.MutantTimeoutFactor,
		TimeoutConstant: cfg.MutantTimeoutConstant,
		Progress: func(done, total int) {
			sink.emit(Event{Phase: PhaseEvaluate, Done: done, Total: total, Mutants: total})
		},
	})
	rep.Mutants = verdicts
	rep.MutationScore = report.Score(verdicts)
	rep.LineCoverage = base.LineCoverage
	rep.BranchCoverage = base.BranchCoverage
	rep.Rounds = []report.Round{{
		Index: 0, Agent: "M", MutationScore: rep.MutationScore,
		LineCoverage: base.LineCoverage, BranchCoverage: base.BranchCoverage,
		Mutants: len(verdicts), Tests: len(base.Results),
	}}
	rep.Timing.MutantsEvaluated = stats.Mutants
	rep.Timing.TestExecutions = stats.TestExecutions
	rep.Timing.MutantsMs = stats.Wall.Milliseconds()
	rep.Timing.TotalMs = time.Since(start).Milliseconds()
	if rep.MutationScore == nil && evalErr == nil {
		rep.Warnings = append(rep.Warnings, "no valid mutant: every mutant failed to compile or timed out")
	}
	c := report.Counts(verdicts)
	sink.emit(Event{Phase: PhaseDone, Mutants: len(verdicts), Killed: c[report.Killed], Survived: c[report.Survived], Score: rep.MutationScore})
	if evalErr != nil {
		return rep, evalErr
	}
	return rep, nil
}

// Subject is the target as the engine sees it.
func (t *Target) Subject() engine.Subject {
	return engine.Subject{
		Class:     t.Method.TopLevelClass,
		Source:    t.Source,
		StartLine: t.Method.StartLine,
		EndLine:   t.Method.EndLine,
	}
}

// AllRuleMutants is every rule-based mutant of the method: the default group and the strong
// operators, on every line.
func AllRuleMutants(t *Target) []mutants.Mutant {
	ms := mutants.Generate(t.Parsed, t.Method, mutants.Options{})
	return dedupeMutants(append(ms, mutants.Generate(t.Parsed, t.Method, mutants.Options{Strong: true})...))
}

func dedupeMutants(ms []mutants.Mutant) []mutants.Mutant {
	seen := map[string]bool{}
	out := ms[:0:0]
	for _, m := range ms {
		if seen[m.ID] {
			continue
		}
		seen[m.ID] = true
		out = append(out, m)
	}
	return out
}

// ClassTests turns test class names into suite entries that stand for every test of a class.
func ClassTests(classes []string) []harness.TestID {
	ids := make([]harness.TestID, len(classes))
	for i, c := range classes {
		ids[i] = harness.TestID{Class: c}
	}
	return ids
}

func workers(cfg Config) int {
	if cfg.Workers > 0 {
		return cfg.Workers
	}
	return runtime.NumCPU()
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}
