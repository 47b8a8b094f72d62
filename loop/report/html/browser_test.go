package html

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/advertest/advertest-lsp/loop/report"
	"github.com/advertest/advertest-lsp/loop/report/internal/reporttest"
	"github.com/advertest/advertest-lsp/loop/report/mte"
)

// deepAll(sel) returns the elements matching sel in the document and in every shadow root below
// it: the component renders in shadow DOM, which querySelector (and chromium's --dump-dom) do
// not enter.
const deepAll = `const deepAll = (sel, root = document, out = []) => {
  root.querySelectorAll(sel).forEach(e => out.push(e));
  root.querySelectorAll('*').forEach(e => { if (e.shadowRoot) deepAll(sel, e.shadowRoot, out); });
  return out;
};`

// metricsTable reads the component's metrics table once it has rendered: the header labels of
// the figures and each row's cells, by the row's name.
const metricsTable = `(() => {` + deepAll + `
  const table = deepAll('mte-metrics-table').map(t => t.shadowRoot || t).flatMap(r => Array.from(r.querySelectorAll('table')))[0];
  if (!table) return null;
  const rows = Array.from(table.querySelectorAll('tbody tr')).map(r => Array.from(r.querySelectorAll('th,td')).map(c => c.innerText.trim()));
  if (!rows.length) return null;
  const headers = Array.from(table.querySelectorAll('thead tr')).map(r => Array.from(r.querySelectorAll('th')).map(c => c.innerText.trim()));
  return {headers, rows};
})()`

type table struct {
	Headers [][]string `json:"headers"`
	Rows    [][]string `json:"rows"`
}

// newBrowser starts Debian's chromium headless, as root needs it and so that it does not stall
// on a closed network; the test is skipped only when chromium is not installed.
func newBrowser(t *testing.T) context.Context {
	t.Helper()
	path, err := exec.LookPath("chromium")
	if err != nil {
		t.Skip("chromium is not installed (Debian package chromium; .ci/install-deps installs it): the HTML report cannot be opened in a browser")
	}
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(),
		chromedp.ExecPath(path), chromedp.Headless, chromedp.NoSandbox, chromedp.DisableGPU, chromedp.NoFirstRun,
		chromedp.Flag("disable-background-networking", true), chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true), chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.UserDataDir(t.TempDir()), chromedp.WindowSize(1280, 860),
	)
	ctx, cancel := chromedp.NewContext(actx)
	t.Cleanup(func() { cancel(); cancelAlloc() })
	return ctx
}

// TestBrowserRendersTheReport opens the HTML report from disk in chromium and checks the score
// and the mutant counts that the component renders against the mte report the page inlines.
// With ADVERTEST_SCREENSHOTS=DIR it saves html-report.png (the overview) and
// html-report-file.png (a file's mutants) there: `ADVERTEST_SCREENSHOTS=$PWD/docs go test
// -run TestBrowser ./loop/report/html/` makes the README's pictures.
func TestBrowserRendersTheReport(t *testing.T) {
	ctx := newBrowser(t)
	methods := reporttest.WithRunReport(t)
	opts := Options{MTE: mte.Options{ReadSource: mte.SourcesUnder(reporttest.RepoRoot())}}
	page := filepath.Join(t.TempDir(), "report.html")
	if _, err := WriteFile(page, methods, opts); err != nil {
		t.Fatal(err)
	}
	want, _, err := mte.Build(methods, opts.MTE)
	if err != nil {
		t.Fatal(err)
	}
	m := mte.ComputeMetrics(want)

	if err := chromedp.Do(ctx, chromedp.Navigate("file://"+page)); err != nil {
		t.Fatal(err)
	}
	tab, err := chromedp.Run(ctx, chromedp.Poll[table](metricsTable, chromedp.WithPollingTimeout(90*time.Second)))
	if err != nil {
		t.Fatalf("the report did not render its metrics table: %v", err)
	}
	// The last header row holds the two score columns; the first the counts after them.
	cols := map[string]int{}
	if len(tab.Headers) < 2 {
		t.Fatalf("headers %q", tab.Headers)
	}
	row := tab.Rows[0]
	if row[0] != "All files" {
		t.Fatalf("first row %q, want All files", row)
	}
	// Cells: name, (icon), of-total, (bar), of-covered, then the counts in the order of the
	// first header row after "Mutation Score".
	var figures []string
	for _, c := range row[1:] {
		if c != "" {
			figures = append(figures, c)
		}
	}
	counts := tab.Headers[0]
	start := indexOf(counts, "Mutation Score")
	if start < 0 || len(figures) != 2+len(counts[start+1:]) {
		t.Fatalf("headers %q, row %q", tab.Headers, row)
	}
	for i, h := range counts[start+1:] {
		cols[strings.Join(strings.Fields(h), " ")] = 2 + i
	}
	check := func(name, got, want string) {
		t.Helper()
		if got != want {
			t.Errorf("rendered %s %q, want %q (from the mte JSON)", name, got, want)
		}
	}
	check("score of total", figures[0], fmt.Sprintf("%.2f", *m.MutationScore))
	check("score of covered", figures[1], fmt.Sprintf("%.2f", *m.ScoreOfCovered))
	for label, n := range map[string]int{
		"Killed": m.Killed, "Survived": m.Survived, "Timeout": m.Timeout, "No coverage": m.NoCoverage,
		"Ignored": m.Ignored, "Compile errors": m.CompileError, "Detected": m.Detected,
		"Total": m.Valid + m.CompileError + m.Ignored,
	} {
		i, ok := cols[label]
		if !ok {
			t.Errorf("no column %q in %q", label, counts)
			continue
		}
		check(label, figures[i], fmt.Sprint(n))
	}
	if m.NoCoverage == 0 || m.Killed == 0 || m.Survived == 0 {
		t.Fatalf("metrics %+v: the test data should have killed, survived and uncovered mutants", m)
	}

	// AdverTest's own score and the generated suite are on the page too.
	ours, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.getElementById('advertest-score').innerText`))
	if err != nil {
		t.Fatal(err)
	}
	check("AdverTest score", ours, percent(report.Summarize(methods).MutationScore, 1))
	tests, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.getElementById('advertest-tests').innerText`))
	if err != nil {
		t.Fatal(err)
	}
	run := reporttest.RunReport(t)
	for _, id := range run.Tests.Methods {
		if name := id[strings.LastIndexByte(id, '.')+1:]; !strings.Contains(tests, name) {
			t.Errorf("the generated tests section lacks %s", name)
		}
	}
	if dir := os.Getenv("ADVERTEST_SCREENSHOTS"); dir != "" {
		shot(t, ctx, filepath.Join(dir, "html-report.png"), 1600, 640)
	}

	// A file's page lists its mutants: the state filter counts them by status.
	file := "maven-calculator/src/main/java/org/acme/PriceCalculator.java"
	if err := chromedp.Do(ctx, chromedp.Navigate("file://"+page+"#mutant/"+file)); err != nil {
		t.Fatal(err)
	}
	filter, err := chromedp.Run(ctx, chromedp.Poll[string](`(() => {`+deepAll+`
	  const f = deepAll('mte-state-filter')[0]; if (!f) return null;
	  const t = (f.shadowRoot || f).textContent.replace(/\s+/g, ' ').trim(); return t.includes('Killed') ? t : null; })()`,
		chromedp.WithPollingTimeout(60*time.Second)))
	if err != nil {
		t.Fatalf("the file view did not render: %v", err)
	}
	var killed, survived int
	for _, x := range want.Files["examples/"+file].Mutants {
		switch x.Status {
		case mte.StatusKilled:
			killed++
		case mte.StatusSurvived:
			survived++
		}
	}
	for _, s := range []string{fmt.Sprintf("Killed (%d)", killed), fmt.Sprintf("Survived (%d)", survived)} {
		if !strings.Contains(filter, s) {
			t.Errorf("file view filter %q lacks %q", filter, s)
		}
	}
	if dir := os.Getenv("ADVERTEST_SCREENSHOTS"); dir != "" {
		shot(t, ctx, filepath.Join(dir, "html-report-file.png"), 1400, 1500)
	}
}

func shot(t *testing.T, ctx context.Context, path string, width, height int64) {
	t.Helper()
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(width, height)); err != nil {
		t.Fatal(err)
	}
	png, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, png, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("screenshot %s", path)
}

func indexOf(xs []string, s string) int {
	for i, x := range xs {
		if x == s {
			return i
		}
	}
	return -1
}
