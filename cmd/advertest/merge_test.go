package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/advertest/advertest-lsp/loop/report"
)

// fixtureReports are the real one-method reports of the Maven example (loop/report's test data).
func fixtureReports(t *testing.T) []report.Report {
	t.Helper()
	paths, err := filepath.Glob(filepath.Join("..", "..", "loop", "report", "testdata", "reports", "maven-calculator-*.json"))
	if err != nil || len(paths) < 3 {
		t.Fatalf("fixtures: %v %v", paths, err)
	}
	var out []report.Report
	for _, p := range paths {
		d, err := report.ReadFile(p)
		if err != nil || d.Single == nil {
			t.Fatalf("%s: %v", p, err)
		}
		out = append(out, *d.Single)
	}
	return out
}

// writeShards writes the reports of the n shards of methods into dir and returns their paths.
func writeShards(t *testing.T, dir string, methods []report.Report, n int) []string {
	t.Helper()
	var paths []string
	for i := 1; i <= n; i++ {
		picked, sh, err := report.SelectShard(methods, func(r report.Report) string { return r.Target.Key() }, i, n)
		if err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(dir, "shard-"+string(rune('0'+i))+".json")
		if err := report.NewMulti(picked, nil, &sh).WriteFile(p); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, p)
	}
	return paths
}

// TestMergeCommand: merge joins the shard reports into the report of the whole run (its JSON
// on stdout, the formats in their files), exits 3 below --fail-under after writing every
// report, and 1 with the merge's error when the reports do not make up one run.
func TestMergeCommand(t *testing.T) {
	methods := fixtureReports(t)
	dir := t.TempDir()
	shards := writeShards(t, dir, methods, 2)
	out := func(name string) string { return filepath.Join(dir, name) }

	code, stdout, stderr := runCLI(append([]string{"merge", "--json", "-", "--sarif", out("a.sarif"), "--mte", out("a.mte.json"), "--html", out("a.html"), "--fail-under", "10"}, shards...)...)
	if code != exitOK {
		t.Fatalf("status %d:\n%s", code, stderr)
	}
	doc, err := report.Decode([]byte(stdout))
	if err != nil || doc.Multi == nil || doc.Multi.Shard != nil {
		t.Fatalf("stdout is not the merged report (%v):\n%.400s", err, stdout)
	}
	whole := report.NewMulti(methods, nil, nil)
	got, want := methodKeys(doc.Multi.Methods), methodKeys(whole.Methods)
	if !slices.Equal(got, want) || doc.Multi.Summary.Mutants != whole.Summary.Mutants || *doc.Multi.Summary.MutationScore != *whole.Summary.MutationScore {
		t.Errorf("merged %q (%d mutants); want %q (%d)", got, doc.Multi.Summary.Mutants, want, whole.Summary.Mutants)
	}
	if !strings.Contains(stderr, "methods") || !strings.Contains(stderr, "score") {
		t.Errorf("no summary table on stderr:\n%s", stderr)
	}
	var sarif struct {
		Runs []struct {
			Results []json.RawMessage `json:"results"`
		} `json:"runs"`
	}
	if b, err := os.ReadFile(out("a.sarif")); err != nil || json.Unmarshal(b, &sarif) != nil || len(sarif.Runs) != 1 || len(sarif.Runs[0].Results) != whole.Summary.Survived {
		t.Errorf("a.sarif: %v, %d results; want one per survivor (%d)", err, len(sarif.Runs), whole.Summary.Survived)
	}
	for _, f := range []string{"a.mte.json", "a.html"} {
		if fi, err := os.Stat(out(f)); err != nil || fi.Size() == 0 {
			t.Errorf("%s: %v", f, err)
		}
	}

	// Below the threshold: status 3, the reports written all the same.
	code, _, stderr = runCLI(append([]string{"merge", "--json", out("b.json"), "--html", out("b.html"), "--fail-under", "99.5"}, shards...)...)
	if code != exitBelow || !strings.Contains(stderr, "is below --fail-under 99.5%") {
		t.Errorf("--fail-under 99.5: status %d, stderr:\n%s", code, stderr)
	}
	for _, f := range []string{"b.json", "b.html"} {
		if _, err := os.Stat(out(f)); err != nil {
			t.Errorf("below the threshold, %s is not written: %v", f, err)
		}
	}

	// Reports that do not make up one run: status 1 and the merge's error.
	single := filepath.Join("..", "..", "loop", "report", "testdata", "reports", "maven-calculator-PriceCalculator-clamp.json")
	for _, tc := range []struct {
		args []string
		want string
	}{
		{shards[:1], "shard 2 of 2 missing"},
		{[]string{shards[0], shards[0], shards[1]}, "is given twice"},
		{[]string{single}, "is a single-method report, not a shard's"},
		{[]string{out("nope.json")}, "no such file"},
	} {
		code, stdout, stderr := runCLI(append([]string{"merge", "--json", "-"}, tc.args...)...)
		if code != exitFailure || stdout != "" || !strings.Contains(stderr, tc.want) {
			t.Errorf("merge %q: status %d, stdout %q, stderr %q; want 1 and %q", tc.args, code, stdout, stderr, tc.want)
		}
	}
}

// methodKeys are the reports' method identities, in order.
func methodKeys(rs []report.Report) []string {
	out := make([]string, len(rs))
	for i := range rs {
		out[i] = rs[i].Target.Key()
	}
	return out
}
