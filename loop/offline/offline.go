package offline

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"go.uber.org/zap"

	"github.com/advertest/advertest-lsp/buildtools/harness"
	"github.com/advertest/advertest-lsp/javaparse"
	"github.com/advertest/advertest-lsp/loop/agent"
	"github.com/advertest/advertest-lsp/loop/mutants"
)

// Options tune the search. Zero values get the defaults given on each field.
type Options struct {
	Seed        int64         // 20240601: fixed, so the same code gives the same tests
	MaxInputs   int           // 600 inputs per exploration
	Budget      time.Duration // 1.5s of calls per exploration
	CallTimeout time.Duration // 500ms: a call past it counts as a timeout
	// CallMemory bounds the bytes one call may allocate, garbage included (256 MiB): a call
	// past it is stopped, as past its time.
	CallMemory int64
	// TestTimeout is the limit written into a test for a mutant that loops (1s).
	TestTimeout time.Duration
	// MaxInitialTests caps the initial suite's tests on ordinary inputs (8); up to
	// maxExtremeTests more hold extreme ones.
	MaxInitialTests int
	// Candidates is how many differing inputs KillMutant turns into tests and verifies (4).
	Candidates int
	// CacheDir keeps the compiled explorer ("" → os.UserCacheDir()/advertest/offline).
	CacheDir string
	// JavaHome is the JDK whose javac compiles the explorer ("" → $JAVA_HOME, else PATH).
	JavaHome string
	Logger   *zap.Logger
}

// Agent is the offline, search-based test agent T. It is safe for concurrent use.
type Agent struct {
	pool *harness.Pool
	opts Options
	log  *zap.Logger
	runs atomic.Int64
	// cacheDir holds compiled explorers by content hash.
	cacheDir string

	compileMu sync.Mutex
	classDir  string // the compiled explorer, once built

	mu sync.Mutex
	// originals caches the explorations of the original, by source hash and method.
	originals map[string]*originalEntry
	// why says why the last request for a method or a mutant gave no test (WhyNoTests).
	why map[string]agent.Evidence
	// infections caches what the probes saw at a mutant's site, by source hash, method and
	// mutant (infect.go).
	infections map[string]infectionEntry
}

var _ agent.TestAgent = (*Agent)(nil)

// UnsupportedError says why the search cannot drive a method: it writes no tests for it.
type UnsupportedError struct {
	Method string // "org.acme.Calc.clamp"
	Reason string
}

func (e *UnsupportedError) Error() string {
	return fmt.Sprintf("offline test agent: cannot drive %s: %s", e.Method, e.Reason)
}

// Is makes the error match agent.ErrCannotDrive, the loop's sentinel for a method a test agent
// cannot drive.
func (e *UnsupportedError) Is(target error) bool { return target == agent.ErrCannotDrive }

// New makes an agent that runs its explorations on pool.
func New(pool *harness.Pool, opts Options) (*Agent, error) {
	if opts.Seed == 0 {
		opts.Seed = 20240601
	}
	if opts.MaxInputs <= 0 {
		opts.MaxInputs = 600
	}
	if opts.Budget <= 0 {
		opts.Budget = 1500 * time.Millisecond
	}
	if opts.CallTimeout <= 0 {
		opts.CallTimeout = 500 * time.Millisecond
	}
	if opts.CallMemory <= 0 {
		opts.CallMemory = 256 << 20
	}
	if opts.TestTimeout <= 0 {
		opts.TestTimeout = time.Second
	}
	if opts.MaxInitialTests <= 0 {
		opts.MaxInitialTests = 8
	}
	if opts.Candidates <= 0 {
		opts.Candidates = 4
	}
	if opts.Logger == nil {
		opts.Logger = zap.NewNop()
	}
	a := &Agent{pool: pool, opts: opts, log: opts.Logger, originals: map[string]*originalEntry{}}
	a.cacheDir = opts.CacheDir
	if a.cacheDir == "" {
		base, err := os.UserCacheDir()
		if err != nil {
			base = os.TempDir()
		}
		a.cacheDir = filepath.Join(base, "advertest", "offline")
	}
	return a, nil
}

// Close releases the agent. It holds no files of its own: its explorations write into the
// workers' scratch folders, which the harness empties after each test.
func (a *Agent) Close() error { return nil }

// originalEntry is one cached exploration of the original, computed once.
type originalEntry struct {
	ready chan struct{}
	orig  *original
	err   error
}

// original is what the original does on the inputs that behave the same in two runs.
type original struct {
	hdr     header
	records []*record // deterministic, usable inputs, in index order
	byIndex map[int]*record
	inputs  int // inputs explored in one run
	params  explorerParams
	dur     time.Duration
	// kinds counts the first run's outcomes by kind ("ret", "throw", "arrange", "timeout",
	// "bound", "crash"); arrangeX is the first exception that making an input threw; stab
	// what the two runs disagreed on. They say why no test came out.
	kinds    map[string]int
	arrangeX string
	stab     *stability
}

func methodID(s *agent.Subject) string {
	return s.Method.BinaryClassName + "." + s.Method.Name
}

// precheck reports methods the explorer cannot drive before running anything.
func precheck(s *agent.Subject) error {
	m := s.Method
	why := ""
	switch {
	case m == nil:
		return errors.New("offline: no method given")
	case slices.Contains(m.Modifiers, "private"):
		why = "the method is private: a test cannot call it (the search does not go through reflection, so its tests stay plain calls)"
	case m.BodyStartByte < 0:
		why = "the method has no body (abstract or an interface method)"
	case slices.Contains(m.Modifiers, "abstract"):
		why = "the method is abstract"
	}
	for _, c := range m.ClassPath {
		if c != "" && c[0] >= '0' && c[0] <= '9' {
			why = "the method belongs to an anonymous or local class, which a test cannot name"
		}
	}
	if why == "" && s.Context != nil && s.Context.ClassKind == "interface" && !m.Static {
		why = "a default method of an interface needs an implementation to run on"
	}
	if why != "" {
		return &UnsupportedError{Method: methodID(s), Reason: why}
	}
	return nil
}

func (a *Agent) params(s *agent.Subject) explorerParams {
	m := s.Method
	f := s.Parsed
	if f == nil || !bytes.Equal(f.Source(), s.Source) {
		if pf, err := javaparse.Parse(s.Source); err == nil {
			f = pf
		}
	}
	var lits literals
	if f != nil {
		lits = scanLiterals(f, m.StartByte, m.EndByte)
		// the file's other char literals come after the method's own: a method often hands
		// characters to a helper that knows them (fromRoman → symbolValue('X'))
		for _, r := range scanLiterals(f, 0, len(f.Source())).chars {
			if !strings.ContainsRune(lits.chars, r) && len([]rune(lits.chars)) < 24 {
				lits.chars += string(r)
			}
		}
	}
	name := m.Name
	if m.Kind == javaparse.KindConstructor {
		name = "<init>"
	}
	var types []string
	for _, p := range m.Params {
		types = append(types, p.Type)
	}
	pkg := ""
	if s.Context != nil {
		pkg = s.Context.Package
	} else if i := strings.LastIndexByte(m.TopLevelClass, '.'); i >= 0 {
		pkg = m.TopLevelClass[:i]
	}
	return explorerParams{
		className:   m.BinaryClassName,
		methodName:  name,
		paramTypes:  types,
		lits:        lits,
		seed:        a.opts.Seed,
		maxInputs:   a.opts.MaxInputs,
		budget:      a.opts.Budget,
		perCall:     a.opts.CallTimeout,
		testPackage: pkg,
		maxTimeouts: 3,
		maxAlloc:    a.opts.CallMemory,
	}
}

func subjectPackage(s *agent.Subject) string {
	if s.Context != nil {
		return s.Context.Package
	}
	if i := strings.LastIndexByte(s.Method.TopLevelClass, '.'); i >= 0 {
		return s.Method.TopLevelClass[:i]
	}
	return ""
}

func junitOf(s *agent.Subject, pool *harness.Pool) int {
	if s.JUnit == 4 || s.JUnit == 5 {
		return s.JUnit
	}
	return pool.JUnitVersion()
}

// originalFor explores the original twice (cached by source and method) and keeps the
// inputs whose outcome is the same in both runs.
func (a *Agent) originalFor(ctx context.Context, s *agent.Subject) (*original, error) {
	if err := precheck(s); err != nil {
		return nil, err
	}
	sum := sha256.Sum256(s.Source)
	key := hex.EncodeToString(sum[:]) + "|" + s.Method.BinaryClassName + "|" + s.Method.Signature + "|" + fmt.Sprint(junitOf(s, a.pool))
	for {
		a.mu.Lock()
		e, ok := a.originals[key]
		if !ok {
			e = &originalEntry{ready: make(chan struct{})}
			a.originals[key] = e
		}
		a.mu.Unlock()
		if ok {
			select {
			case <-e.ready:
			case <-ctx.Done():
				return nil, ctx.Err()
			}
			if e.err != nil && (errors.Is(e.err, context.Canceled) || errors.Is(e.err, context.DeadlineExceeded)) {
				continue // its computation was cancelled: try again (the entry was dropped)
			}
			return e.orig, e.err
		}
		e.orig, e.err = a.exploreOriginal(ctx, s)
		if e.err != nil && ctx.Err() != nil {
			a.mu.Lock()
			delete(a.originals, key)
			a.mu.Unlock()
		}
		close(e.ready)
		return e.orig, e.err
	}
}

func (a *Agent) exploreOriginal(ctx context.Context, s *agent.Subject) (*original, error) {
	p := a.params(s)
	pkg := subjectPackage(s)
	junit := junitOf(s, a.pool)
	src := harness.Source{ClassName: s.Method.TopLevelClass, Text: string(s.Source)}
	runs, err := a.exploreTimes(ctx, src, pkg, junit, p, 2)
	if err != nil {
		var ce *compileError
		if errors.As(err, &ce) {
			return nil, fmt.Errorf("offline: the original of %s: %w", methodID(s), err)
		}
		return nil, err
	}
	if runs[0].unsupported != "" {
		return nil, &UnsupportedError{Method: methodID(s), Reason: runs[0].unsupported}
	}
	second := runs[1].byIndex()
	o := &original{hdr: runs[0].header, byIndex: map[int]*record{}, params: p, dur: runs[0].duration,
		kinds: map[string]int{}, stab: newStability()}
	type pair struct{ r, twin *record }
	var pairs []pair
	for _, r := range runs[0].records {
		o.inputs++
		o.kinds[r.outcome.K]++
		if r.outcome.K == "arrange" && o.arrangeX == "" {
			o.arrangeX = r.outcome.X
		}
		twin, ok := second[r.I]
		if !ok || twin.key() != r.key() {
			o.stab.dropped++
			continue // not seen twice
		}
		switch r.outcome.K {
		case "ret", "throw":
			if o.stab.compareRuns(&r.outcome, &twin.outcome) {
				pairs = append(pairs, pair{r, twin})
			}
		}
	}
	for _, p := range pairs {
		if !o.stab.clean(&p.r.outcome, &p.twin.outcome) {
			continue // nothing stable to assert
		}
		o.records = append(o.records, p.r)
		o.byIndex[p.r.I] = p.r
	}
	a.log.Debug("offline: explored the original", zap.String("method", methodID(s)),
		zap.Int("inputs", o.inputs), zap.Int("usable", len(o.records)), zap.Any("kinds", o.kinds),
		zap.Any("unstable", o.stab.unstable), zap.Duration("took", runs[0].duration))
	return o, nil
}

// candidate is a differing input and what its test asserts.
type candidate struct {
	rec *record
	em  emphasis
}

// KillMutant explores the mutant with the original's inputs and turns the first inputs where
// it behaves differently into tests; it returns the first one that passes on the original
// and fails on the mutant, or none when no input tells them apart.
func (a *Agent) KillMutant(ctx context.Context, s *agent.Subject, m mutants.Mutant) ([]agent.Test, error) {
	orig, err := a.originalFor(ctx, s)
	if err != nil {
		return nil, err
	}
	mutated, err := mutants.Apply(s.Source, m)
	if err != nil {
		return nil, fmt.Errorf("offline: applying mutant %s: %w", m.ID, err)
	}
	pkg := subjectPackage(s)
	junit := junitOf(s, a.pool)
	mp := orig.params
	mp.maxTimeouts = 1
	me, err := a.explore(ctx, harness.Source{ClassName: s.Method.TopLevelClass, Text: string(mutated)}, pkg, junit, mp)
	if err != nil {
		var ce *compileError
		if errors.As(err, &ce) {
			a.log.Debug("offline: the mutant does not compile", zap.String("mutant", m.ID), zap.Error(err))
			a.explain(s, m.ID, agent.Evidence{Why: "the mutant does not compile"})
			return nil, nil
		}
		return nil, err
	}
	cands := differences(orig, me, a.opts.Candidates*2)
	if len(cands) == 0 {
		why := noDifference(orig, me)
		if len(orig.records) > 0 {
			inf, err := a.infection(ctx, s, m, orig)
			if err != nil {
				return nil, err
			}
			if inf != nil {
				why = infectionEvidence(why, inf)
			}
		}
		a.explain(s, m.ID, why)
		return nil, nil
	}
	if last := cands[len(cands)-1]; last.em.timeout && !last.em.stopped {
		a.log.Warn("offline: a looping call of the mutant could not be stopped", zap.String("mutant", m.ID))
	}
	r := newRenderer(junit, s.Method, orig.hdr, a.opts.TestTimeout.Milliseconds())
	var tests []rendered
	for _, c := range cands {
		tests = append(tests, r.test(c.rec, c.em))
	}
	uniqueNames(tests)
	good, err := a.verify(ctx, s, pkg, mutated, tests, cands, a.opts.Candidates)
	if err != nil {
		return nil, err
	}
	if len(good) == 0 {
		a.explain(s, m.ID, agent.Evidence{Why: fmt.Sprintf("the %d tests written from inputs where the mutant behaved differently did not fail on it when run", len(tests))})
		return nil, nil
	}
	a.explain(s, m.ID, agent.Evidence{})
	t := tests[good[0]]
	return []agent.Test{{Name: t.name, Source: t.source, Imports: t.imports, Target: m.ID, Origin: "search"}}, nil
}

// differences lists the inputs (in index order) where the mutant's outcome differs from the
// original's, at most limit of them; a timeout on the mutant ends the list.
func differences(orig *original, mut *exploration, limit int) []candidate {
	var out []candidate
	for _, mr := range mut.records {
		bounded := mr.outcome.K == "timeout" || mr.outcome.K == "bound"
		or, ok := orig.byIndex[mr.I]
		if !ok || or.key() != mr.key() {
			if bounded && ok {
				out = append(out, candidate{rec: or, em: emphasis{timeout: true}})
			}
			continue
		}
		if bounded {
			// past a bound: the test runs the call under a time limit, and only on the original
			out = append(out, candidate{rec: or, em: emphasis{timeout: true, stopped: mr.outcome.Stopped}})
			break
		}
		em, differ := outcomesDiffer(&or.outcome, &mr.outcome)
		if !differ {
			continue
		}
		out = append(out, candidate{rec: or, em: em})
		if len(out) >= limit {
			break
		}
	}
	return out
}

func findObserved(obs []observed, m string) (observed, bool) {
	for _, o := range obs {
		if o.M == m {
			return o, true
		}
	}
	return observed{}, false
}

func findAfter(as []argAfter, i int) (argAfter, bool) {
	for _, a := range as {
		if a.A == i {
			return a, true
		}
	}
	return argAfter{}, false
}

func sameValue(a, b *value) bool {
	if a == nil || b == nil {
		return a == b
	}
	if a.K != b.K || a.V != b.V || a.X != b.X || len(a.Obs) != len(b.Obs) {
		return false
	}
	for i := range a.Obs {
		if a.Obs[i].M != b.Obs[i].M || !sameValue(&a.Obs[i].R, &b.Obs[i].R) {
			return false
		}
	}
	return true
}

// verify runs the candidate tests on the original and on the mutant and returns the indices
// (in order, at most want) of those that pass on the original and fail on the mutant. A
// timeout candidate is checked on the original only: on the mutant it would leave a looping
// thread behind in the worker.
func (a *Agent) verify(ctx context.Context, s *agent.Subject, pkg string, mutated []byte, tests []rendered, cands []candidate, want int) ([]int, error) {
	good, err := a.verifyOnce(ctx, s, pkg, mutated, tests, cands, want)
	var tce *testsCompileError
	if !errors.As(err, &tce) || len(tests) < 2 {
		return good, err
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
	good, err = a.verifyOnce(ctx, s, pkg, mutated, sub, subCands, want)
	for k, i := range good {
		good[k] = keep[i]
	}
	return good, err
}

// testsCompileError is a batch of generated tests that does not compile.
type testsCompileError struct{ msgs []string }

func (e *testsCompileError) Error() string {
	return "offline: the generated tests do not compile: " + strings.Join(e.msgs, "; ")
}

// compilable returns the indices of the tests that compile on their own (against the
// original), for a batch whose class as a whole did not.
func (a *Agent) compilable(ctx context.Context, s *agent.Subject, pkg string, tests []rendered) ([]int, error) {
	var keep []int
	for i, t := range tests {
		class := fmt.Sprintf("%sCompile%d", lastDot(s.Method.TopLevelClass), a.runs.Add(1))
		fqn := class
		if pkg != "" {
			fqn = pkg + "." + class
		}
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
	class := s.TestClassName
	if class == "" {
		class = lastDot(s.Method.TopLevelClass) + "AdverTest"
	}
	class += fmt.Sprintf("Check%d", a.runs.Add(1))
	fqn := class
	if pkg != "" {
		fqn = pkg + "." + class
	}
	src := testClass(pkg, class, tests)
	ids := make([]harness.TestID, len(tests))
	budgets := map[harness.TestID]time.Duration{}
	for i, t := range tests {
		ids[i] = harness.TestID{Class: fqn, Method: t.name}
		budgets[ids[i]] = 10 * time.Second
	}
	run := func(text []byte, tests []harness.TestID) (map[harness.TestID]harness.Outcome, error) {
		res, err := a.pool.Run(ctx, harness.RunSpec{
			Overrides:  []harness.Source{{ClassName: s.Method.TopLevelClass, Text: string(text)}},
			ExtraTests: []harness.Source{{ClassName: fqn, Text: src}},
			Tests:      tests,
			Timeouts:   budgets,
		})
		if err != nil {
			return nil, fmt.Errorf("offline: checking the generated tests: %w", err)
		}
		if res.Compile != nil && !res.Compile.OK {
			var msgs []string
			for _, d := range res.Compile.Diagnostics {
				if d.Kind == "error" {
					msgs = append(msgs, fmt.Sprintf("%d: %s", d.Line, firstLine(d.Message)))
				}
			}
			a.log.Debug("offline: generated tests do not compile", zap.Strings("errors", msgs), zap.String("source", src))
			return nil, &testsCompileError{msgs: msgs}
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

// InitialSuite writes a small suite from the simplest inputs with distinct outcomes, keeping
// a test only when it covers something the earlier ones do not.
func (a *Agent) InitialSuite(ctx context.Context, s *agent.Subject) ([]agent.Test, error) {
	orig, err := a.originalFor(ctx, s)
	if err != nil {
		return nil, err
	}
	junit := junitOf(s, a.pool)
	pkg := subjectPackage(s)
	r := newRenderer(junit, s.Method, orig.hdr, a.opts.TestTimeout.Milliseconds())
	seen := map[string]bool{}
	var cands []candidate
	for _, rec := range orig.records {
		sig := outcomeSignature(rec.outcome)
		if seen[sig] {
			continue
		}
		seen[sig] = true
		cands = append(cands, candidate{rec: rec, em: emphasis{allState: true}})
		if len(cands) >= 3*a.opts.MaxInitialTests {
			break
		}
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
		cands = append(cands, candidate{rec: rec, em: emphasis{allState: true, extreme: true}})
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
			cands = append(cands, candidate{rec: rec, em: emphasis{allState: true, extreme: true}})
		}
	}
	if len(cands) == 0 {
		a.explain(s, "", orig.noStableInput())
		return nil, nil
	}
	var tests []rendered
	for _, c := range cands {
		tests = append(tests, r.test(c.rec, c.em))
	}
	uniqueNames(tests)
	chosen, err := a.chooseByCoverage(ctx, s, pkg, tests, cands)
	if err != nil {
		return nil, err
	}
	if len(chosen) == 0 {
		a.explain(s, "", agent.Evidence{Why: fmt.Sprintf("none of the %d tests written from the original's outcomes passed on it when run", len(tests))})
	} else {
		a.explain(s, "", agent.Evidence{})
	}
	var out []agent.Test
	for _, i := range chosen {
		t := tests[i]
		out = append(out, agent.Test{Name: t.name, Source: t.source, Imports: t.imports, Origin: "search"})
	}
	return out, nil
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
// that pass and add covered lines or branches of the method.
func (a *Agent) chooseByCoverage(ctx context.Context, s *agent.Subject, pkg string, tests []rendered, cands []candidate) ([]int, error) {
	class := s.TestClassName
	if class == "" {
		class = lastDot(s.Method.TopLevelClass) + "AdverTest"
	}
	class += fmt.Sprintf("Initial%d", a.runs.Add(1))
	fqn := class
	if pkg != "" {
		fqn = pkg + "." + class
	}
	ids := make([]harness.TestID, len(tests))
	for i, t := range tests {
		ids[i] = harness.TestID{Class: fqn, Method: t.name}
	}
	res, err := a.pool.Run(ctx, harness.RunSpec{
		Overrides:    []harness.Source{{ClassName: s.Method.TopLevelClass, Text: string(s.Source)}},
		ExtraTests:   []harness.Source{{ClassName: fqn, Text: testClass(pkg, class, tests)}},
		Tests:        ids,
		Coverage:     true,
		CoverClasses: []string{s.Method.TopLevelClass},
	})
	if err != nil {
		return nil, fmt.Errorf("offline: measuring the initial suite: %w", err)
	}
	if res.Compile != nil && !res.Compile.OK {
		if len(tests) < 2 {
			return nil, fmt.Errorf("offline: the initial suite does not compile: %v", res.Compile.Diagnostics)
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
		chosen, err := a.chooseByCoverage(ctx, s, pkg, sub, subCands)
		for k, i := range chosen {
			chosen[k] = keep[i]
		}
		return chosen, err
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
		items := coverageItems(t.Coverage, s.Method)
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
