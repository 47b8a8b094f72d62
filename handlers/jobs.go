package handlers

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"go.lsp.dev/protocol"
	"go.uber.org/zap"

	"github.com/advertest/advertest-lsp/app"
	"github.com/advertest/advertest-lsp/javaparse"
	"github.com/advertest/advertest-lsp/jobs"
	"github.com/advertest/advertest-lsp/loop"
	"github.com/advertest/advertest-lsp/loop/report"
	"github.com/advertest/advertest-lsp/loop/state"
	"github.com/advertest/advertest-lsp/server"
)

// What a job does is the application core's (package app): this file finds the method, starts
// the job, and turns the core's events into $/progress, diagnostics, workspace/applyEdit and
// messages.

// methodSnapshot is the method a job works on, in a snapshot of its document.
type methodSnapshot struct {
	uri        protocol.DocumentURI
	moduleRoot string
	method     *app.Method
}

// key names the method for the job registry and the results.
func (s *methodSnapshot) key() string { return methodKey(s.moduleRoot, s.method.Class, s.method.Query) }

func methodKey(moduleRoot, class, query string) string {
	return moduleRoot + "\x00" + class + "\x00" + query
}

func (s *methodSnapshot) title() string { return fmt.Sprintf("AdverTest: `%s`", s.method.Name()) }

// snapshotMethod takes a snapshot of doc and finds the method at byte offset off, or by
// class and query when off < 0.
func snapshotMethod(doc *server.Document, off int, class, query string) (*methodSnapshot, error) {
	path := doc.Path()
	if path == "" {
		return nil, fmt.Errorf("%s is not a file on disk", doc.URI())
	}
	root, err := app.ModuleRoot(path)
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
	return &methodSnapshot{uri: doc.URI(), moduleRoot: root, method: app.NewMethod(path, f, m)}, nil
}

// request is the core's request for a job on the snapshot: the current settings, the state
// saved (the server keeps what it learns).
func (h *Handler) request(snap *methodSnapshot, prev *state.Method, history string) app.Request {
	return app.Request{Method: snap.method, Settings: h.Settings(), Prev: prev, Save: true, History: history}
}

// useCases are the application core's use cases that jobs run: *app.Core (the job-policy test
// gives its own). They are called from the jobs' goroutines, one job of a method at a time.
type useCases interface {
	Analyze(ctx context.Context, req app.Request, ev app.Events) (*app.Result, error)
	Play(ctx context.Context, req app.Request, ev app.Events) (*app.Result, error)
	Kill(ctx context.Context, req app.Request, target report.Mutant, ev app.Events) (*app.Result, error)
}

// jobSpec is one job: its place in the registry (the method's key and the policy, see
// jobs.Policy), its progress, and the use case it runs, which returns the progress end's
// text.
type jobSpec struct {
	job     jobs.Spec
	title   string
	message string
	// analysis jobs report progress without rounds.
	analysis bool
	run      func(ctx context.Context, ev app.Events) (summary string, err error)
}

// start registers the job and runs it once it may (no other job of its method runs, and a slot
// is free); nil when the session has ended. A job cancelled before it ran only ends its
// progress: it never calls the core beside the job that replaced it.
func (h *Handler) start(snap *methodSnapshot, spec jobSpec) *jobs.Job {
	return h.jobs.Start(spec.job, h.queued(spec.title, spec.analysis), func(j *jobs.Job) {
		p := h.beginProgress(j.Context(), j, spec.title, spec.message, spec.analysis)
		summary, err := "", context.Cause(j.Context())
		if err == nil {
			summary, err = spec.run(j.Context(), &jobEvents{h: h, job: j, p: p, snap: snap})
		}
		// The method's diagnostics go out before the progress ends, so that a client that
		// reads them at the end sees the job's verdicts.
		h.results.written(snap.uri)
		p.summary = summary
		p.endWith(j, jobErr(j, err))
	})
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

// The job policy of a method (see jobs.Policy and docs/architecture.md, "Concurrency and
// order"): one job of a method runs at a time. Generate and Analyze replace the method's jobs,
// running or waiting; an on-save round and a kill wait for the running one, a newer on-save
// round replacing the one not yet done and a second kill of a mutant the first.

// methodJob is the registry's spec of a job on the snapshot's method.
func methodJob(snap *methodSnapshot, kind string, policy jobs.Policy, slot string) jobs.Spec {
	return jobs.Spec{Key: snap.key(), Kind: kind, Policy: policy, Slot: slot}
}

// onSaveSlot names the on-save work of a method in its queue.
const onSaveSlot = "onsave"

// startMethodJob starts generateTests or analyzeMutants on a snapshot.
func (h *Handler) startMethodJob(kind string, snap *methodSnapshot) *jobs.Job {
	if kind == state.KindGenerate {
		return h.startPlay(snap, nil, state.KindGenerate)
	}
	return h.startAnalyze(snap, nil, state.KindAnalyze)
}

// startAnalyze is mutation analysis of the method, or with prev (on save) of its carried
// mutants with its generated suite.
func (h *Handler) startAnalyze(snap *methodSnapshot, prev *state.Method, history string) *jobs.Job {
	message, job := "mutation analysis with the existing tests", methodJob(snap, history, jobs.Replace, "")
	if prev != nil {
		message, job = "on save: mutation analysis of the changed method", methodJob(snap, history, jobs.Queue, onSaveSlot)
	}
	return h.start(snap, jobSpec{job: job, title: snap.title(), message: message, analysis: true,
		run: func(ctx context.Context, ev app.Events) (string, error) {
			prev, unchanged := h.stateNow(snap, prev)
			if unchanged {
				return unchangedSummary, nil
			}
			res, err := h.uses.Analyze(ctx, h.request(snap, prev, history), ev)
			return summary(res), err
		}})
}

// startPlay plays the game on the method, or with prev (on save) one more T and M exchange.
func (h *Handler) startPlay(snap *methodSnapshot, prev *state.Method, history string) *jobs.Job {
	message, job := "generating adversarial tests", methodJob(snap, history, jobs.Replace, "")
	if prev != nil {
		message, job = "on save: one more round of T and M", methodJob(snap, history, jobs.Queue, onSaveSlot)
	}
	return h.start(snap, jobSpec{job: job, title: snap.title(), message: message,
		run: func(ctx context.Context, ev app.Events) (string, error) {
			prev, unchanged := h.stateNow(snap, prev)
			if unchanged {
				return unchangedSummary, nil
			}
			res, err := h.uses.Play(ctx, h.request(snap, prev, history), ev)
			s := summary(res)
			switch {
			case err != nil:
			case res.NewTests == 0:
				s += " · no new test"
			case res.SuiteKept:
				s += " · suite kept in .advertest/"
			}
			return s, err
		}})
}

// startKill asks T for a test against one surviving mutant.
func (h *Handler) startKill(snap *methodSnapshot, m report.Mutant) *jobs.Job {
	title := fmt.Sprintf("AdverTest: kill %s", describeMutant(m))
	return h.start(snap, jobSpec{job: methodJob(snap, "killMutant", jobs.Queue, "kill\x00"+m.ID), title: title, message: "one targeted test", analysis: true,
		run: func(ctx context.Context, ev app.Events) (string, error) {
			res, err := h.uses.Kill(ctx, h.request(snap, nil, ""), m, ev)
			if err != nil {
				return "", err
			}
			if res.Killed == nil || res.Killed.Status != report.Killed {
				return "no test found that tells the mutant from the original", nil
			}
			return fmt.Sprintf("killed by %v", res.Killed.KilledBy), nil
		}})
}

// unchangedSummary ends an on-save job whose method a job before it evaluated at its saved text.
const unchangedSummary = "unchanged since its last evaluation"

// stateNow is an on-save job's state as the job starts (prev is the one read at the save): a
// job that ran before it on the method may have saved a newer one. unchanged says that the
// method's saved state is of the snapshot's text already. Without prev (not on save) it
// returns nil.
func (h *Handler) stateNow(snap *methodSnapshot, prev *state.Method) (now *state.Method, unchanged bool) {
	if prev == nil {
		return nil, false
	}
	_, states, err := readStates(snap.method.Target.File)
	if err != nil {
		h.logger.Debug("on save: reading state", zap.Error(err))
	}
	for _, st := range states {
		if st.Report != nil && st.Report.Target.Class == snap.method.Class && st.Query == snap.method.Query {
			prev = st
		}
	}
	return prev, prev.MethodText == snap.method.Text()
}

// summary is the progress end's text for a result: "score 62% · 9 of 24 mutants survive".
func summary(res *app.Result) string {
	if res == nil || res.Report == nil {
		return ""
	}
	rep := res.Report
	c := report.Counts(rep.Mutants)
	score := "no valid mutant"
	if rep.MutationScore != nil {
		score = fmt.Sprintf("score %.0f%%", 100**rep.MutationScore)
	}
	s := fmt.Sprintf("%s · %d of %d mutants survive", score, c[report.Survived], len(rep.Mutants))
	likely := 0
	for i := range rep.Mutants {
		if rep.Mutants[i].LikelyEquivalent() {
			likely++
		}
	}
	if likely > 0 {
		s += fmt.Sprintf(" (%d probably equivalent)", likely)
	}
	if n := c[report.Ignored]; n > 0 {
		s += fmt.Sprintf(" · %d ignored", n)
	}
	if n := c[report.Equivalent] + c[report.Duplicate]; n > 0 {
		s += fmt.Sprintf(" · %d equivalent or duplicate", n)
	}
	if n := len(rep.Tests.Methods); n > 0 {
		s += fmt.Sprintf(" · %d tests", n)
	}
	if n := len(rep.Tests.FailingOnOriginal); n > 0 {
		s += fmt.Sprintf(" · %d possible bugs", n)
	}
	if l := rep.LLM; l.Requests > 0 {
		s += fmt.Sprintf(" · %d LLM requests, %d tokens", l.Requests, l.PromptTokens+l.CompletionTokens)
		if l.CostUSD > 0 {
			s += fmt.Sprintf(", $%.4f", l.CostUSD)
		}
	}
	for _, w := range rep.Warnings {
		if strings.HasPrefix(w, loop.StoppedWarningPrefix) {
			s += " · stopped early: " + strings.TrimPrefix(w, loop.StoppedWarningPrefix)
			break
		}
	}
	return s
}

// jobEvents turns a job's events into what the editor shows. Its methods are called from the
// job's goroutine, Progress also from the engine's goroutines (one call at a time and in order,
// see loop.EventSink): progress and results take their own locks and never wait for the
// client.
type jobEvents struct {
	h    *Handler
	job  *jobs.Job
	p    *progress
	snap *methodSnapshot
}

func (e *jobEvents) Progress(ev loop.Event) { e.p.event(ev) }

// Verdicts become the method's diagnostics; a job replaced by a newer one on the method
// leaves them to it.
func (e *jobEvents) Verdicts(v app.Verdicts) {
	if errors.Is(context.Cause(e.job.Context()), jobs.ErrReplaced) {
		return
	}
	if v.Update {
		e.h.results.update(e.snap.uri, e.snap.key(), v.Mutants)
	} else {
		e.h.results.set(e.h.newResult(e.snap.uri, resultInput{
			key: e.snap.key(), moduleRoot: e.snap.moduleRoot, class: e.snap.method.Class, query: e.snap.method.Query,
			name: e.snap.method.Name(), mutants: v.Mutants, covering: v.Covering, failingOnOriginal: v.FailingOnOriginal,
		}))
	}
	e.h.results.publish(e.snap.uri)
}

// Suite becomes a workspace edit of the test file.
func (e *jobEvents) Suite(ctx context.Context, f app.SuiteFile) error {
	return e.h.applyTestFile(ctx, f)
}

// Warning becomes a window/showMessage.
func (e *jobEvents) Warning(w app.Warning) { e.h.warn(w) }

// warn logs a warning and shows it to the user.
func (h *Handler) warn(w app.Warning) {
	h.logger.Info("warning", zap.String("message", w.Message))
	ctx, cancel := context.WithTimeout(context.WithoutCancel(h.session.Background()), 30*time.Second)
	defer cancel()
	if err := h.session.Client().ShowMessage(ctx, protocol.MessageTypeWarning, "AdverTest: "+w.Message); err != nil {
		h.logger.Debug("showMessage", zap.Error(err))
	}
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
