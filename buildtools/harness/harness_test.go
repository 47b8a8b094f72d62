package harness

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/advertest/advertest-lsp/internal/testenv"
)

// fixtures are the testdata projects compiled once per test binary with the default JDK's javac.
type fixtures struct {
	cache string // shared worker cache: the worker is compiled once
	tools string // testdata/tools compiled: RunOne, CovDump
	j4    project
	j5    project
}

type project struct {
	main, test string
	libs       []string
	src        string // testdata source root
}

var fx *fixtures

var junit4Libs = []string{"/usr/share/java/junit4.jar", "/usr/share/java/hamcrest-core.jar"}
var junit5Libs = []string{"/usr/share/java/junit-platform-console-standalone.jar"}

func TestMain(m *testing.M) {
	if testenv.JVMSkipped() {
		// The fixtures are compiled with javac and nearly every test starts a worker JVM; the
		// race reproducers of this package run in full (RACE_REPRODUCERS in the Makefile).
		fmt.Println("harness: the tests start JVMs: skipped with -short")
		os.Exit(0)
	}
	if _, err := exec.LookPath("javac"); err != nil {
		fmt.Println("harness tests need a JDK (javac on PATH)")
		os.Exit(1)
	}
	root, err := os.MkdirTemp("", "harness-test-")
	if err != nil {
		panic(err)
	}
	f := &fixtures{cache: filepath.Join(root, "cache")}
	f.j4, err = compileProject(root, "junit4", junit4Libs)
	if err == nil {
		f.j5, err = compileProject(root, "junit5", junit5Libs)
	}
	if err == nil {
		var support []string
		if support, err = supportJars(); err == nil {
			f.tools = filepath.Join(root, "tools")
			err = javac(filepath.Join("testdata", "tools"), f.tools, append(append([]string{}, junit4Libs...), support...))
		}
	}
	if err != nil {
		fmt.Println(err)
		os.RemoveAll(root)
		os.Exit(1)
	}
	fx = f
	code := m.Run()
	os.RemoveAll(root)
	os.Exit(code)
}

func compileProject(root, name string, libs []string) (project, error) {
	src := filepath.Join("testdata", name, "src")
	p := project{main: filepath.Join(root, name, "classes"), test: filepath.Join(root, name, "test-classes"), libs: libs, src: src}
	if err := javac(filepath.Join(src, "main", "java"), p.main, nil); err != nil {
		return p, err
	}
	return p, javac(filepath.Join(src, "test", "java"), p.test, append([]string{p.main}, libs...))
}

func javac(srcDir, out string, cp []string) error {
	var files []string
	err := filepath.Walk(srcDir, func(path string, info os.FileInfo, err error) error {
		if err == nil && strings.HasSuffix(path, ".java") {
			files = append(files, path)
		}
		return err
	})
	if err != nil {
		return err
	}
	args := []string{"-g", "-d", out}
	if len(cp) > 0 {
		args = append(args, "-cp", strings.Join(cp, ":"))
	}
	cmd := exec.Command("javac", append(args, files...)...)
	if b, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("javac %s: %w\n%s", srcDir, err, b)
	}
	return nil
}

// config is the pool configuration for p; HARNESS_TEST_JAVA_HOME runs the suite on another JDK.
func (p project) config() Config {
	return Config{
		JavaHome:         os.Getenv("HARNESS_TEST_JAVA_HOME"),
		LibraryClasspath: p.libs,
		ProjectClassDirs: []string{p.main, p.test},
		Release:          "11",
		Workers:          1,
		MutantBudget:     Budget{Factor: 1.25, Constant: 2 * time.Second},
		OriginalTimeout:  time.Minute,
		CacheDir:         fx.cache,
	}
}

func openPool(t testing.TB, cfg Config) *Pool {
	t.Helper()
	p, err := Open(context.Background(), cfg)
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	t.Cleanup(func() { p.Close() })
	return p
}

func run(t testing.TB, p *Pool, spec RunSpec) *RunResult {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	r, err := p.Run(ctx, spec)
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	if !r.Compile.OK {
		t.Fatalf("compile failed: %+v", r.Compile.Diagnostics)
	}
	return r
}

func outcomes(r *RunResult) map[string]Outcome {
	m := map[string]Outcome{}
	for _, t := range r.Tests {
		m[t.Test.String()] = t.Outcome
	}
	return m
}

func find(t *testing.T, r *RunResult, id string) TestResult {
	t.Helper()
	for _, tr := range r.Tests {
		if tr.Test.String() == id {
			return tr
		}
	}
	t.Fatalf("no result for %s in %v", id, outcomes(r))
	return TestResult{}
}

func readSource(t testing.TB, p project, rel string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(p.src, "main", "java", rel))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// mutate replaces exactly one occurrence of old in the class's source.
func mutate(t testing.TB, src, old, new string) string {
	t.Helper()
	if strings.Count(src, old) != 1 {
		t.Fatalf("%q occurs %d times", old, strings.Count(src, old))
	}
	return strings.Replace(src, old, new, 1)
}

func TestJUnit4SuiteAndAssertionFailure(t *testing.T) {
	p := openPool(t, fx.j4.config())
	if v := p.JUnitVersion(); v != 4 {
		t.Errorf("JUnitVersion = %d, want 4", v)
	}
	r := run(t, p, RunSpec{Tests: []TestID{{Class: "org.acme.CalcTest"}, {Class: "org.acme.FailingTest", Method: "addsWrong"}}})
	want := map[string]Outcome{
		"org.acme.CalcTest.clampsHigh": Passed, "org.acme.CalcTest.clampsLow": Passed,
		"org.acme.CalcTest.passesThrough": Passed, "org.acme.CalcTest.sums": Passed,
		"org.acme.FailingTest.addsWrong": Failed,
	}
	if got := outcomes(r); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("outcomes = %v, want %v", got, want)
	}
	if msg := find(t, r, "org.acme.FailingTest.addsWrong").Message; !strings.Contains(msg, "one and one") || !strings.Contains(msg, "expected:<3> but was:<2>") {
		t.Errorf("failure message = %q", msg)
	}
	if r.WorkerRestarted {
		t.Error("WorkerRestarted on a plain run")
	}
	ids, err := p.DiscoverTests(context.Background(), []string{"org.acme.CalcTest"})
	if err != nil {
		t.Fatal(err)
	}
	if got := fmt.Sprint(ids); got != "[org.acme.CalcTest.clampsHigh org.acme.CalcTest.clampsLow org.acme.CalcTest.passesThrough org.acme.CalcTest.sums]" {
		t.Errorf("DiscoverTests = %s", got)
	}
	// JUnit 3 style (TestCase subclass) tests are found and run too.
	ids, err = p.DiscoverTests(context.Background(), []string{"org.acme.OldStyleTest"})
	if err != nil || fmt.Sprint(ids) != "[org.acme.OldStyleTest.testAdds]" {
		t.Errorf("DiscoverTests(OldStyleTest) = %v, %v", ids, err)
	}
	r = run(t, p, RunSpec{Tests: ids})
	if got := fmt.Sprint(outcomes(r)); got != "map[org.acme.OldStyleTest.testAdds:passed]" {
		t.Errorf("JUnit 3 test: %s", got)
	}
	// A class without tests, and a missing class, are errors rather than silence.
	r = run(t, p, RunSpec{Tests: []TestID{{Class: "org.acme.Calc"}, {Class: "org.acme.Missing"}}})
	if len(r.Tests) != 2 || r.Tests[0].Outcome != Error || !strings.Contains(r.Tests[0].Message, "no tests") || r.Tests[1].Outcome != Error {
		t.Errorf("classes without tests: %+v", r.Tests)
	}
	if _, err := p.DiscoverTests(context.Background(), []string{"org.acme.NoSuchTest"}); err == nil {
		t.Error("DiscoverTests of a missing class: no error")
	}
}

func TestJUnit5AndJUnit4Together(t *testing.T) {
	p := openPool(t, fx.j5.config())
	if v := p.JUnitVersion(); v != 5 {
		t.Errorf("JUnitVersion = %d, want 5", v)
	}
	ids, err := p.DiscoverTests(context.Background(), []string{"org.shop.PriceTest", "org.shop.LegacyTest"})
	if err != nil {
		t.Fatal(err)
	}
	if got := fmt.Sprint(ids); got != "[org.shop.PriceTest.disabled org.shop.PriceTest.fullIsFree org.shop.PriceTest.half org.shop.PriceTest.noDiscount org.shop.PriceTest.wrongOnPurpose org.shop.LegacyTest.quarter]" {
		t.Errorf("DiscoverTests = %s", got)
	}
	r := run(t, p, RunSpec{Tests: []TestID{{Class: "org.shop.PriceTest"}, {Class: "org.shop.LegacyTest", Method: "quarter"}}})
	want := map[string]Outcome{
		"org.shop.PriceTest.disabled": Skipped, "org.shop.PriceTest.fullIsFree": Passed,
		"org.shop.PriceTest.half": Passed, "org.shop.PriceTest.noDiscount": Passed,
		"org.shop.PriceTest.wrongOnPurpose": Failed, "org.shop.LegacyTest.quarter": Passed,
	}
	if got := outcomes(r); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("outcomes = %v, want %v", got, want)
	}
	if msg := find(t, r, "org.shop.PriceTest.wrongOnPurpose").Message; !strings.Contains(msg, "free is not 99") {
		t.Errorf("failure message = %q", msg)
	}
	// The JUnit Platform leaves no thread behind, and the tests' thread groups go: forty runs cost
	// no restart, no thread and no group.
	before, err := p.stats(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 40; i++ {
		if r := run(t, p, RunSpec{Tests: []TestID{{Class: "org.shop.PriceTest", Method: "half"}, {Class: "org.shop.LegacyTest", Method: "quarter"}}}); r.WorkerRestarted {
			t.Fatalf("run %d restarted the worker: %s", i, r.RestartReason)
		}
	}
	if after, err := p.stats(context.Background()); err != nil || after.Threads != before.Threads || after.ThreadGroups != before.ThreadGroups {
		t.Errorf("before forty runs %+v, after %+v (%v)", before, after, err)
	}
	// A mutant of Price kills the parameterized test.
	src := readSource(t, fx.j5, "org/shop/Price.java")
	m := mutate(t, src, "return 0;", "return 1;")
	r = run(t, p, RunSpec{Overrides: []Source{{ClassName: "org.shop.Price", Text: m}}, Tests: []TestID{{Class: "org.shop.PriceTest", Method: "fullIsFree"}}})
	if got := find(t, r, "org.shop.PriceTest.fullIsFree").Outcome; got != Failed {
		t.Errorf("fullIsFree on the mutant = %s, want failed", got)
	}
}

func TestOverrideKillsTestAndDoesNotLeak(t *testing.T) {
	p := openPool(t, fx.j4.config())
	src := readSource(t, fx.j4, "org/acme/Calc.java")
	m := mutate(t, src, "if (x > hi) {", "if (x < hi) {")
	all := []TestID{{Class: "org.acme.CalcTest"}}
	r := run(t, p, RunSpec{Overrides: []Source{{ClassName: "org.acme.Calc", Text: m}}, Tests: all, StopAtFirstFailure: true})
	if len(r.Tests) == 0 || r.Tests[len(r.Tests)-1].Outcome != Failed {
		t.Fatalf("mutant not killed: %v", outcomes(r))
	}
	last := r.Tests[len(r.Tests)-1]
	if last.Test.Method != "clampsHigh" && last.Test.Method != "passesThrough" {
		t.Errorf("killed by %s", last.Test)
	}
	for _, tr := range r.Tests[:len(r.Tests)-1] {
		if tr.Outcome != Passed {
			t.Errorf("StopAtFirstFailure ran past a failure: %v", outcomes(r))
		}
	}
	// The next run without the override sees the project's own Calc again.
	r = run(t, p, RunSpec{Tests: all})
	for id, o := range outcomes(r) {
		if o != Passed {
			t.Errorf("%s = %s after the override run", id, o)
		}
	}
}

func TestCompileErrorHasLineNumbers(t *testing.T) {
	p := openPool(t, fx.j4.config())
	src := readSource(t, fx.j4, "org/acme/Calc.java")
	m := mutate(t, src, "return a + b;", "return a + ;")
	wantLine := strings.Count(m[:strings.Index(m, "return a + ;")], "\n") + 1
	r, err := p.Run(context.Background(), RunSpec{Overrides: []Source{{ClassName: "org.acme.Calc", Text: m}}, Tests: []TestID{{Class: "org.acme.CalcTest"}}})
	if err != nil {
		t.Fatal(err)
	}
	if r.Compile.OK || len(r.Tests) != 0 {
		t.Fatalf("compile OK=%v tests=%d, want a failure and no tests", r.Compile.OK, len(r.Tests))
	}
	d := r.Compile.Diagnostics
	if len(d) == 0 || d[0].Line != wantLine || d[0].ClassName != "org.acme.Calc" || d[0].Kind != "error" || d[0].Column == 0 {
		t.Errorf("diagnostics = %+v, want an error on line %d", d, wantLine)
	}
	// Compile alone, and an extra test that references a missing method.
	extra := "package org.acme;\npublic class GenTest {\n  @org.junit.Test public void t() {\n    Calc.nope();\n  }\n}\n"
	cr, err := p.Compile(context.Background(), []Source{{ClassName: "org.acme.GenTest", Text: extra}})
	if err != nil {
		t.Fatal(err)
	}
	if cr.OK || len(cr.Diagnostics) == 0 || cr.Diagnostics[0].Line != 4 || !strings.Contains(cr.Diagnostics[0].Message, "nope") {
		t.Errorf("Compile = %+v", cr)
	}
}

func TestExtraTestsRunWithOverrides(t *testing.T) {
	p := openPool(t, fx.j4.config())
	extra := "package org.acme;\nimport static org.junit.Assert.*;\npublic class CalcAdverTest {\n" +
		"  @org.junit.Test public void addsTwo() { assertEquals(4, Calc.add(2, 2)); }\n}\n"
	r := run(t, p, RunSpec{ExtraTests: []Source{{ClassName: "org.acme.CalcAdverTest", Text: extra}}, Tests: []TestID{{Class: "org.acme.CalcAdverTest"}}})
	if got := fmt.Sprint(outcomes(r)); got != "map[org.acme.CalcAdverTest.addsTwo:passed]" {
		t.Errorf("outcomes = %s", got)
	}
	m := mutate(t, readSource(t, fx.j4, "org/acme/Calc.java"), "return a + b;", "return a * b + 1;")
	r = run(t, p, RunSpec{Overrides: []Source{{ClassName: "org.acme.Calc", Text: m}}, ExtraTests: []Source{{ClassName: "org.acme.CalcAdverTest", Text: extra}},
		Tests: []TestID{{Class: "org.acme.CalcAdverTest", Method: "addsTwo"}}})
	if got := find(t, r, "org.acme.CalcAdverTest.addsTwo").Outcome; got != Failed {
		t.Errorf("addsTwo on the mutant = %s", got)
	}
}

func TestEndlessLoopInOverrideTimesOut(t *testing.T) {
	p := openPool(t, fx.j4.config())
	m := mutate(t, readSource(t, fx.j4, "org/acme/Calc.java"), "i <= n; i++)", "i <= n;)")
	sums := TestID{Class: "org.acme.CalcTest", Method: "sums"}
	r := run(t, p, RunSpec{Overrides: []Source{{ClassName: "org.acme.Calc", Text: m}}, Tests: []TestID{sums, {Class: "org.acme.CalcTest", Method: "clampsLow"}},
		Timeouts: map[TestID]time.Duration{sums: 300 * time.Millisecond}})
	if got := fmt.Sprint(outcomes(r)); got != "map[org.acme.CalcTest.clampsLow:passed org.acme.CalcTest.sums:timeout]" {
		t.Errorf("outcomes = %s (%v)", got, r.Tests)
	}
	if r.WorkerRestarted {
		t.Error("an instrumented loop cost a worker restart")
	}
	r = run(t, p, RunSpec{Tests: []TestID{sums}})
	if got := find(t, r, sums.String()).Outcome; got != Passed {
		t.Errorf("next run: %s", got)
	}
}

// Steps are counted in the classes compiled in memory, the same for the same work; past a step
// budget a test is a timeout whatever its wall-clock budget.
func TestStepBudgetStopsAnEndlessLoop(t *testing.T) {
	p := openPool(t, fx.j4.config())
	src := readSource(t, fx.j4, "org/acme/Calc.java")
	sums := TestID{Class: "org.acme.CalcTest", Method: "sums"}
	orig := []Source{{ClassName: "org.acme.Calc", Text: src}}
	first := find(t, run(t, p, RunSpec{Overrides: orig, Tests: []TestID{sums}}), sums.String())
	second := find(t, run(t, p, RunSpec{Overrides: orig, Tests: []TestID{sums}}), sums.String())
	if first.Outcome != Passed || first.Steps == 0 || first.Steps != second.Steps {
		t.Fatalf("original: %s with %d steps, then %d steps; want passed, the same non-zero count twice", first.Outcome, first.Steps, second.Steps)
	}
	if plain := find(t, run(t, p, RunSpec{Tests: []TestID{sums}}), sums.String()); plain.Steps != 0 {
		t.Errorf("the project's own class files counted %d steps, want 0 (they are not rewritten)", plain.Steps)
	}
	m := mutate(t, src, "i <= n; i++)", "i <= n;)")
	r := run(t, p, RunSpec{Overrides: []Source{{ClassName: "org.acme.Calc", Text: m}}, Tests: []TestID{sums},
		Timeouts:    map[TestID]time.Duration{sums: 10 * time.Minute},
		StepBudgets: map[TestID]int64{sums: 10*first.Steps + 100_000}})
	got := find(t, r, sums.String())
	if got.Outcome != Timeout || !strings.Contains(got.Message, "steps") {
		t.Errorf("endless loop with a step budget: %s %q, want a timeout on steps", got.Outcome, got.Message)
	}
	if r.WorkerRestarted {
		t.Error("a step budget cost a worker restart")
	}
	// A budget the test stays within changes nothing.
	ok := find(t, run(t, p, RunSpec{Overrides: orig, Tests: []TestID{sums}, StepBudgets: map[TestID]int64{sums: first.Steps}}), sums.String())
	if ok.Outcome != Passed {
		t.Errorf("the original within its own count of steps: %s %q", ok.Outcome, ok.Message)
	}
}

func TestLoopThatIgnoresTheDeadlineRestartsWorker(t *testing.T) {
	p := openPool(t, fx.j4.config())
	// Calc.offset is 1 now, so Spin (a project class, not instrumented, and its loop calls
	// nothing that is) loops for ever.
	m := mutate(t, readSource(t, fx.j4, "org/acme/Calc.java"), "int offset;", "int offset = 1;")
	spins := TestID{Class: "org.acme.TroubleTest", Method: "spins"}
	after := TestID{Class: "org.acme.CalcTest", Method: "clampsLow"}
	// Warm the worker first: Calc's static initialiser checks the deadline on entry, and a cold
	// worker on a loaded machine could spend the whole budget before it runs.
	run(t, p, RunSpec{Tests: []TestID{after}})
	r := run(t, p, RunSpec{Overrides: []Source{{ClassName: "org.acme.Calc", Text: m}}, Tests: []TestID{spins, after},
		Timeouts: map[TestID]time.Duration{spins: time.Second}})
	if got := fmt.Sprint(outcomes(r)); got != "map[org.acme.CalcTest.clampsLow:passed org.acme.TroubleTest.spins:timeout]" {
		t.Errorf("outcomes = %s (%+v)", got, r.Tests)
	}
	if !r.WorkerRestarted {
		t.Error("WorkerRestarted = false for a stuck thread")
	}
	r = run(t, p, RunSpec{Tests: []TestID{spins}})
	if got := find(t, r, spins.String()).Outcome; got != Passed {
		t.Errorf("next run: %s", got)
	}
}

func TestExitHaltStaticInitAndNoise(t *testing.T) {
	p := openPool(t, fx.j4.config())
	tr := func(m string) TestID { return TestID{Class: "org.acme.TroubleTest", Method: m} }
	r := run(t, p, RunSpec{Tests: []TestID{tr("exits"), tr("halts"), tr("badInit"), tr("noisy"), {Class: "org.acme.CalcTest", Method: "clampsLow"}}})
	want := "map[org.acme.CalcTest.clampsLow:passed org.acme.TroubleTest.badInit:error org.acme.TroubleTest.exits:exit org.acme.TroubleTest.halts:exit org.acme.TroubleTest.noisy:passed]"
	if got := fmt.Sprint(outcomes(r)); got != want {
		t.Errorf("outcomes = %s\nwant       %s", got, want)
	}
	if msg := find(t, r, "org.acme.TroubleTest.exits").Message; !strings.Contains(msg, "System.exit(3)") {
		t.Errorf("exit message = %q", msg)
	}
	if msg := find(t, r, "org.acme.TroubleTest.halts").Message; !strings.Contains(msg, "(4)") {
		t.Errorf("halt message = %q", msg)
	}
	if msg := find(t, r, "org.acme.TroubleTest.badInit").Message; !strings.Contains(msg, "ExceptionInInitializerError") || !strings.Contains(msg, "boom in static init") {
		t.Errorf("static init message = %q", msg)
	}
	if r.WorkerRestarted {
		t.Error("exit/halt cost a worker restart")
	}
}

func TestStaticStateDoesNotLeakBetweenRuns(t *testing.T) {
	p := openPool(t, fx.j4.config())
	id := TestID{Class: "org.acme.CounterTest", Method: "firstIsOne"}
	for i := 0; i < 3; i++ {
		r := run(t, p, RunSpec{Tests: []TestID{id}})
		if got := find(t, r, id.String()); got.Outcome != Passed {
			t.Fatalf("run %d: %s %s", i, got.Outcome, got.Message)
		}
	}
}

func TestOutOfMemoryRestartsWorker(t *testing.T) {
	p := openPool(t, fx.j4.config())
	hogs := TestID{Class: "org.acme.TroubleTest", Method: "hogs"}
	after := TestID{Class: "org.acme.CalcTest", Method: "clampsLow"}
	r := run(t, p, RunSpec{Tests: []TestID{hogs, after}, Timeouts: map[TestID]time.Duration{hogs: 20 * time.Second}})
	if got := fmt.Sprint(outcomes(r)); got != "map[org.acme.CalcTest.clampsLow:passed org.acme.TroubleTest.hogs:oom]" {
		t.Errorf("outcomes = %s", got)
	}
	if !r.WorkerRestarted {
		t.Error("no restart after OOM")
	}
	r = run(t, p, RunSpec{Tests: []TestID{after}})
	if got := find(t, r, after.String()).Outcome; got != Passed {
		t.Errorf("after OOM: %s", got)
	}
}

func TestCancelDuringEndlessLoop(t *testing.T) {
	for _, tc := range []struct {
		name, old, new string
		test           TestID
	}{
		{"instrumented", "i <= n; i++)", "i <= n;)", TestID{Class: "org.acme.CalcTest", Method: "sums"}},
		{"stuck", "int offset;", "int offset = 1;", TestID{Class: "org.acme.TroubleTest", Method: "spins"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := openPool(t, fx.j4.config())
			m := mutate(t, readSource(t, fx.j4, "org/acme/Calc.java"), tc.old, tc.new)
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			started := make(chan struct{}, 1)
			p.onTestStart = func(TestID) { started <- struct{}{} }
			errc := make(chan error, 1)
			go func() {
				_, err := p.Run(ctx, RunSpec{Overrides: []Source{{ClassName: "org.acme.Calc", Text: m}}, Tests: []TestID{tc.test},
					Timeouts: map[TestID]time.Duration{tc.test: time.Minute}})
				errc <- err
			}()
			select {
			case <-started:
			case <-time.After(time.Minute):
				t.Fatal("the test never started")
			}
			t0 := time.Now()
			cancel()
			select {
			case err := <-errc:
				if !errors.Is(err, context.Canceled) {
					t.Errorf("Run after cancel: %v", err)
				}
				t.Logf("Run returned %v after cancel", time.Since(t0))
			case <-time.After(10 * time.Second):
				t.Fatal("Run did not return after cancel")
			}
			p.onTestStart = nil
			r := run(t, p, RunSpec{Tests: []TestID{{Class: "org.acme.CalcTest", Method: "sums"}}})
			if got := r.Tests[0].Outcome; got != Passed {
				t.Errorf("next run: %s", got)
			}
			t.Logf("next run finished %v after cancel", time.Since(t0))
		})
	}
}

// TestCoverageMatchesStandaloneJaCoCo compares per-test coverage with JaCoCo's own report of the
// same test run alone in a plain JVM with the agent writing an exec file.
func TestCoverageMatchesStandaloneJaCoCo(t *testing.T) {
	p := openPool(t, fx.j4.config())
	tests := []TestID{{Class: "org.acme.CalcTest", Method: "clampsLow"}, {Class: "org.acme.CalcTest", Method: "sums"}}
	r := run(t, p, RunSpec{Tests: tests, Coverage: true, CoverClasses: []string{"org.acme.Calc"}})
	for _, tr := range r.Tests {
		if tr.Coverage == nil || tr.Coverage.Classes["org.acme.Calc"] == nil {
			t.Fatalf("%s: no coverage (%s)", tr.Test, tr.Message)
		}
		cc := tr.Coverage.Classes["org.acme.Calc"]
		if cc.SourceFile != "Calc.java" {
			t.Errorf("SourceFile = %q", cc.SourceFile)
		}
		got := formatCoverage("org.acme.Calc", cc)
		want := referenceCoverage(t, tr.Test)
		if got != want {
			t.Errorf("%s coverage differs from JaCoCo alone\n got:\n%s\nwant:\n%s", tr.Test, got, want)
		}
	}
	// The two tests cover different lines: coverage really is per test.
	a, b := r.Tests[0].Coverage.Classes["org.acme.Calc"], r.Tests[1].Coverage.Classes["org.acme.Calc"]
	if formatCoverage("x", a) == formatCoverage("x", b) {
		t.Error("both tests report the same coverage")
	}
	// The run's union is what JaCoCo reports for both tests' data merged.
	if r.Coverage == nil || r.Coverage.Classes["org.acme.Calc"] == nil {
		t.Fatal("no union coverage for the run")
	}
	if got, want := formatCoverage("org.acme.Calc", r.Coverage.Classes["org.acme.Calc"]), referenceCoverage(t, tests...); got != want {
		t.Errorf("union coverage differs from JaCoCo on both tests\n got:\n%s\nwant:\n%s", got, want)
	}
}

func formatCoverage(class string, cc *ClassCoverage) string {
	lines := make([]int, 0, len(cc.Lines))
	for l := range cc.Lines {
		lines = append(lines, l)
	}
	sort.Ints(lines)
	var b strings.Builder
	for _, l := range lines {
		c := cc.Lines[l]
		fmt.Fprintf(&b, "%s %d %d %d %d %d\n", class, l, c.CoveredInstructions, c.MissedInstructions, c.CoveredBranches, c.MissedBranches)
	}
	return b.String()
}

// referenceCoverage runs each test alone in a plain JVM with the JaCoCo agent appending to one
// exec file, and dumps JaCoCo's analysis of them together.
func referenceCoverage(t *testing.T, ids ...TestID) string {
	t.Helper()
	dir := t.TempDir()
	agent, err := jacocoAgent("", dir)
	if err != nil {
		t.Fatal(err)
	}
	exec1 := filepath.Join(dir, "run.exec")
	cp := strings.Join(append([]string{fx.j4.main, fx.j4.test}, junit4Libs...), ":")
	for _, id := range ids {
		cmd := exec.Command("java", "-javaagent:"+agent+"=destfile="+exec1+",append=true,includes=org.acme.*", "-cp", cp+":"+fx.tools, "RunOne", id.Class, id.Method)
		if out, err := cmd.CombinedOutput(); err != nil || !bytes.Contains(out, []byte("run=1 failures=0")) {
			t.Fatalf("reference run: %v\n%s", err, out)
		}
	}
	support, err := supportJars()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("java", "-cp", strings.Join(support, ":")+":"+fx.tools, "CovDump", exec1, filepath.Join(fx.j4.main, "org", "acme", "Calc.class"))
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("reference analysis: %v", err)
	}
	return string(out)
}

func TestWorkerBuildIsCached(t *testing.T) {
	cfg := fx.j4.config()
	cfg.CacheDir = t.TempDir()
	p1, err := Open(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	p1.Close()
	p2, err := Open(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer p2.Close()
	if !p1.workerBuilt || p2.workerBuilt {
		t.Errorf("built first=%v second=%v, want true then false", p1.workerBuilt, p2.workerBuilt)
	}
	if jars, _ := filepath.Glob(filepath.Join(cfg.CacheDir, "worker", "*", "worker.jar")); len(jars) != 1 {
		t.Errorf("cached worker jars: %v, want one", jars)
	}
	r := run(t, p2, RunSpec{Tests: []TestID{{Class: "org.acme.CalcTest", Method: "sums"}}})
	if r.Tests[0].Outcome != Passed {
		t.Errorf("run on cached worker: %s", r.Tests[0].Outcome)
	}
}

func TestConcurrentRunsAndClose(t *testing.T) {
	cfg := fx.j4.config()
	cfg.Workers = 2
	p, err := Open(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	errc := make(chan error, 4)
	for i := 0; i < 4; i++ {
		go func() {
			r, err := p.Run(context.Background(), RunSpec{Tests: []TestID{{Class: "org.acme.CounterTest", Method: "firstIsOne"}}})
			if err == nil && (len(r.Tests) != 1 || r.Tests[0].Outcome != Passed) {
				err = fmt.Errorf("result %v", outcomes(r))
			}
			errc <- err
		}()
	}
	for i := 0; i < 4; i++ {
		if err := <-errc; err != nil {
			t.Error(err)
		}
	}
	pids := p.workerPIDs()
	if len(pids) != 2 {
		t.Errorf("%d workers after 4 concurrent runs on 2 slots, want 2", len(pids))
	}
	p.Close()
	for _, pid := range pids {
		if err := syscall.Kill(pid, 0); err == nil {
			t.Errorf("worker %d still alive after Close", pid)
		}
	}
	if _, err := p.Run(context.Background(), RunSpec{}); !errors.Is(err, ErrClosed) {
		t.Errorf("Run after Close: %v", err)
	}
}

// TestControllerDeathKillsWorkers runs a controller in a child process, SIGKILLs it, and waits
// for its worker to disappear.
func TestControllerDeathKillsWorkers(t *testing.T) {
	if os.Getenv("HARNESS_CONTROLLER") == "1" {
		return
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestControllerHelper$")
	cmd.Env = append(os.Environ(), "HARNESS_CONTROLLER=1", "HARNESS_J4_MAIN="+fx.j4.main, "HARNESS_J4_TEST="+fx.j4.test, "HARNESS_CACHE="+fx.cache)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	var pid int
	var sandboxed bool
	buf := make([]byte, 0, 256)
	deadline := time.Now().Add(time.Minute)
	for pid == 0 && time.Now().Before(deadline) {
		chunk := make([]byte, 64)
		n, err := stdout.Read(chunk)
		buf = append(buf, chunk[:n]...)
		if i := strings.Index(string(buf), "WORKER "); i >= 0 {
			if j := strings.IndexByte(string(buf[i:]), '\n'); j > 0 {
				var contained string
				fmt.Sscan(string(buf[i+7:i+j]), &pid, &contained)
				sandboxed = contained == "true"
			}
		}
		if err != nil {
			break
		}
	}
	if pid == 0 {
		t.Fatalf("controller gave no worker pid: %s", buf)
	}
	// The worker's pid is bwrap's when the pool is sandboxed; the JVM is a descendant of it,
	// and it is the JVM that must not outlive the controller.
	tree := processTree(pid)
	t.Logf("worker processes %v (sandboxed %v)", tree, sandboxed)
	if sandboxed && len(tree) < 2 {
		t.Fatalf("sandboxed worker %d has no child processes: %v", pid, tree)
	}
	_ = cmd.Process.Kill()
	_ = cmd.Wait()
	for time.Now().Before(deadline) {
		alive := tree[:0:0]
		for _, p := range tree {
			if syscall.Kill(p, 0) == nil {
				alive = append(alive, p)
			}
		}
		if len(alive) == 0 {
			return
		}
		// Reaped by init once they die; poll the condition until the deadline.
		time.Sleep(20 * time.Millisecond)
	}
	t.Errorf("worker processes %v outlived their controller", tree)
}

// processTree returns pid and every live descendant of it, read from /proc.
func processTree(pid int) []int {
	children := map[int][]int{}
	stats, _ := filepath.Glob("/proc/[0-9]*/stat")
	for _, f := range stats {
		b, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		// The command name (field 2) is parenthesised and may hold spaces: parse after it.
		s := string(b)
		i := strings.LastIndexByte(s, ')')
		if i < 0 {
			continue
		}
		fields := strings.Fields(s[i+1:])
		if len(fields) < 2 {
			continue
		}
		child, _ := strconv.Atoi(strings.Fields(s)[0])
		parent, _ := strconv.Atoi(fields[1])
		children[parent] = append(children[parent], child)
	}
	tree := []int{pid}
	for i := 0; i < len(tree); i++ {
		tree = append(tree, children[tree[i]]...)
	}
	return tree
}

func TestControllerHelper(t *testing.T) {
	if os.Getenv("HARNESS_CONTROLLER") != "1" {
		t.Skip("helper process for TestControllerDeathKillsWorkers")
	}
	p, err := Open(context.Background(), Config{LibraryClasspath: junit4Libs, Workers: 1, CacheDir: os.Getenv("HARNESS_CACHE"),
		MutantBudget: Budget{Factor: 1.25, Constant: 4 * time.Second}, OriginalTimeout: time.Minute,
		ProjectClassDirs: []string{os.Getenv("HARNESS_J4_MAIN"), os.Getenv("HARNESS_J4_TEST")}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.Run(context.Background(), RunSpec{Tests: []TestID{{Class: "org.acme.CalcTest", Method: "sums"}}}); err != nil {
		t.Fatal(err)
	}
	fmt.Printf("WORKER %d %v\n", p.workerPIDs()[0], p.Sandbox().Contained())
	select {} // wait to be killed
}

// newerJDK returns the newest JDK under /usr/lib/jvm whose major version is above 17, or "".
func newerJDK() string {
	dirs, _ := filepath.Glob("/usr/lib/jvm/*")
	best, bestV := "", 17
	for _, d := range dirs {
		b, err := os.ReadFile(filepath.Join(d, "release"))
		if err != nil || !fileExists(filepath.Join(d, "bin", "javac")) {
			continue
		}
		for _, line := range strings.Split(string(b), "\n") {
			if v, ok := strings.CutPrefix(line, "JAVA_VERSION=\""); ok {
				major, _ := strconv.Atoi(strings.SplitN(strings.TrimSuffix(v, "\""), ".", 2)[0])
				if major > bestV {
					best, bestV = d, major
				}
			}
		}
	}
	return best
}

// TestNewerJDK repeats the JDK-sensitive checks (loops, exit/halt, coverage, JUnit 5) on the
// newest installed JDK above 17, where Thread.stop and the Security Manager are gone.
func TestNewerJDK(t *testing.T) {
	home := newerJDK()
	if home == "" {
		t.Skip("no JDK newer than 17 under /usr/lib/jvm")
	}
	t.Logf("JDK %s", home)
	cfg := fx.j4.config()
	cfg.JavaHome = home
	p := openPool(t, cfg)
	m := mutate(t, readSource(t, fx.j4, "org/acme/Calc.java"), "i <= n; i++)", "i <= n;)")
	sums := TestID{Class: "org.acme.CalcTest", Method: "sums"}
	tr := func(m string) TestID { return TestID{Class: "org.acme.TroubleTest", Method: m} }
	r := run(t, p, RunSpec{Overrides: []Source{{ClassName: "org.acme.Calc", Text: m}}, Tests: []TestID{sums, tr("exits"), tr("halts"), tr("badInit")},
		Timeouts: map[TestID]time.Duration{sums: 300 * time.Millisecond}})
	want := "map[org.acme.CalcTest.sums:timeout org.acme.TroubleTest.badInit:error org.acme.TroubleTest.exits:exit org.acme.TroubleTest.halts:exit]"
	if got := fmt.Sprint(outcomes(r)); got != want {
		t.Errorf("outcomes = %s\nwant       %s", got, want)
	}
	if r.WorkerRestarted {
		t.Errorf("worker restarted: %+v", r.Tests)
	}
	r = run(t, p, RunSpec{Tests: []TestID{{Class: "org.acme.CalcTest", Method: "clampsLow"}}, Coverage: true, CoverClasses: []string{"org.acme.Calc"}})
	if tr := r.Tests[0]; tr.Outcome != Passed || tr.Coverage == nil || formatCoverage("org.acme.Calc", tr.Coverage.Classes["org.acme.Calc"]) != referenceCoverage(t, tr.Test) {
		t.Errorf("coverage on %s: %s %s %+v", home, tr.Outcome, tr.Message, tr.Coverage)
	}
	// An override compiled for Java 21 (class file 65, newer than ASM 9.4 reads) still gets its
	// loops checked.
	cfg21 := cfg
	cfg21.Release = "21"
	p21 := openPool(t, cfg21)
	r = run(t, p21, RunSpec{Overrides: []Source{{ClassName: "org.acme.Calc", Text: m}}, Tests: []TestID{sums},
		Timeouts: map[TestID]time.Duration{sums: 300 * time.Millisecond}})
	if got := r.Tests[0].Outcome; got != Timeout || r.WorkerRestarted {
		t.Errorf("release 21 loop: %s restarted=%v", got, r.WorkerRestarted)
	}
	p21.Close()

	cfg5 := fx.j5.config()
	cfg5.JavaHome = home
	p5 := openPool(t, cfg5)
	r = run(t, p5, RunSpec{Tests: []TestID{{Class: "org.shop.PriceTest", Method: "half"}, {Class: "org.shop.LegacyTest", Method: "quarter"}}})
	if got := fmt.Sprint(outcomes(r)); got != "map[org.shop.LegacyTest.quarter:passed org.shop.PriceTest.half:passed]" {
		t.Errorf("JUnit 5 on %s: %s", home, got)
	}
}

func TestDeriveIncludes(t *testing.T) {
	got := strings.Join(deriveIncludes([]string{fx.j4.main, fx.j4.test, fx.j5.main}), ":")
	if got != "org.acme.*:org.shop.*" {
		t.Errorf("deriveIncludes = %q", got)
	}
}

func TestBrokenAgentCostsOnlyCoverage(t *testing.T) {
	cfg := fx.j4.config()
	// A jar without Premain-Class: the JVM refuses to start with it.
	cfg.JacocoAgentJar = filepath.Join(t.TempDir(), "not-an-agent.jar")
	if err := packJar(t.TempDir(), cfg.JacocoAgentJar); err != nil {
		t.Fatal(err)
	}
	p := openPool(t, cfg)
	r := run(t, p, RunSpec{Tests: []TestID{{Class: "org.acme.CalcTest", Method: "sums"}}, Coverage: true, CoverClasses: []string{"org.acme.Calc"}})
	if tr := r.Tests[0]; tr.Outcome != Passed || tr.Coverage != nil {
		t.Errorf("with a broken agent: %s coverage=%v", tr.Outcome, tr.Coverage)
	}
	if p.launch.withoutAgent() != nil {
		t.Error("the pool still starts workers with the broken agent")
	}
}

// Digests come through the protocol: a mutant that javac compiles to the original's bytecode
// has the original's digest, another mutant another one, and a run whose digested override has
// a digest it is told to skip compiles and runs no test.
func TestDigestsAndSkippedRuns(t *testing.T) {
	p := openPool(t, fx.j4.config())
	src := readSource(t, fx.j4, "org/acme/Calc.java")
	all := []TestID{{Class: "org.acme.CalcTest"}}
	digest := func(text string) string {
		t.Helper()
		cr, err := p.Compile(context.Background(), []Source{{ClassName: "org.acme.Calc", Text: text, Digest: true}})
		if err != nil || !cr.OK {
			t.Fatalf("compile: %v %+v", err, cr)
		}
		d, ok := cr.Digests["org.acme.Calc"]
		if !ok || d.Original == "" || d.Opaque || len(d.Mutants) != 0 {
			t.Fatalf("digests %+v: want one for org.acme.Calc", cr.Digests)
		}
		return d.Original
	}
	orig := digest(src)
	dead := mutate(t, src, "return a + b;", "if (false) { System.out.println(a); } return a + b;")
	if digest(dead) != orig {
		t.Errorf("code under if (false) is compiled away, yet the digests differ")
	}
	other := mutate(t, src, "return a + b;", "return a - b;")
	if digest(other) == orig {
		t.Errorf("a - b has the digest of a + b")
	}
	r := run(t, p, RunSpec{Overrides: []Source{{ClassName: "org.acme.Calc", Text: dead, Digest: true}}, Tests: all, SkipDigests: []string{orig}})
	if !r.Compile.OK || len(r.Tests) != 0 || r.Compile.Digests["org.acme.Calc"].Original != orig {
		t.Errorf("a run with the skipped digest: compile %+v, %d tests ran; want the digest and none", r.Compile, len(r.Tests))
	}
	r = run(t, p, RunSpec{Overrides: []Source{{ClassName: "org.acme.Calc", Text: other, Digest: true}}, Tests: all, SkipDigests: []string{orig}})
	if len(r.Tests) == 0 {
		t.Errorf("a run with another digest ran no test")
	}
}

// A compile made through CompileShared is shipped to the other worker with its first run of the same
// sources: that worker defines the classes instead of compiling them (Origin "shipped"), and
// they are the compile's classes (the test passes only on the mutant).
func TestCompiledClassesAreShippedToTheOtherWorker(t *testing.T) {
	cfg := fx.j4.config()
	cfg.Workers = 2
	p := openPool(t, cfg)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	mutant := Source{ClassName: "org.acme.Calc", Text: mutate(t, readSource(t, fx.j4, "org/acme/Calc.java"), "return a + b;", "return a + b + 1;")}
	// The test sleeps so that two runs at once take both workers.
	test := Source{ClassName: "org.acme.CalcShippedTest", Text: "package org.acme;\nimport static org.junit.Assert.*;\npublic class CalcShippedTest {\n" +
		"  @org.junit.Test public void seesTheMutant() throws Exception { Thread.sleep(400); assertEquals(5, Calc.add(2, 2)); }\n}\n"}
	cr, err := p.CompileShared(ctx, []Source{mutant, test})
	if err != nil || !cr.OK || cr.Origin != "javac" {
		t.Fatalf("compile: %v %+v", err, cr)
	}
	spec := RunSpec{Overrides: []Source{mutant}, ExtraTests: []Source{test}, Tests: []TestID{{Class: test.ClassName, Method: "seesTheMutant"}}}
	// twoAtOnce runs spec twice at the same time and gives the two compiles' origins, sorted.
	twoAtOnce := func() ([]*RunResult, string) {
		results := make([]*RunResult, 2)
		var wg sync.WaitGroup
		for i := range results {
			wg.Add(1)
			go func(i int) {
				defer wg.Done()
				results[i] = run(t, p, spec)
			}(i)
		}
		wg.Wait()
		origins := []string{results[0].Compile.Origin, results[1].Compile.Origin}
		sort.Strings(origins)
		return results, fmt.Sprint(origins)
	}
	results, origins := twoAtOnce()
	for _, r := range results {
		if got := fmt.Sprint(outcomes(r)); got != "map[org.acme.CalcShippedTest.seesTheMutant:passed]" {
			t.Errorf("outcomes = %s (%v)", got, r.Tests)
		}
	}
	if origins != "[cache shipped]" {
		t.Errorf("origins of the two runs = %v, want one from the compiling worker's cache and one shipped", origins)
	}
	// Both workers have the classes now.
	for i := 0; i < 2; i++ {
		if r := run(t, p, spec); r.Compile.Origin != "cache" {
			t.Errorf("run %d after the shipping: origin %q, want cache", i, r.Compile.Origin)
		}
	}
	// A plain Compile is not shipped: the other worker compiles on its own.
	other := Source{ClassName: mutant.ClassName, Text: mutate(t, readSource(t, fx.j4, "org/acme/Calc.java"), "return a + b;", "return b + a + 1;")}
	if cr, err := p.Compile(ctx, []Source{other, test}); err != nil || !cr.OK {
		t.Fatalf("plain compile: %v %+v", err, cr)
	}
	spec.Overrides = []Source{other}
	if _, origins := twoAtOnce(); origins != "[cache javac]" {
		t.Errorf("origins after a plain compile = %v, want one from the compiling worker's cache and one compiled there", origins)
	}
}

// The worker's javac reuses its context between compiles; a compile that fails there is tried
// again in a fresh context, which alone gives the diagnostics. An override of a project class
// compiles right after a compile that read that class from its class file.
func TestReusedJavacContextAndItsFallback(t *testing.T) {
	p := openPool(t, fx.j4.config())
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	calc := readSource(t, fx.j4, "org/acme/Calc.java")
	user := Source{ClassName: "org.acme.CalcUser", Text: "package org.acme;\npublic class CalcUser {\n  int twice(int a) { return Calc.add(a, a); }\n}\n"}
	compile := func(srcs ...Source) *CompileResult {
		t.Helper()
		cr, err := p.Compile(ctx, srcs)
		if err != nil {
			t.Fatal(err)
		}
		return cr
	}
	compile(user) // reads Calc from the project's class files
	for i, mutant := range []string{"return a - b;", "return a * b;"} {
		cr := compile(Source{ClassName: "org.acme.Calc", Text: mutate(t, calc, "return a + b;", mutant)}, user)
		if !cr.OK || cr.Origin != "javac" || cr.JavacContext != "reused" {
			t.Errorf("override %d after a compile that read the class file: ok %v, origin %q, context %q: %+v", i, cr.OK, cr.Origin, cr.JavacContext, cr.Diagnostics)
		}
	}
	bad := compile(Source{ClassName: "org.acme.Calc", Text: mutate(t, calc, "return a + b;", `return "a";`)})
	if bad.OK || bad.JavacContext != "fresh" || len(bad.Diagnostics) == 0 || bad.Diagnostics[0].Line == 0 {
		t.Errorf("a failing compile: ok %v, context %q, diagnostics %+v; want the fresh context's errors", bad.OK, bad.JavacContext, bad.Diagnostics)
	}
	if cr := compile(user, Source{ClassName: "org.acme.Calc", Text: calc}); !cr.OK || cr.JavacContext != "reused" {
		t.Errorf("after the failure: ok %v, context %q", cr.OK, cr.JavacContext)
	}
}
