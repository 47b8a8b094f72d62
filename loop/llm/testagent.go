package llm

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"sync"

	"go.uber.org/zap"

	"github.com/advertest/advertest-lsp/buildtools/harness"
	"github.com/advertest/advertest-lsp/loop"
	"github.com/advertest/advertest-lsp/loop/agent"
	"github.com/advertest/advertest-lsp/loop/internal/indent"
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
	Dropped         int // tests dropped: unrepairable, timing out, reflective, wrong and not corrected
	FailingOriginal int // tests handed over disabled: they fail on the original and the model says the code is wrong
	// EquivalenceAnswers counts the kill requests the model answered with "no input tells
	// them apart" (the mutant is then not asked about again).
	EquivalenceAnswers int
	// ExpectationRounds counts the requests that showed the model its tests failing on the
	// original; Corrected the tests it corrected so that they pass.
	ExpectationRounds int
	Corrected         int
}

// TestAgent is the paper's T over an LLM: it asks for a JUnit class, repairs it until it
// compiles and runs on the original, asks once about the tests that fail there, and hands over
// its tests with the class's other members (agent.Test.Members). It implements
// agent.AttemptReporter: what its last answer about a mutant claimed, the tests it dropped and
// why. Its methods are called from the game's goroutine (the initial suite from one of its
// own, beside M's first move); its state is guarded by mu.
type TestAgent struct {
	client *Client
	pool   Runner
	log    *zap.Logger

	mu    sync.Mutex
	stats TestStats
	// attempts remembers, per method and mutant, what the last request against the mutant
	// gave, so that a mutant that survives is re-targeted with what became of each test
	// rather than the identical prompt (which, at temperature 0, would give the same answer).
	attempts map[string]*attemptRecord
	// dropped are the tests not handed over, per method, with why.
	dropped map[string][]agent.DroppedTest
}

// testFate is what became of one test of an answer.
type testFate struct {
	name   string
	source string
	// fate says it in words ("did not compile: …"); "" for a test handed over, which then
	// passed on the original (and, when the mutant is asked about again, on the mutant too).
	fate string
}

// attemptRecord is one answer about a mutant.
type attemptRecord struct {
	tests      []testFate
	noClass    bool   // the answer held no test class
	equivalent string // the model's argument that no input tells the two apart
	bound      string // the harness bound a test hit on the original
}

var (
	_ agent.TestAgent       = (*TestAgent)(nil)
	_ agent.AttemptReporter = (*TestAgent)(nil)
)

// NewTestAgent makes T over client, compiling and running through pool.
func NewTestAgent(client *Client, pool Runner, log *zap.Logger) *TestAgent {
	if log == nil {
		log = zap.NewNop()
	}
	return &TestAgent{client: client, pool: pool, log: log.Named("llm.T"), attempts: map[string]*attemptRecord{}, dropped: map[string][]agent.DroppedTest{}}
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

// subjectKey names the method a subject is about.
func subjectKey(s *agent.Subject) string {
	return s.Method.BinaryClassName + "#" + s.Method.Signature
}

// LastAttempt is what the last answer about the mutant claimed besides its tests.
func (a *TestAgent) LastAttempt(s *agent.Subject, mutantID string) agent.Attempt {
	a.mu.Lock()
	defer a.mu.Unlock()
	rec := a.attempts[subjectKey(s)+"\x00"+mutantID]
	if rec == nil {
		return agent.Attempt{}
	}
	return agent.Attempt{Equivalent: rec.equivalent, Bound: rec.bound}
}

// DroppedTests are the tests the agent did not hand over for the method, with why.
func (a *TestAgent) DroppedTests(s *agent.Subject) []agent.DroppedTest {
	a.mu.Lock()
	defer a.mu.Unlock()
	return append([]agent.DroppedTest(nil), a.dropped[subjectKey(s)]...)
}

// TestDropped hears that the loop dropped one of the tests the agent handed over: the next
// prompt about its mutant says so.
func (a *TestAgent) TestDropped(s *agent.Subject, test agent.DroppedTest) {
	a.mu.Lock()
	defer a.mu.Unlock()
	prefix := subjectKey(s) + "\x00"
	for k, rec := range a.attempts {
		if !strings.HasPrefix(k, prefix) {
			continue
		}
		for i := range rec.tests {
			if rec.tests[i].name == test.Name && rec.tests[i].fate == "" {
				rec.tests[i].fate = "dropped: " + test.Reason
			}
		}
	}
}

func (a *TestAgent) recordDrops(s *agent.Subject, fates []testFate) {
	a.mu.Lock()
	defer a.mu.Unlock()
	k := subjectKey(s)
	for _, f := range fates {
		if f.fate != "" {
			a.dropped[k] = append(a.dropped[k], agent.DroppedTest{Name: f.name, Reason: f.fate})
			a.stats.Dropped++
		}
	}
}

// InitialSuite asks for the method's initial test class.
func (a *TestAgent) InitialSuite(ctx context.Context, s *agent.Subject) ([]agent.Test, error) {
	tests, _, err := a.generate(ctx, s, prompts.TestInitial, prompts.Task{TestClassName: s.TestClassName}, "")
	return tests, err
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
	key := subjectKey(s) + "\x00" + m.ID
	a.mu.Lock()
	prev := a.attempts[key]
	if prev != nil {
		task.Previous = true
		task.PreviousNoClass = prev.noClass
		for _, t := range prev.tests {
			fb := prompts.TestFeedback{Name: t.name, Fate: t.fate}
			if t.fate == "" {
				fb.Fate = "passed on the original and on the mutant: it does not tell the two lines apart"
				fb.Source = strings.TrimRight(indent.Block(t.source, ""), "\n")
			}
			task.Feedback = append(task.Feedback, fb)
		}
	}
	a.mu.Unlock()
	tests, rec, err := a.generate(ctx, s, prompts.TestMutant, task, m.ID)
	if err == nil && rec != nil {
		a.mu.Lock()
		a.attempts[key] = rec
		a.mu.Unlock()
	}
	return tests, err
}

// generate sends one request for a test class and settles its answer; the record is nil when
// no answer came (the budget is spent).
func (a *TestAgent) generate(ctx context.Context, s *agent.Subject, kind string, task prompts.Task, target string) ([]agent.Test, *attemptRecord, error) {
	msgs, err := testMessages(s, kind, task, a.client.cfg.ContextTokens)
	if err != nil {
		return nil, nil, err
	}
	reply, err := a.client.Chat(ctx, "T."+kind, msgs)
	if err != nil {
		if errors.Is(err, ErrBudget) {
			return nil, nil, nil // the loop's Budget hook ends the game
		}
		return nil, nil, err
	}
	a.count(func(st *TestStats) { st.Classes++ })
	if reply.Truncated() {
		a.log.Info("the test class was cut off by max_tokens: repairing what came", zap.String("kind", kind))
	}
	rec := &attemptRecord{}
	if kind == prompts.TestMutant {
		if j, jerr := ParseJudgement(reply.Text); jerr == nil && j.Equivalent {
			rec.equivalent = j.Reason
			a.count(func(st *TestStats) { st.EquivalenceAnswers++ })
		}
	}
	src := ExtractJava(reply.Text)
	if strings.TrimSpace(src) == "" {
		rec.noClass = true
		return nil, rec, nil
	}
	st, err := a.settle(ctx, s, src, target, true)
	if err != nil && ctx.Err() == nil && errors.Is(err, ErrBudget) {
		err = nil
	}
	rec.tests, rec.bound = st.fates, st.bound
	a.recordDrops(s, st.fates)
	a.count(func(t *TestStats) { t.Tests += len(st.kept) })
	return st.kept, rec, err
}

// testMessages are T's messages (agentMessages).
func testMessages(s *agent.Subject, kind string, task prompts.Task, contextTokens int) ([]Message, error) {
	task.JUnit = s.JUnit
	return agentMessages("T", s, kind, task, contextTokens)
}

// agentMessages are an agent's messages (role "T" or "M"): the stable system prompt, then the
// method's task inputs and the request-specific task.
func agentMessages(role string, s *agent.Subject, kind string, task prompts.Task, contextTokens int) ([]Message, error) {
	sys, err := prompts.System(role, prompts.Project{JUnit: s.JUnit, Mockito: s.MockitoVersion})
	if err != nil {
		return nil, err
	}
	user, err := prompts.User(kind, methodInputs(s, contextTokens), task)
	if err != nil {
		return nil, err
	}
	return []Message{{Role: "system", Content: sys}, {Role: "user", Content: user}}, nil
}

// maxRulePasses bounds the rule passes on one class (each pass fixes what javac reported).
const maxRulePasses = 6

// settled is what a generated class came to.
type settled struct {
	kept []agent.Test
	// fates are every test met, in order: "" for those kept, else what became of them.
	fates []testFate
	// failing are the tests that run and fail on the original (an assertion, or an exception
	// from the code under test), with their failure; settle asks the model about them once,
	// or leaves them to its caller.
	failing []failingTest
	bound   string
}

type failingTest struct {
	test    agent.Test
	failure string
}

func (st *settled) keep(ts ...agent.Test) {
	for _, t := range ts {
		st.kept = append(st.kept, t)
		st.fates = append(st.fates, testFate{name: t.Name, source: t.Source})
	}
}

func (st *settled) drop(name, source, why string) {
	st.fates = append(st.fates, testFate{name: name, source: source, fate: why})
}

func (st *settled) add(o settled) {
	st.kept = append(st.kept, o.kept...)
	st.fates = append(st.fates, o.fates...)
	st.failing = append(st.failing, o.failing...)
	if st.bound == "" {
		st.bound = o.bound
	}
}

// settle turns a generated class into tests that compile and run on the original: the JUnit
// conversion and the rules when it does not compile, then LLM rounds with the errors
// (repairAttempts in all), dropping what stays broken. The tests that fail on the original go
// back to the model once (ask) with their failure: corrected, they are kept; said to reveal a
// bug, they are kept disabled with the model's reason; otherwise they are dropped.
func (a *TestAgent) settle(ctx context.Context, s *agent.Subject, src, target string, ask bool) (settled, error) {
	st, err := a.settleOnce(ctx, s, src, target)
	if err != nil || len(st.failing) == 0 || !ask {
		return st, err
	}
	failing := st.failing
	st.failing = nil
	more, err := a.askAboutFailures(ctx, s, failing, target)
	st.add(more)
	return st, err
}

func (a *TestAgent) settleOnce(ctx context.Context, s *agent.Subject, src, target string) (settled, error) {
	var st settled
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
			return st, err
		}
		src = normalizeClass(src, s.Context.Package, className)
		if converted, changed := ConvertJUnit(src, s.JUnit); changed {
			// The other JUnit version: converted by rule, before the compiler or a model sees it.
			src = converted
			a.count(func(t *TestStats) { t.RuleRepairs++ })
		}
		cr, err := a.pool.Compile(ctx, []harness.Source{subject, {ClassName: binary, Text: src}})
		if err != nil {
			return st, fmt.Errorf("compiling the generated tests: %w", err)
		}
		if !cr.OK {
			diags := classDiagnostics(cr.Diagnostics, binary)
			if rulePasses < maxRulePasses {
				if fixed, applied := ApplyRules(src, diags, rc); len(applied) > 0 && fixed != src {
					rulePasses++
					a.count(func(t *TestStats) { t.RuleRepairs++ })
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
					return st, err
				}
				if next != "" {
					src = next
				}
				continue
			}
			// Unrepairable as a whole: keep its sound tests (those that parse, and then
			// compile in the suite), drop the rest.
			a.log.Info("a generated class stays broken after the repairs: keeping its sound tests",
				zap.String("errors", firstLines(text, 6)))
			split, err := SplitTests(src, "llm", target)
			if err != nil || len(split.Tests) == 0 {
				// tree-sitter could not recover the class: rebuild it from its sound methods.
				if salvaged := salvageClass(src); salvaged != "" {
					split, err = SplitTests(salvaged, "llm", target)
				}
			}
			if err != nil {
				st.drop("(the class)", "", "did not compile after the repairs: "+firstLines(text, 1))
				return st, nil
			}
			a.splitDrops(&st, split, "did not parse after the repairs (cut off or malformed)")
			// Tests the parse could not even name (a reply cut off inside them).
			for i := strings.Count(src, "@Test") - len(split.Tests) - len(split.Broken) - len(split.Dropped); i > 0; i-- {
				st.drop("(a test without a name)", "", "did not parse after the repairs (cut off or malformed)")
			}
			res, err := a.runOnOriginal(ctx, s, split.Tests, binary, subject)
			st.add(res.settled)
			for _, b := range res.broken {
				st.drop(b.test.Name, b.test.Source, "could not load or run on the original: "+firstLines(b.failure, 1))
			}
			return st, err
		}
		split, err := SplitTests(src, "llm", target)
		if err != nil {
			st.drop("(the class)", "", "could not be taken apart: "+err.Error())
			return st, nil
		}
		a.splitDrops(&st, split, "has a syntax error")
		res, err := a.runOnOriginal(ctx, s, split.Tests, binary, subject)
		if err != nil {
			return st, err
		}
		st.add(res.settled)
		if len(res.broken) > 0 && llmRounds < a.client.cfg.RepairAttempts {
			llmRounds++
			next, err := a.repair(ctx, s, res.rendered, res.loadErrors)
			if errors.Is(err, ErrBudget) {
				next, err = "", nil
			}
			if err != nil {
				return st, err
			}
			if next != "" {
				// The repaired class replaces the tests that could not run; the good ones stay.
				more, err := a.settleOnce(ctx, s, next, target)
				st.add(more)
				return st, err
			}
		}
		for _, b := range res.broken {
			st.drop(b.test.Name, b.test.Source, "could not load or run on the original: "+firstLines(b.failure, 1))
		}
		return st, nil
	}
}

// splitDrops records the tests SplitTests left out.
func (a *TestAgent) splitDrops(st *settled, split SplitResult, brokenWhy string) {
	for _, name := range split.Broken {
		st.drop(name, "", brokenWhy)
	}
	for _, d := range split.Dropped {
		st.drop(d.Name, "", d.Reason)
	}
}

// runResult is what running the tests on the original showed.
type runResult struct {
	settled
	// broken are the tests that could not load or run (a repair round may bring them back),
	// rendered as a class with the errors for the repair prompt.
	broken     []failingTest
	rendered   string
	loadErrors string
}

var loadErrorRE = regexp.MustCompile(`NoClassDefFoundError|ClassNotFoundException|NoSuchMethodError|NoSuchFieldError|ExceptionInInitializerError|IllegalAccessError|AbstractMethodError|InstantiationException|VerifyError|LinkageError|initializationError|No runnable methods|Unresolved compilation`)

// runOnOriginal compiles the tests as the loop will (loop.Suite's rendering) and runs them on
// the original: those that pass are kept; those that fail (an assertion, or an exception from
// the code under test) are failing; those that cannot load or run are broken (for a repair);
// a test that hits a bound (time, memory, an assumption the worker cannot meet) or exits is
// dropped, and the bound noted.
func (a *TestAgent) runOnOriginal(ctx context.Context, s *agent.Subject, tests []agent.Test, binary string, subject harness.Source) (runResult, error) {
	var res runResult
	if len(tests) == 0 {
		return res, nil
	}
	pkg := s.Context.Package
	suite := &loop.Suite{Package: pkg, ClassName: s.TestClassName, JUnit: s.JUnit}
	suite.Add(tests...)
	// A test that compiled in its class may not compile in the suite (a clash the renaming
	// missed): drop those first, with the error.
	for i := 0; i < len(suite.Tests)+1 && len(suite.Tests) > 0; i++ {
		cr, err := a.pool.Compile(ctx, []harness.Source{subject, {ClassName: binary, Text: suite.Source()}})
		if err != nil {
			return res, fmt.Errorf("compiling the tests in the suite: %w", err)
		}
		if cr.OK {
			break
		}
		bad := erroneousMethods(suite.Source(), classDiagnostics(cr.Diagnostics, binary))
		if len(bad) == 0 {
			for _, t := range suite.Tests {
				res.drop(t.Name, t.Source, "did not compile in the suite: "+firstDiagnostic(cr.Diagnostics))
			}
			return res, nil
		}
		for _, t := range suite.Tests {
			if why, ok := bad[t.Name]; ok {
				res.drop(t.Name, t.Source, "did not compile: "+why)
			}
		}
		suite.Remove(keys(bad)...)
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
		for _, t := range suite.Tests {
			res.drop(t.Name, t.Source, "did not compile: "+firstDiagnostic(rr.Compile.Diagnostics))
		}
		return res, nil
	}
	outcome := map[string]harness.TestResult{}
	for _, r := range rr.Tests {
		outcome[r.Test.Method] = r
	}
	var errs strings.Builder
	for _, t := range suite.Tests {
		r, ok := outcome[t.Name]
		switch {
		case !ok && len(rr.Tests) > 0 && allLoadErrors(rr.Tests):
			// The class failed as a whole (an initialisation error) before this test.
			res.broken = append(res.broken, failingTest{test: t, failure: rr.Tests[0].Message})
		case !ok:
			res.drop(t.Name, t.Source, "did not run on the original")
		case r.Outcome == harness.Passed:
			res.keep(t)
		case r.Outcome == harness.Failed:
			res.failing = append(res.failing, failingTest{test: t, failure: r.Message})
		case r.Outcome == harness.Error && loadErrorRE.MatchString(r.Message):
			res.broken = append(res.broken, failingTest{test: t, failure: r.Message})
			fmt.Fprintf(&errs, "%s: %s\n", t.Name, firstLines(r.Message, 4))
		case r.Outcome == harness.Error && strings.Contains(r.Message, s.Method.TopLevelClass+"."):
			// An exception from the code under test: wrong, or a possible bug.
			res.failing = append(res.failing, failingTest{test: t, failure: r.Message})
		case r.Outcome == harness.Error:
			// The test's own code threw (a bad fixture, a wrong cast): repair it.
			res.broken = append(res.broken, failingTest{test: t, failure: r.Message})
			fmt.Fprintf(&errs, "%s: %s\n", t.Name, firstLines(r.Message, 4))
		default:
			why, bound := boundOf(r)
			res.drop(t.Name, t.Source, why)
			if bound != "" && res.bound == "" {
				res.bound = bound
			}
		}
	}
	if len(res.broken) > 0 {
		if errs.Len() == 0 {
			for _, r := range rr.Tests {
				fmt.Fprintf(&errs, "%s: %s\n", r.Test.Method, firstLines(r.Message, 4))
			}
		}
		b := &loop.Suite{Package: pkg, ClassName: s.TestClassName, JUnit: s.JUnit}
		for _, f := range res.broken {
			b.Add(f.test)
		}
		res.rendered = b.Source()
		res.loadErrors = errs.String()
	}
	return res, nil
}

// boundOf says why a test that neither passed nor failed on the original is dropped, and the
// harness bound it hit ("" for none).
func boundOf(r harness.TestResult) (why, bound string) {
	switch r.Outcome {
	case harness.Timeout:
		return "ran past the time bound on the original", "time"
	case harness.OOM:
		return "ran out of memory on the original", "memory"
	case harness.Skipped:
		return "was skipped on the original (an assumption did not hold in the worker: " + firstLines(r.Message, 1) + ")", "assumption"
	case harness.Exit:
		return "exited the JVM on the original", ""
	}
	return fmt.Sprintf("ended %s on the original", r.Outcome), ""
}

func allLoadErrors(rs []harness.TestResult) bool {
	for _, r := range rs {
		if r.Outcome != harness.Error || !loadErrorRE.MatchString(r.Message) {
			return false
		}
	}
	return true
}

// askAboutFailures shows the model its tests that fail on the original, once: it corrects
// them, or says which reveal a bug in the code and why. Corrected tests that pass are kept;
// those it says reveal a bug are kept disabled with its reason (possible bugs); the others are
// dropped.
func (a *TestAgent) askAboutFailures(ctx context.Context, s *agent.Subject, failing []failingTest, target string) (settled, error) {
	var st settled
	task := prompts.Task{TestClassName: s.TestClassName}
	for _, f := range failing {
		task.Failing = append(task.Failing, prompts.FailingTest{Name: f.test.Name, Source: strings.TrimRight(f.test.Source, "\n"), Failure: failureText(f.failure)})
	}
	a.count(func(t *TestStats) { t.ExpectationRounds++ })
	msgs, err := testMessages(s, prompts.TestExpectation, task, a.client.cfg.ContextTokens)
	if err != nil {
		return st, err
	}
	reply, err := a.client.Chat(ctx, "T."+prompts.TestExpectation, msgs)
	if err != nil {
		if !errors.Is(err, ErrBudget) {
			return st, err
		}
		// No room to ask: they stay possible bugs, not confirmed.
		for _, f := range failing {
			a.keepDisabled(&st, f, "it fails on the current code ("+failureText(f.failure)+"); the LLM budget left no request to confirm it")
		}
		return st, nil
	}
	bugs := ParsePossibleBugs(reply.Text)
	var fixed settled
	if src := ExtractJava(reply.Text); strings.TrimSpace(src) != "" {
		if fixed, err = a.settle(ctx, s, src, target, false); err != nil {
			return st, err
		}
	}
	corrected := map[string]bool{}
	for _, t := range fixed.kept {
		corrected[t.Name] = true
	}
	st.kept = append(st.kept, fixed.kept...)
	for _, f := range fixed.fates {
		if f.fate == "" || !isFailingName(failing, f.name) {
			st.fates = append(st.fates, f)
		}
	}
	a.count(func(t *TestStats) { t.Corrected += len(fixed.kept) })
	stillFailing := map[string]failingTest{}
	for _, f := range fixed.failing {
		stillFailing[f.test.Name] = f
	}
	for _, f := range failing {
		name := f.test.Name
		switch reason, claimed := bugs[name]; {
		case corrected[name]:
		case claimed:
			if again, ok := stillFailing[name]; ok {
				f = again
			}
			a.keepDisabled(&st, f, reason)
		default:
			st.drop(name, f.test.Source, "failed on the original ("+failureText(f.failure)+") and the model neither corrected it nor said why the code is wrong")
		}
	}
	// New tests of the answer that fail as well: no second question.
	for name, f := range stillFailing {
		if !isFailingName(failing, name) {
			st.drop(name, f.test.Source, "failed on the original ("+failureText(f.failure)+")")
		}
	}
	return st, nil
}

func isFailingName(failing []failingTest, name string) bool {
	for _, f := range failing {
		if f.test.Name == name {
			return true
		}
	}
	return false
}

// keepDisabled keeps a failing test disabled, a possible bug, with reason.
func (a *TestAgent) keepDisabled(st *settled, f failingTest, reason string) {
	t := f.test
	t.Disabled = reason
	st.keep(t)
	a.count(func(s *TestStats) { s.FailingOriginal++ })
}

// failureText is a test's failure on one line: the exception and its message.
func failureText(msg string) string {
	return strings.Join(strings.Fields(firstLines(msg, 1)), " ")
}

// repair is one LLM repair round: the class and its errors; "" when the reply has no class.
func (a *TestAgent) repair(ctx context.Context, s *agent.Subject, src, errs string) (string, error) {
	a.count(func(st *TestStats) { st.LLMRepairs++ })
	msgs, err := testMessages(s, prompts.TestRepair, prompts.Task{TestClassName: s.TestClassName, TestSource: strings.TrimRight(src, "\n"), Errors: strings.TrimRight(errs, "\n")}, a.client.cfg.ContextTokens)
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

// erroneousMethods maps the methods of src that hold an error to the first one's message.
func erroneousMethods(src string, diags []harness.CompileDiagnostic) map[string]string {
	pf, err := parseJava(src)
	if err != nil {
		return nil
	}
	out := map[string]string{}
	for _, d := range diags {
		if d.Kind != "" && !strings.EqualFold(d.Kind, "error") {
			continue
		}
		if m := pf.MethodAtLine(d.Line); m != nil {
			if _, seen := out[m.Name]; !seen {
				out[m.Name] = firstLines(d.Message, 1)
			}
		}
	}
	return out
}

func firstDiagnostic(ds []harness.CompileDiagnostic) string {
	for _, d := range ds {
		if d.Kind == "" || strings.EqualFold(d.Kind, "error") {
			return fmt.Sprintf("line %d: %s", d.Line, firstLines(d.Message, 1))
		}
	}
	return "an error outside the tests"
}

func keys(m map[string]string) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
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
