package offline

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"go.uber.org/zap"

	"github.com/advertest/advertest-lsp/buildtools/harness"
	"github.com/advertest/advertest-lsp/loop/agent"
)

// verify runs the candidate tests on the original and on the mutant and returns the indices
// (in order, at most want) of those that pass on the original and fail on the mutant. A
// timeout candidate is checked on the original only: on the mutant it would leave a looping
// thread behind in the worker.
func (a *Agent) verify(ctx context.Context, s *agent.Subject, pkg string, mutated []byte, tests []rendered, cands []candidate, want int) ([]int, error) {
	return a.dropAndRetry(ctx, s, pkg, tests, cands, func(tests []rendered, cands []candidate) ([]int, error) {
		return a.verifyOnce(ctx, s, pkg, mutated, tests, cands, want)
	})
}

// dropAndRetry runs a batch of generated tests through run (which returns the indices of the
// tests it keeps) and, when the batch does not compile as one class (a *testsCompileError),
// drops the tests that do not compile on their own and runs the rest once more. The indices
// returned are the batch's. Every run of generated tests goes through it: one test the
// renderer got wrong costs that test, not the batch.
func (a *Agent) dropAndRetry(ctx context.Context, s *agent.Subject, pkg string, tests []rendered, cands []candidate, run func([]rendered, []candidate) ([]int, error)) ([]int, error) {
	got, err := run(tests, cands)
	var tce *testsCompileError
	if !errors.As(err, &tce) {
		return got, err
	}
	if declareThrows(tests, tce) {
		// an argument's constructor or factory throws a checked exception the method does not
		// declare (new CSVParser(reader, format) throws IOException): the tests (the caller's,
		// which it keeps by index) say throws Exception and run again, before anything is dropped
		if got, err = run(tests, cands); !errors.As(err, &tce) {
			return got, err
		}
	}
	if len(tests) < 2 {
		// the one test does not compile: it is dropped, as it would be from a larger batch
		a.log.Warn("offline: dropped a generated test that does not compile", zap.Error(err))
		return nil, nil
	}
	keep, err := a.compilable(ctx, s, pkg, tests)
	if err != nil || len(keep) == 0 {
		return nil, err
	}
	var sub []rendered
	var subCands []candidate
	for _, i := range keep {
		sub = append(sub, tests[i])
		subCands = append(subCands, cands[i])
	}
	got, err = run(sub, subCands)
	for k, i := range got {
		got[k] = keep[i]
	}
	return got, err
}

// declareThrows answers a batch that does not compile for an unreported checked exception:
// each of its tests that lacks it declares `throws Exception`, in place (the caller keeps the
// tests that pass by index). It reports whether it changed any; it changes none when the errors
// say something else.
func declareThrows(tests []rendered, tce *testsCompileError) bool {
	unreported := false
	for _, m := range tce.msgs {
		unreported = unreported || strings.Contains(m, "unreported exception")
	}
	if !unreported {
		return false
	}
	changed := false
	for i, t := range tests {
		head, rest, found := strings.Cut(t.source, "() {\n")
		if found && !strings.Contains(head, " throws ") && strings.Contains(head, "void "+t.name) {
			tests[i].source = head + "() throws Exception {\n" + rest
			changed = true
		}
	}
	return changed
}

// testsCompileError is a batch of generated tests that does not compile.
type testsCompileError struct{ msgs []string }

func (e *testsCompileError) Error() string {
	return "offline: the generated tests do not compile: " + strings.Join(e.msgs, "; ")
}

// runGenerated runs spec's tests of the generated class fqn (its text src) on the class under
// test as text: a *testsCompileError when the class does not compile, another error (saying
// what the run was for) when the run failed.
func (a *Agent) runGenerated(ctx context.Context, s *agent.Subject, text []byte, fqn, src, what string, spec harness.RunSpec) (*harness.RunResult, error) {
	spec.Overrides = []harness.Source{{ClassName: s.Method.TopLevelClass, Text: string(text)}}
	spec.ExtraTests = []harness.Source{{ClassName: fqn, Text: src}}
	res, err := a.pool.Run(ctx, spec)
	if err != nil {
		return nil, fmt.Errorf("offline: %s: %w", what, err)
	}
	if err := a.compileFailure(res.Compile, src); err != nil {
		return nil, err
	}
	return res, nil
}

// compileFailure is the compile result's errors as a *testsCompileError, nil when it compiled.
func (a *Agent) compileFailure(c *harness.CompileResult, src string) error {
	if c == nil || c.OK {
		return nil
	}
	var msgs []string
	for _, d := range c.Diagnostics {
		if d.Kind == "error" {
			msgs = append(msgs, fmt.Sprintf("%d: %s", d.Line, firstLine(d.Message)))
		}
	}
	a.log.Debug("offline: generated tests do not compile", zap.Strings("errors", msgs), zap.String("source", src))
	return &testsCompileError{msgs: msgs}
}

// compilable returns the indices of the tests that compile on their own (against the
// original), for a batch whose class as a whole did not.
func (a *Agent) compilable(ctx context.Context, s *agent.Subject, pkg string, tests []rendered) ([]int, error) {
	var keep []int
	for i, t := range tests {
		class, fqn := a.scratchClass(s, pkg, "Compile")
		res, err := a.pool.Compile(ctx, []harness.Source{
			{ClassName: s.Method.TopLevelClass, Text: string(s.Source)},
			{ClassName: fqn, Text: testClass(pkg, class, []rendered{t})},
		})
		if err != nil {
			return nil, fmt.Errorf("offline: compiling a generated test: %w", err)
		}
		if res.OK {
			keep = append(keep, i)
		} else {
			a.log.Warn("offline: dropped a generated test that does not compile", zap.String("test", t.name), zap.String("source", t.source))
		}
	}
	return keep, nil
}

func (a *Agent) verifyOnce(ctx context.Context, s *agent.Subject, pkg string, mutated []byte, tests []rendered, cands []candidate, want int) ([]int, error) {
	class, fqn := a.scratchClass(s, pkg, "Check")
	src := testClass(pkg, class, tests)
	ids := make([]harness.TestID, len(tests))
	budgets := map[harness.TestID]time.Duration{}
	for i, t := range tests {
		ids[i] = harness.TestID{Class: fqn, Method: t.name}
		budgets[ids[i]] = 10 * time.Second
	}
	run := func(text []byte, tests []harness.TestID) (map[harness.TestID]harness.Outcome, error) {
		res, err := a.runGenerated(ctx, s, text, fqn, src, "checking the generated tests", harness.RunSpec{Tests: tests, Timeouts: budgets})
		if err != nil {
			return nil, err
		}
		out := map[harness.TestID]harness.Outcome{}
		for _, t := range res.Tests {
			out[t.Test] = t.Outcome
		}
		return out, nil
	}
	onOrig, err := run(s.Source, ids)
	if err != nil {
		return nil, err
	}
	var passing []harness.TestID
	for i, id := range ids {
		if onOrig[id] == harness.Passed && !cands[i].em.timeout {
			passing = append(passing, id)
		}
	}
	onMut := map[harness.TestID]harness.Outcome{}
	if len(passing) > 0 && mutated != nil {
		if onMut, err = run(mutated, passing); err != nil {
			return nil, err
		}
	}
	var good []int
	for i, id := range ids {
		if onOrig[id] != harness.Passed {
			continue
		}
		if cands[i].em.timeout || mutated == nil {
			good = append(good, i)
		} else if o, ok := onMut[id]; ok && o != harness.Passed && o != harness.Skipped {
			good = append(good, i)
		}
		if len(good) >= want {
			break
		}
	}
	return good, nil
}
