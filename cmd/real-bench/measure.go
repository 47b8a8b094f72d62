package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/advertest/advertest-lsp/cmd/internal/benchkit"
	"github.com/advertest/advertest-lsp/loop/report"
)

// Status is how one method's measurement ended.
type Status string

const (
	// Measured: `advertest run` ended and everything after it was measured.
	Measured Status = "measured"
	// TimedOut: `advertest run` went past the method's time cap (its partial report, if any,
	// is measured; a method without a kept test counts as 0).
	TimedOut Status = "timeout"
	// Errored: the run failed or something the benchmark did failed; the error says what.
	Errored Status = "error"
)

// MethodResult is one sampled method's figures, the unit the results cache keeps.
type MethodResult struct {
	Method Method `json:"method"`
	Status Status `json:"status"`
	// Seconds is the wall time of `advertest run` (what a user waits for).
	Seconds float64 `json:"seconds"`
	// Tests are the tests the run kept (written); WithTest is Tests > 0.
	Tests    int  `json:"tests"`
	WithTest bool `json:"withTest"`
	// PassingOnFixed are the written tests that pass when the benchmark runs them itself;
	// FailingOnFixed the others, with why.
	PassingOnFixed int               `json:"passingOnFixed"`
	FailingOnFixed map[string]string `json:"failingOnFixed,omitempty"`
	// LineCoverage and BranchCoverage of the method by the final suite (0..1), and its
	// mutation score (killed / (killed + survived)); all 0 for a method without a test.
	LineCoverage   float64 `json:"lineCoverage"`
	BranchCoverage float64 `json:"branchCoverage"`
	MutationScore  float64 `json:"mutationScore"`
	// ScoreKnown is false when the run had no valid mutant to score.
	ScoreKnown bool `json:"scoreKnown"`
	Mutants    int  `json:"mutants"`
	// Faults are the method's seeded faults that count, with whether the written suite detects
	// each; FaultsReason says why there are none, when there are none.
	Faults       []FaultOutcome `json:"faults"`
	FaultsReason string         `json:"faultsReason,omitempty"`
	// Warnings are the run's warnings (why no test was written, among them).
	Warnings []string `json:"warnings,omitempty"`
	Error    string   `json:"error,omitempty"`
	// At is when the method was measured, Load the load average when it ended; Commit which
	// tool it measured.
	At     string `json:"at"`
	Load   string `json:"load,omitempty"`
	Commit string `json:"commit"`
	// Seeder is the SeederVersion its faults were judged with: a cached result of another
	// version is measured again.
	Seeder int `json:"seeder"`
}

// FaultOutcome is one counted seeded fault against the written suite.
type FaultOutcome struct {
	ID          string `json:"id"`
	Kind        string `json:"kind"`
	Line        int    `json:"line"`
	Description string `json:"description"`
	Detected    bool   `json:"detected"`
	DetectedBy  string `json:"detectedBy,omitempty"`
	// CoincidesWithMutant: one of the run's mutants made the same change to the same line.
	CoincidesWithMutant bool `json:"coincidesWithMutant"`
}

// methodRunner measures methods of one library.
type methodRunner struct {
	lay       *Layouts
	advertest string
	tools     benchkit.JavaTools
	faults    *faultsPlanner
	timeout   time.Duration
	commit    string
	// work is a temporary folder for the runs; keep keeps each method's folder.
	work string
	keep bool
}

// measure runs one method to its result; it never fails: the result says what went wrong.
func (r *methodRunner) measure(ctx context.Context, m Method) MethodResult {
	res := r.measureOnce(ctx, m)
	res.Load = benchkit.LoadAverage()
	return res
}

func (r *methodRunner) measureOnce(ctx context.Context, m Method) MethodResult {
	res := MethodResult{Seeder: SeederVersion, Method: m, Status: Measured, Faults: []FaultOutcome{}, At: time.Now().Format(time.RFC3339), Commit: r.commit}
	dir, err := os.MkdirTemp(r.work, m.Library+"-"+m.ID()+"-")
	if err != nil {
		return errored(res, err)
	}
	if !r.keep {
		defer os.RemoveAll(dir)
	}
	// The seeded faults first: they need the library's own suite only, and are cached apart.
	mf, err := r.faults.plan(ctx, m)
	if err != nil {
		return errored(res, fmt.Errorf("seeding faults: %w", err))
	}
	counted := mf.Counted()
	if len(counted) == 0 {
		res.FaultsReason = mf.Reason
		if res.FaultsReason == "" {
			res.FaultsReason = fmt.Sprintf("none of the %d faults tried counts (uncompilable, or not detected by the library's own tests)", len(mf.Faults))
		}
	}

	// The loop on a fresh copy of the main-sources layout, as a user runs it.
	root := filepath.Join(dir, "project")
	if err := freshCopy(r.lay.Main, root); err != nil {
		return errored(res, err)
	}
	reportPath := filepath.Join(dir, "report.json")
	out, runErr := benchkit.Invocation{
		Bin: r.advertest, Dir: root, Log: filepath.Join(dir, "advertest.log"), Timeout: r.timeout,
		Args: []string{"run", filepath.FromSlash(m.Target()), "--agents", "offline", "--write-tests", "--json", reportPath},
	}.Run(ctx)
	res.Seconds = out.Seconds
	if out.TimedOut {
		res.Status = TimedOut
	}
	rep, repErr := readRunReport(reportPath)
	if runErr != nil && (rep == nil || ctx.Err() != nil) {
		return errored(res, runErr)
	}
	if repErr != nil {
		if res.Status == TimedOut {
			res.Error = "no report: the run was stopped at its time cap before it wrote one"
			return res
		}
		return errored(res, repErr)
	}
	if rep.Target.Class != m.Class || rep.Target.StartLine != m.Line {
		return errored(res, fmt.Errorf("advertest ran %s at line %d, not the sampled %s at line %d", rep.Target.Class, rep.Target.StartLine, m.Class, m.Line))
	}
	res.Warnings = rep.Warnings
	res.Tests = len(rep.Tests.Methods)
	res.WithTest = res.Tests > 0 && rep.Tests.File != nil
	res.Mutants = len(rep.Mutants)
	if !res.WithTest {
		// A method without a kept test counts as 0 everywhere.
		for _, f := range counted {
			res.Faults = append(res.Faults, outcome(f, rep))
		}
		return res
	}
	res.LineCoverage, res.BranchCoverage = rep.LineCoverage, rep.BranchCoverage
	if rep.MutationScore != nil {
		res.MutationScore, res.ScoreKnown = *rep.MutationScore, true
	}

	// The written suite, compiled and run outside the tool, on the fixed code and each fault.
	testFile := filepath.Join(root, filepath.FromSlash(*rep.Tests.File))
	gen, err := checkGenerated(ctx, r.tools, r.lay.Main, testFile, dir)
	if err != nil {
		return errored(res, err)
	}
	res.PassingOnFixed = len(gen.onFixed.Passed)
	if len(gen.onFixed.Failed) > 0 {
		res.FailingOnFixed = gen.onFixed.Failed
	}
	for _, f := range counted {
		o := outcome(f, rep)
		if res.PassingOnFixed > 0 {
			by, ok, err := gen.detect(ctx, r.tools, r.lay.Main, f, dir)
			if err != nil {
				return errored(res, err)
			}
			o.Detected, o.DetectedBy = ok, by
		}
		res.Faults = append(res.Faults, o)
	}
	if runErr != nil && res.Status != TimedOut {
		// The run said it failed but left a report: keep its figures and say so.
		res.Status, res.Error = Errored, runErr.Error()
	}
	return res
}

// outcome is a counted fault before the written suite ran on it.
func outcome(f SeededFault, rep *report.Report) FaultOutcome {
	return FaultOutcome{ID: f.ID, Kind: f.Kind, Line: f.Line, Description: f.Description(), CoincidesWithMutant: coincides(f.Fault, rep)}
}

// coincides: a mutant of the run changes the fault's line into the same text (whitespace
// aside).
func coincides(f Fault, rep *report.Report) bool {
	if f.Before == "" {
		return false
	}
	after := strings.Join(strings.Fields(f.After), "")
	for _, m := range rep.Mutants {
		if m.Line == f.Line && strings.Join(strings.Fields(m.Mutated), "") == after {
			return true
		}
	}
	return false
}

func readRunReport(path string) (*report.Report, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("reading the run's report: %w", err)
	}
	var rep report.Report
	if err := json.Unmarshal(b, &rep); err != nil {
		return nil, fmt.Errorf("parsing the run's report %s: %w", path, err)
	}
	return &rep, nil
}

func errored(res MethodResult, err error) MethodResult {
	res.Status = Errored
	res.Error = err.Error()
	return res
}

// readJSONFile reads path's JSON into v.
func readJSONFile(path string, v any) error {
	b, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	return json.Unmarshal(b, v)
}
