package handlers

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"go.lsp.dev/protocol"

	"github.com/advertest/advertest-lsp/javaparse"
	"github.com/advertest/advertest-lsp/jobs"
	"github.com/advertest/advertest-lsp/loop"
	"github.com/advertest/advertest-lsp/loop/report"
	"github.com/advertest/advertest-lsp/loop/state"
	"github.com/advertest/advertest-lsp/server"
	"github.com/advertest/advertest-lsp/settings"
)

func readFile(path string) ([]byte, error) { return os.ReadFile(path) }

// methodSnapshot is the method a job works on, in a snapshot of its document.
type methodSnapshot struct {
	uri        protocol.DocumentURI
	path       string // the source file's absolute path
	moduleRoot string
	file       *javaparse.File // the snapshot (the job's own parse)
	method     *javaparse.Method
	class      string
	query      string
}

// key names the method for the job registry and the results.
func (s *methodSnapshot) key() string { return s.moduleRoot + "\x00" + s.class + "\x00" + s.query }

func (s *methodSnapshot) target() *loop.Target {
	return &loop.Target{File: s.path, Source: s.file.Source(), Parsed: s.file, Method: s.method}
}

func (s *methodSnapshot) title() string { return fmt.Sprintf("AdverTest: `%s`", s.method.Name) }

// snapshotMethod takes a snapshot of doc and finds the method at byte offset off, or by
// class and query when off < 0.
func snapshotMethod(doc *server.Document, off int, class, query string) (*methodSnapshot, error) {
	path := doc.Path()
	if path == "" {
		return nil, fmt.Errorf("%s is not a file on disk", doc.URI())
	}
	root, err := jobs.ModuleRoot(path)
	if err != nil {
		return nil, err
	}
	f, _ := doc.Snapshot()
	if f == nil {
		return nil, fmt.Errorf("%s could not be parsed as Java", doc.URI())
	}
	var m *javaparse.Method
	if off >= 0 {
		line, _ := f.Lines().Position(off)
		m = methodAt(f, line, off)
	} else {
		m = findMethod(f, class, query)
	}
	if m == nil {
		return nil, fmt.Errorf("the method is no longer in %s", filepath.Base(path))
	}
	return &methodSnapshot{uri: doc.URI(), path: path, moduleRoot: root, file: f, method: m, class: m.BinaryClassName, query: loop.QueryName(m)}, nil
}

// project returns the warm project of the job's module, saying so in the progress while it
// opens (the first time: the build model, a compile, the worker JVMs).
func (h *Handler) project(ctx context.Context, p *progress, snap *methodSnapshot, s settings.Settings) (*jobs.Warm, error) {
	if !h.projects.Ready(snap.path, s.ProjectKey()) {
		p.report("opening the project (build model, compile, worker JVMs)", 0)
	}
	return h.projects.Get(ctx, snap.path, s.ProjectKey())
}

// agents makes T and M for a job: with the Agents option's factory when there is one, else
// as the agents setting says (jobs.Agents). configure adds the LLM's budget and usage hooks to
// the job's loop configuration.
func (h *Handler) agents(ctx context.Context, w *jobs.Warm, s settings.Settings) (players loop.Agents, configure func(*loop.Config), err error) {
	if h.opts.Agents != nil {
		players, err = h.opts.Agents(ctx, w, s)
		return players, func(*loop.Config) {}, err
	}
	return jobs.Agents(w, s, jobs.AgentOptions{Getenv: h.opts.Getenv, CacheDir: h.opts.CacheDir, Logger: h.logger})
}

// jobErr is the error a job ends with: the cause of its context's end when there is one.
func jobErr(j *jobs.Job, err error) error {
	if err == nil {
		return nil
	}
	if cause := context.Cause(j.Context()); cause != nil {
		return cause
	}
	return err
}

// startMethodJob starts generateTests or analyzeMutants on a snapshot.
func (h *Handler) startMethodJob(kind string, snap *methodSnapshot) *jobs.Job {
	return h.jobs.Start(snap.key(), kind, h.queued(snap.title(), kind == state.KindAnalyze), func(j *jobs.Job) {
		switch kind {
		case state.KindGenerate:
			h.runGenerate(j, snap, state.KindGenerate, nil)
		default:
			h.runAnalyze(j, snap, nil, state.KindAnalyze)
		}
	})
}

// show sets a method's result from verdicts on the snapshot and publishes it.
func (h *Handler) show(snap *methodSnapshot, verdicts []report.Mutant, cover map[string][]string, possibleBugs []string) {
	h.results.set(&methodResult{
		key: snap.key(), uri: snap.uri, moduleRoot: snap.moduleRoot, class: snap.class, query: snap.query,
		name: snap.method.Name, survivors: survivorsOf(verdicts), covering: cover, possibleBugs: possibleBugs,
	})
	h.results.publish(snap.uri)
}

// summary is the progress end's text for a report.
func summary(rep *report.Report) string {
	c := report.Counts(rep.Mutants)
	score := "no valid mutant"
	if rep.MutationScore != nil {
		score = fmt.Sprintf("score %.0f%%", 100**rep.MutationScore)
	}
	s := fmt.Sprintf("%s · %d of %d mutants survive", score, c[report.Survived], len(rep.Mutants))
	if n := len(rep.Tests.Methods); n > 0 {
		s += fmt.Sprintf(" · %d tests", n)
	}
	if n := len(rep.Tests.FailingOnOriginal); n > 0 {
		s += fmt.Sprintf(" · %d possible bugs", n)
	}
	return s
}

// saveState writes a method's state; a failure is logged and shown, not fatal.
func (h *Handler) saveState(ctx context.Context, snap *methodSnapshot, kind, historyKind string, rep *report.Report, cover map[string][]string) {
	st := &state.Method{Kind: kind, Query: snap.query, MethodText: snap.method.Text(snap.file.Source()), Report: rep, Covering: cover}
	err := state.Open(snap.moduleRoot).Update(snap.class, snap.query, func(prev *state.Method) *state.Method {
		if prev != nil {
			st.History = prev.History
		}
		st.Record(historyKind, time.Now())
		return st
	})
	h.warnState(ctx, err)
}

// runAnalyze is mutation analysis of the method: with every rule mutant and the project's
// tests (analyzeMutants), or with carried mutants and the method's generated suite (on save).
func (h *Handler) runAnalyze(j *jobs.Job, snap *methodSnapshot, prev *state.Method, historyKind string) {
	ctx := j.Context()
	s := h.Settings()
	message := "mutation analysis with the existing tests"
	if prev != nil {
		message = "on save: mutation analysis of the changed method"
	}
	p := h.beginProgress(ctx, j, snap.title(), message, true)
	var err error
	defer func() { p.endWith(j, err) }()
	warm, err := h.project(ctx, p, snap, s)
	if err != nil {
		return
	}
	if prev == nil {
		h.results.remove(snap.uri, snap.key())
		h.results.publish(snap.uri)
	}
	target := snap.target()
	opts := loop.AnalyzeOptions{}
	kind := state.KindAnalyze
	if prev != nil {
		kind = prev.Kind
		sel, _ := s.LoopConfig().Selection()
		opts.Mutants = loop.CarryMutants(target, prev.Report.Mutants, prev.MethodText, sel)
		if prev.Kind == state.KindGenerate {
			opts.GeneratedClass, opts.GeneratedSource = h.generatedSuite(warm, snap, prev)
		}
	}
	a, runErr := loop.AnalyzeSuite(ctx, warm.Project, target, opts, s.LoopConfig(), p.event)
	if runErr != nil {
		err = jobErr(j, runErr)
		if a != nil && len(a.Report.Mutants) > 0 && !errors.Is(err, jobs.ErrReplaced) {
			h.show(snap, a.Report.Mutants, jobs.Covering(a.Baseline, a.Report.Mutants), nil)
		}
		return
	}
	rep := a.Report
	if prev != nil && prev.Report != nil {
		rep.Tests.Methods = prev.Report.Tests.Methods
		if rep.Tests.File == nil {
			rep.Tests.File = prev.Report.Tests.File
		}
	}
	cover := jobs.Covering(a.Baseline, rep.Mutants)
	h.show(snap, rep.Mutants, cover, shortNames(rep.Tests.FailingOnOriginal))
	h.saveState(ctx, snap, kind, historyKind, rep, cover)
	p.summary = summary(rep)
}

// generatedSuite is the generated class's name and text for an on-save analysis: the open
// buffer or the file on disk when it carries the marker, else the suite kept in the state.
func (h *Handler) generatedSuite(warm *jobs.Warm, snap *methodSnapshot, prev *state.Method) (string, string) {
	pkg := ""
	if i := strings.LastIndexByte(snap.method.TopLevelClass, '.'); i >= 0 {
		pkg = snap.method.TopLevelClass[:i]
	}
	simple := loop.TestClassName(snap.method.TopLevelClass)
	class := simple
	if pkg != "" {
		class = pkg + "." + simple
	}
	path := warm.TestFileFor(pkg, simple)
	if doc, ok := h.session.Documents().Get(fileURI(path)); ok {
		if text := doc.Text(); loop.HasMarker(text) {
			return class, string(text)
		}
	}
	if data, err := readFile(path); err == nil && loop.HasMarker(data) {
		return class, string(data)
	}
	if prev.Report.Tests.Source == "" {
		return "", ""
	}
	return class, prev.Report.Tests.Source
}

// shortNames turns Class.method test names into ClassSimple.method.
func shortNames(tests []string) []string {
	out := make([]string, len(tests))
	for i, t := range tests {
		cls, m := t, ""
		if k := strings.LastIndexByte(t, '.'); k >= 0 {
			cls, m = t[:k], t[k+1:]
		}
		out[i] = cls[strings.LastIndexByte(cls, '.')+1:] + "." + m
	}
	return out
}

// runGenerate plays the adversarial game on the method, or with prev (on save) one more T and
// M exchange from the method's state, and offers the suite as an edit.
func (h *Handler) runGenerate(j *jobs.Job, snap *methodSnapshot, historyKind string, prev *state.Method) {
	ctx := j.Context()
	s := h.Settings()
	message := "generating adversarial tests"
	if prev != nil {
		message = "on save: one more round of T and M"
	}
	p := h.beginProgress(ctx, j, snap.title(), message, false)
	var err error
	defer func() { p.endWith(j, err) }()
	warm, err := h.project(ctx, p, snap, s)
	if err != nil {
		return
	}
	agents, configure, err := h.agents(ctx, warm, s)
	if err != nil {
		return
	}
	if prev == nil {
		h.results.remove(snap.uri, snap.key())
		h.results.publish(snap.uri)
	}
	cfg := s.LoopConfig()
	configure(&cfg)
	sink := func(e loop.Event) {
		p.event(e)
		if e.Verdicts != nil && j.Context().Err() == nil {
			h.show(snap, e.Verdicts, nil, nil)
		}
	}
	var (
		out    *loop.Outcome
		runErr error
	)
	if prev == nil {
		out, runErr = loop.Run(ctx, warm.Project, snap.target(), cfg, agents, sink)
	} else {
		var existing []byte
		if _, text := h.generatedSuite(warm, snap, prev); text != "" {
			existing = []byte(text)
		}
		out, runErr = loop.Round(ctx, warm.Project, snap.target(), prev.Report.Mutants, prev.MethodText, existing, cfg, agents, sink)
	}
	if runErr != nil {
		err = jobErr(j, runErr)
		return
	}
	rep := out.Report
	cover := jobs.Covering(out.Baseline, rep.Mutants)
	h.show(snap, rep.Mutants, cover, shortNames(rep.Tests.FailingOnOriginal))
	h.saveState(ctx, snap, state.KindGenerate, historyKind, rep, cover)
	p.summary = summary(rep)
	if len(out.Suite.Tests) == 0 {
		p.summary += " · no new test"
		return
	}
	suite := out.Suite
	editErr := h.applyTestFile(ctx, testFileEdit{
		path: out.TestFile, text: out.FileText, writable: out.Writable,
		label: fmt.Sprintf("AdverTest: tests for `%s`", snap.method.Name),
		merge: func(existing []byte) (string, error) {
			text, _, err := suite.Merge(existing)
			return text, err
		},
	})
	if editErr != nil {
		rel, _ := filepath.Rel(snap.moduleRoot, store(snap).Path(snap.class, snap.query))
		_ = h.session.Client().ShowMessage(ctx, protocol.MessageTypeWarning,
			fmt.Sprintf("AdverTest: the tests for `%s` were not written: %v. The suite is kept in %s (tests.source).", snap.method.Name, editErr, rel))
		p.summary += " · suite kept in .advertest/"
	}
}

func store(snap *methodSnapshot) *state.Store { return state.Open(snap.moduleRoot) }
