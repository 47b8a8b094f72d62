package harness

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"go.uber.org/zap"

	"github.com/advertest/advertest-lsp/buildtools/sandbox"
)

// Config says which JDK runs the workers and what they load. Zero values get the defaults given
// on each field.
type Config struct {
	JavaHome         string   // "" → $JAVA_HOME, else `java` on PATH
	LibraryClasspath []string // jars/dirs loaded once in a shared parent loader: JUnit, Mockito, the project's dependency jars
	ProjectClassDirs []string // the module's main and test output folders: re-loaded in a fresh child loader for every run
	SourceRoots      []string // main+test source roots (informational: overrides compile against ProjectClassDirs)
	Release          string   // language level, e.g. "11", "17" ("" = the JDK's default)
	CompilerArgs     []string // extra javac flags from the build
	JacocoAgentJar   string   // "" → find: /usr/share/java/org.jacoco.agent.jar (extract jacocoagent.jar), local Maven repo
	CoverageIncludes []string // JaCoCo includes= patterns for the project's packages, e.g. "org.acme.*"; "" → the packages that hold classes in ProjectClassDirs
	Workers          int      // 0 → runtime.NumCPU()
	HeapMB           int      // each worker's heap (-Xmx); 0 → 512. Metaspace, direct memory and thread stacks are capped too.
	// MutantBudget bounds a test on changed code (overrides, extra tests) that its RunSpec
	// gives no budget: MutantBudget.Of(its last passing time on the unchanged project), or
	// MutantBudget.Constant when that is not known. The settings mutantTimeout.factor and
	// .constantMs; Open refuses a Constant that is not positive (the defaults are the settings
	// table's alone, docs/settings.md).
	MutantBudget Budget
	// OriginalTimeout is the limit of a test on the original (RunSpec.Original, and runs of the
	// unchanged project) that its RunSpec gives no budget: the setting originalTestTimeoutMs.
	// The mutants' budgets never apply there: a test slow on the original is slow, not
	// failing. Open refuses one that is not positive.
	OriginalTimeout time.Duration
	// ThreadLimit is how many live non-daemon threads the tests may leave in a worker (threads
	// that did not end within a grace period after their test) before it is restarted; 0 → 32.
	ThreadLimit int
	CacheDir    string // "" → os.UserCacheDir()/advertest
	// ScratchDir holds the workers' scratch folders, the only place a worker writes ("" → a new
	// folder under os.TempDir(), removed by Close).
	ScratchDir string
	// WorkDir is the tests' working directory ("" → each worker's scratch folder). Maven and
	// Gradle run tests in the module's root, which tests that read files by relative path expect;
	// but relative writes then land in the project, so the default is the scratch folder. In the
	// sandbox it must be a folder the workers can read (under ReadOnly, say), and stays read-only.
	WorkDir string
	// Sandbox is what contains every worker JVM (docs/sandbox.md). The zero Status is decided
	// by Open from SandboxPolicy, whose zero value is sandbox.mode auto: bubblewrap wherever
	// it can start. Open fails when the policy says on and no sandbox can start.
	Sandbox       sandbox.Status
	SandboxPolicy sandbox.Policy
	// ReadOnly are more paths the workers may read, at their own paths: the project's root
	// (the reactor root of a multi-module build). The class path, the class folders, the
	// source roots, the cache folder and the local Maven and Gradle repositories are added.
	ReadOnly []string
	Logger   *zap.Logger
	// WarmUpCompiles is how many compiles each worker's javac and bytecode digests get in idle
	// time, so that a server's first mutant schemata do not pay their cold start (0: none).
	// They run only while every worker has been idle for a moment, one at a time, and keep
	// nothing (warmup.go).
	WarmUpCompiles int
}

// Source is the text of one top-level class compiled in memory.
type Source struct {
	ClassName string // binary name of the top-level class ("org.acme.Calc")
	Text      string
	// Digest asks for the bytecode digest of the classes compiled from this source
	// (CompileResult.Digests): how a mutant is found to compile to the original's bytecode.
	Digest bool
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
	// Digests holds, by class name, the bytecode digest of each source compiled with Digest
	// set (absent when ASM could not read its classes).
	Digests map[string]Digest
	// DigestDuration is what computing them cost in the worker (not part of Duration).
	DigestDuration time.Duration
	// Origin says where the worker got the classes: "javac", "cache" (its last compiles) or
	// "shipped" (another worker's compile of the same sources, sent with the run).
	Origin string
	// JavacContext, for Origin "javac", is "reused" (javac's context pool kept the class path's
	// symbols from earlier compiles) or "fresh" (a new context: the first compile, or one that
	// failed in the reused context and was tried again).
	JavacContext string
}

// Digest identifies what the classes compiled from one source do: equal digests mean the same
// bytecode, debug attributes (line numbers, local names, the source file), stack map frames
// and the layout of the blocks left out (docs/worker-protocol.md, "Digests"). It is taken from
// javac's bytes, before the worker's loop checks.
type Digest struct {
	// Original is the digest of the classes as compiled; for a mutant schema, with no mutant
	// active.
	Original string
	// Mutants, for a mutant schema, maps a schema id K to the digest of the code a run with K
	// active executes. A K the schema's text holds but Mutants lacks was compiled away by javac
	// (dead code under a compile-time constant condition), unless it is in Unknown or Opaque
	// is set.
	Mutants map[int]string
	// Unknown are schema ids whose switch the worker did not recognise: no digest for them.
	Unknown []int
	// Opaque: the switch is read otherwise than tested against a constant; Mutants says
	// nothing.
	Opaque bool
}

// RunSpec says what one Run compiles and runs.
type RunSpec struct {
	Overrides    []Source                 // replace project classes for this run (a mutant, an unsaved buffer); compiled in memory
	ExtraTests   []Source                 // extra (generated) test classes compiled in memory with the overrides
	Tests        []TestID                 // which tests; Method "" means every test of that class
	Coverage     bool                     // per-test coverage of CoverClasses
	CoverClasses []string                 // binary names of classes to report coverage for (their nested classes come too)
	Timeouts     map[TestID]time.Duration // per-test budget; missing → Config.OriginalTimeout on the original (Original, or no overrides and no extra tests), else Config.MutantBudget.Of(the test's last passing time on the unchanged project), or MutantBudget.Constant when that is not known
	// Original says the overrides are the original's code (the class under test compiled in
	// memory, the generated tests that passed on it): a baseline, not a mutant run. Its tests
	// without a Timeouts entry get Config.OriginalTimeout, not the mutants' budget.
	Original           bool
	StopAtFirstFailure bool // stop at the first failed/errored/timed-out test (mutation testing)
	// StepBudgets bound tests deterministically: a test past its budget of steps (backward
	// jumps and method entries counted in the classes compiled in memory, see TestResult.Steps)
	// ends as a Timeout, whatever the machine's load. A test without one has no step limit;
	// Timeouts still bound it in wall-clock time (loops in classes not compiled in memory,
	// sleeps, I/O, locks).
	StepBudgets map[TestID]int64
	// ActiveMutant selects the variant of a mutant schema among the overrides: their sites
	// compare advertest.worker.hook.Mutant.active with their ids (0: none, the original).
	// The worker keeps its last compiles, so the runs of one schema compile it once.
	ActiveMutant int
	// RecordCompares makes the run's classes (the overrides, the extra tests and the project's
	// class files) note what they compare in advertest.worker.hook.Compares: the operands of
	// String comparisons, int constants compared, Character classes asked, switch keys, the
	// strings of tables a string is looked up in (docs/worker-protocol.md, "Recorded
	// comparisons"). The offline explorer's seeding pass reads them. It adds instructions, so it
	// excludes Coverage (Run refuses both), and no mutant run asks for it.
	RecordCompares bool
	// SkipDigests: when the digest of an override that asks for one (Source.Digest) is among
	// these, no test runs (the result has the compile and no tests): the caller knows the
	// verdict of that bytecode already.
	SkipDigests []string
	// Sharded splits the tests by class across the pool's workers, run at once (not with
	// StopAtFirstFailure, nor on a pool of one worker, nor with tests of a single class).
	// The results come class by class, in the order of each class's first entry in Tests;
	// Coverage is still the exact union, merged from the parts' JaCoCo probes.
	Sharded bool

	// Reach, on a baseline (Original, Coverage, the class under test as the first override),
	// lets the pool's coverage map choose the tests (docs/coverage-map.md): of Tests, those it
	// does not know, those whose class or the classes they ran changed since it recorded them,
	// and those that entered a method of the first override's file whose lines meet Reach. The
	// others cannot execute a mutant there: they do not run and have no result
	// (RunResult.Map counts them). Every project test that runs is recorded in the map.
	Reach *Lines
	// LikelyFirst, with Reach, leaves the test classes the map does not know and that are not
	// likely to reach the class under test (their names and sources do not name it) for later:
	// they do not run, RunResult.Pending lists them. The first verdicts then come from the
	// likely tests; a run of the pending ones (with Reach) completes the map.
	LikelyFirst bool

	exportProbes   bool // a part of a sharded run: the done line carries the union's probes
	recordExecuted bool // the tests' results carry what they executed (the coverage map's records)
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
	// Stdout and Stderr are what the test printed to System.out and System.err, bounded (the
	// end of an overlong output is dropped, with a note saying how much).
	Stdout, Stderr string
	// Files are the regular files the test wrote into its scratch folder (the system property
	// advertest.scratch while it runs), by name, read after it ended; bounded (see maxTestFiles).
	Files map[string][]byte
	// Steps counts the backward jumps and method entries the test executed in the classes
	// compiled in memory for its run (overrides and extra tests; not the project's class files).
	// Deterministic for single-threaded code: the base of StepBudgets.
	Steps int64

	// executed and tables are the coverage map's records of the test (RunSpec.recordExecuted):
	// nil when the worker gave none.
	executed []wireExec
	tables   map[string][]MethodLines
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
	WorkerRestarted bool // a worker was killed (a stuck test, OOM, a worker that died, too many threads left, a test that broke the protocol) during this run
	// RestartReason says why, the reasons joined by "; " when there were several.
	RestartReason string
	// Coverage is the union of the tests' coverage (JaCoCo's probes merged, so a branch taken
	// by one test and its sibling by another both count), when RunSpec.Coverage was set and
	// one worker ran every test; nil otherwise.
	Coverage *Coverage
	Duration time.Duration
	// Map says what the coverage map did for a run with Reach; Pending are the test classes it
	// left for later (RunSpec.LikelyFirst).
	Map     MapUse
	Pending []TestID

	// probes are the union's raw probes (RunSpec.exportProbes); probesOK says the done line
	// of the worker that ran every test brought them.
	probes   []wireProbes
	probesOK bool
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

	scratch    string // the workers' scratch folders live here
	ownScratch bool   // Open made scratch; Close removes it
	workerSeq  atomic.Int64

	idle    chan *slot    // slots not in use; a slot's worker may be nil (started on use)
	closing chan struct{} // closed by Close
	// lastUse is when a request last took a worker (unix ns; the warm-up's own do not count);
	// warmed is closed once the warm-up compiles are done (at once when there are none).
	lastUse  atomic.Int64
	warmed   chan struct{}
	warmUps  atomic.Int32 // warm-up compiles done (tests)
	bgCtx    context.Context
	bgCancel context.CancelFunc
	bg       sync.WaitGroup

	mu      sync.Mutex
	closed  bool
	workers map[*worker]struct{} // every live worker process, for Close

	normalMu sync.Mutex
	normal   map[TestID]time.Duration // last passing duration on the unchanged project
	// covmap is the module's coverage map (nil: none); it has its own lock.
	covmap *coverageMap

	// exported are the last compiles made through CompileShared, shipped to the other workers with
	// their first run of the same sources (a mutant schema is compiled once per pool).
	exported exportedCompiles

	// onTestStart, when set (tests only, before any Run), sees each test the worker starts.
	onTestStart func(TestID)
}

// slot is one place in the pool; whoever took it from Pool.idle owns it and its worker.
type slot struct {
	w *worker
}

// defaultHeapMB is a worker's heap (-Xmx) when Config.HeapMB is 0.
const defaultHeapMB = 512

// Open prepares a pool: finds the JDK, JaCoCo and ASM, compiles the embedded worker once
// (cached by content hash under CacheDir/worker/) and sizes the pool. Workers start lazily.
func Open(ctx context.Context, cfg Config) (*Pool, error) {
	if cfg.Logger == nil {
		cfg.Logger = zap.NewNop()
	}
	if cfg.Workers <= 0 {
		cfg.Workers = runtime.NumCPU()
	}
	if cfg.MutantBudget.Constant <= 0 {
		return nil, errors.New("harness: Config.MutantBudget.Constant is not set (the setting mutantTimeout.constantMs)")
	}
	if cfg.OriginalTimeout <= 0 {
		return nil, errors.New("harness: Config.OriginalTimeout is not set (the setting originalTestTimeoutMs)")
	}
	if cfg.HeapMB <= 0 {
		cfg.HeapMB = defaultHeapMB
	}
	if cfg.ThreadLimit <= 0 {
		cfg.ThreadLimit = 32
	}
	if cfg.Sandbox.Kind == "" {
		st, err := cfg.SandboxPolicy.Decide(nil)
		if err != nil {
			return nil, fmt.Errorf("harness: %w", err)
		}
		cfg.Sandbox = st
	}
	cfg.LibraryClasspath = withPlatformLauncher(cfg.LibraryClasspath)
	spec, built, err := prepare(ctx, cfg)
	if err != nil {
		return nil, err
	}
	scratch, own := cfg.ScratchDir, false
	if scratch == "" {
		if scratch, err = os.MkdirTemp("", "advertest-workers-"); err != nil {
			return nil, fmt.Errorf("harness: make the workers' scratch folder: %w", err)
		}
		own = true
	} else if err := os.MkdirAll(scratch, 0o755); err != nil {
		return nil, fmt.Errorf("harness: make the workers' scratch folder: %w", err)
	}
	p := &Pool{
		cfg:         cfg,
		log:         cfg.Logger,
		launch:      spec,
		junit:       junitVersion(cfg.LibraryClasspath),
		workerBuilt: built,
		scratch:     scratch,
		ownScratch:  own,
		idle:        make(chan *slot, cfg.Workers),
		closing:     make(chan struct{}),
		workers:     map[*worker]struct{}{},
		normal:      map[TestID]time.Duration{},
	}
	p.covmap = newCoverageMap(cfg, spec)
	p.bgCtx, p.bgCancel = context.WithCancel(context.Background())
	for i := 0; i < cfg.Workers; i++ {
		p.idle <- &slot{}
	}
	p.startWarmUp()
	p.log.Debug("harness: workers start in", zap.Stringer("sandbox", cfg.Sandbox))
	ensureCDSArchive(ctx, spec, scratch, p.log)
	return p, nil
}

// PrepareWorker readies what every pool starts its workers from and what no project changes:
// the worker's jar (compiled into the cache once per worker source and JDK) and its CDS archive
// (made once per jar and JDK). Open does both when they are missing; a caller with other work
// before Open (a project's build model and compile) runs PrepareWorker meanwhile, so that a cold
// start pays the longer of the two and not their sum. Of cfg it reads JavaHome, CacheDir,
// HeapMB, SandboxPolicy (the training run's environment) and Logger. Errors are Open's to
// report again: a caller may ignore them.
func PrepareWorker(ctx context.Context, cfg Config) error {
	if cfg.Logger == nil {
		cfg.Logger = zap.NewNop()
	}
	if cfg.HeapMB <= 0 {
		cfg.HeapMB = defaultHeapMB
	}
	cfg.Sandbox, cfg.ProjectClassDirs, cfg.CoverageIncludes = sandbox.Status{}, nil, nil
	spec, _, err := prepare(ctx, cfg)
	if err != nil {
		return err
	}
	ensureCDSArchive(ctx, spec, "", cfg.Logger)
	return nil
}

// ensureCDSArchive makes the worker's CDS archive unless it is there: once per worker build and
// JDK. The training run's scratch folder is made in parent ("": the system's temporary folder)
// only then. A worker without the archive only starts slower, so a failure is logged, not
// returned.
func ensureCDSArchive(ctx context.Context, spec *launchSpec, parent string, log *zap.Logger) {
	if spec.cds == nil || fileExists(spec.cds.archive) {
		return
	}
	t0 := time.Now()
	scratch, err := os.MkdirTemp(parent, "cds-training-")
	if err == nil {
		defer os.RemoveAll(scratch)
		err = makeCDSArchive(ctx, spec, scratch)
	}
	if err != nil {
		log.Info("harness: no CDS archive for the worker", zap.Error(err))
		return
	}
	log.Debug("harness: made the worker's CDS archive", zap.String("file", spec.cds.archive), zap.Duration("took", time.Since(t0)))
}

// Sandbox is what contains the pool's workers.
func (p *Pool) Sandbox() sandbox.Status { return p.cfg.Sandbox }

// ToolEnv is the environment for the tools the pool's users start outside the sandbox (javac
// compiling the explorer): the workers' allowlist under the pool's policy, with HOME.
func (p *Pool) ToolEnv() []string { return p.cfg.SandboxPolicy.ToolEnv(os.Environ()) }

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
		p.retire(w)
	}
	p.bg.Wait()
	if p.ownScratch {
		if err := os.RemoveAll(p.scratch); err != nil {
			return fmt.Errorf("harness: remove the workers' scratch folder: %w", err)
		}
	}
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
	if f, ok := ctx.Value(whenAcquiredKey{}).(func()); ok {
		f()
	}
	if ctx.Value(warmUpKey{}) == nil {
		p.lastUse.Store(time.Now().UnixNano())
	}
	if s.w != nil && s.w.alive() && len(s.w.lines) > 0 {
		// An idle worker has nothing to say: something in it (a thread a test left) writes on the
		// protocol's descriptor.
		p.log.Warn("harness: an idle worker wrote on the protocol; restarting it", zap.ByteString("line", <-s.w.lines))
		s.w.kill()
	}
	p.launchMu.Lock()
	gen := p.launch.readGen
	p.launchMu.Unlock()
	if s.w != nil && s.w.alive() && s.w.readGen == gen {
		return s, nil
	}
	return p.renew(ctx, s)
}

type whenAcquiredKey struct{}

// WhenAcquired returns a context whose requests call f as soon as they hold a worker (before
// it is started, if it has to be). It lets a caller that starts a request in the background
// wait until that request has its worker, so that a request it makes next (a sharded run)
// cannot take every worker first: the engine's PrepareSchema uses it.
func WhenAcquired(ctx context.Context, f func()) context.Context {
	return context.WithValue(ctx, whenAcquiredKey{}, f)
}

// AllowRead lets the workers read paths, at their own paths and read-only: a folder of classes
// a test loads by itself (the offline explorer's). Workers started from now on see them; a
// worker that may not is restarted before its next use. Paths the workers see already (under
// the cache folder, say), and any path outside the sandbox, change nothing.
func (p *Pool) AllowRead(paths ...string) {
	if !p.cfg.Sandbox.Contained() {
		return
	}
	p.launchMu.Lock()
	defer p.launchMu.Unlock()
	seen := p.launch.sandbox.ReadOnly
	var add []string
	for _, path := range paths {
		abs, err := filepath.Abs(path)
		if err != nil || len(boundUnder(seen, []string{abs})) > 0 || len(boundUnder(add, []string{abs})) > 0 {
			continue
		}
		add = append(add, abs)
	}
	if len(add) == 0 {
		return
	}
	c := *p.launch
	c.sandbox.ReadOnly = append(append([]string(nil), seen...), add...)
	c.readGen++
	p.launch = &c
}

// acquireFresh takes a slot whose worker has run nothing yet.
func (p *Pool) acquireFresh(ctx context.Context) (*slot, error) {
	s, err := p.acquire(ctx)
	if err != nil || s.w.nextID.Load() == 1 {
		return s, err // 1: only init was sent
	}
	return p.renew(ctx, s)
}

// renew gives the slot a new worker, retiring the one it had; on failure the slot goes back.
func (p *Pool) renew(ctx context.Context, s *slot) (*slot, error) {
	if s.w != nil {
		p.retire(s.w)
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
			p.retire(s.w)
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
	scratch := func() string { return filepath.Join(p.scratch, fmt.Sprintf("w%d", p.workerSeq.Add(1))) }
	w, err := startWorker(ctx, spec, scratch(), p.log)
	if err != nil && ctx.Err() == nil {
		// A JaCoCo agent that breaks the JVM's start should cost coverage, not every run.
		if bare := spec.withoutAgent(); bare != nil {
			var err2 error
			if w, err2 = startWorker(ctx, bare, scratch(), p.log); err2 == nil {
				p.log.Warn("harness: the worker does not start with the JaCoCo agent; coverage is off", zap.Error(err))
				p.dropAgent()
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

// dropAgent makes the pool start its workers without the JaCoCo agent from now on. It strips
// the agent from the launch spec as it is now, under launchMu, not from the copy startWorker
// read before its failed start: paths that AllowRead added meanwhile stay, and the spec's
// generation never goes backwards (a worker started from the older copy has the older
// generation, so acquire renews it before its next use).
func (p *Pool) dropAgent() {
	p.launchMu.Lock()
	defer p.launchMu.Unlock()
	if bare := p.launch.withoutAgent(); bare != nil {
		p.launch = bare
	}
}

// workerPIDs lists the process ids of the live workers.
func (p *Pool) workerPIDs() []int {
	p.mu.Lock()
	defer p.mu.Unlock()
	var out []int
	for w := range p.workers {
		out = append(out, w.pid())
	}
	return out
}

// retire kills w, forgets it and removes its scratch folder.
func (p *Pool) retire(w *worker) {
	w.kill()
	p.mu.Lock()
	delete(p.workers, w)
	p.mu.Unlock()
	if err := os.RemoveAll(w.scratch); err != nil {
		p.log.Warn("harness: remove a worker's scratch folder", zap.Error(err))
	}
}

// Compile compiles sources in memory against the project and reports javac's diagnostics.
func (p *Pool) Compile(ctx context.Context, sources []Source) (*CompileResult, error) {
	var reply compileReply
	if err := p.call(ctx, &compileRequest{Sources: wireSources(sources)}, &reply); err != nil {
		return nil, fmt.Errorf("harness: compile: %w", err)
	}
	return reply.Compile.toResult(), nil
}

// CompileShared is Compile for sources that many runs will override with, on any worker (a
// mutant schema): the worker's classes are kept by the pool and shipped to each other worker
// with its first run of the same sources, which then defines them instead of compiling
// (docs/worker-protocol.md, "Shipped classes").
func (p *Pool) CompileShared(ctx context.Context, sources []Source) (*CompileResult, error) {
	var reply compileReply
	var by *worker
	if err := p.callVia(ctx, &compileRequest{Sources: wireSources(sources), Export: true}, &reply, func(w *worker) { by = w }); err != nil {
		return nil, fmt.Errorf("harness: compile: %w", err)
	}
	if c := reply.Compile; c != nil && c.OK && len(c.Classes) > 0 {
		p.exported.add(sourcesKey(sources, nil), &wirePrecompiled{Classes: c.Classes, SourceOf: c.SourceOf}, by)
	}
	return reply.Compile.toResult(), nil
}

// DiscoverTests lists the test methods (JUnit 4 and 5) of the given test classes, sorted by class
// order then method name. A class that cannot be loaded is an error.
func (p *Pool) DiscoverTests(ctx context.Context, classes []string) ([]TestID, error) {
	var reply discoverReply
	if err := p.call(ctx, &discoverRequest{Classes: nonNil(classes)}, &reply); err != nil {
		return nil, fmt.Errorf("harness: discover tests: %w", err)
	}
	ids := make([]TestID, 0, len(reply.Tests))
	for _, t := range reply.Tests {
		ids = append(ids, t.id())
	}
	if len(reply.Errors) > 0 {
		return ids, fmt.Errorf("harness: discover tests: %s", strings.Join(reply.Errors, "; "))
	}
	return ids, nil
}

// stats asks a worker for its loaded classes, memory and threads (tests and benchmarks).
func (p *Pool) stats(ctx context.Context) (*statsReply, error) {
	var reply statsReply
	if err := p.call(ctx, &statsRequest{}, &reply); err != nil {
		return nil, fmt.Errorf("harness: stats: %w", err)
	}
	return &reply, nil
}

// call sends one request that is answered by a single done line, decoded into reply. A worker
// that breaks the protocol is restarted and the request is tried once more on a fresh one: no
// test runs during these requests, so the culprit is something a test left behind.
func (p *Pool) call(ctx context.Context, req request, reply answer) error {
	return p.callVia(ctx, req, reply, nil)
}

// callVia is call that tells on (when not nil) which worker the request went to.
func (p *Pool) callVia(ctx context.Context, req request, reply answer, on func(*worker)) error {
	for attempt := 0; ; attempt++ {
		s, err := p.acquire(ctx)
		if err != nil {
			return err
		}
		if on != nil {
			on(s.w)
		}
		err = p.callOn(ctx, s, req, reply)
		if errors.Is(err, errProtocol) && attempt == 0 {
			p.log.Warn("harness: a worker broke the protocol; retrying on a fresh one", zap.Error(err))
			continue
		}
		return err
	}
}

// callOn sends req to the slot's worker, waits for its done line and gives the slot back.
func (p *Pool) callOn(ctx context.Context, s *slot, req request, reply answer) error {
	w := s.w
	id := w.newID()
	if err := w.send(id, req); err != nil {
		p.restartInBackground(s, "send failed")
		return err
	}
	select {
	case line, ok := <-w.lines:
		if !ok {
			p.restartInBackground(s, "worker died")
			return fmt.Errorf("worker died: %s%s", w.lostReason(), lastLines(w.output.String(), 5))
		}
		if err := decodeDone(line, id, reply); err != nil {
			p.restartInBackground(s, "protocol violation")
			return err
		}
		p.release(s)
		if msg := reply.failure(); msg != "" {
			return errors.New(msg)
		}
		return nil
	case <-ctx.Done():
		p.drainInBackground(s, id, 30*time.Second)
		return ctx.Err()
	case <-p.closing:
		return ErrClosed
	}
}

// drainInBackground waits (up to wait) for request id to finish before giving the slot back;
// a worker that does not answer in time, or answers out of turn, is killed and restarted.
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
				h, err := decodeHead(line)
				if err != nil || h.ID != id {
					p.restartInBackground(s, "protocol violation while cancelled")
					return
				}
				if !h.Done {
					continue
				}
				var done runDone
				if json.Unmarshal(line, &done) == nil && done.Fatal != "" {
					p.restartInBackground(s, done.Fatal)
					return
				}
				p.release(s)
				return
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

// Budget is a test's wall-clock budget on a mutant: Factor × its time on the original +
// Constant (the settings mutantTimeout.factor and .constantMs). Of is the one place the
// formula is written; the engine gives each mutant's tests theirs with it.
type Budget struct {
	Factor   float64
	Constant time.Duration
}

// Of is the budget of a test whose time on the original is normal.
func (b Budget) Of(normal time.Duration) time.Duration {
	return time.Duration(b.Factor*float64(normal)) + b.Constant
}

// budgetsFor returns the default budget and the known per-test budgets for a run.
func (p *Pool) budgetsFor(spec RunSpec) (time.Duration, map[TestID]time.Duration) {
	out := map[TestID]time.Duration{}
	def := p.cfg.OriginalTimeout
	if !spec.onOriginal() {
		def = p.cfg.MutantBudget.Constant
		classes := map[string]bool{}
		for _, t := range spec.Tests {
			classes[t.Class] = true
		}
		p.normalMu.Lock()
		for id, d := range p.normal {
			if classes[id.Class] {
				out[id] = p.cfg.MutantBudget.Of(d)
			}
		}
		p.normalMu.Unlock()
	}
	for id, d := range spec.Timeouts {
		out[id] = d
	}
	return def, out
}

// onOriginal says the run's code is the original's: the unchanged project, or overrides its
// caller says are the original (a baseline).
func (spec RunSpec) onOriginal() bool {
	return spec.Original || len(spec.Overrides) == 0 && len(spec.ExtraTests) == 0
}

func (p *Pool) learn(spec RunSpec, results []TestResult) {
	if !spec.onOriginal() {
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
