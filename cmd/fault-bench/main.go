package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"time"

	"github.com/advertest/advertest-lsp/cmd/internal/benchkit"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	code := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// options are the command's flags.
type options struct {
	manifest, half, only, jsonPath, advertest, java, javac, junitJar string
	parallel                                                         int
	timeout, testTimeout                                             time.Duration
	keep, check                                                      bool
}

func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("fault-bench", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var o options
	fs.StringVar(&o.manifest, "manifest", filepath.Join("examples", "fault-bench", "faults.json"), "the fault manifest; its folder is the Java project")
	fs.StringVar(&o.half, "half", "all", "which faults: dev, holdout or all")
	fs.StringVar(&o.only, "only", "", "run only these faults (`NAMES`, comma-separated, as Class.method)")
	fs.IntVar(&o.parallel, "parallel", 1, "faults run at once (each `advertest run` uses its own worker JVMs)")
	fs.StringVar(&o.jsonPath, "json", "", "also write the results and figures as JSON to `PATH`")
	fs.DurationVar(&o.timeout, "timeout", 300*time.Second, "limit of one `advertest run`; past it the fault counts as not detected")
	fs.DurationVar(&o.testTimeout, "test-timeout", 10*time.Second, "JUnit's limit per generated test when the benchmark runs them")
	fs.StringVar(&o.advertest, "advertest", "", "the advertest binary (default: go build ./cmd/advertest into the work folder)")
	fs.StringVar(&o.java, "java", "java", "the java launcher")
	fs.StringVar(&o.javac, "javac", "javac", "the Java compiler")
	fs.StringVar(&o.junitJar, "junit", benchkit.DefaultJUnitJar, "the JUnit console launcher's standalone jar")
	fs.BoolVar(&o.keep, "keep", false, "keep each fault's work folder (the copy, the logs, the classes) and print where")
	fs.BoolVar(&o.check, "check", false, "only check the manifest: the faults apply, compile, and their witnesses tell them apart")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: fault-bench [flags]\n\nRuns `advertest run --agents offline` on each method of the fault benchmark, applies the\nmethod's fault and reruns the generated tests; prints the detection rate and the time per method.\n\nflags:")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "fault-bench: unexpected argument %q\n", fs.Arg(0))
		return 2
	}
	var half Half
	switch o.half {
	case "dev", "holdout":
		half = Half(o.half)
	case "all":
	default:
		fmt.Fprintf(stderr, "fault-bench: -half: want dev, holdout or all, got %q\n", o.half)
		return 2
	}
	if o.parallel < 1 {
		fmt.Fprintln(stderr, "fault-bench: -parallel must be at least 1")
		return 2
	}
	m, err := LoadManifest(o.manifest)
	if err != nil {
		fmt.Fprintln(stderr, "fault-bench:", err)
		return 1
	}
	var names []string
	if o.only != "" {
		names = strings.Split(o.only, ",")
	}
	faults, err := m.Select(half, names)
	if err != nil {
		fmt.Fprintln(stderr, "fault-bench:", err)
		return 2
	}
	if o.check {
		return runCheck(ctx, m, faults, o.java, stdout, stderr)
	}
	results, err := runBench(ctx, m, faults, o, stderr)
	if err != nil {
		fmt.Fprintln(stderr, "fault-bench:", err)
		return 1
	}
	printTable(stdout, results)
	if o.jsonPath != "" {
		if err := writeJSON(o.jsonPath, args, o, results); err != nil {
			fmt.Fprintln(stderr, "fault-bench:", err)
			return 1
		}
	}
	if ctx.Err() != nil {
		return 130
	}
	return 0
}

// runCheck is -check: every fault applies, compiles and is told apart by its witness.
func runCheck(ctx context.Context, m *Manifest, faults []Fault, java string, stdout, stderr io.Writer) int {
	results, err := CheckFaults(ctx, m, faults, java)
	if err != nil {
		fmt.Fprintln(stderr, "fault-bench:", err)
		return 1
	}
	bad := 0
	for _, r := range results {
		if r.OK {
			continue
		}
		bad++
		fmt.Fprintf(stdout, "%s: %s\n", r.What, r.Detail)
	}
	dev, holdout := 0, 0
	for _, f := range m.Faults {
		if f.Half() == Dev {
			dev++
		} else {
			holdout++
		}
	}
	fmt.Fprintf(stdout, "%d faults checked (%d checks failed); the manifest has %d in the dev half, %d in the holdout half\n", len(faults), bad, dev, holdout)
	if bad > 0 {
		return 1
	}
	return 0
}

// runBench runs the faults, o.parallel at a time, reporting each on stderr as it ends.
func runBench(ctx context.Context, m *Manifest, faults []Fault, o options, stderr io.Writer) ([]Result, error) {
	work, err := os.MkdirTemp("", "fault-bench-")
	if err != nil {
		return nil, err
	}
	if o.keep {
		fmt.Fprintln(stderr, "work folder:", work)
	} else {
		defer os.RemoveAll(work)
	}
	for _, tool := range []string{o.java, o.javac} {
		if _, err := exec.LookPath(tool); err != nil {
			return nil, fmt.Errorf("%s not found: the benchmark compiles and runs the generated tests itself: %w", tool, err)
		}
	}
	if _, err := os.Stat(o.junitJar); err != nil {
		return nil, fmt.Errorf("the JUnit console launcher: %w (Debian: apt-get install junit5)", err)
	}
	bin := o.advertest
	if bin == "" {
		bin = filepath.Join(work, "advertest")
		fmt.Fprintln(stderr, "building advertest…")
		if err := benchkit.BuildAdvertest(ctx, bin); err != nil {
			return nil, err
		}
	} else if bin, err = filepath.Abs(bin); err != nil {
		return nil, err
	}
	r := &runner{
		manifest: m, advertest: bin, timeout: o.timeout, work: work, keep: o.keep,
		tools: benchkit.JavaTools{Java: o.java, Javac: o.javac, JUnitJar: o.junitJar,
			TestTimeout: o.testTimeout, SuiteTimeout: 20*o.testTimeout + 60*time.Second},
	}
	fmt.Fprintf(stderr, "%d faults, %d at a time, %s per run at most\n", len(faults), o.parallel, o.timeout)

	results := make([]Result, len(faults))
	next := make(chan int)
	var wg sync.WaitGroup
	var mu sync.Mutex // guards done and the progress lines on stderr
	done := 0
	for range o.parallel {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				res := r.run(ctx, faults[i])
				results[i] = res
				mu.Lock()
				done++
				fmt.Fprintf(stderr, "[%d/%d] %s\n", done, len(faults), resultLine(res))
				if res.Dir != "" {
					fmt.Fprintf(stderr, "        kept in %s\n", res.Dir)
				}
				mu.Unlock()
			}
		}()
	}
	for i := range faults {
		if ctx.Err() != nil {
			results[i] = Result{Name: faults[i].Name(), Half: faults[i].Half(), Kind: faults[i].Kind, Status: Interrupted}
			continue
		}
		next <- i
	}
	close(next)
	wg.Wait()
	return results, nil
}

// benchJSON is -json's document.
type benchJSON struct {
	Date           string             `json:"date"`
	Command        string             `json:"command"`
	Cores          int                `json:"cores"`
	LoadAverage    string             `json:"loadAverage,omitempty"`
	TimeoutSeconds float64            `json:"timeoutSeconds"`
	Parallel       int                `json:"parallel"`
	Summary        map[string]Summary `json:"summary"`
	Faults         []Result           `json:"faults"`
}

func writeJSON(path string, args []string, o options, results []Result) error {
	doc := benchJSON{
		Date:           time.Now().Format(time.RFC3339),
		Command:        strings.TrimSpace("fault-bench " + strings.Join(args, " ")),
		Cores:          runtime.NumCPU(),
		LoadAverage:    benchkit.LoadAverage(),
		TimeoutSeconds: o.timeout.Seconds(),
		Parallel:       o.parallel,
		Summary: map[string]Summary{
			"dev": summarize(results, Dev), "holdout": summarize(results, Holdout), "all": summarize(results, ""),
		},
		Faults: results,
	}
	b, err := json.MarshalIndent(doc, "", "  ")
	if err != nil {
		return err
	}
	if err := os.WriteFile(path, append(b, '\n'), 0o644); err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	return nil
}
