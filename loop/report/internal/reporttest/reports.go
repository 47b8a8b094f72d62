package reporttest

import (
	"path/filepath"
	"runtime"
	"testing"

	"github.com/advertest/advertest-lsp/loop/report"
)

// Dir is loop/report/testdata, wherever the test runs from.
func Dir() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..", "testdata")
}

// RepoRoot is the root of this repository, where the reports' moduleDir starts.
func RepoRoot() string { return filepath.Join(Dir(), "..", "..", "..") }

// Reports reads the real single-method reports of the example projects.
func Reports(tb testing.TB) []report.Report {
	tb.Helper()
	paths, err := filepath.Glob(filepath.Join(Dir(), "reports", "*.json"))
	if err != nil || len(paths) < 5 {
		tb.Fatalf("test reports: %v (%d found)", err, len(paths))
	}
	var out []report.Report
	for _, p := range paths {
		d, err := report.ReadFile(p)
		if err != nil {
			tb.Fatal(err)
		}
		if d.Single == nil {
			tb.Fatalf("%s: want a single-method report", p)
		}
		out = append(out, *d.Single)
	}
	report.Sort(out)
	return out
}

// RunReport reads the report of `advertest run` on PriceCalculator.clamp, with its generated
// suite.
func RunReport(tb testing.TB) report.Report {
	tb.Helper()
	d, err := report.ReadFile(filepath.Join(Dir(), "run", "maven-calculator-PriceCalculator-clamp.json"))
	if err != nil {
		tb.Fatal(err)
	}
	if d.Single == nil || d.Single.Tests.Source == "" {
		tb.Fatal("the run report has no generated suite")
	}
	return *d.Single
}

// WithRunReport returns the mutate reports with clamp's replaced by the run report, so that
// every method is there once and one has a generated suite.
func WithRunReport(tb testing.TB) []report.Report {
	run := RunReport(tb)
	var out []report.Report
	for _, r := range Reports(tb) {
		if r.Target.Key() != run.Target.Key() || r.ModuleDir != run.ModuleDir {
			out = append(out, r)
		}
	}
	if len(out) == len(Reports(tb)) {
		tb.Fatal("the mutate reports lack clamp")
	}
	out = append(out, run)
	report.Sort(out)
	return out
}
