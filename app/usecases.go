package app

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/advertest/advertest-lsp/buildtools/sandbox"
	"github.com/advertest/advertest-lsp/loop"
	"github.com/advertest/advertest-lsp/loop/agent"
	"github.com/advertest/advertest-lsp/loop/mutants"
	"github.com/advertest/advertest-lsp/loop/report"
	"github.com/advertest/advertest-lsp/loop/state"
	"github.com/advertest/advertest-lsp/settings"
)

// Request says what a use case works on and how.
type Request struct {
	Method   *Method
	Settings settings.Settings
	// Prev, for a run after a save, is the method's saved state: Analyze evaluates its
	// mutants, carried to the new text, with its generated suite; Play plays one more T and M
	// exchange from it. nil: a fresh run.
	Prev *state.Method
	// Save keeps the result in the module's .advertest/ (the server does; the CLI does not).
	// History is the kind its history entry records ("": the use case's own).
	Save    bool
	History string
	// Suite, for Play without Prev, is the generated test file's text to start from instead
	// of the file on disk: the class's suite so far, when its methods are played in turn
	// (PlayMany). nil: the file on disk.
	Suite []byte
}

// Result is what a use case produced.
type Result struct {
	// Report is the run's report, partial when it was cancelled; nil when it failed before
	// any evaluation.
	Report *report.Report
	// ModuleRoot is the module the method belongs to ("" when no project was opened).
	ModuleRoot string
	// NewTests counts the tests the run added to the suite (Play, Kill).
	NewTests int
	// SuiteKept is set when the new tests could not be written (Events.Suite refused them):
	// they are in the report (tests.source), and in the state when saved.
	SuiteKept bool
	// Killed is Kill's verdict on its mutant.
	Killed *report.Mutant
}

// run is a use case's preparation: the settings checked, the sandbox decided, the project
// leased, and (when asked) the agents made.
type run struct {
	c      *Core
	req    Request
	ev     Events
	status sandbox.Status
	lease  *Lease
	cfg    loop.Config
	agents loop.Agents
	// verdicts are the module's verdicts of single mutants as the run started.
	verdicts *state.Verdicts
}

// prepare readies a use case; withAgents makes the agents (their choice comes before the
// project opens, so that a refusal costs nothing). The caller releases the lease.
func (c *Core) prepare(ctx context.Context, req Request, ev Events, withAgents bool) (*run, error) {
	s := req.Settings
	sel, err := operators(s)
	if err != nil {
		return nil, err
	}
	r := &run{c: c, req: req, ev: ev, cfg: s.LoopConfig()}
	if r.status, err = c.Sandbox(s, ev); err != nil {
		return nil, err
	}
	var choice AgentChoice
	if withAgents {
		if choice, err = ChooseAgents(s, c.opts.Getenv, r.status); err != nil {
			return nil, err
		}
		if choice.Warning != "" {
			ev.Warning(Warning{Message: choice.Warning})
		}
	}
	if r.lease, err = c.lease(ctx, req.Method.Target.File, s, ev); err != nil {
		return nil, err
	}
	r.verdicts = loadVerdicts(r.root(), ev)
	r.cfg.Ignore, r.cfg.Judged = skipSets(r.verdicts)
	if withAgents {
		var configure func(*loop.Config)
		if r.agents, configure, err = c.agents(r.lease.Warm, choice, sel); err != nil {
			r.lease.Release()
			return nil, err
		}
		configure(&r.cfg)
		r.cfg.MinimalSuite = minimalSuite(s, choice.LLM)
	}
	return r, nil
}

// minimalSuite is suite.minimal for the agents that play: auto is on for the LLM's agents and
// off for the offline ones, whose T chooses its tests for detection itself (per input shape,
// whatever they cover): the fault benchmark lost detections when their suites were minimized
// (docs/fault-bench.md).
func minimalSuite(s settings.Settings, llm bool) bool {
	switch s.SuiteMinimal {
	case "on":
		return true
	case "off":
		return false
	}
	return llm
}

func (r *run) root() string { return r.lease.Project.Module.Root }

// result starts the result of a run that made rep (nil: none).
func (r *run) result(rep *report.Report) *Result {
	res := &Result{Report: rep, ModuleRoot: r.root()}
	if rep != nil {
		rep.Sandbox = &report.Sandbox{Mode: string(r.status.Mode), Kind: string(r.status.Kind), Reason: r.status.Reason}
		o := r.lease.TakeOpening()
		rep.Timing.ModelMs, rep.Timing.CompileMs, rep.Timing.WorkersMs = o.Model.Milliseconds(), o.Compile.Milliseconds(), o.Workers.Milliseconds()
	}
	return res
}

// final tells the run's last verdicts.
func (r *run) final(rep *report.Report) {
	r.ev.Verdicts(Verdicts{Mutants: rep.Mutants, Final: true, Covering: covering(rep), FailingOnOriginal: rep.Tests.FailingOnOriginal})
}

// covering maps each surviving mutant of rep (and each one the user ignored, which is a
// survivor again once unmarked) to the tests that execute its line.
func covering(rep *report.Report) map[string][]string {
	out := map[string][]string{}
	for _, m := range rep.Mutants {
		if m.Status == report.Survived || m.Status == report.Ignored {
			out[m.ID] = append([]string{}, m.CoveredBy...)
		}
	}
	return out
}

// save keeps rep as the method's state, when the request asks for it; a failure, or a corrupt
// file moved aside, is a warning.
func (r *run) save(kind, history string, rep *report.Report) {
	if !r.req.Save {
		return
	}
	if r.req.History != "" {
		history = r.req.History
	}
	m := r.req.Method
	st := &state.Method{Kind: kind, Query: m.Query, MethodText: m.Text(), Report: rep, Covering: covering(rep)}
	r.warnState(state.Open(r.root()).Update(m.Class, m.Query, func(prev *state.Method) *state.Method {
		if prev != nil {
			st.History = prev.History
		}
		st.Record(history, time.Now())
		return st
	}))
}

func (r *run) warnState(err error) {
	if err != nil {
		r.ev.Warning(Warning{Message: err.Error(), Err: err})
	}
}

// sink passes the game's events on as progress, and its evaluations' verdicts while the run
// goes on.
func (r *run) sink(ctx context.Context) loop.EventSink {
	return func(e loop.Event) {
		r.ev.Progress(e)
		if e.Verdicts != nil && ctx.Err() == nil {
			ms := append([]report.Mutant(nil), e.Verdicts...)
			r.verdicts.Apply(ms) // the user's marks hold while the run goes on
			r.ev.Verdicts(Verdicts{Mutants: ms})
		}
	}
}

// Analyze is mutation analysis of the method: the rule-based mutants against the project's
// tests (analyzeMutants, `advertest mutate`), or, with req.Prev, the method's known mutants
// carried to its new text (new ones on its changed lines) against its tests and generated
// suite (an on-save analysis). On cancellation it returns the partial result with the error.
func (c *Core) Analyze(ctx context.Context, req Request, ev Events) (*Result, error) {
	r, err := c.prepare(ctx, req, ev, false)
	if err != nil {
		return nil, err
	}
	defer r.lease.Release()
	target, prev := req.Method.Target, req.Prev
	opts := loop.AnalyzeOptions{}
	kind := state.KindAnalyze
	if prev != nil {
		kind = prev.Kind
		sel, _ := r.cfg.Selection() // checked by prepare
		opts.Mutants = loop.CarryMutants(target, prev.Report.Mutants, prev.MethodText, sel)
		if prev.Kind == state.KindGenerate {
			opts.GeneratedClass, opts.GeneratedSource = r.generatedSuite()
		}
	} else {
		ev.Verdicts(Verdicts{}) // the old verdicts no longer stand
	}
	a, err := loop.AnalyzeSuite(ctx, r.lease.Project, target, opts, r.cfg, ev.Progress)
	applyVerdicts(r.latestVerdicts(), a.Report)
	res := r.result(a.Report)
	if err != nil {
		if len(a.Report.Mutants) > 0 {
			ev.Verdicts(Verdicts{Mutants: a.Report.Mutants, Covering: covering(a.Report)})
		}
		return res, err
	}
	rep := a.Report
	if prev != nil && prev.Report != nil {
		rep.Tests.Methods = prev.Report.Tests.Methods
		if rep.Tests.File == nil {
			rep.Tests.File = prev.Report.Tests.File
		}
	}
	r.final(rep)
	r.save(kind, kind, rep)
	return res, nil
}

// Play is the adversarial game on the method (generateTests, `advertest run`), or, with
// req.Prev, one more T and M exchange from its saved state (an on-save round). The new tests
// are offered with Events.Suite once the state is saved. On cancellation it returns the
// partial result with the error.
func (c *Core) Play(ctx context.Context, req Request, ev Events) (*Result, error) {
	r, err := c.prepare(ctx, req, ev, true)
	if err != nil {
		return nil, err
	}
	defer r.lease.Release()
	m, prev := req.Method, req.Prev
	var out *loop.Outcome
	if prev == nil {
		ev.Verdicts(Verdicts{}) // the old verdicts no longer stand
		out, err = loop.RunFrom(ctx, r.lease.Project, m.Target, req.Suite, r.cfg, r.agents, r.sink(ctx))
	} else {
		var existing []byte
		if _, text := r.generatedSuite(); text != "" {
			existing = []byte(text)
		}
		out, err = loop.Round(ctx, r.lease.Project, m.Target, prev.Report.Mutants, prev.MethodText, existing, r.cfg, r.agents, r.sink(ctx))
	}
	if out == nil {
		return r.result(nil), err
	}
	applyVerdicts(r.latestVerdicts(), out.Report)
	res := r.result(out.Report)
	if err != nil {
		return res, err
	}
	r.recordEvidence(out.Report)
	r.final(out.Report)
	r.save(state.KindGenerate, state.KindGenerate, out.Report)
	for _, w := range out.Report.Warnings {
		// why T wrote no test, or why the game stopped early: the editor shows it as a
		// message, the CLI prints it
		if strings.HasPrefix(w, loop.NoTestWarningPrefix) || strings.HasPrefix(w, loop.StoppedWarningPrefix) {
			ev.Warning(Warning{Message: fmt.Sprintf("`%s`: %s", m.Name(), w)})
		}
	}
	if res.NewTests = len(out.Suite.Tests); res.NewTests > 0 {
		res.SuiteKept = r.offer(ctx, SuiteFile{Path: out.TestFile, Text: out.FileText, Writable: out.Writable, Tests: res.NewTests,
			For: fmt.Sprintf("tests for `%s`", m.Name()), Merge: mergeInto(out.Suite)})
	}
	return res, nil
}

// offer hands the new tests to Events.Suite; a refusal is a warning saying where they are
// kept. It reports whether they were refused.
func (r *run) offer(ctx context.Context, f SuiteFile) bool {
	err := r.ev.Suite(ctx, f)
	if err == nil {
		return false
	}
	where := "the report (tests.source)"
	if r.req.Save {
		m := r.req.Method
		where = relToRoot(r.root(), state.Open(r.root()).Path(m.Class, m.Query)) + " (tests.source)"
	}
	r.ev.Warning(Warning{Message: fmt.Sprintf("could not write %s: %v. The suite is kept in %s.", f.For, err, where), Err: err})
	return true
}

// mergeInto merges suite's tests into a newer text of their test file.
func mergeInto(suite *loop.Suite) func([]byte) (string, error) {
	return func(current []byte) (string, error) {
		text, _, err := suite.Merge(current)
		return text, err
	}
}

// Kill plays one targeted T turn against the surviving mutant target: once the engine has
// confirmed that T's test passes on the original and fails on the mutant, the test is offered
// with Events.Suite, the mutant's new verdict told, and the state updated.
func (c *Core) Kill(ctx context.Context, req Request, target report.Mutant, ev Events) (*Result, error) {
	r, err := c.prepare(ctx, req, ev, true)
	if err != nil {
		return nil, err
	}
	defer r.lease.Release()
	mt := req.Method.Target.Method
	testFile := r.lease.Project.TestFileFor(packageOf(mt.TopLevelClass), agent.TestClassName(mt.TopLevelClass))
	existing, _ := c.buffer(testFile)
	m := mutants.Mutant{ID: target.ID, Line: target.Line, Original: target.Original, Mutated: target.Mutated,
		Origin: mutants.Origin(target.Origin), Operator: target.Operator, Description: target.Description}
	kill, err := loop.KillMutant(ctx, r.lease.Project, req.Method.Target, m, r.agents.T, existing, r.cfg)
	if err != nil {
		return r.result(nil), err
	}
	res := r.result(nil)
	res.Killed = &kill.Verdict
	if kill.Verdict.Status != report.Killed {
		return res, nil
	}
	res.NewTests = len(kill.Tests)
	res.SuiteKept = r.offer(ctx, SuiteFile{Path: kill.TestFile, Text: kill.FileText, Writable: kill.Writable, Tests: len(kill.Tests),
		For: "a test that kills " + m.ID, Merge: mergeInto(kill.Suite)})
	ev.Verdicts(Verdicts{Mutants: []report.Mutant{kill.Verdict}, Update: true})
	if req.Save {
		r.warnState(state.Open(r.root()).Update(req.Method.Class, req.Method.Query, func(st *state.Method) *state.Method {
			if st == nil {
				return nil
			}
			for i := range st.Report.Mutants {
				if st.Report.Mutants[i].ID == m.ID {
					st.Report.Mutants[i].Status = report.Killed
					st.Report.Mutants[i].KilledBy = kill.Verdict.KilledBy
				}
			}
			st.Report.Rescore()
			st.Report.Tests.Source = kill.FileText
			for _, t := range kill.Tests {
				st.Report.Tests.Methods = append(st.Report.Tests.Methods, kill.Class+"."+t.Name)
			}
			delete(st.Covering, m.ID)
			st.Record("killMutant", time.Now())
			return st
		}))
	}
	return res, nil
}

func packageOf(binary string) string {
	for i := len(binary) - 1; i >= 0; i-- {
		if binary[i] == '.' {
			return binary[:i]
		}
	}
	return ""
}
