package harness

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"go.uber.org/zap"
)

// hardGrace is how long past a test's budget the Go side waits before it kills the worker; the
// worker itself gives a timed-out thread two seconds to throw, and the threads and processes a
// test left a moment to end.
const hardGrace = 5 * time.Second

// betweenTests bounds the worker's work outside tests: compiling, loading, coverage analysis.
const betweenTests = 2 * time.Minute

// maxTestFiles bounds the bytes of the files kept from one test's scratch folder.
const maxTestFiles = 16 << 20

// Run compiles the overrides and extra tests in memory, runs the tests in a fresh class loader
// and reports each test. A compile failure gives Compile.OK false, no Tests and a nil error. A
// test that does not stop is reported as a timeout and costs a worker restart; the remaining
// tests then run on a fresh worker (unless StopAtFirstFailure). A test that writes on the
// protocol's descriptor costs a restart too; it is rerun alone on a fresh worker, and if it
// breaks the protocol again its outcome is an Error saying so (docs/worker-protocol.md).
func (p *Pool) Run(ctx context.Context, spec RunSpec) (*RunResult, error) {
	if spec.RecordCompares && spec.Coverage {
		return nil, errors.New("harness: run: RecordCompares and Coverage exclude each other (the recording's instructions would be counted)")
	}
	if spec.Reach != nil {
		return p.runReaching(ctx, spec)
	}
	if parts := p.shards(spec); parts != nil {
		return p.runSharded(ctx, spec, parts)
	}
	start := time.Now()
	res := &RunResult{}
	tests := spec.Tests
	for fruitless := 0; ; {
		s, err := p.acquire(ctx)
		if err != nil {
			return nil, err
		}
		before := len(res.Tests)
		end, err := p.runOn(ctx, s, spec, tests, res)
		if err == nil && end.fault != "" {
			res.restarted("a test broke the worker protocol")
			if end.suspect != nil {
				err = p.attribute(ctx, spec, *end.suspect, end.fault, res)
			}
		}
		if err != nil {
			res.Duration = time.Since(start)
			return res, err
		}
		if len(end.rest) == 0 || (res.Compile != nil && !res.Compile.OK) || (spec.StopAtFirstFailure && failedLast(res)) {
			break
		}
		if len(res.Tests) == before {
			if fruitless++; fruitless >= 2 {
				res.Duration = time.Since(start)
				return res, fmt.Errorf("harness: run: the worker keeps dying between tests (%d tests left): %s", len(end.rest), res.RestartReason)
			}
		}
		tests = end.rest
	}
	p.learn(spec, res.Tests)
	res.Duration = time.Since(start)
	return res, nil
}

func failedLast(res *RunResult) bool {
	if len(res.Tests) == 0 {
		return false
	}
	o := res.Tests[len(res.Tests)-1].Outcome
	return o != Passed && o != Skipped
}

// restarted records a worker restart and why.
func (r *RunResult) restarted(why string) {
	r.WorkerRestarted = true
	for _, known := range strings.Split(r.RestartReason, "; ") {
		if known == why {
			return
		}
	}
	if r.RestartReason != "" {
		r.RestartReason += "; "
	}
	r.RestartReason += why
}

// runEnd is how one worker's part of a run ended.
type runEnd struct {
	rest []TestID // tests still to run, on another worker
	// fault is the protocol violation that ended it, "" if none; suspect is the test that ran,
	// or had just run, when it happened.
	fault   string
	suspect *TestID
}

// runOn runs tests on the slot's worker, appending to res, and gives the slot back (restarting
// its worker if needed). It returns the tests still to run when the worker was lost mid-run.
func (p *Pool) runOn(ctx context.Context, s *slot, spec RunSpec, tests []TestID, res *RunResult) (runEnd, error) {
	w := s.w
	id := w.newID()
	def, budgets := p.budgetsFor(spec)
	req := &runRequest{
		Overrides:          wireSources(spec.Overrides),
		ExtraTests:         wireSources(spec.ExtraTests),
		Tests:              wireTests(tests),
		Coverage:           spec.Coverage,
		CoverClasses:       nonNil(spec.CoverClasses),
		StopAtFirstFailure: spec.StopAtFirstFailure,
		ActiveMutant:       spec.ActiveMutant,
		SkipDigests:        spec.SkipDigests,
		ExportProbes:       spec.exportProbes,
		RecordExecuted:     spec.recordExecuted,
		RecordCompares:     spec.RecordCompares,
		DefaultBudgetMs:    def.Milliseconds(),
		BudgetsMs:          map[string]int64{},
	}
	for t, d := range budgets {
		req.BudgetsMs[t.Class+"#"+t.Method] = d.Milliseconds()
	}
	if len(spec.StepBudgets) > 0 {
		req.StepBudgets = make(map[string]int64, len(spec.StepBudgets))
		for t, n := range spec.StepBudgets {
			req.StepBudgets[t.Class+"#"+t.Method] = n
		}
	}
	if len(spec.Overrides)+len(spec.ExtraTests) > 0 {
		req.Precompiled = p.exported.shipTo(sourcesKey(spec.Overrides, spec.ExtraTests), w)
	}
	if err := w.send(id, req); err != nil {
		p.restartInBackground(s, "send failed")
		return runEnd{}, fmt.Errorf("harness: run: %w", err)
	}
	seq := newRunSequence(id, spec.StopAtFirstFailure)
	var curStart time.Time
	timer := time.NewTimer(betweenTests)
	defer timer.Stop()
	reset := func(d time.Duration) {
		if !timer.Stop() {
			select {
			case <-timer.C:
			default:
			}
		}
		timer.Reset(d)
	}
	// unstarted is what another worker must run when this one is lost.
	unstarted := func() []TestID {
		if !seq.planned {
			return tests
		}
		return seq.left()
	}
	// lost records the running test as ended by the worker's loss and restarts the worker.
	lost := func(outcome Outcome, msg, why string) runEnd {
		res.restarted(why)
		t, running := seq.running()
		if running {
			tr := TestResult{Test: t, Outcome: outcome, Message: msg, Duration: time.Since(curStart)}
			tr.Files = collectFiles(w.testScratch(id, seq.current))
			res.Tests = append(res.Tests, tr)
		}
		p.restartInBackground(s, why)
		if res.Compile == nil && !seq.planned {
			res.Compile = &CompileResult{OK: false, Diagnostics: []CompileDiagnostic{{Kind: "error", Message: "the worker was lost while compiling: " + msg}}}
			return runEnd{}
		}
		if spec.StopAtFirstFailure && running {
			return runEnd{}
		}
		return runEnd{rest: seq.left()}
	}
	// fault ends the run on a protocol violation: the worker is restarted, and the test that ran
	// or had just run when it happened is the suspect.
	fault := func(err error) runEnd {
		p.log.Warn("harness: a worker broke the protocol; restarting it", zap.Error(err))
		end := runEnd{fault: strings.TrimPrefix(err.Error(), errProtocol.Error()+": "), rest: unstarted()}
		if t, ok := seq.running(); ok {
			end.suspect = &t
		} else if t, ok := seq.lastRun(); ok {
			end.suspect = &t
		}
		p.restartInBackground(s, "protocol violation")
		return end
	}
	for {
		select {
		case line, ok := <-w.lines:
			if !ok {
				if why := w.lostReason(); why != "" {
					return fault(protocolErrorf("%s", why)), nil
				}
				code, tail := w.exitInfo()
				outcome, msg := Exit, fmt.Sprintf("the worker JVM exited (status %d) during the test", code)
				if strings.Contains(tail, "OutOfMemoryError") {
					outcome = OOM
				}
				if tail != "" {
					msg += ": " + lastLines(tail, 5)
				}
				return lost(outcome, msg, "worker died"), nil
			}
			m, err := seq.accept(line)
			if err != nil {
				return fault(err), nil
			}
			switch m := m.(type) {
			case *planEvent:
				if res.Compile == nil {
					res.Compile = m.Compile.toResult()
				}
			case *startEvent:
				t := TestID{Class: m.Class, Method: m.Method}
				curStart = time.Now()
				if p.onTestStart != nil {
					p.onTestStart(t)
				}
				reset(time.Duration(m.BudgetMs)*time.Millisecond + hardGrace)
			case *resultEvent:
				tr := m.toTestResult()
				if m.Files {
					tr.Files = collectFiles(w.testScratch(id, m.Index))
				}
				if m.ProcessesKilled > 0 || m.OutputDropped > 0 {
					p.log.Debug("harness: test clean-up", zap.String("test", tr.Test.String()),
						zap.Int("processesKilled", m.ProcessesKilled), zap.Int64("outputDropped", m.OutputDropped), zap.Int("threadsLeft", m.ThreadsLeft))
				}
				res.Tests = append(res.Tests, tr)
				reset(betweenTests)
			case *runDone:
				return p.runDone(s, spec, seq, m, res)
			}
		case <-timer.C:
			name := "(between tests)"
			if t, ok := seq.running(); ok {
				name = t.String()
			}
			p.log.Warn("harness: worker unresponsive past the test's budget; killing it", zap.String("test", name))
			return lost(Timeout, "the test did not stop within its budget; the worker was restarted", "test overran its budget"), nil
		case <-ctx.Done():
			seq.cancelSent = true
			_ = w.send(id, &cancelRequest{})
			p.drainInBackground(s, id, time.Second)
			return runEnd{}, ctx.Err()
		case <-p.closing:
			return runEnd{}, ErrClosed
		}
	}
}

// runDone finishes a run at its done line.
func (p *Pool) runDone(s *slot, spec RunSpec, seq *runSequence, m *runDone, res *RunResult) (runEnd, error) {
	if m.CoverageError != "" {
		p.log.Warn("harness: no coverage", zap.String("why", m.CoverageError))
	}
	if m.Compile != nil && res.Compile == nil {
		res.Compile = m.Compile.toResult()
	}
	if m.Fatal != "" {
		res.restarted(m.Fatal)
		p.restartInBackground(s, m.Fatal)
	} else {
		p.release(s)
	}
	// The union is exact only when this worker ran every test of the run.
	res.Coverage, res.probes, res.probesOK = nil, nil, false
	if !res.WorkerRestarted {
		res.Coverage = decodeCoverage(m.Coverage)
		res.probes, res.probesOK = m.Probes, spec.exportProbes && m.Probes != nil
	}
	if m.Error != "" {
		return runEnd{}, fmt.Errorf("harness: run: %s", m.Error)
	}
	if res.Compile == nil {
		res.Compile = &CompileResult{OK: true}
	}
	if m.Fatal != "" && res.Compile.OK && !(spec.StopAtFirstFailure && seq.lastFail) {
		return runEnd{rest: seq.left()}, nil
	}
	return runEnd{}, nil
}

// attribute reruns suspect alone on a fresh worker after a protocol violation. If it breaks the
// protocol again, it is the culprit: its outcome is an Error saying so. Otherwise its verdict is
// the rerun's (the violation came from something else, such as a thread an earlier test left).
// Either way the verdict replaces any result res already had for it.
func (p *Pool) attribute(ctx context.Context, spec RunSpec, suspect TestID, fault string, res *RunResult) error {
	s, err := p.acquireFresh(ctx)
	if err != nil {
		return err
	}
	alone := spec
	alone.Tests = []TestID{suspect}
	sub := &RunResult{}
	end, err := p.runOn(ctx, s, alone, alone.Tests, sub)
	if err != nil {
		return err
	}
	if sub.WorkerRestarted {
		res.restarted(sub.RestartReason)
	}
	var verdict TestResult
	switch {
	case end.fault != "":
		p.log.Warn("harness: a test broke the worker protocol", zap.String("test", suspect.String()), zap.String("first", fault), zap.String("alone", end.fault))
		verdict = TestResult{Test: suspect, Outcome: Error,
			Message: "the test broke the worker protocol (it, or a thread it started, wrote on the worker's protocol descriptor): " + end.fault}
	case len(sub.Tests) == 1:
		verdict = sub.Tests[0]
	default:
		verdict = TestResult{Test: suspect, Outcome: Error,
			Message: "the worker protocol broke while the test ran (" + fault + ") and its rerun alone gave no result"}
	}
	for i := range res.Tests {
		if res.Tests[i].Test == suspect {
			res.Tests[i] = verdict
			return nil
		}
	}
	res.Tests = append(res.Tests, verdict)
	return nil
}

// collectFiles reads the regular files a test left in its scratch folder dir, up to
// maxTestFiles in all, and removes the folder. The test could write dir: it may have replaced
// dir, or an entry of it, with a link to a host folder or file, which this process, outside the
// sandbox, must not follow (on the timeout path it would read that host folder's files into
// the test's result). So dir is opened with O_DIRECTORY|O_NOFOLLOW and each entry relative to
// that descriptor, refusing links; pipes and folders are left out too (docs/sandbox.md).
func collectFiles(dir string) map[string][]byte {
	defer os.RemoveAll(dir) // a link is removed, not followed
	d, err := openDirNoFollow(dir)
	if err != nil {
		return nil
	}
	defer d.Close()
	entries, err := d.ReadDir(-1)
	if err != nil {
		return nil
	}
	var out map[string][]byte
	left := int64(maxTestFiles)
	for _, e := range entries {
		if !e.Type().IsRegular() || left <= 0 {
			continue
		}
		data, err := readRegularAt(d, e.Name(), left)
		if err != nil {
			continue
		}
		if out == nil {
			out = map[string][]byte{}
		}
		out[e.Name()] = data
		left -= int64(len(data))
	}
	return out
}

// readRegularAt reads at most max bytes of the entry name of the folder dir, which must be a
// regular file (not followed through a link: the test may have swapped it since the folder was
// listed).
func readRegularAt(dir *os.File, name string, max int64) ([]byte, error) {
	f, err := openAtNoFollow(dir, name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if st, err := f.Stat(); err != nil || !st.Mode().IsRegular() {
		return nil, errors.New("not a regular file")
	}
	return io.ReadAll(io.LimitReader(f, max))
}

func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, " | ")
}

func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}
