package main

import (
	"cmp"
	"context"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/advertest/advertest-lsp/cmd/internal/benchkit"
	"github.com/advertest/advertest-lsp/loop/report"
)

// MutateResult is item 4 of the workbench for one library: mutation analysis with the
// library's own suite (`advertest mutate`) on sampled methods and on one whole class, against
// one plain `mvn test` of the library, side by side in one run.
type MutateResult struct {
	// Measure is MutateVersion when it was measured: a cached result of another is measured
	// again.
	Measure int    `json:"measure"`
	Library string `json:"library"`
	Version string `json:"version"`
	// MvnTest is the plain `mvn test` of the suite layout.
	MvnTest MvnTest `json:"mvnTest"`
	// Methods is `advertest mutate` on sampled methods (in one command); Class on every method
	// of one file.
	Methods *MutateRun `json:"methods,omitempty"`
	Class   *MutateRun `json:"class,omitempty"`
	// Second is `advertest mutate` in a fresh process on the project Methods ran on, on a
	// sampled method of another class: what the coverage map Methods left saves
	// (docs/coverage-map.md).
	Second *MutateRun `json:"second,omitempty"`
	// Server is Analyze in one `advertest lsp`: the first sampled method, then Second's.
	Server *ServerRun `json:"server,omitempty"`
	// Skipped says why a part did not run.
	Skipped []string `json:"skipped,omitempty"`
	At      string   `json:"at"`
	Commit  string   `json:"commit"`
}

// MutateVersion changes when what the mutation part measures changes.
const MutateVersion = 4

// MvnTest is one plain `mvn test` run.
type MvnTest struct {
	Seconds  float64 `json:"seconds"`
	Tests    int     `json:"tests"`
	Failures int     `json:"failures"`
	Errors   int     `json:"errors"`
	Skipped  int     `json:"skipped"`
	Error    string  `json:"error,omitempty"`
}

// MutateRun is one `advertest mutate` command.
type MutateRun struct {
	Targets  []string `json:"targets"`
	Seconds  float64  `json:"seconds"`
	TimedOut bool     `json:"timedOut,omitempty"`
	Methods  int      `json:"methods"`
	// Mutants are all the mutants; Evaluated those the engine ran tests on.
	Mutants   int `json:"mutants"`
	Evaluated int `json:"evaluated"`
	// BaselineSeconds sums the methods' baselines (the original's tests with per-test
	// coverage); BaselineShare is it over the methods' total times (their timing.totalMs: the
	// methods of different files run at once, so the sum can exceed the wall time).
	BaselineSeconds float64 `json:"baselineSeconds"`
	MethodsSeconds  float64 `json:"methodsSeconds"`
	BaselineShare   float64 `json:"baselineShare"`
	MutantsSeconds  float64 `json:"mutantsSeconds"`
	// MutantsPerSecond is the mutants over the whole command's wall time.
	MutantsPerSecond float64  `json:"mutantsPerSecond"`
	Score            *float64 `json:"score"`
	// FailingOnOriginal counts the project's tests that fail on the original.
	FailingOnOriginal int `json:"failingOnOriginal"`
	// MapNotRun, MapReaching and MapRerun sum the reports' timing.coverageMap: the project's
	// tests the map let the baselines skip, those it knew to reach the method, and those it did
	// not know (run and recorded); MapBytes is the largest map file a report gave.
	MapNotRun   int   `json:"mapNotRun"`
	MapReaching int   `json:"mapReaching"`
	MapRerun    int   `json:"mapRerun"`
	MapBytes    int64 `json:"mapBytes"`
	// FirstVerdictSeconds is when the first method's verdicts were known: its
	// timing.firstVerdictsMs (the likely tests', without a map), else its timing.totalMs.
	FirstVerdictSeconds float64 `json:"firstVerdictSeconds"`
	Error               string  `json:"error,omitempty"`
}

// mutateRunner runs item 4 for one library.
type mutateRunner struct {
	lay       *Layouts
	advertest string
	timeout   time.Duration
	commit    string
	work      string
	keep      bool
	// methods is how many sampled methods go into the one `advertest mutate`; classMax the
	// most methods a whole class may have to be chosen.
	methods, classMax int
}

func (r *mutateRunner) run(ctx context.Context, sample []Method, all []Method) MutateResult {
	res := MutateResult{Measure: MutateVersion, Library: r.lay.Library.Name, Version: r.lay.Version, At: time.Now().Format(time.RFC3339), Commit: r.commit}
	dir, err := os.MkdirTemp(r.work, "mutate-"+r.lay.Library.Name+"-")
	if err != nil {
		res.MvnTest.Error = err.Error()
		return res
	}
	if !r.keep {
		defer os.RemoveAll(dir)
	}
	res.MvnTest = r.mvnTest(ctx, filepath.Join(dir, "mvn-test"))

	var targets []string
	for _, m := range sample {
		if len(targets) == r.methods {
			break
		}
		targets = append(targets, m.Target())
	}
	if len(targets) > 0 {
		res.Methods = r.mutate(ctx, filepath.Join(dir, "methods"), targets, false)
		if second, ok := otherClass(sample, sample[:len(targets)]); ok {
			res.Second = r.mutate(ctx, filepath.Join(dir, "methods"), []string{second.Target()}, true)
			res.Server = r.serverRun(ctx, filepath.Join(dir, "server"), sample[0], second)
		} else {
			res.Skipped = append(res.Skipped, "no sampled method of another class for the second run")
		}
	} else {
		res.Skipped = append(res.Skipped, "no sampled method")
	}
	if file, n := smallestClass(sample, all, r.classMax); file != "" {
		res.Class = r.mutate(ctx, filepath.Join(dir, "class"), []string{file}, false)
		res.Class.Methods = max(res.Class.Methods, n)
	} else {
		res.Skipped = append(res.Skipped, fmt.Sprintf("no file of the library has from 2 to %d methods", r.classMax))
	}
	return res
}

// otherClass is the first sampled method whose file none of done's is: the second run's.
func otherClass(sample, done []Method) (Method, bool) {
	for _, m := range sample {
		if !slices.ContainsFunc(done, func(d Method) bool { return d.File == m.File }) {
			return m, true
		}
	}
	return Method{}, false
}

// smallestClass is the whole class `advertest mutate` runs on: the first sampled method's file
// that has from 2 to classMax methods, else the library's file with the fewest methods in that
// range (ties by the first in the candidates' fixed order); "" when no file qualifies. It
// returns the file and its method count.
func smallestClass(sample, all []Method, classMax int) (string, int) {
	count := map[string]int{}
	for _, m := range all {
		count[m.File]++
	}
	fits := func(f string) bool { return count[f] >= 2 && count[f] <= classMax }
	for _, m := range sample {
		if fits(m.File) {
			return m.File, count[m.File]
		}
	}
	ordered := append([]Method(nil), all...)
	slices.SortFunc(ordered, func(a, b Method) int { return strings.Compare(a.Order, b.Order) })
	best := ""
	for _, m := range ordered {
		if fits(m.File) && (best == "" || count[m.File] < count[best]) {
			best = m.File
		}
	}
	return best, count[best]
}

// mvnTest runs `mvn test` on a fresh copy of the suite layout (the tests' failures do not stop
// it) and reads Surefire's reports.
func (r *mutateRunner) mvnTest(ctx context.Context, dir string) MvnTest {
	var t MvnTest
	root := filepath.Join(dir, "project")
	if err := freshCopy(*r.lay.Suite, root); err != nil {
		t.Error = err.Error()
		return t
	}
	ctx, cancel := context.WithTimeout(ctx, r.timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, "mvn", "-B", "-q", "test", "-Dmaven.test.failure.ignore=true")
	cmd.Dir = root
	start := time.Now()
	out, err := cmd.CombinedOutput()
	t.Seconds = time.Since(start).Seconds()
	_ = os.WriteFile(filepath.Join(dir, "mvn-test.log"), out, 0o644)
	if err != nil {
		t.Error = fmt.Sprintf("mvn test: %v\n%s", err, benchkit.Tail(string(out), 1500))
	}
	reports, _ := filepath.Glob(filepath.Join(root, "target", "surefire-reports", "TEST-*.xml"))
	for _, p := range reports {
		b, err := os.ReadFile(p)
		if err != nil {
			continue
		}
		var s struct {
			Tests    int `xml:"tests,attr"`
			Failures int `xml:"failures,attr"`
			Errors   int `xml:"errors,attr"`
			Skipped  int `xml:"skipped,attr"`
		}
		if xml.Unmarshal(b, &s) == nil {
			t.Tests, t.Failures, t.Errors, t.Skipped = t.Tests+s.Tests, t.Failures+s.Failures, t.Errors+s.Errors, t.Skipped+s.Skipped
		}
	}
	return t
}

// mutate runs `advertest mutate TARGETS --json` on a fresh copy of the suite layout, or with
// again on the copy an earlier mutate in dir made (a fresh process on the same project).
func (r *mutateRunner) mutate(ctx context.Context, dir string, targets []string, again bool) *MutateRun {
	run := &MutateRun{Targets: targets}
	root := filepath.Join(dir, "project")
	if !again {
		if err := freshCopy(*r.lay.Suite, root); err != nil {
			run.Error = err.Error()
			return run
		}
	}
	reportPath := filepath.Join(dir, "report.json")
	if again {
		reportPath = filepath.Join(dir, "report-again.json")
	}
	args := append([]string{"mutate"}, targets...)
	out, err := benchkit.Invocation{
		Bin: r.advertest, Dir: root, Log: filepath.Join(dir, "advertest.log"), Timeout: r.timeout,
		Args: append(args, "--json", reportPath),
	}.Run(ctx)
	run.Seconds, run.TimedOut = out.Seconds, out.TimedOut
	if err != nil {
		run.Error = err.Error()
	}
	reports, err := readAnyReport(reportPath)
	if err != nil {
		if run.Error == "" && !run.TimedOut {
			run.Error = err.Error()
		}
		return run
	}
	var killed, survived int
	for i, rep := range reports {
		if i == 0 {
			// An analysis without a map gives its first verdicts (the likely tests') early.
			run.FirstVerdictSeconds = float64(cmp.Or(rep.Timing.FirstVerdictsMs, rep.Timing.TotalMs)) / 1000
		}
		if cm := rep.Timing.CoverageMap; cm != nil {
			run.MapNotRun += cm.NotRun
			run.MapReaching += cm.Reaching
			run.MapRerun += cm.Rerun
			run.MapBytes = max(run.MapBytes, cm.Bytes)
		}
		run.Methods++
		run.Mutants += len(rep.Mutants)
		run.Evaluated += rep.Timing.MutantsEvaluated
		run.BaselineSeconds += float64(rep.Timing.BaselineMs) / 1000
		run.MethodsSeconds += float64(rep.Timing.TotalMs) / 1000
		run.MutantsSeconds += float64(rep.Timing.MutantsMs) / 1000
		for _, m := range rep.Mutants {
			switch m.Status {
			case report.Killed:
				killed++
			case report.Survived:
				survived++
			}
		}
		// The report lists the project's tests that fail on the original; one written before
		// it did has a warning for each.
		run.FailingOnOriginal += len(rep.ProjectTestsFailing)
		for _, w := range rep.Warnings {
			if len(rep.ProjectTestsFailing) == 0 && strings.Contains(w, "fails on the original") {
				run.FailingOnOriginal++
			}
		}
	}
	if run.MethodsSeconds > 0 {
		run.BaselineShare = run.BaselineSeconds / run.MethodsSeconds
	}
	if run.Seconds > 0 {
		run.MutantsPerSecond = float64(run.Mutants) / run.Seconds
	}
	if killed+survived > 0 {
		s := float64(killed) / float64(killed+survived)
		run.Score = &s
	}
	return run
}

// readAnyReport reads a report of one method or of many.
func readAnyReport(path string) ([]report.Report, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("reading the report: %w", err)
	}
	var probe map[string]json.RawMessage
	if err := json.Unmarshal(b, &probe); err != nil {
		return nil, fmt.Errorf("parsing the report %s: %w", path, err)
	}
	if _, many := probe["methods"]; many {
		var m report.Multi
		if err := json.Unmarshal(b, &m); err != nil {
			return nil, fmt.Errorf("parsing the report %s: %w", path, err)
		}
		return m.Methods, nil
	}
	var one report.Report
	if err := json.Unmarshal(b, &one); err != nil {
		return nil, fmt.Errorf("parsing the report %s: %w", path, err)
	}
	return []report.Report{one}, nil
}
