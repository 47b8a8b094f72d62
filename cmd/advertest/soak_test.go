package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/advertest/advertest-lsp/buildtools/buildtest"
	"github.com/advertest/advertest-lsp/internal/testenv"
	"github.com/advertest/advertest-lsp/loop/report"
)

// The shards soak (docs/reports.md, "Deterministic verdicts"): `advertest mutate` over the
// fault benchmark's project, unsharded and as two shards merged, must give the same verdicts on
// a loaded machine. `make test` runs one iteration; `make soak` five in a row with two busy
// loops beside them (ADVERTEST_SOAK_ITERATIONS, ADVERTEST_SOAK_BUSY).

// witnessMethod matches the witnesses' entry points in examples/fault-bench/witness.
var witnessMethod = regexp.MustCompile(`(?m)^    static void (\w+)\(\)`)

// faultBenchWithWitnesses copies examples/fault-bench into dir with its witnesses as the
// project's tests: the benchmark's project has no tests of its own (the agents' suites must
// catch its faults), and without tests every mutant survives. Each witness (one per fault:
// passes on the fixed code, fails or hangs on the faulty one) becomes a JUnit 5 test, eight to a
// test class, so that the suite's classes are shared out among the workers and some mutants
// both time out and fail on tests of different classes. Only the copy is changed.
func faultBenchWithWitnesses(t *testing.T, dir string) {
	t.Helper()
	if err := buildtest.CopyProject(filepath.Join("..", "..", "examples", "fault-bench"), dir); err != nil {
		t.Fatal(err)
	}
	witnesses, err := os.ReadFile(filepath.Join(dir, "witness", "Witnesses.java"))
	if err != nil {
		t.Fatal(err)
	}
	tests := filepath.Join(dir, "src", "test", "java")
	if err := os.MkdirAll(tests, 0o755); err != nil {
		t.Fatal(err)
	}
	files := map[string]string{"Witnesses.java": string(witnesses)}
	names := witnessMethod.FindAllStringSubmatch(string(witnesses), -1)
	if len(names) < 30 {
		t.Fatalf("%d witnesses in examples/fault-bench/witness; want one per fault", len(names))
	}
	for i := 0; i < len(names); i += 8 {
		var b strings.Builder
		class := fmt.Sprintf("Witness%dTest", i/8+1)
		fmt.Fprintf(&b, "import org.junit.jupiter.api.Test;\n\nclass %s {\n", class)
		for _, n := range names[i:min(i+8, len(names))] {
			fmt.Fprintf(&b, "    @Test\n    void %s() {\n        Witnesses.%s();\n    }\n\n", n[1], n[1])
		}
		b.WriteString("}\n")
		files[class+".java"] = b.String()
	}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(tests, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, p := range []string{"witness", "faults.json"} {
		if err := os.RemoveAll(filepath.Join(dir, p)); err != nil {
			t.Fatal(err)
		}
	}
}

// envInt reads a positive count from the environment, def when unset.
func envInt(t *testing.T, name string, def int) int {
	t.Helper()
	v := os.Getenv(name)
	if v == "" {
		return def
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 0 {
		t.Fatalf("%s=%q: want a count", name, v)
	}
	return n
}

// busyLoops keeps n goroutines spinning until the test ends: load beside the runs.
func busyLoops(t *testing.T, n int) {
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	for i := 0; i < n; i++ {
		go func() {
			x := 0
			for ctx.Err() == nil {
				for j := 0; j < 1_000_000; j++ {
					x += j ^ x
				}
			}
			_ = x
		}()
	}
}

// TestShardsMergedEqualTheUnshardedRun: on the fault benchmark's project with its witnesses
// as tests, `advertest mutate src/main/java` and its shards 1/2 and 2/2 merged give the same
// methods, the same mutants in the same order, and for each the same status, duplicate and
// equivalence, and the same covering tests. killedBy names the first killing test found
// (docs/contracts.md), which follows the tests' times: it must be one of the mutant's covering
// tests, not the same one. Each command is its own process, and the three of an iteration
// share one cache folder, so that the first records the coverage map and the others reuse it;
// the iterations alternate which comes first.
func TestShardsMergedEqualTheUnshardedRun(t *testing.T) {
	testenv.NeedsJVM(t)
	if testing.Short() {
		t.Skip("runs the JVM: not with -short")
	}
	if _, err := exec.LookPath("mvn"); err != nil {
		t.Skip("mvn missing")
	}
	bin, err := buildBinary()
	if err != nil {
		t.Fatal(err)
	}
	iterations := envInt(t, "ADVERTEST_SOAK_ITERATIONS", 1)
	busy := envInt(t, "ADVERTEST_SOAK_BUSY", 0)
	busyLoops(t, busy)
	for it := 1; it <= iterations; it++ {
		start := time.Now()
		dir := filepath.Join(t.TempDir(), "fault-bench")
		faultBenchWithWitnesses(t, dir)
		cache := t.TempDir()
		mutate := func(args ...string) {
			t.Helper()
			cmd := exec.Command(bin, append([]string{"mutate", "src/main/java"}, args...)...)
			cmd.Dir = dir
			cmd.Env = append(os.Environ(), "XDG_CACHE_HOME="+cache)
			out, err := cmd.CombinedOutput()
			if err != nil {
				t.Fatalf("iteration %d: advertest mutate %q: %v\n%s", it, args, err, out)
			}
		}
		unsharded := func() { mutate("--json", "all.json") }
		shards := func() {
			mutate("--shard", "1/2", "--json", "s1.json")
			mutate("--shard", "2/2", "--json", "s2.json")
		}
		if it%2 == 1 {
			unsharded()
			shards()
		} else {
			shards()
			unsharded()
		}
		cmd := exec.Command(bin, "merge", "s1.json", "s2.json", "--json", "merged.json")
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("iteration %d: advertest merge: %v\n%s", it, err, out)
		}
		all, merged := readMulti(t, filepath.Join(dir, "all.json")), readMulti(t, filepath.Join(dir, "merged.json"))
		diffs := compareRuns(all, merged)
		load, _ := os.ReadFile("/proc/loadavg")
		t.Logf("iteration %d of %d (%d busy loops, %s first): %d methods, %d mutants (killed %d, survived %d, timeout %d, duplicate %d), %d differences, %.0f s, load %s",
			it, iterations, busy, map[bool]string{true: "unsharded", false: "shards"}[it%2 == 1], len(all.Methods), all.Summary.Mutants,
			all.Summary.Killed, all.Summary.Survived, all.Summary.Timeout, all.Summary.Duplicate, len(diffs), time.Since(start).Seconds(), strings.TrimSpace(string(load)))
		for _, d := range diffs {
			t.Errorf("iteration %d: %s", it, d)
		}
		if all.Summary.Killed == 0 || all.Summary.Timeout == 0 {
			t.Errorf("iteration %d: %d killed, %d timeout: the witnesses should kill some mutants and hang on others", it, all.Summary.Killed, all.Summary.Timeout)
		}
	}
}

// compareRuns lists how the merged shards differ from the unsharded run.
func compareRuns(all, merged *report.Multi) []string {
	var out []string
	if !slices.Equal(methodKeys(all.Methods), methodKeys(merged.Methods)) || len(all.Failures)+len(merged.Failures) > 0 {
		return []string{fmt.Sprintf("methods %q (failures %v), merged %q (failures %v)", methodKeys(all.Methods), all.Failures, methodKeys(merged.Methods), merged.Failures)}
	}
	for i := range all.Methods {
		a, m := all.Methods[i], merged.Methods[i]
		if len(a.Mutants) != len(m.Mutants) {
			out = append(out, fmt.Sprintf("%s: %d mutants, merged %d", a.Target.Key(), len(a.Mutants), len(m.Mutants)))
			continue
		}
		for j := range a.Mutants {
			if d := compareMutants(a.Mutants[j], m.Mutants[j]); d != "" {
				out = append(out, fmt.Sprintf("%s %s (line %d %q): %s", a.Target.Key(), a.Mutants[j].ID, a.Mutants[j].Line, strings.TrimSpace(a.Mutants[j].Mutated), d))
			}
		}
	}
	if len(out) == 0 && fmt.Sprint(all.Summary.StatusCounts) != fmt.Sprint(merged.Summary.StatusCounts) {
		out = append(out, fmt.Sprintf("summaries %+v and %+v", all.Summary.StatusCounts, merged.Summary.StatusCounts))
	}
	return out
}

// compareMutants says how one mutant's verdict differs between the unsharded run (x) and the
// merged shards (y), "" when it does not.
func compareMutants(x, y report.Mutant) string {
	equivalence := func(m report.Mutant) string {
		if m.Equivalence == nil {
			return ""
		}
		return m.Equivalence.Verdict + " by " + string(m.Equivalence.By)
	}
	sorted := func(s []string) []string { return slices.Sorted(slices.Values(s)) }
	switch {
	case x.ID != y.ID:
		return fmt.Sprintf("merged has %s in its place", y.ID)
	case x.Status != y.Status:
		return fmt.Sprintf("%s unsharded, %s merged (killed by %q and %q)", x.Status, y.Status, x.KilledBy, y.KilledBy)
	case x.DuplicateOf != y.DuplicateOf:
		return fmt.Sprintf("a duplicate of %q unsharded, of %q merged", x.DuplicateOf, y.DuplicateOf)
	case equivalence(x) != equivalence(y):
		return fmt.Sprintf("equivalence %q unsharded, %q merged", equivalence(x), equivalence(y))
	case !slices.Equal(sorted(x.CoveredBy), sorted(y.CoveredBy)):
		return fmt.Sprintf("covered by %q unsharded, %q merged", sorted(x.CoveredBy), sorted(y.CoveredBy))
	}
	for _, m := range []report.Mutant{x, y} {
		killers := len(m.KilledBy) > 0
		if killers != (m.Status == report.Killed) {
			return fmt.Sprintf("%s but killed by %q", m.Status, m.KilledBy)
		}
		for _, k := range m.KilledBy {
			if !slices.Contains(m.CoveredBy, k) {
				return fmt.Sprintf("killed by %s, which does not cover it (%q)", k, m.CoveredBy)
			}
		}
	}
	return ""
}
