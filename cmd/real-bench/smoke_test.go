package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/advertest/advertest-lsp/cmd/internal/benchkit"
)

// TestSmokeOneRealClass is the workbench's smoke test, part of `make test`: one real class of
// one real library (Commons CSV's CSVFormat, fetched from Debian's source package into the
// workbench's cache), laid out with only its own test class, through `advertest run` (on the
// main sources alone) and `advertest mutate` (with CSVFormatTest). Both must end without error,
// the written suite must compile and pass outside the tool, and the analysis must kill
// mutants with the library's own test. It skips only when the source package cannot be
// downloaded for a network failure; anything else fails.
func TestSmokeOneRealClass(t *testing.T) {
	if testing.Short() {
		t.Skip("the smoke test downloads a library and runs the real CLI (minutes): not in -short")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Minute)
	defer cancel()
	lib, ok := LibraryByName("csv")
	if !ok {
		t.Fatal("the workbench has no csv library")
	}
	var log strings.Builder
	lay, err := Prepare(ctx, defaultCache(), lib, PrepareOptions{OnlyTests: []string{"org/apache/commons/csv/CSVFormatTest.java"}}, &log)
	if IsNetworkError(err) {
		t.Skipf("Commons CSV's source package cannot be downloaded (a network failure): %v", err)
	}
	if err != nil {
		t.Fatalf("laying out Commons CSV: %v\n%s", err, log.String())
	}
	if lay.Suite == nil {
		t.Fatalf("the one-class suite layout did not build: %s", lay.SuiteReport.Reason)
	}
	work := t.TempDir()
	bin := filepath.Join(work, "advertest")
	if err := benchkit.BuildAdvertest(ctx, bin); err != nil {
		t.Fatal(err)
	}
	const file, method = "src/main/java/org/apache/commons/csv/CSVFormat.java", "withDelimiter"

	// advertest run on the main sources: ends without error and writes a suite that compiles.
	mainCopy := filepath.Join(work, "main")
	if err := freshCopy(lay.Main, mainCopy); err != nil {
		t.Fatal(err)
	}
	runReport := filepath.Join(work, "run.json")
	out, err := benchkit.Invocation{Bin: bin, Dir: mainCopy, Log: filepath.Join(work, "run.log"), Timeout: 6 * time.Minute,
		Args: []string{"run", file, "--method", method, "--agents", "offline", "--write-tests", "--json", runReport}}.Run(ctx)
	if err != nil || out.TimedOut {
		t.Fatalf("advertest run: %v (timed out: %v)", err, out.TimedOut)
	}
	rep, err := readRunReport(runReport)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Tests.File == nil || len(rep.Tests.Methods) == 0 {
		t.Fatalf("advertest run wrote no test for CSVFormat#withDelimiter; warnings: %q", rep.Warnings)
	}
	tools := benchkit.JavaTools{Java: "java", Javac: "javac", JUnitJar: benchkit.DefaultJUnitJar, TestTimeout: 10 * time.Second, SuiteTimeout: 3 * time.Minute}
	if err := CheckClasspath(append([]string{tools.JUnitJar}, lay.Main.Classpath...), lib.Packages); err != nil {
		t.Fatal(err)
	}
	gen, err := checkGenerated(ctx, tools, lay.Main, filepath.Join(mainCopy, filepath.FromSlash(*rep.Tests.File)), work)
	if err != nil {
		t.Fatal(err)
	}
	if len(gen.onFixed.Passed) == 0 {
		t.Errorf("none of the written tests passes outside the tool: %v", gen.onFixed.Failed)
	}

	// advertest mutate with the class's own test class: ends without error, kills mutants.
	suiteCopy := filepath.Join(work, "suite")
	if err := freshCopy(*lay.Suite, suiteCopy); err != nil {
		t.Fatal(err)
	}
	mutateReport := filepath.Join(work, "mutate.json")
	out, err = benchkit.Invocation{Bin: bin, Dir: suiteCopy, Log: filepath.Join(work, "mutate.log"), Timeout: 6 * time.Minute,
		Args: []string{"mutate", file, "--method", method, "--json", mutateReport}}.Run(ctx)
	if err != nil || out.TimedOut {
		t.Fatalf("advertest mutate: %v (timed out: %v)", err, out.TimedOut)
	}
	reports, err := readAnyReport(mutateReport)
	if err != nil {
		t.Fatal(err)
	}
	killed := 0
	for _, m := range reports[0].Mutants {
		if m.Status == "killed" {
			killed++
		}
	}
	if killed == 0 {
		b, _ := os.ReadFile(mutateReport)
		t.Errorf("CSVFormatTest kills none of withDelimiter's %d mutants:\n%s", len(reports[0].Mutants), benchkit.Tail(string(b), 3000))
	}

	// Analyze in one `advertest lsp` over a pipe, twice: the workbench's server measure.
	src, err := os.ReadFile(filepath.Join(suiteCopy, file))
	if err != nil {
		t.Fatal(err)
	}
	lineOf := func(decl string) int {
		for i, l := range strings.Split(string(src), "\n") {
			if strings.Contains(l, decl) {
				return i + 1
			}
		}
		t.Fatalf("no %q in CSVFormat.java", decl)
		return 0
	}
	r := &mutateRunner{lay: lay, advertest: bin, timeout: 6 * time.Minute}
	sr := r.serverRun(ctx, filepath.Join(work, "server"), Method{File: file, Line: lineOf("public CSVFormat withDelimiter(final char")},
		Method{File: file, Line: lineOf("public CSVFormat withEscape(final char")})
	if sr.Error != "" || len(sr.Ends) != 2 || sr.FirstSeconds <= 0 || sr.SecondSeconds <= 0 {
		t.Fatalf("Analyze in the server: %+v", sr)
	}
	for _, end := range sr.Ends {
		if !strings.HasPrefix(end, "score") {
			t.Errorf("a job ended with %q, not its summary", end)
		}
	}
}
