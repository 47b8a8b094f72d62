package harness

import (
	"context"
	"fmt"
	"strings"
	"time"

	"go.uber.org/zap"
)

// hardGrace is how long past a test's budget the Go side waits before it kills the worker; the
// worker itself gives a timed-out thread two seconds to throw.
const hardGrace = 5 * time.Second

// betweenTests bounds the worker's work outside tests: compiling, loading, coverage analysis.
const betweenTests = 2 * time.Minute

// Run compiles the overrides and extra tests in memory, runs the tests in a fresh class loader
// and reports each test. A compile failure gives Compile.OK false, no Tests and a nil error. A
// test that does not stop is reported as a timeout and costs a worker restart; the remaining
// tests then run on a fresh worker (unless StopAtFirstFailure).
func (p *Pool) Run(ctx context.Context, spec RunSpec) (*RunResult, error) {
	start := time.Now()
	res := &RunResult{}
	tests := make([][]string, 0, len(spec.Tests))
	for _, t := range spec.Tests {
		tests = append(tests, []string{t.Class, t.Method})
	}
	for fruitless := 0; ; {
		s, err := p.acquire(ctx)
		if err != nil {
			return nil, err
		}
		before := len(res.Tests)
		rest, err := p.runOn(ctx, s, spec, tests, res)
		if err != nil {
			res.Duration = time.Since(start)
			return res, err
		}
		if len(rest) == 0 || (res.Compile != nil && !res.Compile.OK) {
			break
		}
		if len(res.Tests) == before {
			if fruitless++; fruitless >= 2 {
				res.Duration = time.Since(start)
				return res, fmt.Errorf("harness: run: the worker keeps dying between tests (%d tests left)", len(rest))
			}
		}
		tests = rest
	}
	p.learn(spec, res.Tests)
	res.Duration = time.Since(start)
	return res, nil
}

// runOn runs tests on the slot's worker, appending to res. It returns the tests still to run
// when the worker was lost mid-run, and gives the slot back (restarting its worker if needed).
func (p *Pool) runOn(ctx context.Context, s *slot, spec RunSpec, tests [][]string, res *RunResult) ([][]string, error) {
	w := s.w
	id := w.newID()
	def, budgets := p.budgetsFor(spec)
	wireBudgets := map[string]int64{}
	for t, d := range budgets {
		wireBudgets[t.Class+"#"+t.Method] = d.Milliseconds()
	}
	req := map[string]any{
		"op":                 "run",
		"id":                 id,
		"overrides":          wireSources(spec.Overrides),
		"extraTests":         wireSources(spec.ExtraTests),
		"tests":              wireTests(tests),
		"coverage":           spec.Coverage,
		"coverClasses":       nonNil(spec.CoverClasses),
		"stopAtFirstFailure": spec.StopAtFirstFailure,
		"defaultBudgetMs":    def.Milliseconds(),
		"budgetsMs":          wireBudgets,
	}
	if err := w.send(req); err != nil {
		p.restartInBackground(s, "send failed")
		return nil, fmt.Errorf("harness: run: %w", err)
	}
	var (
		plan     []TestID
		done     = map[TestID]bool{}
		current  *TestID
		curStart time.Time
		timer    = time.NewTimer(betweenTests)
	)
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
	// lost records the running test as ended by the worker's loss and returns what is left.
	lost := func(outcome Outcome, msg string) [][]string {
		res.WorkerRestarted = true
		if current != nil {
			res.Tests = append(res.Tests, TestResult{Test: *current, Outcome: outcome, Message: msg, Duration: time.Since(curStart)})
			done[*current] = true
		}
		if res.Compile == nil {
			res.Compile = &CompileResult{OK: false, Diagnostics: []CompileDiagnostic{{Kind: "error", Message: "the worker was lost while compiling: " + msg}}}
			return nil
		}
		if spec.StopAtFirstFailure && current != nil {
			return nil
		}
		var rest [][]string
		for _, t := range plan {
			if !done[t] {
				rest = append(rest, []string{t.Class, t.Method})
			}
		}
		return rest
	}
	for {
		select {
		case line, ok := <-w.lines:
			if !ok {
				code, tail := w.exitInfo()
				outcome, msg := Exit, fmt.Sprintf("the worker JVM exited (status %d) during the test", code)
				if strings.Contains(tail, "OutOfMemoryError") {
					outcome = OOM
				}
				if tail != "" {
					msg += ": " + lastLines(tail, 5)
				}
				p.restartInBackground(s, "worker died")
				return lost(outcome, msg), nil
			}
			m, err := decodeMsg(line)
			if err != nil || m.ID != id {
				continue
			}
			switch {
			case m.Done:
				if m.CoverageError != "" {
					p.log.Warn("harness: no coverage", zap.String("why", m.CoverageError))
				}
				// The union is exact only when this worker ran every test of the run.
				if !res.WorkerRestarted {
					res.Coverage = decodeCoverage(m.Coverage)
				} else {
					res.Coverage = nil
				}
				if m.Compile != nil && res.Compile == nil {
					res.Compile = m.Compile.toResult()
				}
				if m.Fatal != "" {
					res.WorkerRestarted = true
					p.restartInBackground(s, m.Fatal)
				} else {
					p.release(s)
				}
				if m.Error != "" {
					return nil, fmt.Errorf("harness: run: %s", m.Error)
				}
				if res.Compile == nil {
					res.Compile = &CompileResult{OK: true}
				}
				if m.Fatal != "" && !spec.StopAtFirstFailure && res.Compile.OK {
					var rest [][]string
					for _, t := range plan {
						if !done[t] {
							rest = append(rest, []string{t.Class, t.Method})
						}
					}
					return rest, nil
				}
				return nil, nil
			case m.Event == "plan":
				if m.Compile != nil && res.Compile == nil {
					res.Compile = m.Compile.toResult()
				}
				plan = plan[:0]
				for _, t := range m.Tests {
					if len(t) == 2 {
						plan = append(plan, TestID{Class: t[0], Method: t[1]})
					}
				}
			case m.Event == "start":
				if res.Compile == nil {
					res.Compile = &CompileResult{OK: true}
				}
				t := TestID{Class: m.Class, Method: m.Method}
				current, curStart = &t, time.Now()
				if p.onTestStart != nil {
					p.onTestStart(t)
				}
				reset(time.Duration(m.BudgetMs)*time.Millisecond + hardGrace)
			case m.Event == "result":
				t := TestID{Class: m.Class, Method: m.Method}
				res.Tests = append(res.Tests, m.toTestResult())
				done[t] = true
				current = nil
				reset(betweenTests)
			}
		case <-timer.C:
			name := "(between tests)"
			if current != nil {
				name = current.String()
			}
			p.log.Warn("harness: worker unresponsive past the test's budget; killing it", zap.String("test", name))
			p.restartInBackground(s, "test overran its budget")
			return lost(Timeout, "the test did not stop within its budget; the worker was restarted"), nil
		case <-ctx.Done():
			_ = w.send(map[string]any{"op": "cancel", "id": id})
			p.drainInBackground(s, id, time.Second)
			return nil, ctx.Err()
		case <-p.closing:
			return nil, ErrClosed
		}
	}
}

func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, " | ")
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}
