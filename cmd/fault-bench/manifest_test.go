package main

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/advertest/advertest-lsp/cmd/internal/benchkit"

	"github.com/advertest/advertest-lsp/internal/testenv"
	"github.com/advertest/advertest-lsp/javaparse"
)

var benchManifest = filepath.Join("..", "..", "examples", "fault-bench", "faults.json")

// TestBenchmarkManifest checks faults.json without a JVM: it loads (every fixed line is in
// its method exactly once, every buggy line differs, one fault per method), there are at
// least 30 faults, each half has at least 15, and each witness is a method of Witnesses.java.
func TestBenchmarkManifest(t *testing.T) {
	m, err := LoadManifest(benchManifest)
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Faults) < 30 {
		t.Errorf("%d faults; the benchmark needs at least 30", len(m.Faults))
	}
	count := map[Half]int{}
	for _, f := range m.Faults {
		count[f.Half()]++
	}
	for _, h := range []Half{Dev, Holdout} {
		if count[h] < 15 {
			t.Errorf("the %s half has %d faults; each half needs at least 15", h, count[h])
		}
	}
	witnesses, err := os.ReadFile(filepath.Join(m.Dir, "witness", "Witnesses.java"))
	if err != nil {
		t.Fatal(err)
	}
	used := map[string]string{}
	for _, f := range m.Faults {
		if !regexp.MustCompile(`(?m)^\s*static void ` + regexp.QuoteMeta(f.Witness) + `\(\)`).Match(witnesses) {
			t.Errorf("%s: witness %s is not a method of Witnesses.java", f.Name(), f.Witness)
		}
		if other, ok := used[f.Witness]; ok {
			t.Errorf("%s and %s share the witness %s", other, f.Name(), f.Witness)
		}
		used[f.Witness] = f.Name()
	}
	// No test sources: the generated suite alone has to catch each fault.
	if _, err := os.Stat(filepath.Join(m.Dir, "src", "test")); err == nil {
		t.Errorf("%s has src/test: the benchmark's project must have no tests of its own", m.Dir)
	}
}

func needJava(t *testing.T) string {
	t.Helper()
	testenv.NeedsJVM(t)
	if testing.Short() {
		t.Skip("runs a JVM: not in -short")
	}
	java, err := exec.LookPath("java")
	if err != nil {
		t.Skip("java not on PATH")
	}
	return java
}

// TestBenchmarkFaultsCompileAndAreDetectable compiles the fixed code and each fault (in one
// JVM) and runs the witnesses: each passes on the fixed code and fails on its fault's code.
func TestBenchmarkFaultsCompileAndAreDetectable(t *testing.T) {
	java := needJava(t)
	m, err := LoadManifest(benchManifest)
	if err != nil {
		t.Fatal(err)
	}
	results, err := CheckFaults(context.Background(), m, m.Faults, java)
	if err != nil {
		t.Fatal(err)
	}
	fixed, faults := 0, 0
	for _, r := range results {
		if !r.OK {
			t.Errorf("%s: %s", r.What, r.Detail)
		}
		if strings.HasPrefix(r.What, "fixed ") {
			fixed++
		} else {
			faults++
		}
	}
	if fixed != len(m.Faults) || faults != len(m.Faults) {
		t.Errorf("checked %d witnesses on the fixed code and %d faults; want %d of each", fixed, faults, len(m.Faults))
	}
}

// TestCheckFaultsCatchesBadFaults: a fault that does not compile and one its witness cannot
// tell from the fixed code are reported; a good one passes.
func TestCheckFaultsCatchesBadFaults(t *testing.T) {
	java := needJava(t)
	m, err := LoadManifest(filepath.Join("testdata", "badbench", "faults.json"))
	if err != nil {
		t.Fatal(err)
	}
	results, err := CheckFaults(context.Background(), m, m.Faults, java)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]CheckResult{}
	for _, r := range results {
		got[r.What] = r
	}
	want := map[string]string{
		"fixed nextCounts":       "",
		"fixed twiceDoubles":     "",
		"fixed absOfMinValue":    "",
		"fault Counter.next":     "",
		"fault Counter.twice":    "witness twiceDoubles passes on the buggy code",
		"fault Counter.abs(int)": "the buggy code does not compile",
	}
	for what, detail := range want {
		r, ok := got[what]
		switch {
		case !ok:
			t.Errorf("no check %q in %+v", what, results)
		case detail == "" && !r.OK:
			t.Errorf("%s failed: %s", what, r.Detail)
		case detail != "" && (r.OK || !strings.Contains(r.Detail, detail)):
			t.Errorf("%s: ok=%v %q; want a failure saying %q", what, r.OK, r.Detail, detail)
		}
	}
	if d := got["fault Counter.abs(int)"].Detail; !strings.Contains(d, "cannot find symbol") {
		t.Errorf("the compile failure does not carry javac's message: %q", d)
	}
}

const counterSrc = `package p;

class Counter {
    int count;

    int next() {
        count = count + 1;
        return count;
    }

    int twice(int x) {
        int y = x;
        if (y > 0) {
            y += x;
        } else {
            y += x;
        }
        return y;
    }

    int abs(int x) {
        return x < 0 ? -x : x;
    }

    int abs(long x) {
        return (int) (x < 0 ? -x : x);
    }
}
`

func TestApplyTo(t *testing.T) {
	f := Fault{File: "src/main/java/p/Counter.java", Method: "next", Fixed: "count = count + 1;", Buggy: "  count = count - 1;  "}
	got, err := f.ApplyTo([]byte(counterSrc))
	if err != nil {
		t.Fatal(err)
	}
	want := strings.Replace(counterSrc, "        count = count + 1;\n", "        count = count - 1;\n", 1)
	if string(got) != want {
		t.Errorf("ApplyTo:\n%s\nwant (the line's indentation kept):\n%s", got, want)
	}
	f = Fault{File: "x/Counter.java", Method: "abs(long)", Fixed: "return (int) (x < 0 ? -x : x);", Buggy: "return (int) x;"}
	if got, err := f.ApplyTo([]byte(counterSrc)); err != nil || !strings.Contains(string(got), "        return (int) x;\n") {
		t.Errorf("an overload picked by its parameters: %v\n%s", err, got)
	}

	for _, tc := range []struct {
		name string
		f    Fault
		want string
	}{
		{"a line of another method", Fault{Method: "next", Fixed: "return y;", Buggy: "return 0;"}, "is not in the method"},
		{"a line twice in the method", Fault{Method: "twice", Fixed: "y += x;", Buggy: "y -= x;"}, "2 times (lines 14, 16)"},
		{"twice, once per overload, named without parameters", Fault{Method: "abs", Fixed: "return x;", Buggy: "return -x;"}, "ambiguous"},
		{"no such method", Fault{Method: "reset", Fixed: "count = 0;", Buggy: "count = 1;"}, "no method"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.f.File = "src/main/java/p/Counter.java"
			_, err := tc.f.ApplyTo([]byte(counterSrc))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("err = %v; want one saying %q", err, tc.want)
			}
		})
	}
}

func TestLoadManifestRejectsBadEntries(t *testing.T) {
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "src", "main", "java", "p"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "src", "main", "java", "p", "Counter.java"), []byte(counterSrc), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ name, json, want string }{
		{"same line", `{"faults":[{"file":"src/main/java/p/Counter.java","method":"next","kind":"k","fixed":"count = count + 1;","buggy":" count = count + 1; ","description":"d","witness":"w"}]}`, "the buggy line is the fixed line"},
		{"missing fields", `{"faults":[{"file":"src/main/java/p/Counter.java","method":"next","fixed":"count = count + 1;","buggy":"count = 2;"}]}`, "missing kind, description, witness"},
		{"two faults in a method", `{"faults":[` +
			`{"file":"src/main/java/p/Counter.java","method":"next","kind":"k","fixed":"count = count + 1;","buggy":"count = 2;","description":"d","witness":"w"},` +
			`{"file":"src/main/java/p/Counter.java","method":"next","kind":"k","fixed":"return count;","buggy":"return 0;","description":"d","witness":"v"}]}`, "one fault per method"},
		{"unknown field", `{"faults":[{"file":"src/main/java/p/Counter.java","method":"next","line":3}]}`, "unknown field"},
		{"no faults", `{"faults":[]}`, "lists no faults"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(dir, "faults.json")
			if err := os.WriteFile(path, []byte(tc.json), 0o644); err != nil {
				t.Fatal(err)
			}
			_, err := LoadManifest(path)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("err = %v; want one saying %q", err, tc.want)
			}
		})
	}
}

// TestHalfOfIsFixed pins the split rule: a change to it would silently move faults between
// the half one develops against and the half one only measures.
func TestHalfOfIsFixed(t *testing.T) {
	for name, want := range map[string]Half{
		"BankAccount.withdraw": Dev,     // SHA-256 starts with 0x9c
		"Graphs.distance":      Holdout, // 0x0f
		"Fraction.Fraction":    Holdout, // 0x01
		"Stats.median":         Holdout, // 0xa3
	} {
		if got := HalfOf(name); got != want {
			t.Errorf("HalfOf(%q) = %s, want %s", name, got, want)
		}
	}
}

func TestParseJUnitReport(t *testing.T) {
	xml := `<?xml version="1.0" encoding="UTF-8"?>
<testsuite name="JUnit Jupiter" tests="4">
<testcase name="passes()" classname="p.CounterAdverTest" time="0"/>
<testcase name="fails()" classname="p.CounterAdverTest" time="0"><failure message="expected: &lt;2&gt; but was: &lt;3&gt;" type="org.opentest4j.AssertionFailedError">trace</failure></testcase>
<testcase name="throws()" classname="p.CounterAdverTest" time="0"><error message="boom" type="java.lang.IllegalStateException">trace</error></testcase>
<testcase name="skipped()" classname="p.CounterAdverTest" time="0"><skipped/></testcase>
<testcase name="other()" classname="p.OtherTest" time="0"/>
</testsuite>`
	all, err := benchkit.ParseJUnitReport([]byte(xml))
	if err != nil {
		t.Fatal(err)
	}
	if !all.Passed["p.OtherTest.other"] {
		t.Errorf("passed = %v, want p.OtherTest.other among them", all.Passed)
	}
	r := all.Of("p.CounterAdverTest")
	if len(r.Passed) != 1 || !r.Passed["passes"] {
		t.Errorf("passed = %v, want only passes", r.Passed)
	}
	if len(r.Failed) != 2 || r.Failed["fails"] != "org.opentest4j.AssertionFailedError: expected: <2> but was: <3>" || r.Failed["throws"] != "java.lang.IllegalStateException: boom" {
		t.Errorf("failed = %v", r.Failed)
	}
}

func TestSummarize(t *testing.T) {
	results := []Result{
		{Half: Dev, Status: Detected, RunSeconds: 10},
		{Half: Dev, Status: Missed, RunSeconds: 30},
		{Half: Dev, Status: Timeout, RunSeconds: 300},
		{Half: Dev, Status: Detected, RunSeconds: 20},
		{Half: Dev, Status: Interrupted, RunSeconds: 1},
		{Half: Holdout, Status: Failed, RunSeconds: 5},
	}
	dev := summarize(results, Dev)
	if dev.Faults != 4 || dev.Detected != 2 || dev.Rate != 0.5 || dev.MedianSeconds != 25 || dev.MaxSeconds != 300 || dev.Timeouts != 1 {
		t.Errorf("dev = %+v", dev)
	}
	all := summarize(results, "")
	if all.Faults != 5 || all.Errors != 1 || all.MedianSeconds != 20 {
		t.Errorf("all = %+v", all)
	}
}

// TestJudgeRunsTheSuiteOnFixedAndBuggyCode runs a hand-written "generated" test class through
// the benchmark's own compile-and-run path: a test that passes on the fixed code and fails on
// the buggy code detects; tests that pass on both, or fail on the fixed code, do not.
func TestJudgeRunsTheSuiteOnFixedAndBuggyCode(t *testing.T) {
	java := needJava(t)
	javac, err := exec.LookPath("javac")
	if err != nil {
		t.Skip("javac not on PATH")
	}
	const jar = "/usr/share/java/junit-platform-console-standalone.jar"
	if _, err := os.Stat(jar); err != nil {
		t.Skip("no JUnit console launcher: ", err)
	}
	m, err := LoadManifest(filepath.Join("testdata", "badbench", "faults.json"))
	if err != nil {
		t.Fatal(err)
	}
	r := &runner{manifest: m, tools: benchkit.JavaTools{Java: java, Javac: javac, JUnitJar: jar, TestTimeout: 10 * time.Second, SuiteTimeout: 2 * time.Minute}}
	root := filepath.Join(t.TempDir(), "project")
	if err := copyProject(m.Dir, root); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, "witness")); !os.IsNotExist(err) {
		t.Errorf("the copy keeps the witnesses (%v): the agents must not see them", err)
	}
	testFile := filepath.Join(root, "src", "test", "java", "p", "CounterAdverTest.java")
	if err := os.MkdirAll(filepath.Dir(testFile), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(testFile, []byte(`package p;

import static org.junit.jupiter.api.Assertions.assertEquals;
import org.junit.jupiter.api.Test;

class CounterAdverTest {
    @Test
    void secondNextIsTwo() {
        Counter c = new Counter();
        c.next();
        assertEquals(2, c.next());
    }

    @Test
    void twiceOfThree() {
        assertEquals(6, Counter.twice(3));
    }

    @Test
    void wrongOnTheFixedCode() {
        assertEquals(7, Counter.twice(3));
    }
}
`), 0o644); err != nil {
		t.Fatal(err)
	}
	byName := map[string]Fault{}
	for _, f := range m.Faults {
		byName[f.Name()] = f
	}
	ctx := context.Background()

	next := r.judge(ctx, byName["Counter.next"], root, t.TempDir(), testFile, Result{})
	if next.Status != Detected || len(next.DetectedBy) != 1 || next.DetectedBy["secondNextIsTwo"] == "" {
		t.Errorf("Counter.next: %+v; want detected by secondNextIsTwo alone", next)
	}
	if next.PassingOnFixed != 2 || !strings.Contains(next.FailingOnFixed["wrongOnTheFixedCode"], "expected: <7> but was: <6>") {
		t.Errorf("Counter.next: passing on fixed %d, failing %v; want 2 and wrongOnTheFixedCode", next.PassingOnFixed, next.FailingOnFixed)
	}
	twice := r.judge(ctx, byName["Counter.twice"], root, t.TempDir(), testFile, Result{})
	if twice.Status != Missed || len(twice.DetectedBy) != 0 {
		t.Errorf("Counter.twice (an equivalent change): %+v; want missed: the test that fails does so on the fixed code too", twice)
	}
}

// TestBenchmarkHasLinkedAndTokenPrograms: at least 10 faults are in methods over linked
// inputs (a parameter of a node class: Node, Vertex, ListNode, or a collection of them) or
// token lists (a List<Object> or List<String> parameter in org.faultbench.expr), in both halves
// (issue 17: the offline T's graphs and token streams are measured on them).
func TestBenchmarkHasLinkedAndTokenPrograms(t *testing.T) {
	m, err := LoadManifest(benchManifest)
	if err != nil {
		t.Fatal(err)
	}
	linked := regexp.MustCompile(`\b(Node|Vertex|ListNode)\b`)
	count := map[Half]int{}
	for _, f := range m.Faults {
		src, err := os.ReadFile(f.Path(m.Dir))
		if err != nil {
			t.Fatal(err)
		}
		parsed, err := javaparse.Parse(src)
		if err != nil {
			t.Fatal(err)
		}
		ms := parsed.FindMethods(f.Method)
		if len(ms) != 1 {
			t.Fatalf("%s: %d methods", f.Name(), len(ms))
		}
		for _, p := range ms[0].Params {
			tokens := strings.Contains(f.File, "/expr/") && (p.Type == "List<Object>" || p.Type == "List<String>")
			if linked.MatchString(p.Type) || tokens {
				count[f.Half()]++
				break
			}
		}
	}
	if count[Dev]+count[Holdout] < 10 || count[Dev] == 0 || count[Holdout] == 0 {
		t.Errorf("faults over linked inputs or token lists: %d in dev, %d in holdout; want at least 10, in both halves", count[Dev], count[Holdout])
	}
}
