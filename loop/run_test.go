package loop_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/advertest/advertest-lsp/buildtools"
	"github.com/advertest/advertest-lsp/buildtools/buildtest"
	"github.com/advertest/advertest-lsp/buildtools/harness"
	"github.com/advertest/advertest-lsp/loop"
	"github.com/advertest/advertest-lsp/loop/engine"
	"github.com/advertest/advertest-lsp/loop/mutants"
	"github.com/advertest/advertest-lsp/loop/offline"
	"github.com/advertest/advertest-lsp/loop/report"
)

var examples buildtest.Examples

func TestMain(m *testing.M) {
	code := m.Run()
	examples.Close()
	os.Exit(code)
}

// example opens an example project once per test binary: the tests only read it.
func example(t *testing.T, name string) (*buildtools.Project, string) {
	t.Helper()
	return examples.Open(t, name)
}

func offlineAgents(t *testing.T, p *buildtools.Project) loop.Agents {
	t.Helper()
	ta, err := offline.New(p.Pool, offline.Options{CacheDir: examples.CacheDir()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ta.Close() })
	return loop.Agents{T: ta, M: loop.RuleMutantAgent{}}
}

func runOffline(t *testing.T, example_, rel, method string) (*loop.Outcome, *loop.Target, *buildtools.Project) {
	t.Helper()
	p, root := example(t, example_)
	target, err := loop.ResolveTarget(filepath.Join(root, rel), 0, method)
	if err != nil {
		t.Fatal(err)
	}
	cfg := loop.DefaultConfig()
	cfg.Workers = 2
	out, err := loop.Run(context.Background(), p, target, cfg, offlineAgents(t, p), nil)
	if err != nil {
		t.Fatalf("run on %s: %v", method, err)
	}
	return out, target, p
}

// The final suite compiles and passes on the original, and kills mutants that the project's
// own tests leave alive.
func TestOfflineLoopKillsWhatTheProjectsTestsMiss(t *testing.T) {
	out, target, p := runOffline(t, "maven-calculator", "src/main/java/org/acme/PriceCalculator.java", "clamp")
	rep := out.Report
	if len(out.Suite.Tests) == 0 {
		t.Fatal("no test generated")
	}
	if len(rep.Tests.FailingOnOriginal) != 0 {
		t.Errorf("generated tests fail on the original: %v", rep.Tests.FailingOnOriginal)
	}
	ctx := context.Background()
	gen := harness.Source{ClassName: out.Suite.BinaryName(), Text: out.FileText}
	// The generated file alone, run by the harness on the original: every test passes.
	res, err := p.Pool.Run(ctx, harness.RunSpec{ExtraTests: []harness.Source{gen}, Tests: []harness.TestID{{Class: gen.ClassName}}})
	if err != nil {
		t.Fatal(err)
	}
	if !res.Compile.OK {
		t.Fatalf("the generated suite does not compile: %+v\n%s", res.Compile.Diagnostics, out.FileText)
	}
	if len(res.Tests) != len(out.Suite.Tests) {
		t.Errorf("ran %d tests, the suite has %d", len(res.Tests), len(out.Suite.Tests))
	}
	for _, tr := range res.Tests {
		if tr.Outcome != harness.Passed {
			t.Errorf("%s: %s %s", tr.Test, tr.Outcome, tr.Message)
		}
	}

	// The pool's mutants against the project's own tests only, then against the final suite.
	var pool []mutants.Mutant
	for _, m := range rep.Mutants {
		pool = append(pool, mutants.Mutant{ID: m.ID, Line: m.Line, Original: m.Original, Mutated: m.Mutated, Origin: mutants.Origin(m.Origin), Operator: m.Operator})
	}
	subj := target.Subject()
	own := engine.Suite{Tests: loop.ClassTests(p.TestClasses)}
	base, err := engine.RunBaseline(ctx, p.Pool, subj, own)
	if err != nil {
		t.Fatal(err)
	}
	ownVerdicts, _, err := engine.Evaluate(ctx, p.Pool, subj, own, base, pool, engine.Options{Parallelism: 2})
	if err != nil {
		t.Fatal(err)
	}
	final := map[string]report.Status{}
	for _, m := range rep.Mutants {
		final[m.ID] = m.Status
	}
	newlyKilled := 0
	for _, v := range ownVerdicts {
		if v.Status == report.Survived && final[v.ID] == report.Killed {
			newlyKilled++
		}
	}
	if newlyKilled == 0 {
		t.Errorf("the generated suite kills none of the mutants the project's tests leave alive")
	}
	ownScore := report.Score(ownVerdicts)
	t.Logf("clamp: project's tests %.0f%%, with the generated suite %.0f%%; %d mutants newly killed; %d tests\n%s",
		100**ownScore, 100**rep.MutationScore, newlyKilled, len(out.Suite.Tests), out.FileText)
	logRounds(t, rep)
}

func logRounds(t *testing.T, rep *report.Report) {
	t.Helper()
	var b strings.Builder
	for _, r := range rep.Rounds {
		score := "  n/a"
		if r.MutationScore != nil {
			score = fmt.Sprintf("%4.0f%%", 100**r.MutationScore)
		}
		fmt.Fprintf(&b, "  %d %-3s score %s  lines %4.0f%%  branches %4.0f%%  mutants %3d  tests %3d\n",
			r.Index, r.Agent, score, 100*r.LineCoverage, 100*r.BranchCoverage, r.Mutants, r.Tests)
	}
	t.Logf("%s rounds (%d ms):\n%s", rep.Target.Method, rep.Timing.TotalMs, b.String())
}

// T's turns raise the score or M's turns add mutants the suite does not kill yet.
func TestRoundsShowBothAgentsAtWork(t *testing.T) {
	out, _, _ := runOffline(t, "maven-calculator", "src/main/java/org/acme/PriceCalculator.java", "bulkPrice")
	rep := out.Report
	logRounds(t, rep)
	if len(rep.Rounds) != 6 {
		t.Fatalf("%d rounds, want 6 (initial + T M T M T)", len(rep.Rounds))
	}
	for i, want := range []string{"T+M", "T", "M", "T", "M", "T"} {
		if rep.Rounds[i].Agent != want {
			t.Errorf("round %d is %s, want %s", i, rep.Rounds[i].Agent, want)
		}
	}
	mAdded, tRaised := false, false
	for i := 1; i < len(rep.Rounds); i++ {
		prev, cur := rep.Rounds[i-1], rep.Rounds[i]
		if cur.Agent == "M" && cur.Mutants > prev.Mutants {
			mAdded = true
		}
		if cur.Agent == "T" && prev.MutationScore != nil && cur.MutationScore != nil && *cur.MutationScore > *prev.MutationScore {
			tRaised = true
		}
		if cur.Agent == "T" && cur.Tests < prev.Tests {
			t.Errorf("round %d: the suite shrank", i)
		}
	}
	if !mAdded {
		t.Error("no M turn added mutants")
	}
	if !tRaised {
		t.Error("no T turn raised the score")
	}
}

func TestOfflineLoopIsDeterministic(t *testing.T) {
	a, _, _ := runOffline(t, "gradle-inventory", "src/main/java/org/acme/inventory/Pricing.java", "orderPrice")
	b, _, _ := runOffline(t, "gradle-inventory", "src/main/java/org/acme/inventory/Pricing.java", "orderPrice")
	if a.FileText != b.FileText {
		t.Errorf("two runs on the same code gave different suites:\n--- first\n%s\n--- second\n%s", a.FileText, b.FileText)
	}
	if !strings.Contains(a.FileText, "import org.junit.Test;") {
		t.Errorf("a JUnit 4 project gets a JUnit 4 suite:\n%s", a.FileText)
	}
	logRounds(t, a.Report)
}

func TestCancellationReturnsAPartialReport(t *testing.T) {
	p, root := example(t, "maven-calculator")
	target, err := loop.ResolveTarget(filepath.Join(root, "src/main/java/org/acme/PriceCalculator.java"), 0, "total")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	evaluations := 0
	sink := func(e loop.Event) {
		if e.Phase == loop.PhaseEvaluate && e.Score != nil {
			evaluations++
			if evaluations == 1 {
				cancel() // after the initial moves' evaluation
			}
		}
	}
	cfg := loop.DefaultConfig()
	start := time.Now()
	out, err := loop.Run(ctx, p, target, cfg, offlineAgents(t, p), sink)
	if err == nil {
		t.Fatal("a cancelled run reported no error")
	}
	if out == nil || out.Report == nil {
		t.Fatal("a cancelled run returned no report")
	}
	if len(out.Report.Rounds) == 0 || len(out.Report.Mutants) == 0 {
		t.Errorf("the partial report lost the initial evaluation: %d rounds, %d mutants", len(out.Report.Rounds), len(out.Report.Mutants))
	}
	if len(out.Report.Rounds) >= 6 {
		t.Errorf("the run went on after cancellation: %d rounds", len(out.Report.Rounds))
	}
	t.Logf("cancelled after %s with %d rounds", time.Since(start).Round(time.Millisecond), len(out.Report.Rounds))
}

// seededBug is a real-looking single-line bug put back into correct code.
type seededBug struct {
	example, rel, class, method, from, to string
}

// TestFaultDetectionOnSeededBugs generates suites on the correct code, then runs them on
// single-line bugs seeded by hand (not by the rule-based operators' own code), and reports the
// fault detection rate: the share of bugs on which some generated test fails.
func TestFaultDetectionOnSeededBugs(t *testing.T) {
	if testing.Short() {
		t.Skip("generates suites for several methods")
	}
	const mc, pc = "maven-calculator", "src/main/java/org/acme/PriceCalculator.java"
	const gi, pr = "gradle-inventory", "src/main/java/org/acme/inventory/Pricing.java"
	const pcClass, prClass = "org.acme.PriceCalculator", "org.acme.inventory.Pricing"
	const inv, invClass = "src/main/java/org/acme/inventory/Inventory.java", "org.acme.inventory.Inventory"
	bugs := []seededBug{
		{mc, pc, pcClass, "clamp", "if (value > hi) {", "if (value > hi + 1) {"},
		{mc, pc, pcClass, "clamp", "return lo;", "return value;"},
		{mc, pc, pcClass, "clamp", "if (lo > hi) {", "if (lo >= hi) {"},
		{mc, pc, pcClass, "bulkPrice", "int free = everyNthFree > 0 ? count / everyNthFree : 0;", "int free = everyNthFree > 1 ? count / everyNthFree : 0;"},
		{mc, pc, pcClass, "bulkPrice", "if (count <= 0) {", "if (count <= 1) {"},
		{mc, pc, pcClass, "bulkPrice", "return unitCents * (count - free);", "return unitCents * count - free;"},
		{gi, pr, prClass, "orderPrice", "if (quantity >= 100) {", "if (quantity > 100) {"},
		{gi, pr, prClass, "orderPrice", "return gross * 90 / 100;", "return gross * 95 / 100;"},
		{gi, pr, prClass, "orderPrice", "if (quantity >= 10) {", "if (quantity >= 11) {"},
		{mc, pc, pcClass, "shipping", "return subtotal() >= 5_000 ? 0 : 499;", "return subtotal() > 5_000 ? 0 : 499;"},
		{mc, pc, pcClass, "maxItem", "int max = -1;", "int max = 0;"},
		{mc, pc, pcClass, "total", "return (int) ((taxed + 5_000) / 10_000);", "return (int) (taxed / 10_000);"},
		{gi, inv, invClass, "remove", "if (removed > 0) {", "if (removed > 1) {"},
		{gi, inv, invClass, "needsReorder", "return level(sku) <= reorderLevel;", "return level(sku) < reorderLevel;"},
	}
	ctx := context.Background()
	suites := map[string]*loop.Outcome{}
	detected := 0
	for _, bug := range bugs {
		out := suites[bug.class+bug.method]
		if out == nil {
			out, _, _ = runOffline(t, bug.example, bug.rel, bug.method)
			suites[bug.class+bug.method] = out
		}
		p, root := example(t, bug.example)
		src, err := os.ReadFile(filepath.Join(root, bug.rel))
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(src), bug.from) {
			t.Fatalf("seeded bug %q not found", bug.from)
		}
		buggy := strings.Replace(string(src), bug.from, bug.to, 1)
		gen := harness.Source{ClassName: out.Suite.BinaryName(), Text: out.FileText}
		res, err := p.Pool.Run(ctx, harness.RunSpec{
			Overrides:  []harness.Source{{ClassName: bug.class, Text: buggy}},
			ExtraTests: []harness.Source{gen},
			Tests:      []harness.TestID{{Class: gen.ClassName}},
		})
		if err != nil {
			t.Fatal(err)
		}
		if !res.Compile.OK {
			t.Fatalf("bug %q does not compile: %+v", bug.to, res.Compile.Diagnostics)
		}
		caught := false
		for _, tr := range res.Tests {
			if tr.Outcome != harness.Passed && tr.Outcome != harness.Skipped {
				caught = true
			}
		}
		if caught {
			detected++
		}
		t.Logf("%-10s %-70q caught=%v", bug.method, bug.to, caught)
	}
	rate := float64(detected) / float64(len(bugs))
	t.Logf("fault detection rate: %d/%d = %.0f%%", detected, len(bugs), 100*rate)
	if rate < 0.5 {
		t.Errorf("fault detection rate %.0f%% is below 50%%", 100*rate)
	}
}
