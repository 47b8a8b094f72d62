package llm

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
	"sync"

	"go.uber.org/zap"

	"github.com/advertest/advertest-lsp/buildtools/harness"
	"github.com/advertest/advertest-lsp/loop"
	"github.com/advertest/advertest-lsp/loop/agent"
	"github.com/advertest/advertest-lsp/loop/llm/prompts"
	"github.com/advertest/advertest-lsp/loop/mutants"
)

// Runner is the part of the JVM pool the test agent needs: compile and run on the original.
type Runner interface {
	Compile(ctx context.Context, sources []harness.Source) (*harness.CompileResult, error)
	Run(ctx context.Context, spec harness.RunSpec) (*harness.RunResult, error)
}

// TestStats counts what the test agent did with the classes the LLM wrote.
type TestStats struct {
	Classes         int // classes received (initial suite, kill requests, not repairs)
	Tests           int // test methods handed to the loop
	RuleRepairs     int // rule passes that changed a class
	LLMRepairs      int // LLM repair rounds
	Dropped         int // tests dropped: unrepairable, timing out, or not foldable
	FailingOriginal int // tests kept that fail on the original (possible bugs; the loop flags them)
}

// TestAgent is the paper's T over an LLM: it asks for a JUnit class, repairs it until it
// compiles and runs on the original, and hands over its tests.
type TestAgent struct {
	client *Client
	pool   Runner
	log    *zap.Logger

	mu    sync.Mutex
	stats TestStats
	// attempts remembers, per mutant id, the tests the last request against it produced,
	// so that a mutant that survives them is re-targeted with that feedback rather than
	// the identical prompt (which, at temperature 0, would give the same answer).
	attempts map[string][]agent.Test
}

var _ agent.TestAgent = (*TestAgent)(nil)

// NewTestAgent makes T over client, compiling and running through pool.
func NewTestAgent(client *Client, pool Runner, log *zap.Logger) *TestAgent {
	if log == nil {
		log = zap.NewNop()
	}
	return &TestAgent{client: client, pool: pool, log: log.Named("llm.T"), attempts: map[string][]agent.Test{}}
}

// Stats returns the counts so far.
func (a *TestAgent) Stats() TestStats {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.stats
}

func (a *TestAgent) count(f func(*TestStats)) {
	a.mu.Lock()
	f(&a.stats)
	a.mu.Unlock()
}

// InitialSuite asks for the method's initial test class.
func (a *TestAgent) InitialSuite(ctx context.Context, s *agent.Subject) ([]agent.Test, error) {
	return a.generate(ctx, s, prompts.TestInitial, prompts.Task{TestClassName: s.TestClassName}, "")
}

// KillMutant asks for tests that pass on the original and fail on m.
func (a *TestAgent) KillMutant(ctx context.Context, s *agent.Subject, m mutants.Mutant) ([]agent.Test, error) {
	return a.kill(ctx, s, m, "")
}

// KillWithInput asks for tests against m built on an input the equivalence judge says tells
// it from the original (the request names the earlier attempt too).
func (a *TestAgent) KillWithInput(ctx context.Context, s *agent.Subject, m mutants.Mutant, input string) ([]agent.Test, error) {
	return a.kill(ctx, s, m, input)
}

var _ agent.InputTester = (*TestAgent)(nil)

func (a *TestAgent) kill(ctx context.Context, s *agent.Subject, m mutants.Mutant, input string) ([]agent.Test, error) {
	task := prompts.Task{TestClassName: s.TestClassName, Mutant: prompts.Mutant{Line: m.Line, Original: m.Original, Mutated: m.Mutated}, Input: input}
	a.mu.Lock()
	prev, seen := a.attempts[m.ID]
	a.mu.Unlock()
	if seen {
		task.Previous = true
		var b strings.Builder
		for _, t := range prev {
			b.WriteString(strings.TrimRight(t.Source, "\n") + "\n")
		}
		task.PreviousTests = strings.TrimRight(b.String(), "\n")
	}
	tests, err := a.generate(ctx, s, prompts.TestMutant, task, m.ID)
	if err == nil {
		a.mu.Lock()
		a.attempts[m.ID] = tests
		a.mu.Unlock()
	}
	return tests, err
}

func (a *TestAgent) generate(ctx context.Context, s *agent.Subject, kind string, task prompts.Task, target string) ([]agent.Test, error) {
	msgs, err := testMessages(s, kind, task)
	if err != nil {
		return nil, err
	}
	reply, err := a.client.Chat(ctx, "T."+kind, msgs)
	if err != nil {
		if errors.Is(err, ErrBudget) {
			return nil, nil // the loop's Budget hook ends the game
		}
		return nil, err
	}
	a.count(func(st *TestStats) { st.Classes++ })
	if reply.Truncated() {
		a.log.Info("the test class was cut off by max_tokens: repairing what came", zap.String("kind", kind))
	}
	tests, err := a.settle(ctx, s, ExtractJava(reply.Text), target)
	if err != nil && ctx.Err() == nil && errors.Is(err, ErrBudget) {
		err = nil
	}
	a.count(func(st *TestStats) { st.Tests += len(tests) })
	return tests, err
}

// testMessages are T's messages (agentMessages).
func testMessages(s *agent.Subject, kind string, task prompts.Task) ([]Message, error) {
	return agentMessages("T", s, kind, task)
}

// agentMessages are an agent's messages (role "T" or "M"): the stable system prompt, then the
// method's task inputs and the request-specific task.
func agentMessages(role string, s *agent.Subject, kind string, task prompts.Task) ([]Message, error) {
	sys, err := prompts.System(role, prompts.Project{JUnit: s.JUnit, Mockito: s.MockitoVersion})
	if err != nil {
		return nil, err
	}
	user, err := prompts.User(kind, methodInputs(s), task)
	if err != nil {
		return nil, err
	}
	return []Message{{Role: "system", Content: sys}, {Role: "user", Content: user}}, nil
}

// methodInputs is the subject as the prompts show it.
func methodInputs(s *agent.Subject) prompts.Method {
	c := s.Context
	return prompts.Method{
		QualifiedClass: strings.ReplaceAll(s.Method.BinaryClassName, "$", "."), Package: c.Package, Imports: c.Imports,
		ClassDeclaration: c.ClassDeclaration, Fields: c.Fields, Constructors: c.Constructors, MethodSignatures: c.MethodSignatures,
		Signature: s.Method.Signature, MethodName: s.Method.Name, FileName: filepath.Base(s.File),
		StartLine: c.StartLine, EndLine: c.EndLine, Listing: strings.TrimRight(c.Listing, "\n"),
	}
}

// maxRulePasses bounds the rule passes on one class (each pass fixes what javac reported).
const maxRulePasses = 6

// settle turns a generated class into tests that compile and run on the original: the rules
// when it does not compile, then LLM rounds with the errors (repairAttempts in all), dropping
// what stays broken. A test that runs and fails is kept (the loop flags it).
func (a *TestAgent) settle(ctx context.Context, s *agent.Subject, src, target string) ([]agent.Test, error) {
	if strings.TrimSpace(src) == "" {
		a.log.Info("the reply holds no Java class")
		return nil, nil
	}
	rc := RuleContext{Package: s.Context.Package, Class: s.Method.BinaryClassName, Imports: s.Context.Imports, JUnit: s.JUnit, TestPackage: s.Context.Package}
	className := s.TestClassName
	binary := className
	if s.Context.Package != "" {
		binary = s.Context.Package + "." + className
	}
	subject := harness.Source{ClassName: s.Method.TopLevelClass, Text: string(s.Source)}
	llmRounds, rulePasses := 0, 0
	for {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		src = normalizeClass(src, s.Context.Package, className)
		cr, err := a.pool.Compile(ctx, []harness.Source{subject, {ClassName: binary, Text: src}})
		if err != nil {
			return nil, fmt.Errorf("compiling the generated tests: %w", err)
		}
		if !cr.OK {
			diags := classDiagnostics(cr.Diagnostics, binary)
			if rulePasses < maxRulePasses {
				if fixed, applied := ApplyRules(src, diags, rc); len(applied) > 0 && fixed != src {
					rulePasses++
					a.count(func(st *TestStats) { st.RuleRepairs++ })
					a.log.Debug("repair rules applied", zap.Strings("rules", applied))
					src = fixed
					continue
				}
			}
			text := diagnosticsText(diags, binary, strings.Split(src, "\n"))
			if llmRounds < a.client.cfg.RepairAttempts && text != "" {
				llmRounds++
				rulePasses = 0
				next, err := a.repair(ctx, s, src, text)
				if errors.Is(err, ErrBudget) {
					llmRounds = a.client.cfg.RepairAttempts // keep what is sound, below
					continue
				}
				if err != nil {
					return nil, err
				}
				if next != "" {
					src = next
				}
				continue
			}
			// Unrepairable as a whole: keep its sound tests (those that parse, and then
			// compile once folded), drop the rest.
			a.log.Info("a generated class stays broken after the repairs: keeping its sound tests",
				zap.String("errors", firstLines(text, 6)))
			total := strings.Count(src, "@Test")
			split, err := SplitTests(src, "llm", target)
			if err != nil || len(split.Tests) == 0 {
				// tree-sitter could not recover the class: rebuild it from its sound methods.
				if salvaged := salvageClass(src); salvaged != "" {
					split, err = SplitTests(salvaged, "llm", target)
				}
			}
			if err != nil {
				a.count(func(st *TestStats) { st.Dropped += total })
				return nil, nil
			}
			a.count(func(st *TestStats) {
				st.Dropped += max(0, total-len(split.Tests)-len(split.Unfoldable)) + len(split.Unfoldable)
			})
			res, err := a.runOnOriginal(ctx, s, split.Tests, binary, subject)
			if err != nil {
				return nil, err
			}
			a.count(func(st *TestStats) { st.Dropped += res.dropped + res.broken })
			return res.kept, nil
		}
		split, err := SplitTests(src, "llm", target)
		if err != nil {
			return nil, nil
		}
		a.count(func(st *TestStats) { st.Dropped += split.Broken + len(split.Unfoldable) })
		tests, err := a.runOnOriginal(ctx, s, split.Tests, binary, subject)
		if err != nil {
			return nil, err
		}
		if tests.loadErrors != "" && llmRounds < a.client.cfg.RepairAttempts {
			llmRounds++
			next, err := a.repair(ctx, s, tests.rendered, tests.loadErrors)
			if errors.Is(err, ErrBudget) {
				next, err = "", nil
			}
			if err != nil {
				return nil, err
			}
			if next != "" {
				// The repaired class replaces the tests that could not run; the good ones stay.
				a.count(func(st *TestStats) { st.Dropped += tests.dropped })
				more, err := a.settle(ctx, s, next, target)
				return append(tests.kept, more...), err
			}
		}
		a.count(func(st *TestStats) { st.Dropped += tests.dropped + tests.broken })
		return tests.kept, nil
	}
}

// runResult is what running the folded tests on the original showed.
type runResult struct {
	kept       []agent.Test
	rendered   string // the class of the tests that could not run, for a repair prompt
	loadErrors string
	dropped    int
	broken     int // tests that could not load or run (dropped unless a repair brings them back)
}

var loadErrorRE = regexp.MustCompile(`NoClassDefFoundError|ClassNotFoundException|NoSuchMethodError|NoSuchFieldError|ExceptionInInitializerError|IllegalAccessError|AbstractMethodError|InstantiationException|VerifyError|LinkageError|initializationError|No runnable methods|Unresolved compilation`)

// runOnOriginal compiles the folded tests as the loop will (loop.Suite's rendering) and runs
// them on the original: those that pass or fail are kept; those that cannot load or run come
// back for repair; a test that times out or exits is dropped.
func (a *TestAgent) runOnOriginal(ctx context.Context, s *agent.Subject, tests []agent.Test, binary string, subject harness.Source) (runResult, error) {
	var res runResult
	if len(tests) == 0 {
		return res, nil
	}
	pkg := s.Context.Package
	suite := &loop.Suite{Package: pkg, ClassName: s.TestClassName, JUnit: s.JUnit}
	suite.Add(tests...)
	// Folding can break a test (a field captured by a lambda, say): drop those first.
	for i := 0; i < len(suite.Tests)+1 && len(suite.Tests) > 0; i++ {
		cr, err := a.pool.Compile(ctx, []harness.Source{subject, {ClassName: binary, Text: suite.Source()}})
		if err != nil {
			return res, fmt.Errorf("compiling the folded tests: %w", err)
		}
		if cr.OK {
			break
		}
		bad := erroneousMethods(suite.Source(), classDiagnostics(cr.Diagnostics, binary))
		if len(bad) == 0 {
			res.dropped += len(suite.Tests)
			return res, nil
		}
		suite.Remove(bad...)
		res.dropped += len(bad)
	}
	if len(suite.Tests) == 0 {
		return res, nil
	}
	rr, err := a.pool.Run(ctx, harness.RunSpec{
		Overrides:  []harness.Source{subject},
		ExtraTests: []harness.Source{{ClassName: binary, Text: suite.Source()}},
		Tests:      []harness.TestID{{Class: binary}},
	})
	if err != nil {
		return res, fmt.Errorf("running the generated tests on the original: %w", err)
	}
	if rr.Compile != nil && !rr.Compile.OK {
		res.dropped += len(suite.Tests)
		return res, nil
	}
	outcome := map[string]harness.TestResult{}
	for _, r := range rr.Tests {
		outcome[r.Test.Method] = r
	}
	var broken []agent.Test
	var errs strings.Builder
	for _, t := range suite.Tests {
		r, ok := outcome[t.Name]
		switch {
		case !ok && len(rr.Tests) > 0 && allLoadErrors(rr.Tests):
			// The class failed as a whole (an initialisation error) before this test.
			broken = append(broken, t)
		case !ok:
			res.dropped++
		case r.Outcome == harness.Passed || r.Outcome == harness.Failed:
			res.kept = append(res.kept, t)
			if r.Outcome == harness.Failed {
				a.count(func(st *TestStats) { st.FailingOriginal++ })
			}
		case r.Outcome == harness.Error && loadErrorRE.MatchString(r.Message):
			broken = append(broken, t)
			fmt.Fprintf(&errs, "%s: %s\n", t.Name, firstLines(r.Message, 4))
		case r.Outcome == harness.Error && strings.Contains(r.Message, s.Method.TopLevelClass+"."):
			// An exception from the code under test: a possible bug, kept for the loop to flag.
			res.kept = append(res.kept, t)
			a.count(func(st *TestStats) { st.FailingOriginal++ })
		case r.Outcome == harness.Error:
			// The test's own code threw (a bad fixture, a wrong cast): repair it.
			broken = append(broken, t)
			fmt.Fprintf(&errs, "%s: %s\n", t.Name, firstLines(r.Message, 4))
		default: // timeout, exit, oom, skipped
			res.dropped++
		}
	}
	if len(broken) > 0 {
		if errs.Len() == 0 {
			for _, r := range rr.Tests {
				fmt.Fprintf(&errs, "%s: %s\n", r.Test.Method, firstLines(r.Message, 4))
			}
		}
		b := &loop.Suite{Package: pkg, ClassName: s.TestClassName, JUnit: s.JUnit}
		b.Add(broken...)
		res.rendered = b.Source()
		res.loadErrors = errs.String()
		res.broken = len(broken)
	}
	return res, nil
}

func allLoadErrors(rs []harness.TestResult) bool {
	for _, r := range rs {
		if r.Outcome != harness.Error || !loadErrorRE.MatchString(r.Message) {
			return false
		}
	}
	return true
}

// repair is one LLM repair round: the class and its errors; "" when the reply has no class.
func (a *TestAgent) repair(ctx context.Context, s *agent.Subject, src, errs string) (string, error) {
	a.count(func(st *TestStats) { st.LLMRepairs++ })
	msgs, err := testMessages(s, prompts.TestRepair, prompts.Task{TestClassName: s.TestClassName, TestSource: strings.TrimRight(src, "\n"), Errors: strings.TrimRight(errs, "\n")})
	if err != nil {
		return "", err
	}
	reply, err := a.client.Chat(ctx, "T.repair", msgs)
	if err != nil {
		return "", err
	}
	return ExtractJava(reply.Text), nil
}

// classDiagnostics are the errors in the generated class.
func classDiagnostics(ds []harness.CompileDiagnostic, binary string) []harness.CompileDiagnostic {
	var out []harness.CompileDiagnostic
	for _, d := range ds {
		if d.ClassName == "" || d.ClassName == binary || strings.HasPrefix(d.ClassName, binary+"$") {
			out = append(out, d)
		}
	}
	if len(out) == 0 {
		return ds
	}
	return out
}

// erroneousMethods names the methods of src that hold an error.
func erroneousMethods(src string, diags []harness.CompileDiagnostic) []string {
	pf, err := parseJava(src)
	if err != nil {
		return nil
	}
	seen := map[string]bool{}
	var out []string
	for _, d := range diags {
		if d.Kind != "" && !strings.EqualFold(d.Kind, "error") {
			continue
		}
		if m := pf.MethodAtLine(d.Line); m != nil && !seen[m.Name] {
			seen[m.Name] = true
			out = append(out, m.Name)
		}
	}
	return out
}

func firstLines(s string, n int) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	if len(lines) > n {
		lines = lines[:n]
	}
	return strings.Join(lines, "\n")
}
