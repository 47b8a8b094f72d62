package main

import (
	"flag"
	"fmt"
	"strconv"

	"github.com/advertest/advertest-lsp/loop/report"
	"github.com/advertest/advertest-lsp/loop/report/formats"
)

// outputFlags are the report formats that run, mutate and merge write besides the report
// JSON, and the threshold of the exit status (see docs/reports.md).
type outputFlags struct {
	sarif, mte, html string
	failUnder        failUnderFlag
}

func (o *outputFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&o.sarif, "sarif", "", "write the surviving mutants as SARIF 2.1.0 to `PATH` (GitHub code scanning)")
	fs.StringVar(&o.mte, "mte", "", "write the mutation-testing-elements report JSON to `PATH`")
	fs.StringVar(&o.html, "html", "", "write the report as one self-contained HTML page to `PATH`")
	fs.Var(&o.failUnder, "fail-under", "exit 3 when the mutation score is below `PCT` percent (0 to 100), after writing every report")
}

// failUnderFlag is --fail-under PCT.
type failUnderFlag struct{ pct *float64 }

func (f *failUnderFlag) String() string {
	if f == nil || f.pct == nil {
		return ""
	}
	return strconv.FormatFloat(*f.pct, 'g', -1, 64)
}

func (f *failUnderFlag) Set(s string) error {
	v, err := report.ParseFailUnder(s)
	if err != nil {
		return err
	}
	f.pct = &v
	return nil
}

// document is a report as the CLI writes it: one method's (*report.Report) or many methods'
// (*report.Multi).
type document interface {
	Marshal() ([]byte, error)
	WriteFile(path string) error
}

// write writes the report JSON to jsonPath ("-": stdout) and each format asked for, from the
// methods' reports. Every file is tried; each failure and warning is printed. It reports
// whether a write failed.
func (o *outputFlags) write(e *env, cmd, jsonPath string, doc document, methods []report.Report) (failed bool) {
	if err := writeReport(e, jsonPath, doc); err != nil {
		fmt.Fprintf(e.stderr, "advertest %s: %v\n", cmd, err)
		failed = true
	}
	paths := formats.Paths{SARIF: o.sarif, MTE: o.mte, HTML: o.html}
	if paths == (formats.Paths{}) {
		return failed
	}
	root, err := report.RepoRoot(".")
	if err != nil {
		fmt.Fprintf(e.stderr, "advertest %s: %v\n", cmd, err)
		return true
	}
	warnings, err := formats.Write(methods, paths, formats.Options{RepoRoot: root, ToolVersion: version})
	for _, w := range warnings {
		fmt.Fprintf(e.stderr, "advertest %s: warning: %s\n", cmd, w)
	}
	if err != nil {
		fmt.Fprintf(e.stderr, "advertest %s: %v\n", cmd, err)
		failed = true
	}
	return failed
}

// exitStatus is the command's exit status once every report is written (report.Gate: 130,
// then 1, then 3, then 0); it says why when the score is below --fail-under.
func (o *outputFlags) exitStatus(e *env, cmd string, interrupted, failed bool, score *float64) int {
	g := report.Gate{Interrupted: interrupted, Failed: failed, Score: score, FailUnder: o.failUnder.pct}
	code := g.ExitStatus()
	switch {
	case code == exitBelow:
		fmt.Fprintf(e.stderr, "advertest %s: the mutation score %.1f%% is below --fail-under %s%%\n", cmd, 100**score, o.failUnder.String())
	case g.FailUnder != nil && score == nil && code == exitOK:
		fmt.Fprintf(e.stderr, "advertest %s: warning: no mutant counts toward a score: --fail-under does not apply\n", cmd)
	}
	return code
}
