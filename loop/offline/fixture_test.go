package offline

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/advertest/advertest-lsp/buildtools"
	"github.com/advertest/advertest-lsp/javaparse"
	"github.com/advertest/advertest-lsp/loop/agent"
)

// renderFixture is the agent's view of a method of a class of testdata/render (package org.acme),
// explored in the calculator example's project as a new class of it; param, when not "", picks
// an overload by its first parameter's type.
func renderFixture(t *testing.T, proj *buildtools.Project, class, method, param string) *agent.Subject {
	t.Helper()
	src, f := parseFixture(t, class)
	var m *javaparse.Method
	for _, c := range f.FindMethods(method) {
		if param == "" || len(c.Params) > 0 && c.Params[0].Type == param {
			m = c
		}
	}
	if m == nil {
		t.Fatalf("no method %s(%s) in %s", method, param, class)
	}
	return &agent.Subject{File: filepath.Join("testdata", "render", class+".java"), Source: src, Parsed: f, Method: m,
		Context: f.Context(m), JUnit: proj.Pool.JUnitVersion(), TestClassName: agent.TestClassName(m.TopLevelClass)}
}

// parseFixture reads and parses a class of testdata/render.
func parseFixture(t *testing.T, class string) ([]byte, *javaparse.File) {
	t.Helper()
	src, err := os.ReadFile(filepath.Join("testdata", "render", class+".java"))
	if err != nil {
		t.Fatal(err)
	}
	f, err := javaparse.Parse(src)
	if err != nil {
		t.Fatal(err)
	}
	return src, f
}

// fixtureSuite is the agent's initial suite for a method of a class of testdata/render; the test
// fails when there is none.
func fixtureSuite(t *testing.T, a *Agent, proj *buildtools.Project, class, method, param string) []agent.Test {
	t.Helper()
	tests, why, err := a.ExplainedInitialSuite(testCtx(t), renderFixture(t, proj, class, method, param))
	if err != nil {
		t.Fatal(err)
	}
	if len(tests) == 0 {
		t.Fatalf("no initial test for %s.%s: %s", class, method, why)
	}
	return tests
}

// TestReturnedObjectsStateThroughAccess: a returned object without getters or toString is
// asserted through what a test in its package can read (Bounds's package-private fields,
// directly), never rendered as field access of private state (result.field:longest, which does
// not compile: every such test was dropped).
func TestReturnedObjectsStateThroughAccess(t *testing.T) {
	proj, _ := calculator(t)
	a := newAgent(t, proj)
	for _, c := range []struct{ method, want string }{
		{"longest", "assertNotNull(result)"},
		{"bounds", "result.lo)"},
	} {
		t.Run(c.method, func(t *testing.T) {
			tests := fixtureSuite(t, a, proj, "Spans", c.method, "")
			found := false
			for _, tc := range tests {
				if strings.Contains(tc.Source, "field:") || strings.Contains(tc.Source, "getDeclaredField") {
					t.Errorf("the returned object's private state is read:\n%s", tc.Source)
				}
				found = found || strings.Contains(tc.Source, c.want)
			}
			if !found {
				t.Errorf("no test asserts %q:\n%s", c.want, tests[0].Source)
			}
		})
	}
}

// TestNullToAnOverloadHasACast: a null argument of an overloaded method is written with its
// parameter's type ((String) null): without it, count(null) is ambiguous and the test that pins
// count's null case did not compile.
func TestNullToAnOverloadHasACast(t *testing.T) {
	proj, _ := calculator(t)
	a := newAgent(t, proj)
	var all []string
	for _, tc := range fixtureSuite(t, a, proj, "Overloads", "count", "String") {
		if strings.Contains(tc.Source, "count((String) null)") && strings.Contains(tc.Source, "-1") {
			return
		}
		all = append(all, tc.Source)
	}
	t.Fatalf("no test pins count((String) null):\n%s", strings.Join(all, "\n"))
}

// TestTheClockIsNeverAsserted: a method that formats the current time gets tests (its thrown
// exception is pinned) but none asserts its text: the original's second run has another
// default time zone and locale, so the formatted time differs between the runs and is dropped.
func TestTheClockIsNeverAsserted(t *testing.T) {
	proj, _ := calculator(t)
	a := newAgent(t, proj)
	for _, tc := range fixtureSuite(t, a, proj, "Stamps", "stamp", "") {
		if strings.Contains(tc.Source, " at ") {
			t.Errorf("a test asserts the formatted current time:\n%s", tc.Source)
		}
	}
}
