package engine_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/advertest/advertest-lsp/buildtools"
	"github.com/advertest/advertest-lsp/buildtools/buildtest"
	"github.com/advertest/advertest-lsp/buildtools/harness"
	"github.com/advertest/advertest-lsp/javaparse"
	"github.com/advertest/advertest-lsp/loop/engine"
	"github.com/advertest/advertest-lsp/loop/engine/plain"
	"github.com/advertest/advertest-lsp/loop/mutants"
	"github.com/advertest/advertest-lsp/loop/report"
)

// fixture is an example project copied to a temporary folder, compiled, with its pool open.
type fixture struct {
	root string
	proj *buildtools.Project
}

var examples buildtest.Examples

func TestMain(m *testing.M) {
	code := m.Run()
	examples.Close()
	os.Exit(code)
}

// openExample opens an example project once per test binary: the tests only read it.
func openExample(t *testing.T, name string) *fixture {
	t.Helper()
	proj, root := examples.Open(t, name)
	return &fixture{root: root, proj: proj}
}

func (f *fixture) method(t *testing.T, rel, query string) (*javaparse.File, *javaparse.Method, []byte) {
	t.Helper()
	src, err := os.ReadFile(filepath.Join(f.root, rel))
	if err != nil {
		t.Fatal(err)
	}
	pf, err := javaparse.Parse(src)
	if err != nil {
		t.Fatal(err)
	}
	ms := pf.FindMethods(query)
	if len(ms) != 1 {
		t.Fatalf("%s: %d methods named %q", rel, len(ms), query)
	}
	return pf, ms[0], src
}

func (f *fixture) plainProject(extra []string) plain.Project {
	m := f.proj.Module
	return plain.Project{
		Classpath:   m.TestClasspath,
		MainOutput:  m.MainOutput,
		TestOutput:  m.TestOutput,
		Release:     m.Release,
		TestClasses: append(append([]string{}, f.proj.TestClasses...), extra...),
		Timeout:     40 * time.Second,
	}
}

func allMutants(pf *javaparse.File, m *javaparse.Method) []mutants.Mutant {
	ms := mutants.Generate(pf, m, mutants.Options{})
	ms = append(ms, mutants.Generate(pf, m, mutants.Options{Strong: true})...)
	seen := map[string]bool{}
	var out []mutants.Mutant
	for _, x := range ms {
		if !seen[x.ID] {
			seen[x.ID] = true
			out = append(out, x)
		}
	}
	return out
}

func classTests(classes []string) []harness.TestID {
	var ids []harness.TestID
	for _, c := range classes {
		ids = append(ids, harness.TestID{Class: c})
	}
	return ids
}

// checkAgainstPlain evaluates every mutant with the engine and the plain way, and fails on any
// verdict that differs.
func checkAgainstPlain(t *testing.T, f *fixture, rel, query string, strong bool) []report.Mutant {
	t.Helper()
	ctx := context.Background()
	pf, m, src := f.method(t, rel, query)
	ms := mutants.Generate(pf, m, mutants.Options{})
	if strong {
		ms = allMutants(pf, m)
	}
	if len(ms) < 5 {
		t.Fatalf("only %d mutants for %s", len(ms), query)
	}
	subj := engine.Subject{Class: m.TopLevelClass, Source: src, StartLine: m.StartLine, EndLine: m.EndLine}
	suite := engine.Suite{Tests: classTests(f.proj.TestClasses)}
	base, err := engine.RunBaseline(ctx, f.proj.Pool, subj, suite)
	if err != nil {
		t.Fatal(err)
	}
	// Progress comes from the evaluating goroutines, one call at a time, its reported in order.
	var reported []int
	progress := func(done, total int) {
		if total != len(ms) {
			t.Errorf("progress %d/%d for %d mutants", done, total, len(ms))
		}
		reported = append(reported, done)
	}
	verdicts, stats, err := engine.Evaluate(ctx, f.proj.Pool, subj, suite, base, ms, engine.Options{Parallelism: 2, Progress: progress})
	if err != nil {
		t.Fatal(err)
	}
	if len(verdicts) != len(ms) {
		t.Fatalf("%d verdicts for %d mutants", len(verdicts), len(ms))
	}
	for i := 1; i < len(reported); i++ {
		if reported[i] <= reported[i-1] {
			t.Errorf("progress reported out of order: %v", reported)
			break
		}
	}
	if len(reported) == 0 || reported[len(reported)-1] != len(ms) {
		t.Errorf("progress reported %v: the last is not %d", reported, len(ms))
	}

	pp := f.plainProject(nil)
	orig, err := pp.RunOriginal(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if orig.Tests == 0 {
		t.Fatal("the plain way ran no test")
	}
	plainVerdicts := make([]string, len(ms))
	var wg sync.WaitGroup
	sem := make(chan struct{}, 2)
	errs := make(chan error, len(ms))
	for i, mu := range ms {
		wg.Add(1)
		go func(i int, mu mutants.Mutant) {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			msrc, err := mutants.Apply(src, mu)
			if err != nil {
				errs <- err
				return
			}
			out, err := pp.RunMutant(ctx, m.TopLevelClass, string(msrc))
			if err != nil {
				errs <- fmt.Errorf("plain run of %s: %w", mu.ID, err)
				return
			}
			plainVerdicts[i] = plain.Verdict(orig, out)
		}(i, mu)
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	counts := map[report.Status]int{}
	byID := map[string]report.Mutant{}
	for _, v := range verdicts {
		byID[v.ID] = v
	}
	for i, v := range verdicts {
		counts[v.Status]++
		want := v.Status
		switch v.Status {
		case report.Equivalent:
			want = report.Survived // the same bytecode as the original: no test can kill it
		case report.Duplicate:
			want = byID[v.DuplicateOf].Status // the same bytecode: the same verdict
		}
		if string(want) != plainVerdicts[i] {
			t.Errorf("%s line %d %q → %q: engine says %s, the plain way %s", v.ID, v.Line,
				strings.TrimSpace(v.Original), strings.TrimSpace(v.Mutated), v.Status, plainVerdicts[i])
		}
	}
	t.Logf("%s: %d mutants %v; %d test executions on mutants, suite of %d tests", query, len(ms), counts, stats.TestExecutions, len(base.Results))
	return verdicts
}

func TestVerdictsMatchThePlainWayMavenJUnit5(t *testing.T) {
	if testing.Short() {
		t.Skip("runs javac and java per mutant")
	}
	f := openExample(t, "maven-calculator")
	rel := "src/main/java/org/acme/PriceCalculator.java"
	vs := checkAgainstPlain(t, f, rel, "clamp", true)
	c := report.Counts(vs)
	if c[report.Killed] == 0 || c[report.Survived] == 0 {
		t.Errorf("want both killed and surviving mutants of clamp with the weak suite, got %v", c)
	}
	checkAgainstPlain(t, f, rel, "subtotal", true)
}

func TestVerdictsMatchThePlainWayGradleJUnit4(t *testing.T) {
	if testing.Short() {
		t.Skip("runs javac and java per mutant")
	}
	f := openExample(t, "gradle-inventory")
	checkAgainstPlain(t, f, "src/main/java/org/acme/inventory/Pricing.java", "orderPrice", false)
}

// lineMutant builds a hand-written mutant of one line of the method.
func lineMutant(t *testing.T, src []byte, m *javaparse.Method, contains, from, to string) mutants.Mutant {
	t.Helper()
	lines := strings.Split(string(src), "\n")
	for i := m.StartLine - 1; i < m.EndLine; i++ {
		if strings.Contains(lines[i], contains) {
			mutated := strings.Replace(lines[i], from, to, 1)
			return mutants.Mutant{
				ID: mutants.NewID(m.BinaryClassName, m.Name, lines[i], mutated), Line: i + 1,
				Original: lines[i], Mutated: mutated, Origin: mutants.Origin("rule"), Operator: "TEST",
			}
		}
	}
	t.Fatalf("no line with %q in %s", contains, m.Name)
	return mutants.Mutant{}
}

func TestEndlessLoopAndExitMutants(t *testing.T) {
	f := openExample(t, "maven-calculator")
	ctx := context.Background()
	rel := "src/main/java/org/acme/PriceCalculator.java"
	pf, m, src := f.method(t, rel, "subtotal")
	_ = pf
	loopForever := lineMutant(t, src, m, "for (int i = 0", "i++", "i += 0")
	exit := lineMutant(t, src, m, "return sum;", "return sum;", "System.exit(3); return sum;")
	subj := engine.Subject{Class: m.TopLevelClass, Source: src, StartLine: m.StartLine, EndLine: m.EndLine}
	suite := engine.Suite{Tests: classTests(f.proj.TestClasses)}
	base, err := engine.RunBaseline(ctx, f.proj.Pool, subj, suite)
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	var verdicts []report.Mutant
	go func() {
		defer close(done)
		verdicts, _, err = engine.Evaluate(ctx, f.proj.Pool, subj, suite, base, []mutants.Mutant{loopForever, exit}, engine.Options{Parallelism: 2, TimeoutConstant: 1500 * time.Millisecond})
	}()
	select {
	case <-done:
	case <-time.After(2 * time.Minute):
		t.Fatal("evaluating an endless loop and a System.exit did not finish")
	}
	if err != nil {
		t.Fatal(err)
	}
	if verdicts[0].Status != report.Timeout {
		t.Errorf("endless loop: got %s, want timeout", verdicts[0].Status)
	}
	if verdicts[1].Status != report.Killed {
		t.Errorf("System.exit: got %s, want killed", verdicts[1].Status)
	}
	// The pool is still usable and gives the same verdict for an ordinary mutant.
	again, _, err := engine.Evaluate(ctx, f.proj.Pool, subj, suite, base, []mutants.Mutant{exit}, engine.Options{Parallelism: 1})
	if err != nil || again[0].Status != report.Killed {
		t.Fatalf("after the restart: %v %v", again, err)
	}
}

// A test that fails on the original never counts as a kill, even when it also fails on the
// mutant.
func TestFailingOnOriginalIsNoKill(t *testing.T) {
	f := openExample(t, "maven-calculator")
	ctx := context.Background()
	rel := "src/main/java/org/acme/PriceCalculator.java"
	_, m, src := f.method(t, rel, "clamp")
	failing := harness.Source{ClassName: "org.acme.AlwaysWrongTest", Text: `package org.acme;
import static org.junit.jupiter.api.Assertions.assertEquals;
import org.junit.jupiter.api.Test;
class AlwaysWrongTest {
    @Test void clampIsWrong() { assertEquals(99, PriceCalculator.clamp(5, 0, 10)); }
}
`}
	subj := engine.Subject{Class: m.TopLevelClass, Source: src, StartLine: m.StartLine, EndLine: m.EndLine}
	pf, _ := javaparse.Parse(src)
	ms := allMutants(pf, pf.FindMethods("clamp")[0])
	evaluate := func(suite engine.Suite) (*engine.Baseline, []report.Mutant) {
		base, err := engine.RunBaseline(ctx, f.proj.Pool, subj, suite)
		if err != nil {
			t.Fatal(err)
		}
		verdicts, _, err := engine.Evaluate(ctx, f.proj.Pool, subj, suite, base, ms, engine.Options{Parallelism: 2})
		if err != nil {
			t.Fatal(err)
		}
		return base, verdicts
	}
	_, without := evaluate(engine.Suite{Tests: classTests(f.proj.TestClasses)})
	base, with := evaluate(engine.Suite{
		Tests: append(classTests(f.proj.TestClasses), harness.TestID{Class: "org.acme.AlwaysWrongTest"}),
		Extra: []harness.Source{failing},
	})
	if len(base.Failing) != 1 || base.Failing[0].Class != "org.acme.AlwaysWrongTest" {
		t.Fatalf("baseline failing: %v", base.Failing)
	}
	for i, v := range with {
		for _, k := range v.KilledBy {
			if strings.Contains(k, "AlwaysWrongTest") {
				t.Errorf("%s killed by %s, a test that fails on the original", v.ID, k)
			}
		}
		if v.Status != without[i].Status {
			t.Errorf("%s: %s with the failing test, %s without", v.ID, v.Status, without[i].Status)
		}
	}
}

// Step budgets give the same verdicts as generous wall-clock budgets alone, and the endless
// loops of a binary search's mutants come out timeout both ways.
func TestStepBudgetsGiveTheWallClockVerdicts(t *testing.T) {
	if testing.Short() {
		t.Skip("waits out wall-clock timeouts")
	}
	examples := map[string]*fixture{"maven-calculator": openExample(t, "maven-calculator"), "gradle-inventory": openExample(t, "gradle-inventory")}
	ctx := context.Background()
	// Every method of both examples with a test that reaches it.
	for _, c := range []struct{ example, rel, method string }{
		{"maven-calculator", "src/main/java/org/acme/SortedLookup.java", "indexOf"},
		{"maven-calculator", "src/main/java/org/acme/PriceCalculator.java", "clamp"},
		{"maven-calculator", "src/main/java/org/acme/PriceCalculator.java", "subtotal"},
		{"maven-calculator", "src/main/java/org/acme/PriceCalculator.java", "total"},
		{"maven-calculator", "src/main/java/org/acme/PriceCalculator.java", "bulkPrice"},
		{"maven-calculator", "src/main/java/org/acme/PriceCalculator.java", "addItem"},
		{"gradle-inventory", "src/main/java/org/acme/inventory/Pricing.java", "orderPrice"},
		{"gradle-inventory", "src/main/java/org/acme/inventory/Inventory.java", "countToReorder"},
		{"gradle-inventory", "src/main/java/org/acme/inventory/Inventory.java", "totalUnits"},
		{"gradle-inventory", "src/main/java/org/acme/inventory/Inventory.java", "remove"},
	} {
		f := examples[c.example]
		pf, m, src := f.method(t, c.rel, c.method)
		ms := allMutants(pf, m)
		subj := engine.Subject{Class: m.TopLevelClass, Source: src, StartLine: m.StartLine, EndLine: m.EndLine}
		suite := engine.Suite{Tests: classTests(f.proj.TestClasses)}
		base, err := engine.RunBaseline(ctx, f.proj.Pool, subj, suite)
		if err != nil {
			t.Fatal(err)
		}
		for _, id := range base.Passing {
			executed := 0
			for _, lc := range base.Results[id].Coverage.Classes[subj.Class].Lines {
				executed += lc.CoveredInstructions
			}
			if executed > 0 && base.Results[id].Steps == 0 {
				t.Errorf("%s runs %s but counted no steps on the original", id, subj.Class)
			}
		}
		steps, _, err := engine.Evaluate(ctx, f.proj.Pool, subj, suite, base, ms, engine.Options{Parallelism: 2})
		if err != nil {
			t.Fatal(err)
		}
		wall, _, err := engine.Evaluate(ctx, f.proj.Pool, subj, suite, base, ms, engine.Options{Parallelism: 2, StepFactor: -1, TimeoutConstant: 3 * time.Second})
		if err != nil {
			t.Fatal(err)
		}
		timeouts := 0
		for i := range ms {
			if steps[i].Status != wall[i].Status {
				t.Errorf("%s %s line %d %q → %q: %s with step budgets, %s with wall-clock budgets only", c.method, steps[i].ID, steps[i].Line,
					strings.TrimSpace(steps[i].Original), strings.TrimSpace(steps[i].Mutated), steps[i].Status, wall[i].Status)
			}
			if steps[i].Status == report.Timeout {
				timeouts++
			}
		}
		t.Logf("%s: %d mutants, %d timeouts", c.method, len(ms), timeouts)
		if c.method == "indexOf" && timeouts == 0 {
			t.Error("no mutant of the binary search timed out")
		}
	}
}

// Mutant schemata give the same verdicts as compiling every mutant on its own, and most rule
// mutants of the examples' methods go into the schema.
func TestSchemataGiveThePerMutantVerdicts(t *testing.T) {
	if testing.Short() {
		t.Skip("compiles every mutant")
	}
	f := openExample(t, "maven-calculator")
	ctx := context.Background()
	for _, c := range []struct{ rel, method string }{
		{"src/main/java/org/acme/SortedLookup.java", "indexOf"},
		{"src/main/java/org/acme/PriceCalculator.java", "clamp"},
		{"src/main/java/org/acme/PriceCalculator.java", "subtotal"},
		{"src/main/java/org/acme/PriceCalculator.java", "total"},
		{"src/main/java/org/acme/PriceCalculator.java", "bulkPrice"},
		{"src/main/java/org/acme/PriceCalculator.java", "addItem"},
	} {
		pf, m, src := f.method(t, c.rel, c.method)
		ms := allMutants(pf, m)
		subj := engine.Subject{Class: m.TopLevelClass, Source: src, StartLine: m.StartLine, EndLine: m.EndLine}
		suite := engine.Suite{Tests: classTests(f.proj.TestClasses)}
		base, err := engine.RunBaseline(ctx, f.proj.Pool, subj, suite)
		if err != nil {
			t.Fatal(err)
		}
		together, st, err := engine.Evaluate(ctx, f.proj.Pool, subj, suite, base, ms, engine.Options{Parallelism: 2})
		if err != nil {
			t.Fatal(err)
		}
		alone, sta, err := engine.Evaluate(ctx, f.proj.Pool, subj, suite, base, ms, engine.Options{Parallelism: 2, PerMutant: true})
		if err != nil {
			t.Fatal(err)
		}
		for i := range ms {
			if together[i].Status != alone[i].Status || strings.Join(together[i].KilledBy, ",") != strings.Join(alone[i].KilledBy, ",") {
				t.Errorf("%s %s line %d %q → %q: %s %v in the schema, %s %v alone", c.method, ms[i].ID, ms[i].Line,
					strings.TrimSpace(ms[i].Original), strings.TrimSpace(ms[i].Mutated), together[i].Status, together[i].KilledBy, alone[i].Status, alone[i].KilledBy)
			}
		}
		if c.method == "subtotal" {
			checkPreparedSchema(t, f, subj, suite, ms, together)
		}
		t.Logf("%s: %d of %d mutants in the schema; schema: compile %v, digests %v, %d equivalent, %d duplicate; alone: compile %v, digests %v, %d equivalent, %d duplicate",
			c.method, st.InSchema, len(ms), st.CompileTime, st.DigestTime, st.Equivalent, st.Duplicate, sta.CompileTime, sta.DigestTime, sta.Equivalent, sta.Duplicate)
		if st.InSchema*2 < len(ms) {
			t.Errorf("%s: only %d of %d mutants in the schema", c.method, st.InSchema, len(ms))
		}
	}
}

// checkPreparedSchema: a schema prepared while the baseline runs gives the verdicts of one
// Evaluate compiles itself, and one prepared for other mutants (a mutant's edit differs under
// the same id) is not used.
func checkPreparedSchema(t *testing.T, f *fixture, subj engine.Subject, suite engine.Suite, ms []mutants.Mutant, want []report.Mutant) {
	t.Helper()
	ctx := context.Background()
	pending := engine.PrepareSchema(ctx, f.proj.Pool, subj, suite, ms)
	base, err := engine.RunBaseline(ctx, f.proj.Pool, subj, suite)
	if err != nil {
		t.Fatal(err)
	}
	got, st, err := engine.Evaluate(ctx, f.proj.Pool, subj, suite, base, ms, engine.Options{Parallelism: 2, Schema: pending})
	if err != nil {
		t.Fatal(err)
	}
	if st.InSchema == 0 || st.PreparedTime == 0 {
		t.Errorf("prepared schema: %d mutants in it, %v of its compile before Evaluate; want it used", st.InSchema, st.PreparedTime)
	}
	// Statuses only: the killing test is the first to fail in the order of this baseline's
	// test times, which another baseline run may give otherwise.
	for i := range ms {
		if got[i].Status != want[i].Status {
			t.Errorf("%s: %s %v with the prepared schema, %s %v without", ms[i].ID, got[i].Status, got[i].KilledBy, want[i].Status, want[i].KilledBy)
		}
	}
	other := append([]mutants.Mutant(nil), ms...)
	other[0].Mutated += " // changed"
	stale := engine.PrepareSchema(ctx, f.proj.Pool, subj, suite, other)
	_, st, err = engine.Evaluate(ctx, f.proj.Pool, subj, suite, base, ms, engine.Options{Parallelism: 2, Schema: stale})
	if err != nil {
		t.Fatal(err)
	}
	if st.PreparedTime != 0 || st.InSchema == 0 {
		t.Errorf("a schema prepared for other mutants: %v of it counted, %d mutants in a schema; want Evaluate's own schema", st.PreparedTime, st.InSchema)
	}
}
