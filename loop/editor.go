package loop

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/advertest/advertest-lsp/loop/agent"
	"github.com/advertest/advertest-lsp/loop/engine"
	"github.com/advertest/advertest-lsp/loop/mutants"
	"github.com/advertest/advertest-lsp/loop/report"
)

// This file holds the entry points an editor needs besides Run and Analyze: a mutation
// analysis that keeps a method's known mutants and generated suite (for on-save rounds), and
// one targeted T turn against one surviving mutant (the quick fix).

// AnalyzeOptions say what AnalyzeSuite plays.
type AnalyzeOptions struct {
	// Mutants are evaluated; nil means every rule-based mutant of the method that the
	// configuration's operators allow (as Analyze).
	Mutants []mutants.Mutant
	// GeneratedClass and GeneratedSource are the generated test class (its binary name and
	// source) that joins the project's tests; an empty GeneratedClass means none.
	GeneratedClass, GeneratedSource string
}

// Analysis is AnalyzeSuite's result: the report and the suite's run on the original (per-line
// coverage, failing tests; nil when the baseline did not run).
type Analysis struct {
	Report   *report.Report
	Baseline *engine.Baseline
}

// AnalyzeSuite is the mutation analysis behind `advertest mutate` and the server's
// analyzeMutants (through app.Core.Analyze): the rule-based mutants of the method (the
// operators of cfg.Operators, or the set opts chooses) played against the project's tests and,
// when opts carries one, the generated suite, with no generation. When ctx is cancelled it
// returns the partial analysis together with ctx's error.
func AnalyzeSuite(ctx context.Context, proj Project, t *Target, opts AnalyzeOptions, cfg Config, sink EventSink) (*Analysis, error) {
	start := time.Now()
	rep := &report.Report{Target: t.ReportTarget(proj.ModuleRoot())}
	out := &Analysis{Report: rep}
	ms := opts.Mutants
	if ms == nil {
		sel, err := cfg.Selection()
		if err != nil {
			return out, err
		}
		ms = AllRuleMutants(t, sel)
	}
	subj := t.Subject()
	generated := engine.Source{ClassName: opts.GeneratedClass, Text: opts.GeneratedSource}
	suite := engine.Suite{Tests: projectSuite(proj, generated.ClassName)}
	if generated.ClassName != "" {
		suite.Tests = append(suite.Tests, engine.TestID{Class: generated.ClassName})
		suite.Extra = []engine.Source{generated}
		rel := relPath(proj, proj.TestFileFor(packageOf(generated.ClassName), simpleName(generated.ClassName)))
		rep.Tests = report.Tests{File: &rel, Source: generated.Text}
	}
	if len(suite.Tests) == 0 {
		rep.Warnings = append(rep.Warnings, "the module has no test classes: every mutant survives")
	}
	sink.emit(Event{Phase: PhaseBaseline, Message: "running the suite on the original"})
	// The mutant schema compiles on the worker the baseline leaves idle.
	schemaCtx, stopSchema := context.WithCancel(ctx)
	defer stopSchema()
	eopts := engineOptions(cfg, true)
	eopts.Schema = engine.PrepareSchema(schemaCtx, proj, subj, suite, ms)
	// Without a coverage map the likely tests come first (docs/coverage-map.md).
	first := suite
	first.LikelyFirst = true
	base, err := engine.RunBaseline(ctx, proj, subj, first)
	if err != nil {
		return out, fmt.Errorf("baseline of %s: %w", rep.Target.Method, err)
	}
	out.Baseline = base
	rep.Timing.BaselineMs = base.Duration.Milliseconds()
	sink.emit(Event{Phase: PhaseMutants, Agent: "M", Mutants: len(ms), Message: fmt.Sprintf("%d mutants", len(ms))})
	eopts.Progress = func(done, total int) {
		sink.emit(Event{Phase: PhaseEvaluate, Done: done, Total: total, Mutants: total})
	}
	verdicts, stats, evalErr := engine.Evaluate(ctx, proj, subj, suite, base, ms, eopts)
	rebuilt := base.Map.Rebuilt
	if len(base.Pending) > 0 && evalErr == nil {
		rep.Timing.FirstVerdictsMs = time.Since(start).Milliseconds()
		var complete *engine.Baseline
		verdicts, complete, stats, evalErr = completeAnalysis(ctx, proj, subj, suite, base, ms, verdicts, stats, eopts, sink)
		if complete != nil {
			base = complete
			out.Baseline = base
			rep.Timing.BaselineMs += base.Duration.Milliseconds()
		}
	}
	var projectFailing []engine.TestID
	for _, id := range base.Failing {
		if id.Class == generated.ClassName {
			rep.Tests.FailingOnOriginal = append(rep.Tests.FailingOnOriginal, id.String())
		} else {
			projectFailing = append(projectFailing, id)
			rep.ProjectTestsFailing = append(rep.ProjectTestsFailing, report.TestNote{Test: id.String(), Reason: firstLine(base.Results[id].Message)})
		}
	}
	if w := projectFailingWarning(projectFailing, rep.ProjectTestsFailing); w != "" {
		rep.Warnings = append(rep.Warnings, w)
	}
	rep.Mutants = verdicts
	base.Describe(rep)
	if cm := rep.Timing.CoverageMap; cm != nil && cm.Rebuilt == "" {
		cm.Rebuilt = rebuilt // the first baseline's: the map was started there
	}
	rep.Rescore()
	rep.Rounds = []report.Round{{Index: 0, Agent: "M", MutationScore: rep.MutationScore,
		LineCoverage: base.LineCoverage, BranchCoverage: base.BranchCoverage, Mutants: len(verdicts), Tests: len(base.Results) + base.Map.NotRun}}
	rep.Timing.MutantsEvaluated = stats.Mutants
	rep.Timing.TestExecutions = stats.TestExecutions
	rep.Timing.MutantsMs = stats.Wall.Milliseconds()
	rep.Timing.TotalMs = time.Since(start).Milliseconds()
	if rep.MutationScore == nil && evalErr == nil {
		rep.Warnings = append(rep.Warnings, "no valid mutant: every mutant failed to compile or timed out")
	}
	c := report.Counts(verdicts)
	sink.emit(Event{Phase: PhaseDone, Mutants: len(verdicts), Killed: c[report.Killed], Survived: c[report.Survived], Score: rep.MutationScore, Verdicts: verdicts})
	return out, evalErr
}

// CarryMutants takes a method's known mutants across an edit of it: each is moved to the line
// that now holds its original text (dropped when none does), and the rule-based operators sel
// allows add new mutants on the lines whose text is new (not a line of oldMethodText).
func CarryMutants(t *Target, known []report.Mutant, oldMethodText string, sel mutants.Selection) []mutants.Mutant {
	old := map[string]bool{}
	for _, l := range strings.Split(oldMethodText, "\n") {
		old[strings.TrimSpace(l)] = true
	}
	var out []mutants.Mutant
	for _, k := range known {
		m := mutants.Mutant{ID: k.ID, Line: k.Line, Original: k.Original, Mutated: k.Mutated,
			Origin: mutants.Origin(k.Origin), Operator: k.Operator, Description: k.Description}
		if moved, ok := mutants.Relocate(t.Source, m, t.Method.StartLine, t.Method.EndLine); ok {
			out = append(out, moved)
		}
	}
	lines := t.Parsed.Lines()
	var changed []int
	for l := t.Method.StartLine; l <= t.Method.EndLine; l++ {
		if text := strings.TrimSpace(lines.LineText(l)); text != "" && !old[text] {
			changed = append(changed, l)
		}
	}
	if len(changed) > 0 {
		out = append(out, ruleMutants(t, sel, changed)...)
	}
	return dedupeMutants(out)
}

// Kill is the outcome of one targeted T turn.
type Kill struct {
	// Tests are the generated tests the engine confirmed: they pass on the original and at
	// least the first of them fails on the mutant. None when T found no way.
	Tests []agent.Test
	// Verdict is the mutant's verdict against the confirmed tests.
	Verdict report.Mutant
	// TestFile, FileText and Writable are as in Outcome: the confirmed tests merged into the
	// generated file (existing, when given).
	TestFile string
	FileText string
	Writable bool
	// Class is the generated class's binary name.
	Class string
	// Suite holds the confirmed tests (Tests), to merge into a newer text of the test file.
	Suite *Suite
}

// KillMutant plays one T turn against m: T writes tests meant to pass on the original and fail
// on m; those that compile and pass on the original are run against m, and only the ones
// that kill it are kept. existing is the generated test file's current text (an editor's
// buffer; nil: read from disk).
func KillMutant(ctx context.Context, proj Project, t *Target, m mutants.Mutant, tAgent agent.TestAgent, existing []byte, cfg Config) (*Kill, error) {
	g, err := newGame(proj, t, cfg, Agents{T: tAgent}, nil)
	if err != nil {
		return nil, err
	}
	if existing != nil && HasMarker(existing) {
		g.existingText = existing
	}
	kill := &Kill{Class: g.suite.BinaryName(), TestFile: g.testFile()}
	tests, err := tAgent.KillMutant(ctx, g.subject, m)
	if err != nil {
		return nil, fmt.Errorf("the test agent on mutant %s: %w", m.ID, err)
	}
	if err := g.addTests(ctx, tests); err != nil {
		return nil, err
	}
	kill.Verdict = report.Mutant{ID: m.ID, Line: m.Line, Original: m.Original, Mutated: m.Mutated, Origin: string(m.Origin),
		Operator: m.Operator, Description: m.Description, Status: report.Survived, KilledBy: []string{}}
	if len(g.suite.Tests) > 0 {
		// Only the new tests play: the confirmation must not lean on other tests.
		gen := engine.Source{ClassName: g.suite.BinaryName(), Text: g.suite.Source()}
		suite := engine.Suite{Tests: []engine.TestID{{Class: gen.ClassName}}, Extra: []engine.Source{gen}}
		base, err := engine.RunBaseline(ctx, proj, t.Subject(), suite)
		if err != nil {
			return nil, err
		}
		var failing []string
		for _, id := range base.Failing {
			failing = append(failing, id.Method)
		}
		g.suite.Remove(failing...)
		if len(g.suite.Tests) > 0 {
			gen.Text = g.suite.Source()
			suite.Extra = []engine.Source{gen}
			if len(failing) > 0 {
				if base, err = engine.RunBaseline(ctx, proj, t.Subject(), suite); err != nil {
					return nil, err
				}
			}
			vs, _, err := engine.Evaluate(ctx, proj, t.Subject(), suite, base, []mutants.Mutant{m}, engineOptions(cfg, false))
			if err != nil {
				return nil, err
			}
			if len(vs) == 1 {
				kill.Verdict = vs[0]
			}
		}
	}
	if kill.Verdict.Status == report.Killed {
		keep := map[string]bool{}
		for _, k := range kill.Verdict.KilledBy {
			keep[k[strings.LastIndexByte(k, '.')+1:]] = true
		}
		var drop []string
		for _, tt := range g.suite.Tests {
			if !keep[tt.Name] {
				drop = append(drop, tt.Name)
			}
		}
		g.suite.Remove(drop...)
		kill.Tests = append(kill.Tests, g.suite.Tests...)
	} else {
		g.suite.Tests = nil
	}
	out := g.outcome()
	kill.FileText, kill.Writable, kill.Suite = out.FileText, out.Writable, g.suite
	return kill, nil
}

func packageOf(binary string) string {
	if i := strings.LastIndexByte(binary, '.'); i >= 0 {
		return binary[:i]
	}
	return ""
}

func simpleName(binary string) string { return binary[strings.LastIndexByte(binary, '.')+1:] }

// Round is one more T and M exchange on a method that has been played before and has
// changed since: its known mutants are carried to the new text (new ones join on the changed
// lines), T writes tests against those that survived, M adds mutants on their lines, and one
// evaluation of every mutant against the suite (the project's tests, the existing generated
// file and T's new tests) gives the verdicts. existing is the generated test file's text (an
// editor's buffer; nil: read from disk). When ctx is cancelled it returns the partial outcome
// together with ctx's error.
func Round(ctx context.Context, proj Project, t *Target, known []report.Mutant, oldMethodText string, existing []byte, cfg Config, agents Agents, sink EventSink) (*Outcome, error) {
	start := time.Now()
	sel, err := cfg.Selection()
	if err != nil {
		return nil, err
	}
	g, err := newGame(proj, t, cfg, agents, sink)
	if err != nil {
		return nil, err
	}
	if existing != nil && HasMarker(existing) {
		g.existingText = existing
	}
	survived := map[string]bool{}
	for _, k := range known {
		survived[k.ID] = k.Status == report.Survived
	}
	g.addMutants(CarryMutants(t, known, oldMethodText, sel))
	for _, m := range g.pool {
		if survived[m.ID] {
			g.verdicts[m.ID] = report.Mutant{ID: m.ID, Line: m.Line, Original: m.Original, Mutated: m.Mutated, Status: report.Survived}
		}
	}
	err = func() error {
		if err := g.testMove(ctx, 1, 2); err != nil {
			return err
		}
		if err := g.mutantMove(ctx, 2, 2); err != nil {
			return err
		}
		// The method changed: every verdict is given again.
		g.verdicts, g.digests = map[string]report.Mutant{}, map[string]string{}
		if err := g.evaluate(ctx, 2, "M", 2); err != nil {
			return err
		}
		return g.finish(ctx)
	}()
	out := g.outcome()
	out.Report.Timing.TotalMs = time.Since(start).Milliseconds()
	c := report.Counts(out.Report.Mutants)
	sink.emit(Event{Phase: PhaseDone, Mutants: len(out.Report.Mutants), Killed: c[report.Killed], Survived: c[report.Survived], Score: out.Report.MutationScore})
	return out, err
}

// projectFailingWarning is the one warning about the project's tests that fail on the original,
// ids, with notes their entries in the report ("" when none does): the test and why when it is
// one, else their count and the classes with the most of them, by simple name.
func projectFailingWarning(ids []engine.TestID, notes []report.TestNote) string {
	switch len(ids) {
	case 0:
		return ""
	case 1:
		return fmt.Sprintf("test %s of the project fails on the original: it cannot kill mutants (%s)", notes[0].Test, notes[0].Reason)
	}
	perClass := map[string]int{}
	for _, id := range ids {
		class := id.Class
		if i := strings.LastIndexAny(class, ".$"); i >= 0 {
			class = class[i+1:]
		}
		perClass[class]++
	}
	classes := make([]string, 0, len(perClass))
	for c := range perClass {
		classes = append(classes, c)
	}
	sort.Slice(classes, func(i, j int) bool {
		a, b := classes[i], classes[j]
		return perClass[a] > perClass[b] || perClass[a] == perClass[b] && a < b
	})
	const shown = 3
	parts := make([]string, 0, shown+1)
	for i, c := range classes {
		if i == shown {
			parts = append(parts, "…")
			break
		}
		parts = append(parts, fmt.Sprintf("%s: %d", c, perClass[c]))
	}
	return fmt.Sprintf("%d tests of the project fail on the original (%s): they cannot kill mutants; the report lists them (projectTestsFailingOnOriginal)",
		len(ids), strings.Join(parts, ", "))
}
