package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/advertest/advertest-lsp/loop/report"
)

// checkReadable fails the test when stderr repeats a line right after itself, or says a
// warning twice (during the run and again in the table, with or without the method's name).
func checkReadable(t *testing.T, stderr string) {
	t.Helper()
	lines := strings.Split(strings.TrimRight(stderr, "\n"), "\n")
	for i := 1; i < len(lines); i++ {
		if lines[i] != "" && lines[i] == lines[i-1] {
			t.Errorf("stderr line %d repeats the line before it: %q", i+1, lines[i])
		}
	}
	said := map[string]int{}
	for _, l := range lines {
		_, w, ok := strings.Cut(l, "warning: ")
		if !ok {
			continue
		}
		if strings.HasPrefix(w, "`") {
			if _, rest, ok := strings.Cut(w[1:], "`: "); ok {
				w = rest // the method's name the use case prefixes to a warning it sends as an event
			}
		}
		if said[w]++; said[w] == 2 {
			t.Errorf("stderr says this warning more than once: %q", w)
		}
	}
}

// brokenTests are two tests of the project that fail on the original.
const brokenTests = `package org.acme;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class BrokenOnTheOriginalTest {
    @Test
    void clampIsWrongHere() {
        assertEquals(7, PriceCalculator.clamp(5, 0, 10));
    }

    @Test
    void clampIsWrongThereToo() {
        assertEquals(-3, PriceCalculator.clamp(-3, 0, 10));
    }
}
`

// TestMutateStderrIsReadable: `advertest mutate` on the example, whose suite has two tests
// that fail on the original, says so in one warning, once, repeats no line, and the report
// JSON lists each failing test with its reason.
func TestMutateStderrIsReadable(t *testing.T) {
	dir := calculatorCopy(t)
	if err := os.WriteFile(filepath.Join(dir, "src/test/java/org/acme/BrokenOnTheOriginalTest.java"), []byte(brokenTests), 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, stderr := runCLI("mutate", "src/main/java/org/acme/PriceCalculator.java", "--method", "clamp", "--json", "m.json")
	t.Logf("mutate:\n%s", stderr)
	if code != exitOK {
		t.Fatalf("status %d", code)
	}
	checkReadable(t, stderr)
	const grouped = "2 tests of the project fail on the original (BrokenOnTheOriginalTest: 2): they cannot kill mutants"
	if n := strings.Count(stderr, grouped); n != 1 {
		t.Errorf("stderr says %q %d times, want once", grouped, n)
	}
	d, err := report.ReadFile("m.json")
	if err != nil || d.Single == nil {
		t.Fatalf("m.json: %v", err)
	}
	failing := d.Single.ProjectTestsFailing
	if len(failing) != 2 {
		t.Fatalf("the report lists %d project tests failing on the original, want 2: %+v", len(failing), failing)
	}
	for _, f := range failing {
		if !strings.HasPrefix(f.Test, "org.acme.BrokenOnTheOriginalTest.clampIsWrong") || !strings.Contains(f.Reason, "expected") {
			t.Errorf("a failing project test in the report: %+v, want the test and its failure", f)
		}
	}
}
