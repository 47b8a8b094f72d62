package handlers

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"go.lsp.dev/protocol"
	"go.uber.org/zap"

	"github.com/advertest/advertest-lsp/app"
	"github.com/advertest/advertest-lsp/jobs"
	"github.com/advertest/advertest-lsp/loop"
)

// progress reports one job to the client: $/progress with a token when the client supports
// work-done progress, else a window/showMessage at the start and the end. Reports come from
// the engine's goroutines, which must never wait for the client: each report replaces the one
// not sent yet, and one goroutine per progress sends the latest (a client that reads slowly
// sees fewer reports; one that stops reading stalls nothing but that goroutine).
type progress struct {
	h     *Handler
	job   *jobs.Job
	title string
	// token is nil when the client has no work-done progress.
	token *protocol.ProgressToken

	// mu guards the fields below.
	mu       sync.Mutex
	lastMsg  string
	lastPct  uint32
	round    int
	rounds   int
	mutants  int
	score    *float64
	analysis bool
	ended    bool
	// pending is the latest report not sent yet; wake (one slot) tells the sender there is
	// one, and is closed at the end; sent is closed when the sender has stopped.
	pending map[string]any
	wake    chan struct{}
	sent    chan struct{}
	// summary is the end's message when the job succeeds.
	summary string
}

// endWith ends the progress for a job that returned err.
func (p *progress) endWith(j *jobs.Job, err error) {
	j.End()
	p.end(p.summary, err)
}

// startSender starts the goroutine that sends the reports.
func (p *progress) startSender() {
	p.wake, p.sent = make(chan struct{}, 1), make(chan struct{})
	if !p.h.session.Go("progress "+p.job.ID, func(context.Context) { p.sendReports() }) {
		close(p.sent)
	}
}

func (p *progress) sendReports() {
	defer close(p.sent)
	for range p.wake {
		p.mu.Lock()
		value := p.pending
		p.pending = nil
		p.mu.Unlock()
		if value != nil {
			_ = p.h.session.Client().Progress(context.Background(), *p.token, value)
		}
	}
}

// queued returns the callback for a job that must wait for a free slot: its progress
// begins at once, saying so, and the job takes it over when it runs.
func (h *Handler) queued(title string, analysis bool) func(*jobs.Job) {
	return func(j *jobs.Job) {
		p := h.beginProgress(j.Context(), j, title, "waiting for another job to finish", analysis)
		h.progressMu.Lock()
		h.pendingProgress[j.ID] = p
		h.progressMu.Unlock()
	}
}

// beginProgress starts the job's progress with its title ("AdverTest: `clamp`"), or takes
// over the one begun while the job waited.
func (h *Handler) beginProgress(ctx context.Context, job *jobs.Job, title, message string, analysis bool) *progress {
	h.progressMu.Lock()
	pending := h.pendingProgress[job.ID]
	delete(h.pendingProgress, job.ID)
	h.progressMu.Unlock()
	if pending != nil {
		if pending.token == nil {
			// A client without work-done progress saw "waiting for another job to finish":
			// the job's start is a message of its own, as it is for a job that did not wait.
			ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 30*time.Second)
			defer cancel()
			_ = h.session.Client().ShowMessage(ctx, protocol.MessageTypeInfo, fmt.Sprintf("%s: %s (job %s)", title, message, job.ID))
			return pending
		}
		pending.report(message, 0)
		return pending
	}
	p := &progress{h: h, job: job, title: title, analysis: analysis}
	// A job cancelled before it ran still begins and ends its progress: the client's
	// answers must not depend on the job's context.
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 30*time.Second)
	defer cancel()
	caps := h.ClientCapabilities()
	client := h.session.Client()
	if caps.Window != nil && caps.Window.WorkDoneProgress {
		token := protocol.NewProgressToken("advertest/job/" + job.ID)
		if err := client.CreateProgress(ctx, *token); err != nil {
			h.logger.Info("the client refused a progress token; reporting with messages", zap.Error(err))
		} else {
			p.token = token
			h.progressMu.Lock()
			h.progressJobs[token.String()] = job.ID
			h.progressMu.Unlock()
			_ = client.Progress(ctx, *token, map[string]any{
				"kind": "begin", "title": title, "cancellable": true, "message": message, "percentage": 0,
			})
			p.startSender()
			return p
		}
	}
	_ = client.ShowMessage(ctx, protocol.MessageTypeInfo, fmt.Sprintf("%s: %s (job %s)", title, message, job.ID))
	return p
}

// report has a report sent when the message or the percentage changed; it never waits for
// the client.
func (p *progress) report(msg string, pct int) {
	if pct < 0 {
		pct = 0
	}
	if pct > 100 {
		pct = 100
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.ended || p.token == nil || (msg == p.lastMsg && uint32(pct) == p.lastPct) {
		return
	}
	if uint32(pct) < p.lastPct {
		pct = int(p.lastPct) // percentages never go back
	}
	p.lastMsg, p.lastPct = msg, uint32(pct)
	p.pending = map[string]any{"kind": "report", "cancellable": true, "message": msg, "percentage": pct}
	select {
	case p.wake <- struct{}{}:
	default: // the sender has been told already: it sends the latest
	}
}

// event turns a loop event into a report: "round 3/5 · evaluating 7/14 · 14 mutants · score 64%".
func (p *progress) event(e loop.Event) {
	p.mu.Lock()
	if e.Rounds > 0 {
		p.round, p.rounds = e.Round, e.Rounds
	}
	if e.Mutants > 0 {
		p.mutants = e.Mutants
	}
	if e.Score != nil || e.Verdicts != nil {
		p.score = e.Score
	}
	round, rounds, mutants, score := p.round, p.rounds, p.mutants, p.score
	p.mu.Unlock()

	var step string
	frac := 0.0
	switch e.Phase {
	case loop.PhaseProject:
		step = "loading the project"
		if e.Message != "" {
			step = e.Message
		}
	case loop.PhaseTests:
		step = "T writes tests"
		if e.Total > 0 {
			step = fmt.Sprintf("T writes tests %d/%d", e.Done, e.Total)
			frac = 0.4 * float64(e.Done) / float64(e.Total)
		}
	case loop.PhaseMutants:
		step, frac = "M writes mutants", 0.2
	case loop.PhaseBaseline:
		step, frac = "running the suite", 0.4
		if e.Message != "" {
			step = e.Message // "running 12 more test classes on the original"
		}
	case loop.PhaseEvaluate:
		step, frac = "evaluating mutants", 0.5
		if e.Message != "" && e.Total == 0 {
			step = e.Message // the first verdicts, before the rest of the suite completes them
		}
		if e.Total > 0 {
			step = fmt.Sprintf("evaluating %d/%d", e.Done, e.Total)
			frac = 0.5 + 0.5*float64(e.Done)/float64(e.Total)
		}
	case loop.PhaseJudge:
		step, frac = "the equivalence judge", 0.9
		if e.Total > 0 {
			step = fmt.Sprintf("the equivalence judge %d/%d", e.Done, e.Total)
			frac = 0.9 + 0.1*float64(e.Done)/float64(e.Total)
		}
	case loop.PhaseDone:
		return
	}
	msg := step
	pct := int(100 * frac)
	if !p.analysis && rounds > 0 {
		msg = fmt.Sprintf("round %d/%d · %s", round, rounds, step)
		pct = int(100 * (float64(round) + frac) / float64(rounds+1))
	}
	if mutants > 0 {
		msg += fmt.Sprintf(" · %d mutants", mutants)
	}
	if score != nil {
		msg += fmt.Sprintf(" · score %.0f%%", 100**score)
	}
	p.report(msg, pct)
}

// end closes the progress with the summary, "canceled" or "failed: why".
func (p *progress) end(summary string, err error) {
	p.mu.Lock()
	if p.ended {
		p.mu.Unlock()
		return
	}
	p.ended = true
	if p.wake != nil {
		close(p.wake)
	}
	p.mu.Unlock()
	if p.sent != nil {
		<-p.sent // the end comes after every report
	}
	msg := summary
	typ := protocol.MessageTypeInfo
	switch {
	case err == nil:
	case errors.Is(err, jobs.ErrReplaced):
		msg = "canceled: replaced by a newer run"
	case errors.Is(err, context.Canceled) || errors.Is(err, jobs.ErrCancelled) || errors.Is(err, app.ErrClosed):
		msg = "canceled"
	default:
		msg = "failed: " + err.Error()
		typ = protocol.MessageTypeError
	}
	client := p.h.session.Client()
	ctx := context.Background()
	if p.token != nil {
		_ = client.Progress(ctx, *p.token, map[string]any{"kind": "end", "message": msg})
		p.h.progressMu.Lock()
		delete(p.h.progressJobs, p.token.String())
		p.h.progressMu.Unlock()
		if typ == protocol.MessageTypeError {
			_ = client.ShowMessage(ctx, typ, fmt.Sprintf("%s: %s", p.title, msg))
		}
		return
	}
	_ = client.ShowMessage(ctx, typ, fmt.Sprintf("%s: %s (job %s)", p.title, msg, p.job.ID))
}
