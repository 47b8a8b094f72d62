package loop

import (
	"context"
	"errors"
	"fmt"
	"os"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/advertest/advertest-lsp/javaparse"
	"github.com/advertest/advertest-lsp/loop/agent"
	"github.com/advertest/advertest-lsp/loop/engine"
	"github.com/advertest/advertest-lsp/loop/mutants"
	"github.com/advertest/advertest-lsp/loop/report"
)

// Agents are the two players of a run.
type Agents struct {
	T agent.TestAgent
	M agent.MutantAgent
	// Judge, when set, is asked after the game about the survivors T could not kill (see
	// judge.go).
	Judge agent.Judge
}

// UsageReporter is a player that adds its own figures to the report's llm section (the LLM's
// agents: what became of the tests and mutants the model wrote).
type UsageReporter interface {
	ReportUsage(*report.LLM)
}

// Outcome is what a run produced besides its report: the suite and where it belongs.
type Outcome struct {
	Report *report.Report
	Suite  *Suite
	// TestFile is the generated test file's absolute path; FileText is the text to write
	// there (the suite alone for a new file, merged into the existing generated file
	// otherwise). Writable is false when a file without the marker holds that path.
	TestFile string
	FileText string
	Writable bool
	// Baseline is the last evaluation's run of the suite on the original (nil when the game
	// stopped before one): per-line coverage, the tests failing on the original.
	Baseline *engine.Baseline
}

// game is the state of one run of Algorithm 2.
type game struct {
	proj    Project
	target  *Target
	cfg     Config
	agents  Agents
	sink    EventSink
	subject *agent.Subject
	suite   *Suite

	// existingText is the generated test file already on disk (with the marker), if any: its
	// tests run as part of the generated class, merged with the new ones.
	existingText []byte
	// pool holds every mutant in the order they were proposed; verdicts their last verdict.
	pool     []mutants.Mutant
	verdicts map[string]report.Mutant
	// digests are the mutants' bytecode digests (engine.Stats.Digests), by id.
	digests map[string]string
	base    *engine.Baseline
	rounds  []report.Round
	rep     *report.Report
	stats   engine.Stats
	dropped int

	// targeted are the mutants T was asked to kill; equivalence the judge's verdicts, and
	// judged its counts (nil when no judge played).
	targeted    map[string]bool
	equivalence map[string]*report.Equivalence
	judged      *report.LLMJudge
	// noTestWhy says, by mutant, why T's last request for it gave no test (agent.Explainer);
	// searched holds the likely equivalences that T's search found on the way (the infection
	// counts of agent.Evidence).
	noTestWhy map[string]string
	searched  map[string]*report.Equivalence
	// bounded are the mutants whose kill attempt hit a harness bound (memory, time, an
	// assumption the worker could not meet): T is not asked about them again.
	bounded map[string]bool
	// droppedTests are the tests the game dropped (they did not compile in the suite), with
	// why; leftOut the new tests the minimal suite left out (minimal.go).
	droppedTests []report.TestNote
	leftOut      []string
	// reporter is T as an agent.AttemptReporter (nil when it is not one).
	reporter agent.AttemptReporter
}

// Run plays the adversarial game of the paper's Algorithm 2 on the target method: T's and M's
// initial moves in parallel, an evaluation, then cfg.Rounds actions alternating T (tests
// against each surviving mutant) and M (mutants on uncovered lines and the survivors' lines),
// T last, each followed by an evaluation; the last evaluation is the report's. When ctx is
// cancelled it returns the partial outcome together with ctx's error.
func Run(ctx context.Context, proj Project, t *Target, cfg Config, agents Agents, sink EventSink) (*Outcome, error) {
	return RunFrom(ctx, proj, t, nil, cfg, agents, sink)
}

// RunFrom is Run starting from a suite so far: existing is the generated test file's text
// (with the marker) that the game's tests merge into and run with, instead of the file on
// disk; the methods of one class played in turn pass it on, so that the class's suite grows
// method by method. nil (or a text without the marker) reads the file on disk, as Run.
func RunFrom(ctx context.Context, proj Project, t *Target, existing []byte, cfg Config, agents Agents, sink EventSink) (*Outcome, error) {
	start := time.Now()
	g, err := newGame(proj, t, cfg, agents, sink)
	if err != nil {
		return nil, err
	}
	if existing != nil && HasMarker(existing) {
		g.existingText = existing
	}
	err = g.play(ctx)
	out := g.outcome()
	out.Report.Timing.TotalMs = time.Since(start).Milliseconds()
	c := report.Counts(out.Report.Mutants)
	sink.emit(Event{Phase: PhaseDone, Mutants: len(out.Report.Mutants), Killed: c[report.Killed], Survived: c[report.Survived], Score: out.Report.MutationScore})
	return out, err
}

func newGame(proj Project, t *Target, cfg Config, agents Agents, sink EventSink) (*game, error) {
	pctx := t.Parsed.Context(t.Method)
	junit := proj.JUnitVersion()
	className := agent.TestClassName(t.Method.TopLevelClass)
	g := &game{
		proj: proj, target: t, cfg: cfg, agents: agents, sink: sink,
		subject: &agent.Subject{
			File: t.File, Source: t.Source, Parsed: t.Parsed, Method: t.Method, Context: pctx,
			JUnit: junit, MockitoVersion: proj.MockitoVersion(), TestClassName: className,
		},
		suite:       &Suite{Package: pctx.Package, ClassName: className, JUnit: junit},
		verdicts:    map[string]report.Mutant{},
		digests:     map[string]string{},
		rep:         &report.Report{Target: t.ReportTarget(proj.ModuleRoot())},
		targeted:    map[string]bool{},
		noTestWhy:   map[string]string{},
		searched:    map[string]*report.Equivalence{},
		bounded:     map[string]bool{},
		equivalence: map[string]*report.Equivalence{},
	}
	g.reporter, _ = agents.T.(agent.AttemptReporter)
	if b, err := os.ReadFile(g.testFile()); err == nil {
		if HasMarker(b) {
			g.existingText = b
		} else {
			g.warn(fmt.Sprintf("%s exists and was not generated by AdverTest: the suite is not written there", g.relTestFile()))
		}
	}
	return g, nil
}

func (g *game) testFile() string {
	return g.proj.TestFileFor(g.suite.Package, g.suite.ClassName)
}

func (g *game) relTestFile() string { return relPath(g.proj, g.testFile()) }

// warn adds a warning to the report once: a reason that holds for every turn (T cannot drive
// the method) is said once per method, not once per turn.
func (g *game) warn(msg string) {
	if !slices.Contains(g.rep.Warnings, msg) {
		g.rep.Warnings = append(g.rep.Warnings, msg)
	}
}

func (g *game) play(ctx context.Context) error {
	rounds := g.cfg.EffectiveRounds()
	deadline := time.Time{}
	if g.cfg.TimeLimit > 0 {
		deadline = time.Now().Add(g.cfg.TimeLimit)
	}

	// The initial moves, in parallel.
	g.sink.emit(Event{Phase: PhaseTests, Round: 0, Rounds: rounds, Agent: "T+M", Message: "initial moves"})
	var (
		wg         sync.WaitGroup
		tests      []agent.Test
		ms         []mutants.Mutant
		tErr, mErr error
	)
	wg.Add(2)
	var tWhy agent.Evidence
	go func() { defer wg.Done(); tests, tWhy, tErr = g.initialSuite(ctx) }()
	go func() { defer wg.Done(); ms, mErr = g.agents.M.InitialMutants(ctx, g.subject) }()
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return err
	}
	if mErr != nil {
		return fmt.Errorf("the mutant agent's first move: %w", mErr)
	}
	if tErr != nil {
		if !g.agentCannot(tErr) {
			return fmt.Errorf("the test agent's first move: %w", tErr)
		}
	}
	if tErr == nil && len(tests) == 0 && tWhy.Why != "" {
		g.warn(NoTestWarningPrefix + " initial test for this method: " + tWhy.String())
	}
	if err := g.addTests(ctx, tests); err != nil {
		return err
	}
	g.addMutants(ms)
	if err := g.evaluate(ctx, 0, "T+M", rounds); err != nil {
		return err
	}

	for i := 1; i <= rounds; i++ {
		if !deadline.IsZero() && time.Now().After(deadline) {
			g.warn(fmt.Sprintf(StoppedWarningPrefix+"after %d of %d actions: the time limit of %s was reached", i-1, rounds, g.cfg.TimeLimit))
			break
		}
		if g.cfg.Budget != nil {
			if err := g.cfg.Budget(); err != nil {
				g.warn(fmt.Sprintf(StoppedWarningPrefix+"after %d of %d actions: %v", i-1, rounds, err))
				break
			}
		}
		agentName := "T"
		if i%2 == 0 {
			agentName = "M"
		}
		if agentName == "T" {
			if err := g.testMove(ctx, i, rounds); err != nil {
				return err
			}
		} else {
			if err := g.mutantMove(ctx, i, rounds); err != nil {
				return err
			}
		}
		if err := g.evaluate(ctx, i, agentName, rounds); err != nil {
			return err
		}
	}
	if err := g.judge(ctx, rounds); err != nil {
		return err
	}
	return g.finish(ctx)
}

// finish readies the suite to be written: the minimal suite (minimal.go), then the new tests
// that fail on the original disabled, with their failure as the reason (possible bugs).
func (g *game) finish(ctx context.Context) error {
	if err := g.minimize(ctx); err != nil {
		return err
	}
	g.disableFailing()
	return nil
}

// disableFailing marks the new tests that fail on the original (the last evaluation's run) to
// be written disabled: the user's build stays green, the report and the editor show them as
// possible bugs.
func (g *game) disableFailing() {
	if g.base == nil {
		return
	}
	gen := g.suite.BinaryName()
	byRun := map[string]string{}
	for name, run := range g.runNames() {
		byRun[run] = name
	}
	for _, id := range g.base.Failing {
		name, ok := byRun[id.Method]
		if id.Class != gen || !ok {
			continue
		}
		g.suite.Disable(name, "it fails on the current code: "+firstLine(g.base.Results[id].Message))
	}
}

// StoppedWarningPrefix begins the report's warning that says the game, or its judge, stopped
// early (a budget spent, the time limit reached): the editor shows it as a message.
const StoppedWarningPrefix = "stopped "

// agentCannot records an agent's refusal (a method it cannot drive) as a warning; it reports
// whether err was such a refusal.
func (g *game) agentCannot(err error) bool {
	if errors.Is(err, agent.ErrCannotDrive) {
		g.warn("the test agent cannot drive this method: " + err.Error())
		return true
	}
	return false
}

// NoTestWarningPrefix begins the report's warnings that say why T wrote no test for the method
// or for surviving mutants (the editor shows them as messages).
const NoTestWarningPrefix = "the test agent wrote no"

// initialSuite is T's first move, with why it wrote no test when T can say (agent.Explainer).
func (g *game) initialSuite(ctx context.Context) ([]agent.Test, agent.Evidence, error) {
	if x, ok := g.agents.T.(agent.Explainer); ok {
		return x.ExplainedInitialSuite(ctx, g.subject)
	}
	tests, err := g.agents.T.InitialSuite(ctx, g.subject)
	return tests, agent.Evidence{}, err
}

// killMutant is T's request about one mutant, with why it wrote no test when T can say.
func (g *game) killMutant(ctx context.Context, m mutants.Mutant) ([]agent.Test, agent.Evidence, error) {
	if x, ok := g.agents.T.(agent.Explainer); ok {
		return x.ExplainedKillMutant(ctx, g.subject, m)
	}
	tests, err := g.agents.T.KillMutant(ctx, g.subject, m)
	return tests, agent.Evidence{}, err
}

// SearchEquivalence is the likely equivalence that a search's evidence supports, or nil: only
// a site that the inputs reached, whose value they changed on some, and whose change no outcome
// showed (agent.Infection.LikelyEquivalent). A site never infected is no evidence: the search
// did not reach the state that would tell the two apart.
func SearchEquivalence(e agent.Evidence) *report.Equivalence {
	if e.Infection == nil || !e.Infection.LikelyEquivalent() {
		return nil
	}
	return &report.Equivalence{Verdict: report.VerdictLikelyEquivalent, By: report.BySearch, Evidence: e.Infection.Summary()}
}

// warnNoTests says, once per reason, why T wrote no test for the mutants that still survive.
func (g *game) warnNoTests(rep *report.Report) {
	byWhy := map[string][]string{}
	var order []string
	for _, m := range rep.Mutants {
		why, ok := g.noTestWhy[m.ID]
		if !ok || m.Status != report.Survived {
			continue
		}
		if _, seen := byWhy[why]; !seen {
			order = append(order, why)
		}
		byWhy[why] = append(byWhy[why], m.ID)
	}
	for _, why := range order {
		ids := byWhy[why]
		g.warn(fmt.Sprintf("%s test for %d surviving mutant(s) (%s): %s", NoTestWarningPrefix, len(ids), strings.Join(ids, ", "), why))
	}
}

// targets are the survivors T is asked about: those that nothing says already are equivalent
// (an earlier run's verdict, T's own answer, the judge's, the search's evidence; bytecode
// equivalence leaves no survivor) and whose earlier attempt hit no harness bound.
func (g *game) targets() []mutants.Mutant {
	var out []mutants.Mutant
	for _, m := range g.survivors() {
		if g.cfg.Judged[m.ID] || g.equivalence[m.ID] != nil || g.searched[m.ID] != nil || g.bounded[m.ID] {
			continue
		}
		out = append(out, m)
	}
	return out
}

// testMove is T's action: one request per surviving mutant that may still be killed.
func (g *game) testMove(ctx context.Context, round, rounds int) error {
	survivors := g.targets()
	g.sink.emit(Event{Phase: PhaseTests, Round: round, Rounds: rounds, Agent: "T", Total: len(survivors),
		Message: fmt.Sprintf("tests against %d surviving mutants", len(survivors))})
	var tests []agent.Test
	for i, m := range survivors {
		if err := ctx.Err(); err != nil {
			return err
		}
		g.targeted[m.ID] = true
		ts, why, err := g.killMutant(ctx, m)
		if err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			if g.agentCannot(err) {
				break
			}
			return fmt.Errorf("the test agent on mutant %s: %w", m.ID, err)
		}
		tests = append(tests, ts...)
		delete(g.noTestWhy, m.ID)
		delete(g.searched, m.ID)
		if g.reporter != nil {
			att := g.reporter.LastAttempt(g.subject, m.ID)
			if att.Equivalent != "" {
				// A hint, as the judge's: the mutant stays a survivor and is not asked again.
				g.equivalence[m.ID] = &report.Equivalence{Verdict: report.VerdictLikelyEquivalent, By: report.ByLLM, Evidence: att.Equivalent}
			}
			if att.Bound != "" {
				g.bounded[m.ID] = true
			}
		}
		if len(ts) == 0 && why.Why != "" {
			g.noTestWhy[m.ID] = why.String()
			if eq := SearchEquivalence(why); eq != nil {
				g.searched[m.ID] = eq
			}
		}
		g.sink.emit(Event{Phase: PhaseTests, Round: round, Rounds: rounds, Agent: "T", Done: i + 1, Total: len(survivors)})
	}
	return g.addTests(ctx, tests)
}

// mutantMove is M's action: new mutants on uncovered lines and on the survivors' lines.
func (g *game) mutantMove(ctx context.Context, round, rounds int) error {
	g.sink.emit(Event{Phase: PhaseMutants, Round: round, Rounds: rounds, Agent: "M", Message: "mutants on the suite's blind spots"})
	fb := agent.Feedback{Survivors: g.survivors(), Known: append([]mutants.Mutant(nil), g.pool...)}
	if g.base != nil {
		fb.UncoveredLines = g.base.UncoveredLines
	}
	ms, err := g.agents.M.MoreMutants(ctx, g.subject, fb)
	if err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return fmt.Errorf("the mutant agent: %w", err)
	}
	g.addMutants(ms)
	return nil
}

func (g *game) survivors() []mutants.Mutant {
	var out []mutants.Mutant
	for _, m := range g.pool {
		if v, ok := g.verdicts[m.ID]; ok && v.Status == report.Survived && !g.cfg.Ignore[m.ID] {
			out = append(out, m)
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Line < out[j].Line })
	return out
}

func (g *game) addMutants(ms []mutants.Mutant) {
	seen := map[string]bool{}
	for _, m := range g.pool {
		seen[m.ID] = true
	}
	for _, m := range ms {
		if !seen[m.ID] {
			seen[m.ID] = true
			g.pool = append(g.pool, m)
		}
	}
}

// generatedSource is the generated class as the runs see it: the existing generated file with
// the new tests merged in, or the suite alone.
func (g *game) generatedSource() string {
	if g.existingText != nil {
		if text, _, err := g.suite.Merge(g.existingText); err == nil {
			return text
		}
	}
	return g.suite.Source()
}

// suiteForRuns is the project's tests plus the generated class.
func (g *game) suiteForRuns() engine.Suite {
	gen := g.suite.BinaryName()
	// The generated file on disk runs as part of the in-memory class.
	s := engine.Suite{Tests: projectSuite(g.proj, gen)}
	if len(g.suite.Tests) > 0 || g.existingText != nil {
		s.Tests = append(s.Tests, engine.TestID{Class: gen})
		s.Extra = []engine.Source{{ClassName: gen, Text: g.generatedSource()}}
	}
	return s
}

// addTests puts T's tests into the suite, keeping only those that compile: a test that the
// compiler rejects is dropped and counted (the LLM agents repair before they hand tests over).
func (g *game) addTests(ctx context.Context, tests []agent.Test) error {
	kept := g.suite.Add(tests...)
	if len(kept) == 0 {
		return nil
	}
	subject := engine.Source{ClassName: g.target.Method.TopLevelClass, Text: string(g.target.Source)}
	for attempt := 0; attempt < len(kept)+1; attempt++ {
		gen := engine.Source{ClassName: g.suite.BinaryName(), Text: g.generatedSource()}
		cr, err := g.proj.Compile(ctx, []engine.Source{subject, gen})
		if err != nil {
			return fmt.Errorf("compiling the generated tests: %w", err)
		}
		if cr.OK {
			return nil
		}
		bad := map[string]string{}
		first := ""
		for _, d := range cr.Diagnostics {
			if d.Kind != "" && !strings.EqualFold(d.Kind, "error") {
				continue
			}
			msg := fmt.Sprintf("line %d: %s", d.Line, firstLine(d.Message))
			if first == "" {
				first = msg
			}
			if name := g.methodAtGeneratedLine(gen.Text, d.Line); name != "" && bad[name] == "" {
				bad[name] = msg
			}
		}
		var drop []string
		for _, t := range kept {
			if bad[t.Name] != "" {
				drop = append(drop, t.Name)
			}
		}
		if len(drop) == 0 {
			// The error is not inside a new test: drop the whole batch rather than break the suite.
			for _, t := range kept {
				drop = append(drop, t.Name)
				bad[t.Name] = "the suite did not compile with it: " + first
			}
		}
		for _, name := range drop {
			note := report.TestNote{Test: name, Reason: "did not compile in the suite: " + bad[name]}
			g.droppedTests = append(g.droppedTests, note)
			if g.reporter != nil {
				g.reporter.TestDropped(g.subject, agent.DroppedTest{Name: name, Reason: note.Reason})
			}
		}
		g.suite.Remove(drop...)
		g.dropped += len(drop)
		kept = remaining(kept, drop)
		if len(kept) == 0 {
			return nil
		}
	}
	return nil
}

// methodAtGeneratedLine names the test method of the generated class that holds line.
func (g *game) methodAtGeneratedLine(src string, line int) string {
	pf, err := javaparse.Parse([]byte(src))
	if err != nil {
		return ""
	}
	if m := pf.MethodAtLine(line); m != nil {
		return m.Name
	}
	return ""
}

func remaining(tests []agent.Test, drop []string) []agent.Test {
	d := map[string]bool{}
	for _, n := range drop {
		d[n] = true
	}
	var out []agent.Test
	for _, t := range tests {
		if !d[t.Name] {
			out = append(out, t)
		}
	}
	return out
}

// evaluate runs the suite on the original with coverage, then gives a verdict to every mutant
// that has none or survived so far (a killed mutant stays killed: the suite only grows).
func (g *game) evaluate(ctx context.Context, round int, agentName string, rounds int) error {
	suite := g.suiteForRuns()
	subj := g.target.Subject()
	var todo []mutants.Mutant
	for _, m := range g.pool {
		v, ok := g.verdicts[m.ID]
		if !ok || v.Status == report.Survived {
			todo = append(todo, m)
		}
	}
	g.sink.emit(Event{Phase: PhaseBaseline, Round: round, Rounds: rounds, Agent: agentName, Message: "running the suite on the original"})
	// The mutant schema compiles on the worker the baseline leaves idle.
	schemaCtx, stopSchema := context.WithCancel(ctx)
	defer stopSchema()
	opts := engineOptions(g.cfg, true)
	opts.Schema = engine.PrepareSchema(schemaCtx, g.proj, subj, suite, todo)
	base, err := engine.RunBaseline(ctx, g.proj, subj, suite)
	if err != nil {
		return fmt.Errorf("running the suite on the original: %w", err)
	}
	g.base = base
	g.rep.Timing.BaselineMs += base.Duration.Milliseconds()
	opts.Progress = func(done, total int) {
		g.sink.emit(Event{Phase: PhaseEvaluate, Round: round, Rounds: rounds, Agent: agentName, Done: done, Total: total, Mutants: len(g.pool)})
	}
	opts.Known = g.knownBytecode(todo)
	verdicts, st, err := engine.Evaluate(ctx, g.proj, subj, suite, base, todo, opts)
	for _, v := range verdicts {
		g.verdicts[v.ID] = v
	}
	for id, d := range st.Digests {
		g.digests[id] = d
	}
	g.stats.Mutants += st.Mutants
	g.stats.TestExecutions += st.TestExecutions
	g.stats.Wall += st.Wall
	all := g.currentVerdicts()
	score := report.Score(all)
	g.rounds = append(g.rounds, report.Round{
		Index: round, Agent: agentName, MutationScore: score,
		LineCoverage: base.LineCoverage, BranchCoverage: base.BranchCoverage,
		Mutants: len(all), Tests: len(g.suite.Tests),
	})
	c := report.Counts(all)
	g.sink.emit(Event{Phase: PhaseEvaluate, Round: round, Rounds: rounds, Agent: agentName, Done: len(todo), Total: len(todo),
		Mutants: len(all), Killed: c[report.Killed], Survived: c[report.Survived], Score: score, Verdicts: all,
		Message: fmt.Sprintf("round %d/%d · %d mutants · %s", round, rounds, len(all), scoreText(score))})
	return err
}

// knownBytecode maps the digests of the mutants an evaluation of todo leaves alone, killed or
// timed out in an earlier round, to their ids (the first in the pool's order): a new mutant
// with one of them is their duplicate.
func (g *game) knownBytecode(todo []mutants.Mutant) map[string]string {
	again := map[string]bool{}
	for _, m := range todo {
		again[m.ID] = true
	}
	known := map[string]string{}
	for _, m := range g.pool {
		v, ok := g.verdicts[m.ID]
		d := g.digests[m.ID]
		if !ok || again[m.ID] || d == "" || known[d] != "" || (v.Status != report.Killed && v.Status != report.Timeout) {
			continue
		}
		known[d] = m.ID
	}
	return known
}

func scoreText(s *float64) string {
	if s == nil {
		return "no valid mutant"
	}
	return fmt.Sprintf("score %.0f%%", 100**s)
}

func (g *game) currentVerdicts() []report.Mutant {
	var out []report.Mutant
	for _, m := range g.pool {
		if v, ok := g.verdicts[m.ID]; ok {
			out = append(out, v)
		}
	}
	return out
}

// outcome assembles the report from the game's state, whatever point it reached.
func (g *game) outcome() *Outcome {
	rep := g.rep
	rep.Mutants = g.currentVerdicts()
	g.attachEquivalence(rep)
	if g.base != nil {
		g.base.Describe(rep)
	}
	rep.Rescore()
	rep.Rounds = g.rounds
	rel := g.relTestFile()
	source := g.generatedSource()
	rep.Tests = report.Tests{File: &rel, Source: source, Methods: g.suite.TestNames()}
	g.describeTests(rep)
	g.warnNoTests(rep)
	if n := len(rep.Tests.FailingOnOriginal); n > 0 {
		g.warn(fmt.Sprintf("%d generated test(s) fail on the current code: possible bugs, written disabled with the reason (tests.disabled)", n))
	}
	if g.dropped > 0 {
		g.warn(fmt.Sprintf("%d generated test(s) did not compile in the suite and were dropped (tests.dropped)", g.dropped))
	}
	if rep.MutationScore == nil && len(rep.Mutants) > 0 {
		g.warn("no valid mutant: every mutant failed to compile or timed out")
	}
	if g.cfg.Usage != nil {
		rep.LLM = g.cfg.Usage()
	}
	for _, player := range []any{g.agents.T, g.agents.M} {
		if r, ok := player.(UsageReporter); ok {
			r.ReportUsage(&rep.LLM)
		}
	}
	if g.judged != nil {
		counts := *g.judged
		rep.LLM.Judge = &counts
	}
	rep.Timing.MutantsEvaluated = g.stats.Mutants
	rep.Timing.TestExecutions = g.stats.TestExecutions
	rep.Timing.MutantsMs = g.stats.Wall.Milliseconds()
	out := &Outcome{Report: rep, Suite: g.suite, TestFile: g.testFile(), FileText: source, Baseline: g.base}
	_, statErr := os.Stat(g.testFile())
	out.Writable = g.existingText != nil || os.IsNotExist(statErr)
	return out
}

// describeTests puts into the report what became of the generated tests: the possible bugs
// (disabled, or failing on the original), the tests the agents and the game dropped, with why,
// and those the minimal suite left out.
func (g *game) describeTests(rep *report.Report) {
	q := g.suite.BinaryName()
	failing := map[string]bool{}
	if g.base != nil {
		for _, id := range g.base.Failing {
			if id.Class == q {
				failing[id.Method] = true
			}
		}
	}
	runNames := g.runNames()
	for _, t := range g.suite.Tests {
		switch {
		case t.Disabled != "":
			rep.Tests.Disabled = append(rep.Tests.Disabled, report.TestNote{Test: q + "." + t.Name, Reason: t.Disabled})
			rep.Tests.FailingOnOriginal = append(rep.Tests.FailingOnOriginal, q+"."+t.Name)
		case failing[runNames[t.Name]]:
			rep.Tests.FailingOnOriginal = append(rep.Tests.FailingOnOriginal, q+"."+t.Name)
		}
	}
	if g.reporter != nil {
		for _, d := range g.reporter.DroppedTests(g.subject) {
			rep.Tests.Dropped = append(rep.Tests.Dropped, report.TestNote{Test: d.Name, Reason: d.Reason})
		}
	}
	rep.Tests.Dropped = append(rep.Tests.Dropped, g.droppedTests...)
	for _, n := range g.leftOut {
		rep.Tests.LeftOut = append(rep.Tests.LeftOut, q+"."+n)
	}
	if len(g.leftOut) > 0 {
		out := map[string]bool{}
		for _, n := range rep.Tests.LeftOut {
			out[n] = true
		}
		for i := range rep.Mutants {
			rep.Mutants[i].CoveredBy = without(rep.Mutants[i].CoveredBy, out)
		}
	}
}

func without(list []string, drop map[string]bool) []string {
	if list == nil {
		return nil
	}
	out := []string{}
	for _, s := range list {
		if !drop[s] {
			out = append(out, s)
		}
	}
	return out
}

// runNames maps each test of the suite to its name in the class the runs see (the existing
// generated file with the suite merged in, where a clash renames a test).
func (g *game) runNames() map[string]string {
	out := map[string]string{}
	if g.existingText == nil {
		for _, t := range g.suite.Tests {
			out[t.Name] = t.Name
		}
		return out
	}
	_, added, from, err := g.suite.merge(g.existingText)
	if err != nil {
		return out
	}
	for i, t := range added {
		out[g.suite.Tests[from[i]].Name] = t.Name
	}
	return out
}
