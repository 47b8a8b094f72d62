package offline

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/advertest/advertest-lsp/buildtools/harness"
	"github.com/advertest/advertest-lsp/javaparse"
	"github.com/advertest/advertest-lsp/loop/agent"
)

// InitialSuite writes a small suite from the simplest inputs with distinct outcomes, keeping
// a test only when it covers something the earlier ones do not.
func (a *Agent) InitialSuite(ctx context.Context, s *agent.Subject) ([]agent.Test, error) {
	tests, _, err := a.ExplainedInitialSuite(ctx, s)
	return tests, err
}

// ExplainedInitialSuite is InitialSuite with why it wrote no test (Why "" when it wrote some).
func (a *Agent) ExplainedInitialSuite(ctx context.Context, s *agent.Subject) ([]agent.Test, agent.Evidence, error) {
	s, orig, err := a.drive(ctx, s)
	if err != nil {
		return nil, agent.Evidence{}, err
	}
	junit := junitOf(s, a.pool)
	pkg := subjectPackage(s)
	r := newRenderer(junit, s.Method, orig.hdr, a.opts.TestTimeout.Milliseconds())
	r.minimal = orig.params.minimal
	seen := map[string]bool{}
	var cands []candidate
	for _, rec := range simplestPerOutcome(orig.records, 3*a.opts.MaxInitialTests) {
		seen[outcomeSignature(rec.outcome)+writtenSignature(rec)] = true
		cands = append(cands, candidate{rec: rec, em: emphasis{allState: true, afterArgs: writtenArgs(rec)}})
	}
	// inputs at the extremes (the largest and smallest values, alone or in arrays) with an
	// outcome of their own: overflow and boundary faults show there, whatever they cover
	extremes := 0
	for _, rec := range orig.records {
		if extremes >= maxExtremeTests {
			break
		}
		sig := outcomeSignature(rec.outcome) + stateSignature(rec.outcome)
		if seen[sig] || !extremeInput(rec) {
			continue
		}
		seen[sig] = true
		cands = append(cands, candidate{rec: rec, em: emphasis{allState: true, extreme: true, afterArgs: writtenArgs(rec)}})
		extremes++
	}
	at := map[*record]int{}
	for i, c := range cands {
		at[c.rec] = i
	}
	for _, rec := range shapeInputs(orig.records) {
		if i, ok := at[rec]; ok {
			cands[i].em.extreme = true
		} else {
			cands = append(cands, candidate{rec: rec, em: emphasis{allState: true, extreme: true, afterArgs: writtenArgs(rec)}})
		}
	}
	if len(cands) == 0 {
		return nil, orig.noStableInput(), nil
	}
	var tests []rendered
	for _, c := range cands {
		tests = append(tests, r.test(c.rec, c.em))
	}
	tests, cands = withoutReflection(tests, cands)
	uniqueNames(tests)
	covered := s.Method
	if orig.via != nil {
		covered = orig.via.target // the method under test, not the entry point the tests call
	}
	chosen, err := a.chooseByCoverage(ctx, s, covered, pkg, tests, cands)
	if err != nil {
		return nil, agent.Evidence{}, err
	}
	if len(chosen) == 0 {
		return nil, agent.Evidence{Why: fmt.Sprintf("none of the %d tests written from the original's outcomes passed on it when run", len(tests))}, nil
	}
	var out []agent.Test
	for _, i := range chosen {
		t := tests[i]
		out = append(out, agent.Test{Name: t.name, Source: t.source, Imports: t.imports, Origin: "search", Members: t.members})
	}
	return out, agent.Evidence{}, nil
}

// maxExtremeTests bounds the initial suite's tests on extreme inputs, beyond MaxInitialTests.
const maxExtremeTests = 6

// maxShapeTests bounds the initial suite's tests on linked graphs (shapeCandidates), and
// perShapeTests those on one shape.
const (
	maxShapeTests = 12
	perShapeTests = 2
)

// baseShapes are the graphs' shapes (the explorer's graphToken without a weight variant) the
// initial suite keeps a test on whatever they cover: a fault in a graph search shows on a
// shape (a cycle, a diamond, a second path), not on a line the chain already covered.
var baseShapes = map[string]bool{
	"Chain": true, "Diamond": true, "Cycle": true, "Lasso": true, "TwoComponents": true, "SelfLoop": true,
	"LongChain": true, "TwoPaths": true,
	"WeightedChain": true, "WeightedDiamond": true, "WeightedCycle": true, "WeightedLasso": true,
	"WeightedTwoComponents": true, "WeightedSelfLoop": true, "WeightedLongChain": true, "WeightedTwoPaths": true,
}

// shapeInputs picks, for each base shape of the explored graphs, the first inputs (up to
// perShapeTests) whose outcomes differ from each other on that shape, one per shape in a round
// before the next: the initial suite keeps tests on them whatever they cover.
func shapeInputs(records []*record) []*record {
	var out []*record
	taken := map[*record]bool{}
	for round := 0; round < perShapeTests; round++ {
		perShape := map[string]map[string]bool{}
		picked := map[string]bool{}
		for _, rec := range records {
			if len(out) >= maxShapeTests {
				return out
			}
			if !baseShapes[rec.GraphToken] || picked[rec.GraphToken] || rec.outcome.K != "ret" && rec.outcome.K != "throw" {
				continue
			}
			sigs := perShape[rec.GraphToken]
			if sigs == nil {
				sigs = map[string]bool{}
				perShape[rec.GraphToken] = sigs
			}
			sig := outcomeSignature(rec.outcome) + stateSignature(rec.outcome)
			if sigs[sig] {
				continue
			}
			sigs[sig] = true
			if taken[rec] {
				continue // this outcome's input was picked in an earlier round
			}
			taken[rec] = true
			picked[rec.GraphToken] = true
			out = append(out, rec)
		}
	}
	return out
}

// extremeInput reports whether an input holds a type's largest or smallest value, or puts its
// receiver through the longest sequences of setup calls (a buffer that wrapped, a stack that
// grew) or through two different mutators.
func extremeInput(rec *record) bool {
	if len(rec.Setup) >= 5 {
		return true
	}
	calls := map[string]bool{}
	for _, c := range rec.Setup {
		if i := strings.IndexByte(c, '('); i > 0 {
			calls[c[:i]] = true
		}
	}
	if len(calls) >= 2 {
		return true // mutators mixed: a buffer emptied and refilled
	}
	for _, a := range append(slices.Clone(rec.Args), rec.Graph...) {
		if strings.Contains(a, "MAX_VALUE") || strings.Contains(a, "MIN_VALUE") {
			return true
		}
	}
	return false
}

// stateSignature is the receiver's observed state and the arguments after the call.
func stateSignature(o outcome) string {
	var b strings.Builder
	for _, ob := range o.State {
		b.WriteString("|" + ob.M + "=" + ob.R.K + ":" + ob.R.V)
	}
	for _, af := range o.After {
		fmt.Fprintf(&b, "|%d=%s:%s", af.A, af.R.K, af.R.V)
	}
	return b.String()
}

// sinkArgs are the expressions of arguments that a method writes to (Jdk.java's writers and
// byte streams): what it wrote is what an initial test asserts.
var sinkArgs = []string{"new StringWriter(", "new ByteArrayOutputStream("}

// writtenArgs are the arguments an initial test asserts after the call (at most three): those
// of a void method, whose only effect is on its arguments and receiver, and writers.
func writtenArgs(rec *record) []int {
	var out []int
	void := rec.outcome.K == "ret" && rec.outcome.Ret != nil && rec.outcome.Ret.K == "void"
	for _, af := range rec.outcome.After {
		sink := false
		if af.A < len(rec.Args) {
			for _, p := range sinkArgs {
				sink = sink || strings.HasPrefix(rec.Args[af.A], p)
			}
		}
		if (void || sink) && len(out) < 3 {
			out = append(out, af.A)
		}
	}
	return out
}

// writtenSignature is what writtenArgs's arguments held after the call: two inputs of a void
// method that wrote different text are two outcomes.
func writtenSignature(rec *record) string {
	var b strings.Builder
	for _, i := range writtenArgs(rec) {
		if af, ok := findAfter(rec.outcome.After, i); ok {
			fmt.Fprintf(&b, "|%d=%s:%s", i, af.R.K, af.R.V)
		}
	}
	return b.String()
}

// outcomeSignature groups outcomes for the initial suite: the kind, the exception, the
// result (ignoring the receiver's state).
func outcomeSignature(o outcome) string {
	sig := o.K + "|" + o.X
	if o.Ret != nil {
		sig += "|" + o.Ret.K + "|" + o.Ret.V
	}
	return sig
}

// chooseByCoverage runs the tests on the original with coverage and keeps, in order, those
// that pass and add covered lines or branches of the method m (the method under test, also
// when the tests call it through an entry point).
func (a *Agent) chooseByCoverage(ctx context.Context, s *agent.Subject, covered *javaparse.Method, pkg string, tests []rendered, cands []candidate) ([]int, error) {
	return a.dropAndRetry(ctx, s, pkg, tests, cands, func(tests []rendered, cands []candidate) ([]int, error) {
		return a.chooseByCoverageOnce(ctx, s, covered, pkg, tests, cands)
	})
}

func (a *Agent) chooseByCoverageOnce(ctx context.Context, s *agent.Subject, m *javaparse.Method, pkg string, tests []rendered, cands []candidate) ([]int, error) {
	class, fqn := a.scratchClass(s, pkg, "Initial")
	ids := make([]harness.TestID, len(tests))
	for i, t := range tests {
		ids[i] = harness.TestID{Class: fqn, Method: t.name}
	}
	src := testClass(pkg, class, tests)
	res, err := a.runGenerated(ctx, s, s.Source, fqn, src, "measuring the initial suite", harness.RunSpec{
		Tests:        ids,
		Coverage:     true,
		CoverClasses: []string{s.Method.TopLevelClass},
	})
	if err != nil {
		return nil, err
	}
	byID := map[harness.TestID]harness.TestResult{}
	for _, t := range res.Tests {
		byID[t.Test] = t
	}
	covered := map[string]bool{}
	var chosen []int
	normal := 0
	for i, id := range ids {
		t, ok := byID[id]
		if !ok || t.Outcome != harness.Passed {
			continue
		}
		items := coverageItems(t.Coverage, m)
		gain := false
		for _, it := range items {
			if !covered[it] {
				gain = true
			}
		}
		if cands[i].em.extreme && !gain {
			// kept for its input, not its coverage
		} else if t.Coverage != nil && !gain || normal >= a.opts.MaxInitialTests {
			continue
		} else {
			normal++
		}
		for _, it := range items {
			covered[it] = true
		}
		chosen = append(chosen, i)
	}
	return chosen, nil
}

// coverageItems are the method's covered lines and branches in one test's coverage.
func coverageItems(c *harness.Coverage, m *javaparse.Method) []string {
	if c == nil {
		return nil
	}
	var items []string
	for cls, cc := range c.Classes {
		if cls != m.BinaryClassName && !strings.HasPrefix(cls, m.BinaryClassName+"$") {
			continue
		}
		for line, lc := range cc.Lines {
			if line < m.StartLine || line > m.EndLine {
				continue
			}
			if lc.CoveredInstructions > 0 {
				items = append(items, fmt.Sprintf("%s:%d", cls, line))
			}
			for b := 0; b < lc.CoveredBranches; b++ {
				items = append(items, fmt.Sprintf("%s:%d#%d", cls, line, b))
			}
		}
	}
	slices.Sort(items)
	return items
}
