package formats

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/advertest/advertest-lsp/loop/report/internal/reporttest"
)

func TestWriteEveryRequestedFormat(t *testing.T) {
	root, err := filepath.Abs(reporttest.RepoRoot())
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	p := Paths{SARIF: filepath.Join(dir, "a.sarif"), MTE: filepath.Join(dir, "mte.json"), HTML: filepath.Join(dir, "r.html")}
	warnings, err := Write(reporttest.WithRunReport(t), p, Options{RepoRoot: root, ToolVersion: "test"})
	if err != nil || len(warnings) != 0 {
		t.Fatalf("%v %v", err, warnings)
	}
	for _, f := range []string{p.SARIF, p.MTE, p.HTML} {
		if st, err := os.Stat(f); err != nil || st.Size() == 0 {
			t.Fatalf("%s: %v", f, err)
		}
	}
}

func TestOneFailureDoesNotStopTheOthers(t *testing.T) {
	dir := t.TempDir()
	blocker := filepath.Join(dir, "file")
	if err := os.WriteFile(blocker, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	p := Paths{SARIF: filepath.Join(blocker, "a.sarif"), MTE: filepath.Join(dir, "mte.json"), HTML: filepath.Join(dir, "r.html")}
	// The SARIF file cannot be made (its folder is a file); the sources are missing, so the mte
	// report warns once per file.
	warnings, err := Write(reporttest.Reports(t), p, Options{RepoRoot: dir})
	if err == nil || !strings.Contains(err.Error(), "--sarif") {
		t.Fatalf("error %v", err)
	}
	if len(warnings) != 3 {
		t.Fatalf("warnings %v: want one per source file, said once", warnings)
	}
	for _, f := range []string{p.MTE, p.HTML} {
		if _, err := os.Stat(f); err != nil {
			t.Fatalf("%s not written after the SARIF failure: %v", f, err)
		}
	}
}
