package buildtools

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/advertest/advertest-lsp/buildtools/harness"
)

// TestHarnessConfigRunsExampleTests glues the project model to the real harness: the Maven
// example, compiled by EnsureCompiled from a fresh copy, runs its JUnit 5 tests in the pool, and
// a mutant of clamp that the weak suite misses survives while a blunt one is killed.
func TestHarnessConfigRunsExampleTests(t *testing.T) {
	requireTool(t, "mvn")
	ctx := testContext(t)
	root := copyProject(t, "../examples/maven-calculator")
	srcFile := filepath.Join(root, "src/main/java/org/acme/PriceCalculator.java")
	m, err := LoadModule(ctx, srcFile, Options{CacheDir: t.TempDir()})
	if err != nil {
		t.Fatalf("LoadModule: %v", err)
	}
	if err := m.EnsureCompiled(ctx); err != nil {
		t.Fatalf("EnsureCompiled: %v", err)
	}
	cfg := m.HarnessConfig()
	if !slices.Equal(cfg.ProjectClassDirs, []string{filepath.Join(root, "target/classes"), filepath.Join(root, "target/test-classes")}) ||
		cfg.Release != "11" || !slices.Equal(cfg.CoverageIncludes, []string{"org.acme.*"}) ||
		!slices.Equal(cfg.LibraryClasspath, m.TestClasspath) || len(cfg.SourceRoots) != 2 {
		t.Fatalf("HarnessConfig = %+v", cfg)
	}
	cfg.Workers = 1
	cfg.CacheDir = t.TempDir()
	pool, err := harness.Open(ctx, cfg)
	if err != nil {
		t.Fatalf("harness.Open: %v", err)
	}
	defer pool.Close()
	if pool.JUnitVersion() != 5 {
		t.Errorf("pool JUnit = %d; want 5", pool.JUnitVersion())
	}
	className, _ := m.ClassNameForFile(srcFile)
	tests := []harness.TestID{{Class: "org.acme.PriceCalculatorTest"}}

	run := func(override string) *harness.RunResult {
		t.Helper()
		spec := harness.RunSpec{Tests: tests}
		if override != "" {
			spec.Overrides = []harness.Source{{ClassName: className, Text: override}}
		}
		res, err := pool.Run(ctx, spec)
		if err != nil {
			t.Fatalf("Run: %v", err)
		}
		if !res.Compile.OK {
			t.Fatalf("compile failed: %+v", res.Compile.Diagnostics)
		}
		return res
	}
	failures := func(res *harness.RunResult) []string {
		var out []string
		for _, r := range res.Tests {
			if r.Outcome != harness.Passed {
				out = append(out, r.Test.String()+" "+string(r.Outcome))
			}
		}
		return out
	}

	orig := run("")
	if len(orig.Tests) != 7 || len(failures(orig)) != 0 {
		t.Fatalf("the example's tests on the original: %d ran, failing %v; want 7 passing", len(orig.Tests), failures(orig))
	}
	src := readFile(t, srcFile)
	survivor := strings.Replace(src, "if (value > hi) {", "if (value >= hi) {", 1)
	if f := failures(run(survivor)); len(f) != 0 {
		t.Errorf("the boundary mutant `value >= hi` should survive the weak suite; failing %v", f)
	}
	killed := strings.Replace(src, "        return value;\n    }\n\n    /** Adds", "        return value + 1;\n    }\n\n    /** Adds", 1)
	if killed == src {
		t.Fatal("the kill mutant did not apply")
	}
	if f := failures(run(killed)); len(f) == 0 {
		t.Errorf("the mutant `return value + 1` should be killed")
	}
}
