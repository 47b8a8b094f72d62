package harness

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"strings"
	"sync"
	"time"

	"go.uber.org/zap"
)

// Config says which JDK runs the workers and what they load. Zero values get the defaults given
// on each field.
type Config struct {
	JavaHome         string        // "" → $JAVA_HOME, else `java` on PATH
	LibraryClasspath []string      // jars/dirs loaded once in a shared parent loader: JUnit, Mockito, the project's dependency jars
	ProjectClassDirs []string      // the module's main and test output folders: re-loaded in a fresh child loader for every run
	SourceRoots      []string      // main+test source roots (informational: overrides compile against ProjectClassDirs)
	Release          string        // language level, e.g. "11", "17" ("" = the JDK's default)
	CompilerArgs     []string      // extra javac flags from the build
	JacocoAgentJar   string        // "" → find: /usr/share/java/org.jacoco.agent.jar (extract jacocoagent.jar), local Maven repo
	CoverageIncludes []string      // JaCoCo includes= patterns for the project's packages, e.g. "org.acme.*"; "" → the packages that hold classes in ProjectClassDirs
	Workers          int           // 0 → runtime.NumCPU()
	TimeoutFactor    float64       // 1.25
	TimeoutConstant  time.Duration // 4s
	CacheDir         string        // "" → os.UserCacheDir()/advertest
	Logger           *zap.Logger
}

// Source is the text of one top-level class compiled in memory.
type Source struct {
	ClassName string // binary name of the top-level class ("org.acme.Calc")
	Text      string
}

// TestID names one test method; Method "" in a RunSpec means every test of Class.
type TestID struct{ Class, Method string }

func (t TestID) String() string { return t.Class + "." + t.Method }

// CompileDiagnostic is one javac error or warning; Line and Column are 1-based (0 when javac gave none).
type CompileDiagnostic struct {
	ClassName    string
	Line, Column int
	Kind         string // "error" | "warning"
	Message      string
}

// CompileResult is the outcome of an in-memory compile.
type CompileResult struct {
	OK          bool
	Diagnostics []CompileDiagnostic
	Duration    time.Duration
}

// RunSpec says what one Run compiles and runs.
type RunSpec struct {
	Overrides          []Source                 // replace project classes for this run (a mutant, an unsaved buffer); compiled in memory
	ExtraTests         []Source                 // extra (generated) test classes compiled in memory with the overrides
	Tests              []TestID                 // which tests; Method "" means every test of that class
	Coverage           bool                     // per-test coverage of CoverClasses
	CoverClasses       []string                 // binary names of classes to report coverage for (their nested classes come too)
	Timeouts           map[TestID]time.Duration // per-test budget; missing → TimeoutFactor × the test's normal time (its last pass on the unchanged project) + TimeoutConstant; normal time unknown → TimeoutConstant, or 60 s when the run has no overrides and no extra tests
	StopAtFirstFailure bool                     // stop at the first failed/errored/timed-out test (mutation testing)
}

// Outcome is how one test ended.
type Outcome string

// The outcomes of a test.
const (
	Passed  Outcome = "passed"
	Failed  Outcome = "failed"  // an assertion
	Error   Outcome = "error"   // any other exception, a failing static initialiser, a missing class
	Timeout Outcome = "timeout" // past its budget
	Exit    Outcome = "exit"    // System.exit, Runtime.exit or Runtime.halt, or the worker died
	OOM     Outcome = "oom"     // OutOfMemoryError
	Skipped Outcome = "skipped" // ignored, disabled, an assumption failed, or cancelled
)

// TestResult is the outcome of one test.
type TestResult struct {
	Test     TestID
	Outcome  Outcome
	Message  string // the failure's text with its first stack frames; "" when passed
	Duration time.Duration
	Coverage *Coverage // nil unless RunSpec.Coverage
}

// Coverage is the coverage of one test, by binary class name.
type Coverage struct{ Classes map[string]*ClassCoverage }

// ClassCoverage is one class's coverage by 1-based source line (only lines with code).
type ClassCoverage struct {
	SourceFile string
	Lines      map[int]LineCoverage
}

// LineCoverage is JaCoCo's counters for one line.
type LineCoverage struct {
	CoveredInstructions, MissedInstructions, CoveredBranches, MissedBranches int
}

// RunResult is what one Run did. Compile.OK false means nothing ran.
type RunResult struct {
	Compile         *CompileResult
	Tests           []TestResult
	WorkerRestarted bool // a worker was killed (a stuck test, OOM, a worker that died) during this run
	// Coverage is the union of the tests' coverage (JaCoCo's probes merged, so a branch taken
	// by one test and its sibling by another both count), when RunSpec.Coverage was set and
	// one worker ran every test; nil otherwise.
	Coverage *Coverage
	Duration time.Duration
}

// ErrClosed is returned by calls on a closed Pool.
var ErrClosed = errors.New("harness: pool is closed")

// Pool is a set of warm worker JVMs. Its methods may be called from many goroutines.
type Pool struct {
	cfg   Config
	log   *zap.Logger
	junit int

	launchMu sync.Mutex
	launch   *launchSpec // how workers start; loses the agent if the agent breaks the start
	// workerBuilt is true when Open compiled the worker (false: reused from the cache).
	workerBuilt bool

	idle     chan *slot    // slots not in use; a slot's worker may be nil (started on use)
	closing  chan struct{} // closed by Close
	bgCtx    context.Context
	bgCancel context.CancelFunc
	bg       sync.WaitGroup

	mu      sync.Mutex
	closed  bool
	workers map[*worker]struct{} // every live worker process, for Close

	normalMu sync.Mutex
	normal   map[TestID]time.Duration // last passing duration on the unchanged project

	// onTestStart, when set (tests only, before any Run), sees each test the worker starts.
	onTestStart func(TestID)
}

// slot is one place in the pool; whoever took it from Pool.idle owns it and its worker.
type slot struct {
	w *worker
}

// Open prepares a pool: finds the JDK, JaCoCo and ASM, compiles the embedded worker once
// (cached by content hash under CacheDir/worker/) and sizes the pool. Workers start lazily.
func Open(ctx context.Context, cfg Config) (*Pool, error) {
	if cfg.Logger == nil {
		cfg.Logger = zap.NewNop()
	}
	if cfg.Workers <= 0 {
		cfg.Workers = runtime.NumCPU()
	}
	if cfg.TimeoutFactor <= 0 {
		cfg.TimeoutFactor = 1.25
	}
	if cfg.TimeoutConstant <= 0 {
		cfg.TimeoutConstant = 4 * time.Second
	}
	cfg.LibraryClasspath = withPlatformLauncher(cfg.LibraryClasspath)
	spec, built, err := prepare(ctx, cfg)
	if err != nil {
		return nil, err
	}
	p := &Pool{
		cfg:         cfg,
		log:         cfg.Logger,
		launch:      spec,
		junit:       junitVersion(cfg.LibraryClasspath),
		workerBuilt: built,
		idle:        make(chan *slot, cfg.Workers),
		closing:     make(chan struct{}),
		workers:     map[*worker]struct{}{},
		normal:      map[TestID]time.Duration{},
	}
	p.bgCtx, p.bgCancel = context.WithCancel(context.Background())
	for i := 0; i < cfg.Workers; i++ {
		p.idle <- &slot{}
	}
	if spec.cds != nil && !fileExists(spec.cds.archive) {
		// Once per worker build and JDK; a worker without the archive only starts slower.
		t0 := time.Now()
		if err := makeCDSArchive(ctx, spec.java, spec.cds); err != nil {
			p.log.Info("harness: no CDS archive for the worker", zap.Error(err))
		} else {
			p.log.Debug("harness: made the worker's CDS archive", zap.String("file", spec.cds.archive), zap.Duration("took", time.Since(t0)))
		}
	}
	return p, nil
}

// JUnitVersion is 5 when Jupiter is on the library class path, else 4.
func (p *Pool) JUnitVersion() int { return p.junit }

// Close kills every worker JVM and waits for them to end.
func (p *Pool) Close() error {
	p.mu.Lock()
	if p.closed {
		p.mu.Unlock()
		return nil
	}
	p.closed = true
	close(p.closing)
	ws := make([]*worker, 0, len(p.workers))
	for w := range p.workers {
		ws = append(ws, w)
	}
	p.mu.Unlock()
	p.bgCancel()
	for _, w := range ws {
		w.kill()
	}
	p.bg.Wait()
	return nil
}

// acquire takes a slot with a live worker, starting one if needed.
func (p *Pool) acquire(ctx context.Context) (*slot, error) {
	var s *slot
	select {
	case s = <-p.idle:
	case <-ctx.Done():
		return nil, ctx.Err()
	case <-p.closing:
		return nil, ErrClosed
	}
	if s.w != nil && s.w.alive() {
		return s, nil
	}
	if s.w != nil {
		p.forget(s.w)
		s.w = nil
	}
	w, err := p.startWorker(ctx)
	if err != nil {
		p.idle <- s
		return nil, err
	}
	s.w = w
	return s, nil
}

func (p *Pool) release(s *slot) { p.idle <- s }

// restartInBackground kills the slot's worker and starts a fresh one before giving the slot back,
// so the next run finds it warm.
func (p *Pool) restartInBackground(s *slot, why string) {
	p.bg.Add(1)
	go func() {
		defer p.bg.Done()
		if s.w != nil {
			s.w.kill()
			p.forget(s.w)
			s.w = nil
		}
		t0 := time.Now()
		w, err := p.startWorker(p.bgCtx)
		if err != nil {
			p.log.Warn("harness: restarting a worker failed", zap.String("why", why), zap.Error(err))
		} else {
			s.w = w
			p.log.Info("harness: worker restarted", zap.String("why", why), zap.Duration("took", time.Since(t0)))
		}
		p.release(s)
	}()
}

func (p *Pool) startWorker(ctx context.Context) (*worker, error) {
	p.mu.Lock()
	if p.closed {
		p.mu.Unlock()
		return nil, ErrClosed
	}
	p.mu.Unlock()
	p.launchMu.Lock()
	spec := p.launch
	p.launchMu.Unlock()
	w, err := startWorker(ctx, spec, p.log)
	if err != nil && ctx.Err() == nil {
		// A JaCoCo agent that breaks the JVM's start should cost coverage, not every run.
		if bare := spec.withoutAgent(); bare != nil {
			var err2 error
			if w, err2 = startWorker(ctx, bare, p.log); err2 == nil {
				p.log.Warn("harness: the worker does not start with the JaCoCo agent; coverage is off", zap.Error(err))
				p.launchMu.Lock()
				p.launch = bare
				p.launchMu.Unlock()
				err = nil
			}
		}
	}
	if err != nil {
		return nil, err
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed {
		w.kill()
		return nil, ErrClosed
	}
	p.workers[w] = struct{}{}
	return w, nil
}

// workerPIDs lists the process ids of the live workers.
func (p *Pool) workerPIDs() []int {
	p.mu.Lock()
	defer p.mu.Unlock()
	var out []int
	for w := range p.workers {
		out = append(out, w.cmd.Process.Pid)
	}
	return out
}

func (p *Pool) forget(w *worker) {
	p.mu.Lock()
	delete(p.workers, w)
	p.mu.Unlock()
}

// Compile compiles sources in memory against the project and reports javac's diagnostics.
func (p *Pool) Compile(ctx context.Context, sources []Source) (*CompileResult, error) {
	s, err := p.acquire(ctx)
	if err != nil {
		return nil, err
	}
	msg, err := p.call(ctx, s, map[string]any{"op": "compile", "sources": wireSources(sources)})
	if err != nil {
		return nil, fmt.Errorf("harness: compile: %w", err)
	}
	return msg.Compile.toResult(), nil
}

// DiscoverTests lists the test methods (JUnit 4 and 5) of the given test classes, sorted by class
// order then method name. A class that cannot be loaded is an error.
func (p *Pool) DiscoverTests(ctx context.Context, classes []string) ([]TestID, error) {
	s, err := p.acquire(ctx)
	if err != nil {
		return nil, err
	}
	msg, err := p.call(ctx, s, map[string]any{"op": "discover", "classes": classes})
	if err != nil {
		return nil, fmt.Errorf("harness: discover tests: %w", err)
	}
	ids := make([]TestID, 0, len(msg.Tests))
	for _, t := range msg.Tests {
		if len(t) == 2 {
			ids = append(ids, TestID{Class: t[0], Method: t[1]})
		}
	}
	if len(msg.Errors) > 0 {
		return ids, fmt.Errorf("harness: discover tests: %s", strings.Join(msg.Errors, "; "))
	}
	return ids, nil
}

// call sends one request that is answered by a single done line, and gives the slot back.
func (p *Pool) call(ctx context.Context, s *slot, req map[string]any) (*wireMsg, error) {
	w := s.w
	id := w.newID()
	req["id"] = id
	if err := w.send(req); err != nil {
		p.restartInBackground(s, "send failed")
		return nil, err
	}
	for {
		select {
		case line, ok := <-w.lines:
			if !ok {
				p.restartInBackground(s, "worker died")
				return nil, fmt.Errorf("worker died: %s", w.stderr.String())
			}
			m, err := decodeMsg(line)
			if err != nil || m.ID != id || !m.Done {
				continue
			}
			p.release(s)
			if m.Error != "" {
				return nil, errors.New(m.Error)
			}
			return m, nil
		case <-ctx.Done():
			p.drainInBackground(s, id, 30*time.Second)
			return nil, ctx.Err()
		case <-p.closing:
			return nil, ErrClosed
		}
	}
}

// drainInBackground waits (up to wait) for request id to finish before giving the slot back;
// a worker that does not answer in time is killed and restarted.
func (p *Pool) drainInBackground(s *slot, id int64, wait time.Duration) {
	p.bg.Add(1)
	go func() {
		defer p.bg.Done()
		w := s.w
		timer := time.NewTimer(wait)
		defer timer.Stop()
		for {
			select {
			case line, ok := <-w.lines:
				if !ok {
					p.restartInBackground(s, "worker died while cancelled")
					return
				}
				m, err := decodeMsg(line)
				if err == nil && m.ID == id && m.Done {
					if m.Fatal != "" {
						p.restartInBackground(s, m.Fatal)
						return
					}
					p.release(s)
					return
				}
			case <-timer.C:
				p.restartInBackground(s, "cancelled request did not stop")
				return
			case <-p.closing:
				p.release(s)
				return
			}
		}
	}()
}

// budgetsFor returns the default budget and the known per-test budgets for a run.
func (p *Pool) budgetsFor(spec RunSpec) (time.Duration, map[TestID]time.Duration) {
	def := p.cfg.TimeoutConstant
	if len(spec.Overrides) == 0 && len(spec.ExtraTests) == 0 {
		// The project's own tests on its own code: their normal time is what we are learning.
		def = unknownOriginalBudget
	}
	classes := map[string]bool{}
	for _, t := range spec.Tests {
		classes[t.Class] = true
	}
	out := map[TestID]time.Duration{}
	p.normalMu.Lock()
	for id, d := range p.normal {
		if classes[id.Class] {
			out[id] = time.Duration(p.cfg.TimeoutFactor*float64(d)) + p.cfg.TimeoutConstant
		}
	}
	p.normalMu.Unlock()
	for id, d := range spec.Timeouts {
		out[id] = d
	}
	return def, out
}

// unknownOriginalBudget bounds a project test whose normal time is not known yet, run on the
// unchanged project.
const unknownOriginalBudget = 60 * time.Second

func (p *Pool) learn(spec RunSpec, results []TestResult) {
	if len(spec.Overrides) > 0 || len(spec.ExtraTests) > 0 {
		return
	}
	p.normalMu.Lock()
	defer p.normalMu.Unlock()
	for _, r := range results {
		if r.Outcome == Passed {
			p.normal[r.Test] = r.Duration
		}
	}
}
