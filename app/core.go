package app

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sync"

	"go.uber.org/zap"

	"github.com/advertest/advertest-lsp/buildtools"
	"github.com/advertest/advertest-lsp/buildtools/sandbox"
	"github.com/advertest/advertest-lsp/javaparse"
	"github.com/advertest/advertest-lsp/loop"
	"github.com/advertest/advertest-lsp/loop/llm"
	"github.com/advertest/advertest-lsp/loop/mutants"
	"github.com/advertest/advertest-lsp/settings"
)

// Options configure a Core.
type Options struct {
	// Getenv reads the environment: the LLM's API key (nil: os.Getenv).
	Getenv func(string) string
	// CacheDir holds the compiled worker, the project models and the offline agent's cache
	// ("": the user's cache folder).
	CacheDir string
	Logger   *zap.Logger
	// Buffers returns the text of a file open in the editor, when it is (the server's
	// documents): a generated test file's unsaved text is what the new tests merge into.
	// nil: no editor.
	Buffers func(path string) ([]byte, bool)
	// Background bounds the openings of warm projects (nil: context.Background()): the
	// server's session context.
	Background context.Context
	// Probe replaces the sandbox's probe (tests; nil: sandbox.Probe, once per process).
	Probe func() sandbox.Availability
	// Open replaces how a project is opened (tests; nil: Maven or Gradle and the worker JVMs).
	Open OpenFunc
	// WarmCompilers has the workers' compilers warmed in idle time (the server's: its workers
	// wait between requests; harness.Config.WarmUpCompiles).
	WarmCompilers bool
}

// warmUpCompiles is how many idle-time compiles each worker gets with Options.WarmCompilers:
// about what javac and the digests take to warm up on the client compiler.
const warmUpCompiles = 10

// Core runs the use cases of one process: the CLI's run, or a server session.
type Core struct {
	opts     Options
	log      *zap.Logger
	projects *Projects

	// mu guards the decisions and the account below.
	mu sync.Mutex
	// decisions are the sandbox decisions made, by policy.
	decisions map[string]decision
	// warned are the sandbox warnings given (each once).
	warned map[string]bool
	// budget is the LLM budget account every job draws on, made for budgetLimits.
	budget       *llm.BudgetAccount
	budgetLimits llm.Budget
}

type decision struct {
	status sandbox.Status
	err    error
}

// New returns a Core.
func New(opts Options) *Core {
	if opts.Getenv == nil {
		opts.Getenv = os.Getenv
	}
	if opts.Logger == nil {
		opts.Logger = zap.NewNop()
	}
	if opts.Background == nil {
		opts.Background = context.Background()
	}
	c := &Core{opts: opts, log: opts.Logger, decisions: map[string]decision{}, warned: map[string]bool{}}
	open := opts.Open
	if open == nil {
		open = c.openProject
	}
	c.projects = NewProjects(opts.Background, open, opts.Logger)
	return c
}

// Close closes the warm projects (their worker JVMs end), waiting up to ctx.
func (c *Core) Close(ctx context.Context) error { return c.projects.Close(ctx) }

// ModuleRoot is the root folder of the Maven or Gradle module that owns javaFile: the key of
// its warm project and the home of its .advertest/ state.
func ModuleRoot(javaFile string) (string, error) {
	root, _, err := buildtools.FindModuleRoot(javaFile)
	return root, err
}

// SettingError is a setting that the settings table accepts but a use case cannot: the CLI
// exits 2 on it, the server shows it.
type SettingError struct {
	Setting string
	Err     error
}

func (e *SettingError) Error() string { return fmt.Sprintf("setting `%s`: %v", e.Setting, e.Err) }
func (e *SettingError) Unwrap() error { return e.Err }

// operators is the rule-based mutants' operator selection of the settings.
func operators(s settings.Settings) (mutants.Selection, error) {
	sel, err := mutants.Select(s.Operators)
	if err != nil {
		return sel, &SettingError{Setting: "mutants.operators", Err: err}
	}
	return sel, nil
}

// policyOf is the sandbox policy of the settings.
func policyOf(s settings.Settings) (sandbox.Policy, error) {
	mode, err := sandbox.ParseMode(s.SandboxMode)
	if err != nil {
		return sandbox.Policy{}, &SettingError{Setting: "sandbox.mode", Err: err}
	}
	return sandbox.Policy{Mode: mode, Env: append([]string(nil), s.SandboxEnv...), APIKeyEnv: s.LLM.APIKeyEnv}, nil
}

// Check returns the first setting a use case would refuse (a *SettingError), or nil.
func Check(s settings.Settings) error {
	if _, err := operators(s); err != nil {
		return err
	}
	_, err := policyOf(s)
	return err
}

// Sandbox decides what contains the worker JVMs under the settings' policy: once per policy
// (the probe itself runs once per process). The first time a decision leaves the JVMs
// uncontained, its warning goes to ev. sandbox.mode on without a sandbox is an error wrapping
// sandbox.ErrUnavailable.
func (c *Core) Sandbox(s settings.Settings, ev Events) (sandbox.Status, error) {
	policy, err := policyOf(s)
	if err != nil {
		return sandbox.Status{}, err
	}
	key := fmt.Sprintf("%s|%q|%s", policy.Mode, policy.Env, policy.APIKeyEnv)
	c.mu.Lock()
	d, ok := c.decisions[key]
	c.mu.Unlock()
	if !ok {
		d.status, d.err = policy.Decide(c.opts.Probe)
		c.mu.Lock()
		c.decisions[key] = d
		c.mu.Unlock()
		c.log.Info("sandbox decided", zap.Stringer("status", d.status))
	}
	if w := d.status.Warning(); w != "" && d.err == nil {
		c.mu.Lock()
		first := !c.warned[w]
		c.warned[w] = true
		c.mu.Unlock()
		if first && ev != nil {
			ev.Warning(Warning{Message: w})
		}
	}
	return d.status, d.err
}

// budgetAccount is the account every LLM client of this Core draws on: the same while the
// budget settings stay, a new one when they change.
func (c *Core) budgetAccount(limits llm.Budget) *llm.BudgetAccount {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.budget == nil || c.budgetLimits != limits {
		c.budget, c.budgetLimits = llm.NewBudgetAccount(limits), limits
	}
	return c.budget
}

// openProject opens javaFile's module under the settings s: its build model (Maven or Gradle,
// without the API key in their environment), a compile when its classes are missing or
// stale, and its worker JVMs, contained as the sandbox decision says.
func (c *Core) openProject(ctx context.Context, javaFile string, s settings.Settings) (*Warm, error) {
	status, err := c.Sandbox(s, nil)
	if err != nil {
		return nil, err
	}
	loaderOpts, projOpts := projectOptions(s)
	loaderOpts.Logger, loaderOpts.CacheDir = c.log, c.opts.CacheDir
	projOpts.Logger, projOpts.CacheDir = c.log, c.opts.CacheDir
	projOpts.Sandbox, projOpts.WarmUpCompiles = status, warmUps(c.opts.WarmCompilers)
	proj, err := buildtools.OpenProject(ctx, buildtools.NewLoader(loaderOpts), javaFile, projOpts)
	if err != nil {
		return nil, err
	}
	return NewWarm(proj), nil
}

// projectOptions are what a warm project takes from the settings: only settings the table
// marks KeysProject (the key of Projects), which TestProjectOptionsReadOnlyKeyedSettings checks.
// The sandbox policy's mode is checked by Sandbox before.
func projectOptions(s settings.Settings) (buildtools.Options, buildtools.ProjectOptions) {
	policy, _ := policyOf(s)
	cfg := s.LoopConfig()
	return buildtools.Options{MavenArgs: cfg.MavenArgs, APIKeyEnv: s.LLM.APIKeyEnv},
		buildtools.ProjectOptions{
			Workers:          cfg.Workers,
			TimeoutFactor:    cfg.MutantTimeoutFactor,
			TimeoutConstant:  cfg.MutantTimeoutConstant,
			OriginalTimeout:  cfg.OriginalTestTimeout,
			JacocoAgentJar:   cfg.JacocoAgentPath,
			WorkerHeapMB:     cfg.WorkerHeapMB,
			MaxLeakedThreads: cfg.MaxLeakedThreads,
			SandboxPolicy:    policy,
		}
}

func warmUps(on bool) int {
	if on {
		return warmUpCompiles
	}
	return 0
}

// Ready reports whether javaFile's module has a warm project under the settings s.
func (c *Core) Ready(javaFile string, s settings.Settings) bool { return c.projects.Ready(javaFile, s) }

// lease leases the method's warm project, saying so in the progress when it has to be opened
// first (the build model, a compile, the worker JVMs).
func (c *Core) lease(ctx context.Context, file string, s settings.Settings, ev Events) (*Lease, error) {
	if !c.projects.Ready(file, s) {
		ev.Progress(loop.Event{Phase: loop.PhaseProject, Message: "opening the project (build model, compile, worker JVMs)"})
	}
	return c.projects.Get(ctx, file, s)
}

// buffer is the editor's text of path, when it is open.
func (c *Core) buffer(path string) ([]byte, bool) {
	if c.opts.Buffers == nil {
		return nil, false
	}
	return c.opts.Buffers(path)
}

// Method is the method a use case works on, in a snapshot of its file.
type Method struct {
	Target *loop.Target
	// Class is the binary name of the method's class; Query the name that finds it again in
	// its file (loop.QueryName).
	Class, Query string
}

// NewMethod is the method m of the snapshot f of the file at path (absolute).
func NewMethod(path string, f *javaparse.File, m *javaparse.Method) *Method {
	return MethodOf(&loop.Target{File: path, Source: f.Source(), Parsed: f, Method: m})
}

// MethodOf is the method a resolved target names.
func MethodOf(t *loop.Target) *Method {
	return &Method{Target: t, Class: t.Method.BinaryClassName, Query: loop.QueryName(t.Method)}
}

// Name is the method's name (a constructor's is its class's).
func (m *Method) Name() string { return m.Target.Method.Name }

// Text is the method's source text in the snapshot.
func (m *Method) Text() string { return m.Target.Method.Text(m.Target.Source) }

// relToRoot is path relative to root, or path when it is not below it.
func relToRoot(root, path string) string {
	if rel, err := filepath.Rel(root, path); err == nil {
		return filepath.ToSlash(rel)
	}
	return path
}
