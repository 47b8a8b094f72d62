package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/advertest/advertest-lsp/buildtools/buildtest"
	"github.com/advertest/advertest-lsp/cmd/internal/benchkit"
)

// Status is how one fault ended.
type Status string

const (
	// Detected: a generated test that passes on the fixed code fails on the buggy code.
	Detected Status = "detected"
	// Missed: every generated test that passes on the fixed code passes on the buggy code
	// too (or no test was generated).
	Missed Status = "missed"
	// Timeout: the `advertest run` went past -timeout; not detected.
	Timeout Status = "timeout"
	// Failed: something other than the fault went wrong (the run failed, a test did not
	// compile); not detected, and the line says what.
	Failed Status = "error"
	// Interrupted: the benchmark was stopped before the fault finished; left out of the
	// figures.
	Interrupted Status = "interrupted"
)

// Result is one fault's outcome, a line of the table and an entry of -json.
type Result struct {
	Name        string `json:"name"`
	Half        Half   `json:"half"`
	Kind        string `json:"kind"`
	Description string `json:"description"`
	Status      Status `json:"status"`
	// Tests are the tests `advertest run` generated; PassingOnFixed those of them that pass
	// on the fixed code when the benchmark runs them (the only ones that can detect).
	Tests          int `json:"tests"`
	PassingOnFixed int `json:"passingOnFixed"`
	// FailingOnFixed are generated tests that fail on the fixed code, with why.
	FailingOnFixed map[string]string `json:"failingOnFixed,omitempty"`
	// DetectedBy are the tests that pass on the fixed code and fail on the buggy one, with
	// why they failed there.
	DetectedBy map[string]string `json:"detectedBy,omitempty"`
	// HungOnBuggy: the buggy run of the suite went past its limit (counts as detected: the
	// suite does not pass).
	HungOnBuggy bool `json:"hungOnBuggy,omitempty"`
	// RunSeconds is the wall time of `advertest run`: the figure "time per method" means.
	RunSeconds float64 `json:"runSeconds"`
	// MutationScore is the run's own final mutation score (null when it had no valid mutant).
	MutationScore *float64 `json:"mutationScore"`
	Error         string   `json:"error,omitempty"`
	// Dir is the fault's work folder when -keep kept it.
	Dir string `json:"dir,omitempty"`
}

// runner runs faults: `advertest run` on a copy of the project, then the generated suite on
// the fixed and on the buggy code.
type runner struct {
	manifest  *Manifest
	advertest string
	tools     benchkit.JavaTools
	// timeout limits one `advertest run`.
	timeout time.Duration
	work    string
	keep    bool
}

// run runs one fault to its Result; it never fails, the Result says what went wrong.
func (r *runner) run(ctx context.Context, f Fault) Result {
	res := Result{Name: f.Name(), Half: f.Half(), Kind: f.Kind, Description: f.Description}
	dir, err := os.MkdirTemp(r.work, strings.ReplaceAll(f.Name(), ".", "-")+"-")
	if err != nil {
		return failed(res, err)
	}
	if r.keep {
		res.Dir = dir
	} else {
		defer os.RemoveAll(dir)
	}
	res = r.runIn(ctx, f, dir, res)
	if ctx.Err() != nil && res.Status != Timeout {
		// What failed was the interruption, not the fault's run.
		res.Status, res.Error = Interrupted, ""
	}
	return res
}

func (r *runner) runIn(ctx context.Context, f Fault, dir string, res Result) Result {
	root := filepath.Join(dir, "project")
	if err := copyProject(r.manifest.Dir, root); err != nil {
		return failed(res, err)
	}

	// 1. The loop on the fixed code, as a user runs it.
	reportPath := filepath.Join(dir, "report.json")
	logPath := filepath.Join(dir, "advertest.log")
	secs, timedOut, err := r.advertestRun(ctx, root, f, reportPath, logPath)
	res.RunSeconds = secs
	if timedOut {
		res.Status = Timeout
		return res
	}
	if err != nil {
		return failed(res, err)
	}
	rep, err := readReport(reportPath)
	if err != nil {
		return failed(res, err)
	}
	res.Tests = len(rep.Tests.Methods)
	res.MutationScore = rep.MutationScore
	if res.Tests == 0 || rep.Tests.File == "" {
		res.Status = Missed
		return res
	}
	return r.judge(ctx, f, root, dir, filepath.Join(root, filepath.FromSlash(rep.Tests.File)), res)
}

// judge runs the generated test file on the fixed code of the project at root and on the code
// with f applied, in work folder dir, and says whether f was detected.
func (r *runner) judge(ctx context.Context, f Fault, root, dir, testFile string, res Result) Result {
	testClass, err := benchkit.JavaClassName(testFile)
	if err != nil {
		return failed(res, err)
	}

	// The generated suite on the fixed code: the tests that pass there are the ones that
	// count.
	sources, err := benchkit.JavaSources(filepath.Join(root, "src", "main", "java"))
	if err != nil {
		return failed(res, err)
	}
	fixedClasses := filepath.Join(dir, "fixed-classes")
	if err := r.tools.Compile(ctx, fixedClasses, nil, append(sources, testFile), benchkit.CompileOptions{}, filepath.Join(dir, "javac-fixed.log")); err != nil {
		return failed(res, fmt.Errorf("the generated tests do not compile on the fixed code: %w", err))
	}
	onFixed, err := r.runTests(ctx, []string{fixedClasses}, testClass, filepath.Join(dir, "junit-fixed"), filepath.Join(dir, "junit-fixed.log"))
	if err != nil {
		return failed(res, fmt.Errorf("running the generated tests on the fixed code: %w", err))
	}
	if onFixed.Hung {
		return failed(res, fmt.Errorf("the generated tests hang on the fixed code (over %s)", r.tools.SuiteTimeout))
	}
	res.PassingOnFixed = len(onFixed.Passed)
	if len(onFixed.Failed) > 0 {
		res.FailingOnFixed = onFixed.Failed
	}

	// The fault, and the same suite on it.
	buggy, err := r.manifest.Buggy(f)
	if err != nil {
		return failed(res, err)
	}
	rel, err := filepath.Rel(filepath.Join(root, "src", "main", "java"), f.Path(root))
	if err != nil {
		return failed(res, err)
	}
	buggyFile := filepath.Join(dir, "buggy-src", rel)
	if err := os.MkdirAll(filepath.Dir(buggyFile), 0o755); err != nil {
		return failed(res, err)
	}
	if err := os.WriteFile(buggyFile, buggy, 0o644); err != nil {
		return failed(res, err)
	}
	// The buggy class and the tests compiled against the fixed classes and put first on the
	// class path, where the buggy class shadows the fixed one.
	buggyClasses := filepath.Join(dir, "buggy-classes")
	if err := r.tools.Compile(ctx, buggyClasses, []string{fixedClasses}, []string{buggyFile, testFile}, benchkit.CompileOptions{}, filepath.Join(dir, "javac-buggy.log")); err != nil {
		return failed(res, fmt.Errorf("the buggy code does not compile with the generated tests: %w", err))
	}
	onBuggy, err := r.runTests(ctx, []string{buggyClasses, fixedClasses}, testClass, filepath.Join(dir, "junit-buggy"), filepath.Join(dir, "junit-buggy.log"))
	if err != nil {
		return failed(res, fmt.Errorf("running the generated tests on the buggy code: %w", err))
	}
	res.Status = Missed
	if onBuggy.Hung {
		if res.PassingOnFixed > 0 {
			res.Status, res.HungOnBuggy = Detected, true
		}
		return res
	}
	for name := range onFixed.Passed {
		if onBuggy.Passed[name] {
			continue
		}
		why, ok := onBuggy.Failed[name]
		if !ok {
			why = "not run on the buggy code"
		}
		if res.DetectedBy == nil {
			res.DetectedBy = map[string]string{}
		}
		res.DetectedBy[name] = why
		res.Status = Detected
	}
	return res
}

// advertestRun runs `advertest run FILE --method NAME --agents offline --write-tests --json
// PATH` in the copy at root and returns its wall time. Past r.timeout the run is interrupted
// (it writes its partial report and exits 130) and, if it lingers, killed.
func (r *runner) advertestRun(ctx context.Context, root string, f Fault, reportPath, logPath string) (secs float64, timedOut bool, err error) {
	out, err := benchkit.Invocation{
		Bin: r.advertest, Dir: root, Log: logPath, Timeout: r.timeout,
		Args: []string{"run", filepath.FromSlash(f.File), "--method", f.Method, "--agents", "offline", "--write-tests", "--json", reportPath},
	}.Run(ctx)
	return out.Seconds, out.TimedOut, err
}

// runTests runs testClass's tests with the classes of cp (the first entry wins; the JUnit jar
// is added) and gives its outcomes by method name.
func (r *runner) runTests(ctx context.Context, cp []string, testClass, reportDir, log string) (*benchkit.TestRun, error) {
	run, err := r.tools.RunTests(ctx, append(cp, r.tools.JUnitJar), []string{testClass}, reportDir, log)
	if err != nil {
		return nil, err
	}
	return run.Of(testClass), nil
}

// runReport is the part of `advertest run --json` the benchmark reads.
type runReport struct {
	MutationScore *float64 `json:"mutationScore"`
	Tests         struct {
		File    string   `json:"file"`
		Methods []string `json:"methods"`
	} `json:"tests"`
}

func readReport(path string) (*runReport, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("reading the run's report: %w", err)
	}
	var rep runReport
	if err := json.Unmarshal(b, &rep); err != nil {
		return nil, fmt.Errorf("parsing the run's report %s: %w", path, err)
	}
	return &rep, nil
}

// copyProject copies the benchmark's project to dst without its build output and without
// what the agents must not see: the manifest (the faults themselves) and the witnesses.
func copyProject(src, dst string) error {
	if err := buildtest.CopyProject(src, dst); err != nil {
		return fmt.Errorf("copying the project: %w", err)
	}
	return errors.Join(os.Remove(filepath.Join(dst, "faults.json")), os.RemoveAll(filepath.Join(dst, "witness")))
}

func failed(res Result, err error) Result {
	res.Status = Failed
	res.Error = err.Error()
	return res
}
