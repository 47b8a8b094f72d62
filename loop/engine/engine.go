package engine

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"sync"
	"time"

	"github.com/advertest/advertest-lsp/buildtools/harness"
	"github.com/advertest/advertest-lsp/loop/mutants"
	"github.com/advertest/advertest-lsp/loop/report"
	settings "github.com/advertest/advertest-lsp/settings/schema"
)

// Runner compiles and runs tests in the JVM; *harness.Pool is the one the product uses.
type Runner interface {
	Run(ctx context.Context, spec harness.RunSpec) (*harness.RunResult, error)
	Compile(ctx context.Context, sources []harness.Source) (*harness.CompileResult, error)
}

// Subject is the class under test as the engine sees it.
type Subject struct {
	// Class is the binary name of the file's top-level class: the unit that a mutant replaces.
	Class string
	// Source is the original text, which may be an editor's unsaved buffer rather than the file.
	Source []byte
	// StartLine and EndLine bound the method (1-based, inclusive); its coverage is measured there.
	StartLine, EndLine int
}

// Suite is what the mutants play against.
type Suite struct {
	// Tests are the project's tests to run; a TestID with an empty Method stands for its class.
	Tests []harness.TestID
	// Extra are generated test classes, compiled in memory with the subject.
	Extra []harness.Source
	// LikelyFirst lets RunBaseline leave the project's test classes that the coverage map does
	// not know, and that do not name the class under test, for later (Baseline.Pending): the
	// first verdicts of a project without a map come from its likely tests.
	LikelyFirst bool
}

// Options tune an evaluation.
type Options struct {
	// Parallelism is how many mutants are evaluated at once (the pool's size); 0 means 1.
	Parallelism int
	// TimeoutFactor and TimeoutConstant give each test's budget on a mutant:
	// factor × its time on the original + constant (harness.Budget). Zero values mean the
	// settings table's defaults (mutantTimeout.factor and .constantMs, docs/settings.md).
	TimeoutFactor   float64
	TimeoutConstant time.Duration
	// StepFactor and StepConstant give each test's deterministic budget on a mutant, in steps
	// (backward jumps and method entries in the classes compiled in memory): factor × its steps
	// on the original + constant. Zero values mean the settings table's defaults
	// (mutantTimeout.stepFactor and .stepConstant); a negative StepFactor turns step budgets
	// off (wall-clock budgets only). The wall-clock budget stays the backstop.
	StepFactor   float64
	StepConstant int64
	// PerMutant turns mutant schemata off: every mutant is compiled on its own. By default the
	// rule mutants that fit go into one schema (mutants.BuildSchema), compiled once, and each
	// of their runs activates its own id.
	PerMutant bool
	// Schema, when set, is the mutant schema PrepareSchema started for this evaluation (it is
	// compiled here instead when it was prepared for another subject, suite or mutants).
	Schema *PendingSchema
	// Progress, when set, is called after each mutant with the counts so far, from the
	// goroutines that evaluate the mutants, one call at a time and in the order of done (1, 2,
	// …, total): it must not block for long, the next mutant's report waits for it.
	Progress func(done, total int)
	// Known maps bytecode digests (Stats.Digests of earlier evaluations) to the id of a mutant
	// outside this evaluation that has its verdict: a mutant that compiles to one of them is a
	// duplicate of that mutant and runs no test.
	Known map[string]string
	// AllKillers runs every test of a mutant instead of stopping at the first that fails, so
	// that KilledBy names every test that kills it (the kill matrix of a minimal suite).
	AllKillers bool
}

// budget is a test's wall-clock budget on a mutant, given its time on the original.
func (o Options) budget(normal time.Duration) time.Duration {
	b := harness.Budget{Factor: o.TimeoutFactor, Constant: o.TimeoutConstant}
	if b.Factor <= 0 {
		b.Factor = defaults.MutantTimeoutFactor
	}
	if b.Constant <= 0 {
		b.Constant = defaults.MutantTimeoutConstant
	}
	return b.Of(normal)
}

// stepBudget is a test's step budget on a mutant, given its steps on the original; 0: none.
// It is the wall-clock budget's formula over steps: factor × steps + constant.
func (o Options) stepBudget(normal int64) int64 {
	f, c := o.StepFactor, o.StepConstant
	if f < 0 {
		return 0
	}
	if f == 0 {
		f = defaults.StepFactor
	}
	if c <= 0 {
		c = defaults.StepConstant
	}
	return int64(f*float64(normal)) + c
}

// defaults are the settings table's defaults: those of Options' zero values.
var defaults = settings.Defaults(func(string) string { return "" })

// ErrOriginalDoesNotCompile is returned by RunBaseline when the subject itself does not compile.
var ErrOriginalDoesNotCompile = errors.New("the original class does not compile")

// Baseline is the suite's run on the original, with per-test coverage.
type Baseline struct {
	// Results holds each test's outcome on the original.
	Results map[harness.TestID]harness.TestResult
	// Passing are the tests that pass on the original, fastest first; only they can kill.
	Passing []harness.TestID
	// Failing are the tests that fail on the original: Fail(T, P). They never count as kills.
	Failing []harness.TestID
	// LineCoverage and BranchCoverage are the method's, 0..1, over the whole suite; Lines and
	// Branches are the counts behind them (lines that hold code, branches of those lines).
	LineCoverage, BranchCoverage float64
	Lines, Branches              report.Count
	// CoveredLines and UncoveredLines are the method's lines that hold code, by whether any
	// test executes them.
	CoveredLines, UncoveredLines []int
	// Duration is the baseline run's wall time.
	Duration time.Duration
	// Map is what the project's coverage map did: the tests it knew not to reach the method
	// did not run and are in neither Results nor Passing nor Failing (docs/coverage-map.md).
	Map harness.MapUse
	// Pending are the test classes left for later (Suite.LikelyFirst): a baseline of the whole
	// suite, after them, completes the map and the verdicts.
	Pending []harness.TestID

	// lineTests maps a source line to the passing tests that execute it, fastest first.
	lineTests map[int][]harness.TestID
	// methodTests are the passing tests that execute any line of the method, fastest first.
	methodTests []harness.TestID
	// codeLines are the lines of the file that hold instructions, in any class of the file.
	codeLines map[int]bool
	// digest is the original's bytecode digest ("" when the worker gave none): a mutant that
	// compiles to it is equivalent.
	digest string
}

// TestsFor returns the tests to run against a mutant of the given line: the passing tests that
// cover it, fastest first. A line that holds no instructions of its own (an `else`, a
// declaration without initialiser) falls back to the tests that cover the method.
func (b *Baseline) TestsFor(line int) []harness.TestID {
	if b.codeLines[line] {
		return b.lineTests[line]
	}
	return b.methodTests
}

// Describe puts the baseline's figures into a report of the method: its line and branch
// coverage with their counts and uncovered lines, and each mutant's CoveredBy, the tests that
// a mutant of its line plays against (TestsFor).
func (b *Baseline) Describe(rep *report.Report) {
	rep.LineCoverage, rep.BranchCoverage = b.LineCoverage, b.BranchCoverage
	if b.Map.Enabled {
		rep.Timing.CoverageMap = &report.CoverageMap{NotRun: b.Map.NotRun, Reaching: b.Map.Reaching, Rerun: b.Map.Rerun,
			Rebuilt: b.Map.Rebuilt, Bytes: b.Map.Bytes, Path: b.Map.Path}
	}
	rep.Coverage = &report.Coverage{Lines: b.Lines, Branches: b.Branches, UncoveredLines: append([]int(nil), b.UncoveredLines...)}
	for i := range rep.Mutants {
		ids := b.TestsFor(rep.Mutants[i].Line)
		names := make([]string, len(ids))
		for j, id := range ids {
			names[j] = id.String()
		}
		rep.Mutants[i].CoveredBy = names
	}
}

// CoversLine reports whether any passing test executes the line.
func (b *Baseline) CoversLine(line int) bool { return len(b.lineTests[line]) > 0 }

// RunBaseline runs the suite on the original with per-test coverage, its test classes shared
// out among the runner's workers when it has several (harness.RunSpec.Sharded).
func RunBaseline(ctx context.Context, r Runner, subj Subject, suite Suite) (*Baseline, error) {
	start := time.Now()
	res, err := r.Run(ctx, harness.RunSpec{
		Overrides:    []harness.Source{{ClassName: subj.Class, Text: string(subj.Source), Digest: true}},
		ExtraTests:   suite.Extra,
		Tests:        suite.Tests,
		Coverage:     true,
		CoverClasses: []string{subj.Class},
		// Split by test class over the pool's workers; the union still comes out exact.
		Sharded: true,
		// The original's tests get the original's limit, not a mutant's budget: their times
		// are what the mutants' budgets are measured against.
		Original: true,
		// Only the tests that can execute a mutant of the method run (and those the coverage
		// map does not know yet): a test that never enters it cannot kill one.
		Reach:       &harness.Lines{Start: subj.StartLine, End: subj.EndLine},
		LikelyFirst: suite.LikelyFirst,
	})
	if err != nil {
		return nil, fmt.Errorf("running the suite on the original: %w", err)
	}
	if res.Compile != nil && !res.Compile.OK {
		return nil, fmt.Errorf("%w: %s", ErrOriginalDoesNotCompile, compileSummary(res.Compile))
	}
	b := &Baseline{
		Results:   map[harness.TestID]harness.TestResult{},
		lineTests: map[int][]harness.TestID{},
		codeLines: map[int]bool{},
		Duration:  time.Since(start),
		Map:       res.Map,
		Pending:   res.Pending,
		digest:    subjectDigest(res.Compile, subj.Class),
	}
	for _, tr := range res.Tests {
		b.Results[tr.Test] = tr
		if tr.Outcome == harness.Passed {
			b.Passing = append(b.Passing, tr.Test)
		} else if tr.Outcome != harness.Skipped {
			b.Failing = append(b.Failing, tr.Test)
		}
	}
	fastestFirst(b.Passing, b.Results)

	// Per line: which passing tests execute it, and the union of branches covered.
	type lineAgg struct{ coveredBranches, totalBranches int }
	agg := map[int]*lineAgg{}
	inMethod := map[harness.TestID]bool{}
	for _, id := range b.Passing {
		tr := b.Results[id]
		for line, lc := range fileLines(tr.Coverage, subj.Class) {
			b.codeLines[line] = true
			a := agg[line]
			if a == nil {
				a = &lineAgg{}
				agg[line] = a
			}
			if total := lc.CoveredBranches + lc.MissedBranches; total > a.totalBranches {
				a.totalBranches = total
			}
			if lc.CoveredBranches > a.coveredBranches {
				// JaCoCo's per-test data say how many of a line's branches a test took, not
				// which; the maximum over tests is a lower bound of the union.
				a.coveredBranches = lc.CoveredBranches
			}
			if lc.CoveredInstructions > 0 {
				b.lineTests[line] = append(b.lineTests[line], id)
				if line >= subj.StartLine && line <= subj.EndLine {
					inMethod[id] = true
				}
			}
		}
	}
	// Failing tests' coverage still tells which lines hold code.
	for _, id := range b.Failing {
		for line := range fileLines(b.Results[id].Coverage, subj.Class) {
			b.codeLines[line] = true
		}
	}
	for _, id := range b.Passing {
		if inMethod[id] {
			b.methodTests = append(b.methodTests, id)
		}
	}

	// The method's figures: from the run's exact union when the harness has it, else from the
	// per-test data (whose per-line branch counts only give a lower bound of the union).
	union := fileLines(res.Coverage, subj.Class)
	var lines, covered, branches, coveredBranches int
	for line := subj.StartLine; line <= subj.EndLine; line++ {
		if !b.codeLines[line] && union[line] == (harness.LineCoverage{}) {
			continue
		}
		lines++
		isCovered := b.CoversLine(line)
		if res.Coverage != nil {
			u := union[line]
			isCovered = u.CoveredInstructions > 0
			branches += u.CoveredBranches + u.MissedBranches
			coveredBranches += u.CoveredBranches
		} else if a := agg[line]; a != nil {
			branches += a.totalBranches
			coveredBranches += a.coveredBranches
		}
		if isCovered {
			b.CoveredLines = append(b.CoveredLines, line)
			covered++
		} else {
			b.UncoveredLines = append(b.UncoveredLines, line)
		}
	}
	b.Lines = report.Count{Covered: covered, Total: lines}
	b.Branches = report.Count{Covered: coveredBranches, Total: branches}
	if lines > 0 {
		b.LineCoverage = float64(covered) / float64(lines)
	}
	if branches > 0 {
		b.BranchCoverage = float64(coveredBranches) / float64(branches)
	} else if lines > 0 && covered == lines {
		// A method without branches is fully branch-covered once its lines are.
		b.BranchCoverage = 1
	}
	return b, nil
}

// fileLines merges the coverage of the file's classes: the top-level class and its nested,
// inner, local and anonymous classes (Outer$…), which JaCoCo reports separately.
func fileLines(c *harness.Coverage, topLevel string) map[int]harness.LineCoverage {
	out := map[int]harness.LineCoverage{}
	if c == nil {
		return out
	}
	for name, cc := range c.Classes {
		if name != topLevel && !hasNestedPrefix(name, topLevel) {
			continue
		}
		for line, lc := range cc.Lines {
			o := out[line]
			o.CoveredInstructions += lc.CoveredInstructions
			o.MissedInstructions += lc.MissedInstructions
			o.CoveredBranches += lc.CoveredBranches
			o.MissedBranches += lc.MissedBranches
			out[line] = o
		}
	}
	return out
}

func hasNestedPrefix(name, topLevel string) bool {
	return len(name) > len(topLevel) && name[:len(topLevel)] == topLevel && name[len(topLevel)] == '$'
}

func fastestFirst(ids []harness.TestID, results map[harness.TestID]harness.TestResult) {
	sort.SliceStable(ids, func(i, j int) bool {
		di, dj := results[ids[i]].Duration, results[ids[j]].Duration
		if di != dj {
			return di < dj
		}
		return ids[i].String() < ids[j].String()
	})
}

// Stats are the figures of one evaluation.
type Stats struct {
	Mutants int
	// TestExecutions counts the tests run against mutants.
	TestExecutions int
	// CompileTime and TestTime add up the worker's own compile and test times: the floor that
	// an evaluation cannot go below.
	CompileTime, TestTime time.Duration
	// TimeoutTime is the part of TestTime spent in tests that timed out.
	TimeoutTime time.Duration
	Wall        time.Duration
	// PreparedTime is how long the compile of a schema Evaluate took from PrepareSchema ran
	// before Evaluate began (in wall-clock time, on a worker the baseline left idle): worker
	// time outside Wall. The part Evaluate waited for is in Wall.
	PreparedTime time.Duration
	// InSchema counts the mutants evaluated from a mutant schema (no compile of their own).
	InSchema int
	// Equivalent and Duplicate count the mutants found to compile to the original's bytecode
	// or to an earlier mutant's; their tests did not run (or, for a duplicate whose twin ran
	// at the same time, their verdict was dropped).
	Equivalent, Duplicate int
	// DigestTime adds up what the worker spent computing the bytecode digests.
	DigestTime time.Duration
	// Digests maps each mutant id to its bytecode digest, for the mutants that got one: what a
	// later evaluation's Options.Known is made of.
	Digests map[string]string

	inSchema bool
	digest   string // the mutant's own compile's digest
	ran      bool   // its tests ran (or it survived without any test to run)
}

// Evaluate gives each mutant its verdict against the suite. Verdicts come back in the order of
// ms. When ctx is cancelled it returns the mutants evaluated so far and ctx's error.
func Evaluate(ctx context.Context, r Runner, subj Subject, suite Suite, base *Baseline, ms []mutants.Mutant, opts Options) ([]report.Mutant, Stats, error) {
	start := time.Now()
	par := opts.Parallelism
	if par <= 0 {
		par = 1
	}
	results := make([]*report.Mutant, len(ms))
	var (
		// mu guards the verdicts, the stats, done and firstErr; progressMu orders the
		// Progress calls (taken under mu, never the other way round).
		mu         sync.Mutex
		progressMu sync.Mutex
		stats      Stats
		done       int
		firstErr   error
	)
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var sch *schema
	if !opts.PerMutant {
		var err error
		if opts.Schema.fits(r, subj, suite, ms) {
			sch, stats.PreparedTime, err = opts.Schema.wait(ctx, start)
		} else {
			sch, err = buildSchema(ctx, r, subj, suite, ms)
		}
		if err != nil {
			return nil, stats, err
		}
		if sch != nil {
			stats.CompileTime += sch.compileTime
			stats.DigestTime += sch.digestTime
		}
	}
	bc := newBytecode(base, sch, len(ms), opts.Known)
	decided := bc.planSchema(ms, sch)
	for i := range decided {
		v := newVerdict(ms[i]) // pending: resolve gives it its verdict
		results[i] = &v
	}
	done = len(decided)
	sem := make(chan struct{}, par)
	var wg sync.WaitGroup
	for i := range ms {
		if ctx.Err() != nil {
			break
		}
		if decided[i] {
			continue
		}
		select {
		case sem <- struct{}{}:
		case <-ctx.Done():
		}
		if ctx.Err() != nil {
			break
		}
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			defer func() { <-sem }()
			v, st, err := evaluateOne(ctx, r, subj, suite, base, ms[i], sch, opts, bc.skipList())
			if err != nil {
				// Cancelled, or the JVM failed: the mutant stays unevaluated; a real failure
				// stops the others too.
				if ctx.Err() == nil {
					mu.Lock()
					if firstErr == nil {
						firstErr = err
					}
					mu.Unlock()
					cancel()
				}
				return
			}
			bc.record(i, st.digest, st.ran)
			mu.Lock()
			results[i] = &v
			stats.DigestTime += st.DigestTime
			stats.TestExecutions += st.TestExecutions
			stats.CompileTime += st.CompileTime
			stats.TestTime += st.TestTime
			stats.TimeoutTime += st.TimeoutTime
			if st.inSchema {
				stats.InSchema++
			}
			stats.Mutants++
			done++
			d := done
			// progressMu is taken before mu is let go: the counts reach Progress in their
			// order, and mu is not held while Progress runs.
			progressMu.Lock()
			mu.Unlock()
			if opts.Progress != nil {
				opts.Progress(d, len(ms))
			}
			progressMu.Unlock()
		}(i)
	}
	wg.Wait()
	bc.resolve(ms, results, &stats)
	stats.Wall = time.Since(start)
	out := make([]report.Mutant, 0, len(ms))
	for _, v := range results {
		if v != nil {
			out = append(out, *v)
		}
	}
	if firstErr != nil {
		return out, stats, firstErr
	}
	return out, stats, ctx.Err()
}

// newVerdict is m's entry in the report, without a status yet.
func newVerdict(m mutants.Mutant) report.Mutant {
	return report.Mutant{
		ID: m.ID, Line: m.Line, Original: m.Original, Mutated: m.Mutated,
		Origin: string(m.Origin), Operator: m.Operator, Description: m.Description,
		KilledBy: []string{},
	}
}

// evaluateOne gives mutant m its verdict. A mutant compiled alone is digested: when its
// bytecode is among skip (the original's, or a mutant's with a verdict) no test runs and its
// status stays pending, for bytecode.resolve to decide.
func evaluateOne(ctx context.Context, r Runner, subj Subject, suite Suite, base *Baseline, m mutants.Mutant, sch *schema, opts Options, skip []string) (report.Mutant, Stats, error) {
	v := newVerdict(m)
	var st Stats
	var override harness.Source
	active := sch.id(m.ID)
	if active > 0 {
		// In the schema, which compiled: the worker has its bytes, the run activates the mutant.
		override = harness.Source{ClassName: subj.Class, Text: sch.text}
		st.inSchema = true
	} else {
		src, err := mutants.Apply(subj.Source, m)
		if err != nil {
			// The mutant does not fit this text (its line changed): it cannot be built.
			v.Status = report.Uncompilable
			return v, st, nil
		}
		override = harness.Source{ClassName: subj.Class, Text: string(src), Digest: true}
	}
	tests := base.TestsFor(m.Line)
	if len(tests) == 0 && active > 0 {
		// No test executes the line, and it compiles (in the schema): it survives.
		v.Status = report.Survived
		return v, st, nil
	}
	if len(tests) == 0 {
		// No test executes the line: the mutant survives if it compiles at all.
		cr, err := r.Compile(ctx, append([]harness.Source{override}, suite.Extra...))
		if err != nil {
			if ctx.Err() != nil {
				return v, st, ctx.Err()
			}
			return v, st, fmt.Errorf("compiling mutant %s: %w", m.ID, err)
		}
		st.CompileTime, st.DigestTime = cr.Duration, cr.DigestDuration
		st.digest, st.ran = subjectDigest(cr, subj.Class), true
		v.Status = report.Survived
		if !cr.OK {
			v.Status = report.Uncompilable
		}
		return v, st, nil
	}
	budgets := make(map[harness.TestID]time.Duration, len(tests))
	var steps map[harness.TestID]int64
	for _, id := range tests {
		budgets[id] = opts.budget(base.Results[id].Duration)
		if n := opts.stepBudget(base.Results[id].Steps); n > 0 {
			if steps == nil {
				steps = make(map[harness.TestID]int64, len(tests))
			}
			steps[id] = n
		}
	}
	spec := harness.RunSpec{
		Overrides:          []harness.Source{override},
		ExtraTests:         suite.Extra,
		Tests:              tests,
		Timeouts:           budgets,
		StepBudgets:        steps,
		ActiveMutant:       active,
		StopAtFirstFailure: !opts.AllKillers,
		SkipDigests:        skipFor(active, skip),
	}
	v.Status = report.Survived
	for first := true; len(spec.Tests) > 0; first = false {
		res, err := r.Run(ctx, spec)
		if err != nil {
			if ctx.Err() != nil {
				return v, st, ctx.Err()
			}
			return v, st, fmt.Errorf("evaluating mutant %s: %w", m.ID, err)
		}
		if ctx.Err() != nil {
			// A run cut short reports its remaining tests as skipped: no verdict.
			return v, st, ctx.Err()
		}
		if first && res.Compile != nil {
			st.CompileTime, st.DigestTime = res.Compile.Duration, res.Compile.DigestDuration
			if !res.Compile.OK {
				v.Status = report.Uncompilable
				return v, st, nil
			}
			if active == 0 {
				st.digest = subjectDigest(res.Compile, subj.Class)
				if len(res.Tests) == 0 && contains(skip, st.digest) {
					v.Status = pending // the worker skipped the tests: another mutant's verdict
					return v, st, nil
				}
			}
		}
		st.ran = true
		if tallyOutcomes(&v, &st, res.Tests, opts.AllKillers) {
			break
		}
		spec.Tests = after(spec.Tests, res.Tests)
		spec.SkipDigests = nil // decided by the first run
	}
	return v, st, nil
}

// tallyOutcomes gives v the status its tests' outcomes make (killed by any test that fails,
// else timeout when one timed out, else survived) and reports whether the evaluation is done.
// A run that stops at the first failure ends at a timeout too; that does not decide: a later
// test may kill the mutant, and which test runs first follows the tests' times on the
// original, which differ between runs on a loaded machine. So a timeout's run goes on with the
// tests after it (after) until one kills or none is left: the status does not depend on the
// order (docs/reports.md, "Deterministic verdicts").
func tallyOutcomes(v *report.Mutant, st *Stats, tests []harness.TestResult, allKillers bool) bool {
	for _, tr := range tests {
		st.TestExecutions++
		st.TestTime += tr.Duration
		switch tr.Outcome {
		case harness.Passed, harness.Skipped:
			continue
		case harness.Timeout:
			if v.Status != report.Killed {
				v.Status = report.Timeout
			}
			st.TimeoutTime += tr.Duration
			if !allKillers {
				return false
			}
		default: // failed, error, exit, oom: the test tells the mutant from the original
			v.Status = report.Killed
			v.KilledBy = append(v.KilledBy, tr.Test.String())
			if !allKillers {
				return true
			}
		}
	}
	return true
}

// after returns the tests of planned that come after the last one with a result: those a run
// that stopped at a timeout left.
func after(planned []harness.TestID, ran []harness.TestResult) []harness.TestID {
	if len(ran) == 0 {
		return nil
	}
	last := ran[len(ran)-1].Test
	for i, id := range planned {
		if id == last {
			return planned[i+1:]
		}
	}
	return nil
}

// skipFor is the run's SkipDigests: none for a schema run, whose digest is the whole schema's.
func skipFor(active int, skip []string) []string {
	if active > 0 {
		return nil
	}
	return skip
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func compileSummary(cr *harness.CompileResult) string {
	if len(cr.Diagnostics) == 0 {
		return "no diagnostics"
	}
	d := cr.Diagnostics[0]
	s := fmt.Sprintf("%s:%d: %s", d.ClassName, d.Line, d.Message)
	if n := len(cr.Diagnostics) - 1; n > 0 {
		s += fmt.Sprintf(" (and %d more)", n)
	}
	return s
}
