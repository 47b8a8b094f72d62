package loop_test

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/advertest/advertest-lsp/buildtools/harness"
	"github.com/advertest/advertest-lsp/loop"
	"github.com/advertest/advertest-lsp/loop/agent"
	"github.com/advertest/advertest-lsp/loop/engine"
	"github.com/advertest/advertest-lsp/loop/mutants"
	"github.com/advertest/advertest-lsp/loop/report"
)

// The tests in this file play Algorithm 2 with fake agents on a fake project: no JVM. The fake
// runner reads a mutant's tag from the comment its mutated line carries ("// tag:k1") and fails
// exactly the test "kill_k1" on it; every test passes on the original and covers the lines of
// fakeCovered, and the tests against M's later mutants ("kill_more…") line 8 as well.

const fakeSource = `package p;

public class C {
    public static int f(int x) {
        if (x > 0) {
            return x + 1;
        }
        return x - 1;
    }
}
`

// fakeCovered are f's lines the project's test executes; line 8 (return x - 1) is uncovered.
var fakeCovered = []int{4, 5, 6}

// fakeProject is a loop.Project whose runner plays the rules above.
type fakeProject struct {
	root string

	mu sync.Mutex
	// runs counts the runner's Run calls.
	runs int
}

var _ loop.Project = (*fakeProject)(nil)

func (p *fakeProject) ModuleRoot() string       { return p.root }
func (p *fakeProject) TestClassNames() []string { return []string{"p.CTest"} }
func (p *fakeProject) TestFileFor(pkg, simple string) string {
	return filepath.Join(p.root, "src", "test", "java", strings.ReplaceAll(pkg, ".", "/"), simple+".java")
}
func (p *fakeProject) JUnitVersion() int      { return 5 }
func (p *fakeProject) MockitoVersion() string { return "" }

func (p *fakeProject) Compile(context.Context, []engine.Source) (*engine.CompileResult, error) {
	return &engine.CompileResult{OK: true}, nil
}

var (
	testMethodRE = regexp.MustCompile(`void (\w+)\(`)
	tagRE        = regexp.MustCompile(`// tag:(\w+)`)
)

func (p *fakeProject) Run(ctx context.Context, spec engine.RunSpec) (*engine.RunResult, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	p.mu.Lock()
	p.runs++
	p.mu.Unlock()
	var tests []engine.TestID
	for _, id := range spec.Tests {
		if id.Method != "" {
			tests = append(tests, id)
			continue
		}
		if id.Class == "p.CTest" {
			tests = append(tests, engine.TestID{Class: id.Class, Method: "projectTest"})
		}
		for _, x := range spec.ExtraTests {
			if x.ClassName == id.Class {
				for _, m := range testMethodRE.FindAllStringSubmatch(x.Text, -1) {
					tests = append(tests, engine.TestID{Class: id.Class, Method: m[1]})
				}
			}
		}
	}
	tag := ""
	if len(spec.Overrides) > 0 {
		if m := tagRE.FindStringSubmatch(spec.Overrides[0].Text); m != nil {
			tag = m[1]
		}
	}
	res := &engine.RunResult{Compile: &engine.CompileResult{OK: true}}
	for _, id := range tests {
		tr := engine.TestResult{Test: id, Outcome: harness.Passed}
		if tag != "" && id.Method == "kill_"+tag {
			tr.Outcome = harness.Failed
		}
		if spec.Coverage {
			lines := map[int]harness.LineCoverage{}
			for _, l := range fakeCovered {
				lines[l] = harness.LineCoverage{CoveredInstructions: 1}
			}
			lines[8] = harness.LineCoverage{MissedInstructions: 1}
			if strings.HasPrefix(id.Method, "kill_more") {
				lines[8] = harness.LineCoverage{CoveredInstructions: 1}
			}
			tr.Coverage = &harness.Coverage{Classes: map[string]*harness.ClassCoverage{"p.C": {Lines: lines}}}
		}
		res.Tests = append(res.Tests, tr)
		if tr.Outcome != harness.Passed && spec.StopAtFirstFailure {
			break
		}
	}
	return res, nil
}

// fakeMutant is a mutant of line with a tag comment that the fake runner reads.
func fakeMutant(line int, tag string) mutants.Mutant {
	original := strings.Split(fakeSource, "\n")[line-1]
	mutated := original + " // tag:" + tag
	return mutants.Mutant{ID: mutants.NewID("p.C", "f(int)", original, mutated), Line: line, Original: original,
		Mutated: mutated, Origin: mutants.OriginRule, Operator: "FAKE"}
}

// fakeT writes no initial test unless told, and a killing test for every mutant it is asked
// about; onKill, when set, runs on each request.
type fakeT struct {
	initialErr error
	killErr    error
	onKill     func(m mutants.Mutant)

	mu sync.Mutex
	// asked are the tags of the mutants T was asked to kill, in order.
	asked []string
}

func (t *fakeT) InitialSuite(context.Context, *agent.Subject) ([]agent.Test, error) {
	if t.initialErr != nil {
		return nil, t.initialErr
	}
	return []agent.Test{{Name: "initialTest", Source: "@Test\nvoid initialTest() {}\n"}}, nil
}

func (t *fakeT) KillMutant(ctx context.Context, _ *agent.Subject, m mutants.Mutant) ([]agent.Test, error) {
	tag := tagRE.FindStringSubmatch(m.Mutated)[1]
	t.mu.Lock()
	t.asked = append(t.asked, tag)
	t.mu.Unlock()
	if t.onKill != nil {
		t.onKill(m)
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if t.killErr != nil {
		return nil, t.killErr
	}
	name := "kill_" + tag
	return []agent.Test{{Name: name, Source: fmt.Sprintf("@Test\nvoid %s() { /* %s */ }\n", name, tag), Target: m.ID}}, nil
}

// fakeM proposes two mutants first, then one new mutant a move on the uncovered line.
type fakeM struct {
	mu sync.Mutex
	// feedback is what each MoreMutants call was told.
	feedback []agent.Feedback
}

func (m *fakeM) InitialMutants(context.Context, *agent.Subject) ([]mutants.Mutant, error) {
	return []mutants.Mutant{fakeMutant(5, "k1"), fakeMutant(6, "k2")}, nil
}

func (m *fakeM) MoreMutants(_ context.Context, _ *agent.Subject, fb agent.Feedback) ([]mutants.Mutant, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.feedback = append(m.feedback, fb)
	return []mutants.Mutant{fakeMutant(8, fmt.Sprintf("more%d", len(m.feedback)))}, nil
}

func fakeGame(t *testing.T) (*fakeProject, *loop.Target) {
	t.Helper()
	root := t.TempDir()
	target, err := loop.ResolveTargetInText(filepath.Join(root, "src", "main", "java", "p", "C.java"), []byte(fakeSource), 0, "f")
	if err != nil {
		t.Fatal(err)
	}
	return &fakeProject{root: root}, target
}

func agentsOf(rep *report.Report) []string {
	var out []string
	for _, r := range rep.Rounds {
		out = append(out, r.Agent)
	}
	return out
}

// TestGamePlaysTMTMTWithTLast: five rounds are T M T M T after the initial moves, an even
// value is raised by one, T is asked about each survivor of the evaluation before its move, M
// is told the survivors and the uncovered lines, and the last evaluation is the report's.
func TestGamePlaysTMTMTWithTLast(t *testing.T) {
	for _, rounds := range []int{5, 4} {
		proj, target := fakeGame(t)
		ta, ma := &fakeT{}, &fakeM{}
		cfg := loop.DefaultConfig()
		cfg.Rounds = rounds
		var evaluations []int
		out, err := loop.Run(context.Background(), proj, target, cfg, loop.Agents{T: ta, M: ma}, func(e loop.Event) {
			if e.Phase == loop.PhaseEvaluate && e.Verdicts != nil {
				evaluations = append(evaluations, e.Round)
			}
		})
		if err != nil {
			t.Fatal(err)
		}
		rep := out.Report
		if got, want := agentsOf(rep), []string{"T+M", "T", "M", "T", "M", "T"}; !slices.Equal(got, want) {
			t.Fatalf("rounds %d: agents %v, want %v", rounds, got, want)
		}
		if !slices.Equal(evaluations, []int{0, 1, 2, 3, 4, 5}) {
			t.Errorf("rounds %d: evaluations after actions %v, want one after each", rounds, evaluations)
		}
		// Round 1: T on k1 and k2; round 3: T on M's first new mutant; round 5: on its second.
		if want := []string{"k1", "k2", "more1", "more2"}; !slices.Equal(ta.asked, want) {
			t.Errorf("rounds %d: T was asked about %v, want %v", rounds, ta.asked, want)
		}
		if len(ma.feedback) != 2 {
			t.Fatalf("rounds %d: M moved %d times, want 2", rounds, len(ma.feedback))
		}
		fb := ma.feedback[0]
		if !slices.Equal(fb.UncoveredLines, []int{8}) || len(fb.Survivors) != 0 || len(fb.Known) != 2 {
			t.Errorf("M's first feedback: uncovered %v, %d survivors, %d known; want [8], 0, 2", fb.UncoveredLines, len(fb.Survivors), len(fb.Known))
		}
		// T has the last move: every mutant is killed, by the test written against it.
		if len(rep.Mutants) != 4 || rep.MutationScore == nil || *rep.MutationScore != 1 {
			t.Errorf("rounds %d: %d mutants, score %v; want 4 killed", rounds, len(rep.Mutants), rep.MutationScore)
		}
		for _, m := range rep.Mutants {
			tag := tagRE.FindStringSubmatch(m.Mutated)[1]
			if m.Status != report.Killed || len(m.KilledBy) != 1 || !strings.HasSuffix(m.KilledBy[0], ".kill_"+tag) {
				t.Errorf("mutant %s: %s by %v", tag, m.Status, m.KilledBy)
			}
		}
		// The report's coverage is the last evaluation's, and each mutant names the tests that
		// cover its line.
		if c := rep.Coverage; c == nil || c.Lines != (report.Count{Covered: 4, Total: 4}) || len(c.UncoveredLines) != 0 {
			t.Errorf("coverage %+v, want 4 of 4 lines", c)
		}
		for _, m := range rep.Mutants {
			want := 5 // the project's test and the four kill_ tests (the initial one is left out)
			if m.Line == 8 {
				want = 2 // kill_more1 and kill_more2
			}
			if len(m.CoveredBy) != want {
				t.Errorf("mutant on line %d covered by %v, want %d tests", m.Line, m.CoveredBy, want)
			}
		}
		// The minimal suite: the initial test kills nothing and covers nothing the others do
		// not, so it is not written.
		if !slices.Equal(rep.Tests.LeftOut, []string{"p.CAdverTest.initialTest"}) || strings.Contains(out.FileText, "initialTest") {
			t.Errorf("left out %v; the file:\n%s", rep.Tests.LeftOut, out.FileText)
		}
		if rep.RawMutationScore == nil || *rep.RawMutationScore != 1 {
			t.Errorf("raw score %v, want 1", rep.RawMutationScore)
		}
		if last := rep.Rounds[len(rep.Rounds)-1]; last.Mutants != 4 || last.Tests != 5 || *last.MutationScore != 1 {
			t.Errorf("the last round %+v is not the report's evaluation", last)
		}
		if !strings.Contains(out.FileText, "void kill_more2()") || !loop.HasMarker([]byte(out.FileText)) {
			t.Errorf("the suite's file lacks T's last test:\n%s", out.FileText)
		}
	}
}

// TestGameStopsOnTheBudget: the budget hook is asked before every action; its refusal ends the
// game cleanly with the last evaluation's report and a warning.
func TestGameStopsOnTheBudget(t *testing.T) {
	proj, target := fakeGame(t)
	cfg := loop.DefaultConfig()
	asked := 0
	cfg.Budget = func() error {
		asked++
		if asked > 2 {
			return errors.New("the token budget is spent")
		}
		return nil
	}
	out, err := loop.Run(context.Background(), proj, target, cfg, loop.Agents{T: &fakeT{}, M: &fakeM{}}, nil)
	if err != nil {
		t.Fatalf("a budget stop is no failure: %v", err)
	}
	if got := agentsOf(out.Report); !slices.Equal(got, []string{"T+M", "T", "M"}) {
		t.Errorf("rounds %v, want the initial moves, T and M", got)
	}
	if !slices.Contains(out.Report.Warnings, "stopped after 2 of 5 actions: the token budget is spent") {
		t.Errorf("warnings %q", out.Report.Warnings)
	}
}

// TestGameStopsAtTheTimeLimit: no action starts after the time limit.
func TestGameStopsAtTheTimeLimit(t *testing.T) {
	proj, target := fakeGame(t)
	cfg := loop.DefaultConfig()
	cfg.TimeLimit = 1 // a nanosecond: spent by the initial moves
	ta := &fakeT{}
	out, err := loop.Run(context.Background(), proj, target, cfg, loop.Agents{T: ta, M: &fakeM{}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := agentsOf(out.Report); !slices.Equal(got, []string{"T+M"}) || len(ta.asked) != 0 {
		t.Errorf("rounds %v, T asked %v: want the initial moves alone", got, ta.asked)
	}
	if w := strings.Join(out.Report.Warnings, "\n"); !strings.Contains(w, "stopped after 0 of 5 actions: the time limit of 1ns was reached") {
		t.Errorf("warnings %q", w)
	}
}

// TestGameCancelledReturnsThePartialOutcome: cancelling during T's second move returns ctx's
// error with the report of what was evaluated so far, and no further action starts.
func TestGameCancelledReturnsThePartialOutcome(t *testing.T) {
	proj, target := fakeGame(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	ta := &fakeT{}
	ma := &fakeM{}
	ta.onKill = func(m mutants.Mutant) {
		if strings.Contains(m.Mutated, "tag:more1") {
			cancel()
		}
	}
	out, err := loop.Run(ctx, proj, target, loop.DefaultConfig(), loop.Agents{T: ta, M: ma}, nil)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("error %v, want context.Canceled", err)
	}
	if out == nil || out.Report == nil {
		t.Fatal("no partial outcome")
	}
	if got := agentsOf(out.Report); !slices.Equal(got, []string{"T+M", "T", "M"}) {
		t.Errorf("partial rounds %v, want those evaluated before the cancel", got)
	}
	if len(out.Report.Mutants) != 3 || len(ma.feedback) != 1 {
		t.Errorf("partial report: %d mutants, M moved %d times; want 3 and 1", len(out.Report.Mutants), len(ma.feedback))
	}
}

// TestGameGoesOnWhenTCannotDriveTheMethod: a test agent's ErrCannotDrive is a warning, not a
// failure: M's mutants are still evaluated and reported.
func TestGameGoesOnWhenTCannotDriveTheMethod(t *testing.T) {
	proj, target := fakeGame(t)
	cannot := fmt.Errorf("offline test agent: cannot drive p.C.f: no inputs: %w", agent.ErrCannotDrive)
	cfg := loop.DefaultConfig()
	cfg.Rounds = 1
	out, err := loop.Run(context.Background(), proj, target, cfg, loop.Agents{T: &fakeT{initialErr: cannot}, M: &fakeM{}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(out.Report.Mutants) != 2 || !slices.Contains(out.Report.Warnings, "the test agent cannot drive this method: "+cannot.Error()) {
		t.Errorf("%d mutants, warnings %q", len(out.Report.Mutants), out.Report.Warnings)
	}
}

// TestCannotDriveIsSaidOnce: a T that cannot drive the method refuses its first move and every
// later turn; the report says so once, not once per turn.
func TestCannotDriveIsSaidOnce(t *testing.T) {
	proj, target := fakeGame(t)
	cannot := fmt.Errorf("offline test agent: cannot drive p.C.f: no inputs: %w", agent.ErrCannotDrive)
	cfg := loop.DefaultConfig()
	cfg.Rounds = 4
	ta := &fakeT{initialErr: cannot, killErr: cannot}
	out, err := loop.Run(context.Background(), proj, target, cfg, loop.Agents{T: ta, M: &fakeM{}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(ta.asked) < 2 {
		t.Fatalf("T was asked %d times: the test needs T's later turns", len(ta.asked))
	}
	n := 0
	for _, w := range out.Report.Warnings {
		if strings.Contains(w, "cannot drive") {
			n++
		}
	}
	if n != 1 {
		t.Errorf("%d cannot-drive warnings, want 1: %q", n, out.Report.Warnings)
	}
}

// silentT writes no test at all and says why (agent.Explainer).
type silentT struct{}

func (silentT) InitialSuite(context.Context, *agent.Subject) ([]agent.Test, error) { return nil, nil }
func (silentT) KillMutant(context.Context, *agent.Subject, mutants.Mutant) ([]agent.Test, error) {
	return nil, nil
}
func (silentT) ExplainedInitialSuite(context.Context, *agent.Subject) ([]agent.Test, agent.Evidence, error) {
	return nil, agent.Evidence{Why: "every input failed before the call", Facts: []string{"3 inputs tried"}}, nil
}
func (silentT) ExplainedKillMutant(context.Context, *agent.Subject, mutants.Mutant) ([]agent.Test, agent.Evidence, error) {
	return nil, agent.Evidence{Why: "no input told it apart"}, nil
}

// TestGameSaysWhyTWroteNoTest: a T that writes nothing and says why leaves the reason in the
// report's warnings, once for the method and once per reason for the mutants that survive.
func TestGameSaysWhyTWroteNoTest(t *testing.T) {
	proj, target := fakeGame(t)
	cfg := loop.DefaultConfig()
	cfg.Rounds = 3
	out, err := loop.Run(context.Background(), proj, target, cfg, loop.Agents{T: silentT{}, M: &fakeM{}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	w := out.Report.Warnings
	if !slices.Contains(w, "the test agent wrote no initial test for this method: every input failed before the call (3 inputs tried)") {
		t.Errorf("no warning for the method: %q", w)
	}
	n := 0
	for _, s := range w {
		if strings.HasPrefix(s, "the test agent wrote no test for ") && strings.Contains(s, ": no input told it apart") {
			n++
		}
	}
	if n != 1 {
		t.Errorf("want one warning for the mutants, got %d: %q", n, w)
	}
}

// answeringT writes no test and answers about each mutant as told by its tag: "eq…" mutants
// are equivalent in its view, "big…" ones need more memory than the worker has; it also
// reports one dropped test.
type answeringT struct {
	fakeT
	last map[string]agent.Attempt
}

func (t *answeringT) KillMutant(ctx context.Context, s *agent.Subject, m mutants.Mutant) ([]agent.Test, error) {
	_, _ = t.fakeT.KillMutant(ctx, s, m) // records the request
	tag := tagRE.FindStringSubmatch(m.Mutated)[1]
	a := agent.Attempt{}
	switch {
	case strings.HasPrefix(tag, "eq"):
		a.Equivalent = "the two lines differ only where both return the same value"
	case strings.HasPrefix(tag, "big"):
		a.Bound = "memory"
	}
	if t.last == nil {
		t.last = map[string]agent.Attempt{}
	}
	t.last[m.ID] = a
	return nil, nil
}

func (t *answeringT) LastAttempt(_ *agent.Subject, id string) agent.Attempt { return t.last[id] }
func (t *answeringT) DroppedTests(*agent.Subject) []agent.DroppedTest {
	return []agent.DroppedTest{{Name: "reflective", Reason: "uses reflection on the project's classes"}}
}
func (t *answeringT) TestDropped(*agent.Subject, agent.DroppedTest) {}

// TestEquivalenceBeforeEffort: a mutant T answered "equivalent" about, or whose attempt hit a
// harness bound, is asked about once; the answer makes the survivor likely equivalent (by llm)
// without changing its status or the score, and the judge is not asked about it. The tests
// T dropped are in the report with their reasons.
func TestEquivalenceBeforeEffort(t *testing.T) {
	proj, target := fakeGame(t)
	eq, big, plain := fakeMutant(5, "eq1"), fakeMutant(6, "big1"), fakeMutant(5, "plain1")
	ta := &answeringT{}
	judge := &scriptedJudge{answers: map[string]agent.Judgement{}}
	cfg := loop.DefaultConfig()
	cfg.Rounds = 5
	out, err := loop.Run(context.Background(), proj, target, cfg,
		loop.Agents{T: ta, M: fixedM{[]mutants.Mutant{eq, big, plain}}, Judge: judge}, nil)
	if err != nil {
		t.Fatal(err)
	}
	// Three T moves: eq1 and big1 once, plain1 each time.
	if want := []string{"eq1", "plain1", "big1", "plain1", "plain1"}; !slices.Equal(ta.asked, want) {
		t.Errorf("T was asked about %v, want %v", ta.asked, want)
	}
	if want := []string{"plain1", "big1"}; !slices.Equal(judge.asked, want) {
		t.Errorf("the judge was asked about %v, want %v", judge.asked, want)
	}
	rep := out.Report
	for _, m := range rep.Mutants {
		tag := tagRE.FindStringSubmatch(m.Mutated)[1]
		if m.Status != report.Survived {
			t.Errorf("%s: %s, want survived", tag, m.Status)
		}
		if likely := m.LikelyEquivalent(); likely != (tag == "eq1") || likely && (m.Equivalence.By != "llm" || !strings.Contains(m.Equivalence.Evidence, "same value")) {
			t.Errorf("%s: equivalence %+v", tag, m.Equivalence)
		}
	}
	if rep.MutationScore == nil || *rep.MutationScore != 0 {
		t.Errorf("score %v: an answer of T must not change it", rep.MutationScore)
	}
	if len(rep.Tests.Dropped) != 1 || rep.Tests.Dropped[0].Test != "reflective" || !strings.Contains(rep.Tests.Dropped[0].Reason, "reflection") {
		t.Errorf("dropped tests %+v", rep.Tests.Dropped)
	}
}
