package loop

import (
	"fmt"
	"testing"

	"github.com/advertest/advertest-lsp/loop/engine"
	"github.com/advertest/advertest-lsp/loop/report"
)

// The project's tests that fail on the original are one warning: their count and the classes
// with the most of them; the report lists each with its reason.
func TestProjectFailingWarningIsOneLine(t *testing.T) {
	if w := projectFailingWarning(nil, nil); w != "" {
		t.Errorf("no failing test: %q, want no warning", w)
	}
	one := []engine.TestID{{Class: "org.acme.DateUtilsTest", Method: "parses"}}
	notes := []report.TestNote{{Test: "org.acme.DateUtilsTest.parses", Reason: "expected:<1> but was:<2>"}}
	if w, want := projectFailingWarning(one, notes), "test org.acme.DateUtilsTest.parses of the project fails on the original: it cannot kill mutants (expected:<1> but was:<2>)"; w != want {
		t.Errorf("one failing test:\n got %q\nwant %q", w, want)
	}
	var ids []engine.TestID
	for class, n := range map[string]int{"org.acme.DateUtilsTest": 6, "org.acme.text.StrUtilsTest": 2, "org.acme.Outer$InnerTest": 2, "org.acme.LocaleTest": 1} {
		for i := 0; i < n; i++ {
			ids = append(ids, engine.TestID{Class: class, Method: fmt.Sprintf("t%d", i)})
		}
	}
	want := "11 tests of the project fail on the original (DateUtilsTest: 6, InnerTest: 2, StrUtilsTest: 2, …): they cannot kill mutants; the report lists them (projectTestsFailingOnOriginal)"
	if w := projectFailingWarning(ids, make([]report.TestNote, len(ids))); w != want {
		t.Errorf("eleven failing tests:\n got %q\nwant %q", w, want)
	}
}
