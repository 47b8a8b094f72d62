package engine_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/advertest/advertest-lsp/buildtools"
	"github.com/advertest/advertest-lsp/buildtools/buildtest"
	"github.com/advertest/advertest-lsp/buildtools/harness"
	"github.com/advertest/advertest-lsp/internal/testenv"
	"github.com/advertest/advertest-lsp/loop/engine"
)

// slowFixtureTest is a project test whose fixture sleeps past the mutants' budget the pool is
// given below (300 ms), well within the original's limit (originalTestTimeoutMs, 60 s).
const slowFixtureTest = `package org.acme;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class SlowFixtureTest {
    @BeforeEach
    void slowFixture() throws InterruptedException {
        Thread.sleep(1500);
    }

    @Test
    void clampRaisesLowValuesToTheBound() {
        assertEquals(0, PriceCalculator.clamp(-3, 0, 10));
    }
}
`

// TestSlowTestPassesOnTheOriginal: a test that is slow on the original is slow, not failing.
// The baseline gives the original's tests their own limit, never the mutants' budget (factor ×
// time on the original + constant), which the project's tests have no time on the original
// to be measured against yet.
func TestSlowTestPassesOnTheOriginal(t *testing.T) {
	testenv.NeedsJVM(t)
	for _, cmd := range []string{"mvn", "javac"} {
		if _, err := exec.LookPath(cmd); err != nil {
			t.Skipf("%s not found", cmd)
		}
	}
	root := filepath.Join(t.TempDir(), "maven-calculator")
	if err := buildtest.CopyProject(filepath.Join(buildtest.ExamplesDir(), "maven-calculator"), root); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "src/test/java/org/acme/SlowFixtureTest.java"), []byte(slowFixtureTest), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	proj, err := buildtools.OpenProject(ctx, buildtools.NewLoader(buildtools.Options{CacheDir: "-"}),
		filepath.Join(root, "src/main/java/org/acme/PriceCalculator.java"),
		buildtools.ProjectOptions{Workers: 1, TimeoutConstant: 300 * time.Millisecond, CacheDir: examples.CacheDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer proj.Close()
	f := &fixture{root: root, proj: proj}
	_, m, src := f.method(t, "src/main/java/org/acme/PriceCalculator.java", "clamp")
	subj := engine.Subject{Class: m.TopLevelClass, Source: src, StartLine: m.StartLine, EndLine: m.EndLine}
	base, err := engine.RunBaseline(ctx, proj.Pool, subj, engine.Suite{Tests: classTests(proj.TestClasses)})
	if err != nil {
		t.Fatal(err)
	}
	slow := harness.TestID{Class: "org.acme.SlowFixtureTest", Method: "clampRaisesLowValuesToTheBound"}
	got, ok := base.Results[slow]
	if !ok {
		t.Fatalf("the slow test did not run on the original; ran %v", base.Results)
	}
	if got.Outcome != harness.Passed {
		t.Fatalf("the slow test on the original: %s %q, want passed (slow, not failing)", got.Outcome, got.Message)
	}
	if got.Duration < 1500*time.Millisecond {
		t.Errorf("the slow test took %s on the original: its fixture sleeps 1.5 s, past the mutants' budget", got.Duration)
	}
	for _, id := range base.Failing {
		t.Errorf("%s fails on the original: %s", id, base.Results[id].Message)
	}
	covers := false
	for _, id := range base.TestsFor(m.StartLine + 1) {
		covers = covers || id == slow
	}
	if !covers {
		t.Errorf("the slow test is not among the tests that cover clamp: it could kill none of its mutants")
	}
}
