package buildtools

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"go.uber.org/zap"

	"github.com/advertest/advertest-lsp/buildtools/harness"
	"github.com/advertest/advertest-lsp/buildtools/sandbox"
	"github.com/advertest/advertest-lsp/settings/schema"
)

// Project is an opened module: its model, its compiled classes and its warm worker pool. It is
// what the rest of the product runs Java through.
type Project struct {
	Module *Module
	Pool   *harness.Pool
	// TestClasses are the module's test classes as its build runs them (Surefire's default
	// includes: Test*, *Test, *Tests, *TestCase), binary names, sorted.
	TestClasses []string
	// Opening is what opening the project cost, by phase: the fixed costs of a cold run.
	Opening OpenTiming
}

// OpenTiming is the time OpenProject spent on each phase.
type OpenTiming struct {
	Model   time.Duration // the build model (Maven or Gradle, or its cache)
	Compile time.Duration // compiling what was missing or stale, listing the test classes
	Workers time.Duration // preparing the worker pool: what was left of the worker's build and CDS archive (made while the model loads and compiles) and the pool's start
}

// ProjectOptions are the run-time settings of a Project's pool.
type ProjectOptions struct {
	Workers int
	// TimeoutFactor and TimeoutConstant (mutantTimeout.factor, .constantMs) are a test's budget
	// on a mutant that its run gives none (harness.Config.MutantBudget); OriginalTimeout
	// (originalTestTimeoutMs) is a test's limit on the original. Zero: the settings table's
	// default (docs/settings.md), the only place the defaults are written.
	TimeoutFactor   float64
	TimeoutConstant time.Duration
	OriginalTimeout time.Duration
	JavaHome        string
	JacocoAgentJar  string
	CacheDir        string
	Logger          *zap.Logger
	// WorkerHeapMB (worker.heapMB) is each worker JVM's heap in MiB; 0 is the harness' default.
	WorkerHeapMB int
	// MaxLeakedThreads (worker.maxLeakedThreads) is how many live non-daemon threads tests may
	// leave in a worker before it is restarted.
	MaxLeakedThreads int
	// WarmUpCompiles warms each worker's compiler in idle time (harness.Config.WarmUpCompiles;
	// 0: none): a server's, whose workers wait between requests.
	WarmUpCompiles int
	// Sandbox is what the process decided contains the worker JVMs (SandboxPolicy.Decide, once
	// per process); SandboxPolicy is the settings it was decided from (sandbox.mode,
	// sandbox.env, llm.apiKeyEnv). The harness starts every worker as they say; the zero
	// Status is decided by the harness from SandboxPolicy (auto by default).
	Sandbox       sandbox.Status
	SandboxPolicy sandbox.Policy
}

// OpenProject loads the module that owns javaFile through loader, compiles what is missing or
// stale with the build tool, and starts its worker pool.
func OpenProject(ctx context.Context, loader *Loader, javaFile string, opts ProjectOptions) (*Project, error) {
	var timing OpenTiming
	t0 := time.Now()
	// The worker's jar and CDS archive depend on no project: on a cold start they are made
	// while the build tool loads the model and compiles, and Open below finds them ready.
	workerCtx, stopWorkerPrep := context.WithCancel(ctx)
	workerReady := make(chan struct{})
	go func() {
		defer close(workerReady)
		lowerPriority()
		err := harness.PrepareWorker(workerCtx, harness.Config{JavaHome: opts.JavaHome, CacheDir: harnessCacheDir(opts.CacheDir),
			HeapMB: opts.WorkerHeapMB, SandboxPolicy: opts.SandboxPolicy, Logger: opts.Logger})
		if err != nil && opts.Logger != nil && workerCtx.Err() == nil {
			opts.Logger.Debug("buildtools: preparing the worker ahead of the pool", zap.Error(err))
		}
	}()
	defer func() {
		stopWorkerPrep()
		<-workerReady
	}()
	mod, err := loader.Load(ctx, javaFile)
	if err != nil {
		return nil, err
	}
	t1 := time.Now()
	timing.Model = t1.Sub(t0)
	if err := mod.EnsureCompiled(ctx); err != nil {
		return nil, err
	}
	tests, err := mod.TestClasses()
	if err != nil {
		return nil, err
	}
	t2 := time.Now()
	timing.Compile = t2.Sub(t1)
	<-workerReady
	cfg := mod.HarnessConfig()
	cfg.Workers = opts.Workers
	cfg.MutantBudget, cfg.OriginalTimeout = opts.budgets()
	cfg.JavaHome = opts.JavaHome
	cfg.JacocoAgentJar = opts.JacocoAgentJar
	cfg.HeapMB = opts.WorkerHeapMB
	cfg.ThreadLimit = opts.MaxLeakedThreads
	cfg.WarmUpCompiles = opts.WarmUpCompiles
	cfg.Sandbox = opts.Sandbox
	cfg.SandboxPolicy = opts.SandboxPolicy
	// The project is readable (read-only) from the workers: tests read their resources and
	// fixture files by path. A module of a reactor sees the reactor, where its siblings' class
	// folders are.
	cfg.ReadOnly = []string{mod.Root}
	if mod.ReactorRoot != "" {
		cfg.ReadOnly = append(cfg.ReadOnly, mod.ReactorRoot)
	}
	cfg.CacheDir = harnessCacheDir(opts.CacheDir)
	if opts.Logger != nil {
		cfg.Logger = opts.Logger
	}
	pool, err := harness.Open(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("starting the JVM workers for %s: %w", mod.Root, err)
	}
	timing.Workers = time.Since(t2)
	return &Project{Module: mod, Pool: pool, TestClasses: tests, Opening: timing}, nil
}

// harnessCacheDir is the worker's cache folder for ProjectOptions.CacheDir: "" (the user's
// cache folder) where the option turns only the build models' cache off ("-").
func harnessCacheDir(opt string) string {
	if opt == "-" {
		return ""
	}
	return opt
}

// Close stops the project's worker JVMs.
func (p *Project) Close() error { return p.Pool.Close() }

// The methods below are what the game (package loop) asks of a project: a Project is one.

// Run runs tests in the project's worker pool.
func (p *Project) Run(ctx context.Context, spec harness.RunSpec) (*harness.RunResult, error) {
	return p.Pool.Run(ctx, spec)
}

// Compile compiles sources against the project's classes in the worker pool.
func (p *Project) Compile(ctx context.Context, sources []harness.Source) (*harness.CompileResult, error) {
	return p.Pool.Compile(ctx, sources)
}

// CompileShared compiles sources that many runs will use on every worker (harness.Pool.CompileShared).
func (p *Project) CompileShared(ctx context.Context, sources []harness.Source) (*harness.CompileResult, error) {
	return p.Pool.CompileShared(ctx, sources)
}

// ModuleRoot is the module's root folder.
func (p *Project) ModuleRoot() string { return p.Module.Root }

// TestClassNames are the module's test classes (TestClasses).
func (p *Project) TestClassNames() []string { return p.TestClasses }

// TestFileFor is where the test class simple of package pkg lives (Module.TestFileFor).
func (p *Project) TestFileFor(pkg, simple string) string { return p.Module.TestFileFor(pkg, simple) }

// JUnitVersion is the module's JUnit major version, as its build declares it or, failing that,
// as the worker pool found it on the test class path.
func (p *Project) JUnitVersion() int {
	if p.Module.JUnit != 0 {
		return p.Module.JUnit
	}
	return p.Pool.JUnitVersion()
}

// MockitoVersion is the Mockito version on the test class path, "" without Mockito.
func (p *Project) MockitoVersion() string { return p.Module.MockitoVersion }

// TestClasses lists the module's test classes the way Surefire's default includes pick them
// (Test*.java, *Test.java, *Tests.java, *TestCase.java under the test source roots), as binary
// names, sorted. Abstract classes and classes without tests are left to the harness, which
// finds no test methods in them.
func (m *Module) TestClasses() ([]string, error) {
	var out []string
	for _, root := range m.TestSourceRoots {
		err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				if os.IsNotExist(err) {
					return filepath.SkipDir
				}
				return err
			}
			if d.IsDir() || !strings.HasSuffix(d.Name(), ".java") {
				return nil
			}
			base := strings.TrimSuffix(d.Name(), ".java")
			if !isTestClassName(base) {
				return nil
			}
			rel, err := filepath.Rel(root, path)
			if err != nil {
				return err
			}
			out = append(out, strings.ReplaceAll(filepath.ToSlash(strings.TrimSuffix(rel, ".java")), "/", "."))
			return nil
		})
		if err != nil {
			return nil, fmt.Errorf("listing the test classes under %s: %w", root, err)
		}
	}
	sort.Strings(out)
	return out, nil
}

func isTestClassName(base string) bool {
	return strings.HasPrefix(base, "Test") || strings.HasSuffix(base, "Test") ||
		strings.HasSuffix(base, "Tests") || strings.HasSuffix(base, "TestCase")
}

// budgets are the pool's time limits: opts', the settings table's defaults where they are zero.
func (opts ProjectOptions) budgets() (harness.Budget, time.Duration) {
	defaults := schema.Defaults(func(string) string { return "" })
	b := harness.Budget{Factor: opts.TimeoutFactor, Constant: opts.TimeoutConstant}
	if b.Factor <= 0 {
		b.Factor = defaults.MutantTimeoutFactor
	}
	if b.Constant <= 0 {
		b.Constant = defaults.MutantTimeoutConstant
	}
	original := opts.OriginalTimeout
	if original <= 0 {
		original = defaults.OriginalTestTimeout
	}
	return b, original
}
