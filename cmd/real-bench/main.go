package main

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
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
	cache, libs, half, jsonPath, advertest string
	perHalf, faults                        int
	timeout, mutateTimeout                 time.Duration
	mutate, methods                        bool
	mutateMethods, classMax                int
	rerun, keep, list                      bool
	only                                   string
	junitJar                               string
}

func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("real-bench", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var o options
	fs.StringVar(&o.cache, "cache", defaultCache(), "the workbench's cache `folder`: source packages, layouts, seeded faults, results")
	fs.StringVar(&o.libs, "libs", "", "only these libraries (`NAMES`, comma-separated short names; default all)")
	fs.StringVar(&o.half, "half", "all", "which half of the sample: dev, holdout or all")
	fs.IntVar(&o.perHalf, "n", 30, "methods per half")
	fs.IntVar(&o.faults, "faults", 4, "seeded faults per method that count (the library's own tests detect them), at most")
	fs.DurationVar(&o.timeout, "timeout", 300*time.Second, "the time cap of one method's `advertest run`")
	fs.BoolVar(&o.methods, "methods", true, "measure the sampled methods (`advertest run` on each, the seeded faults)")
	fs.BoolVar(&o.mutate, "mutate", true, "also run `advertest mutate` with the libraries' own suites against a plain `mvn test`")
	fs.IntVar(&o.mutateMethods, "mutate-methods", 2, "sampled methods per library in its `advertest mutate`")
	fs.IntVar(&o.classMax, "mutate-class-max", 5, "the most methods the whole class given to `advertest mutate` may have")
	fs.DurationVar(&o.mutateTimeout, "mutate-timeout", 45*time.Minute, "the time cap of one `advertest mutate` or `mvn test`")
	fs.StringVar(&o.jsonPath, "json", "", "also write the results and figures as JSON to `FILE`")
	fs.StringVar(&o.advertest, "advertest", "", "the advertest binary (default: go build ./cmd/advertest; results are then cached by the repository's commit)")
	fs.StringVar(&o.junitJar, "junit", benchkit.DefaultJUnitJar, "the JUnit console launcher's standalone jar")
	fs.BoolVar(&o.rerun, "rerun", false, "measure every method again, ignoring the cached results of this commit")
	fs.BoolVar(&o.keep, "keep", false, "keep each method's work folder and print where")
	fs.BoolVar(&o.list, "list", false, "only lay out the libraries and print the sample")
	fs.StringVar(&o.only, "only", "", "measure only the sampled methods named here (`NAMES`, comma-separated, as Class#name or the id in the JSON)")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: real-bench [flags]\n\nThe real-code workbench: real open-source Java libraries from Debian's source packages, a fixed\nsample of their methods in two halves, `advertest run --agents offline` on each, the written suites\nchecked against faults seeded in the method, and `advertest mutate` with the libraries' own suites.\n\nflags:")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "real-bench: unexpected argument %q\n", fs.Arg(0))
		return 2
	}
	halves, err := halvesOf(o.half)
	if err != nil {
		fmt.Fprintln(stderr, "real-bench:", err)
		return 2
	}
	libs, err := selectLibraries(o.libs)
	if err != nil {
		fmt.Fprintln(stderr, "real-bench:", err)
		return 2
	}
	if o.perHalf < 1 || o.faults < 0 {
		fmt.Fprintln(stderr, "real-bench: -n must be at least 1 and -faults at least 0")
		return 2
	}
	doc, err := bench(ctx, o, libs, halves, stderr)
	if err != nil {
		fmt.Fprintln(stderr, "real-bench:", err)
		return 1
	}
	if o.list {
		printSample(stdout, doc)
		return 0
	}
	printTable(stdout, doc)
	if o.jsonPath != "" {
		doc.Command = strings.TrimSpace("real-bench " + strings.Join(args, " "))
		if err := writeJSON(o.jsonPath, doc); err != nil {
			fmt.Fprintln(stderr, "real-bench:", err)
			return 1
		}
	}
	if ctx.Err() != nil {
		return 130
	}
	return 0
}

// BenchDoc is the whole run: what -json writes and the table prints.
type BenchDoc struct {
	Date    string `json:"date"`
	Command string `json:"command"`
	// Commit is the tool's version the results are cached under.
	Commit string `json:"commit"`
	Cores  int    `json:"cores"`
	// LoadAverage at the start and at the end of the run.
	LoadStart string `json:"loadStart"`
	LoadEnd   string `json:"loadEnd"`
	// Libraries are the libraries laid out, Skipped those that could not be, with why.
	Libraries []LibraryInfo `json:"libraries"`
	Skipped   []SkippedLib  `json:"skipped,omitempty"`
	// Sample is the methods drawn, per half.
	Sample map[Half][]Method `json:"sample"`
	// Results are the measured methods, dev half first; Cached how many came from the cache.
	Results []MethodResult `json:"results"`
	Cached  int            `json:"cached"`
	// Summaries: per "library/half", per half ("dev", "holdout") and "all".
	Summaries map[string]Summary `json:"summaries"`
	Mutation  []MutateResult     `json:"mutation,omitempty"`
}

// LibraryInfo is a laid-out library.
type LibraryInfo struct {
	Name       string      `json:"name"`
	Package    string      `json:"package"`
	Version    string      `json:"version"`
	Kind       string      `json:"kind"`
	Candidates int         `json:"candidates"`
	Suite      SuiteReport `json:"suite"`
}

// SkippedLib is a library that could not be fetched or built.
type SkippedLib struct {
	Library string `json:"library"`
	Reason  string `json:"reason"`
	Err     error  `json:"-"`
}

func bench(ctx context.Context, o options, libs []Library, halves []Half, stderr io.Writer) (*BenchDoc, error) {
	doc := &BenchDoc{Date: time.Now().Format(time.RFC3339), Cores: runtime.NumCPU(), LoadStart: benchkit.LoadAverage(),
		Summaries: map[string]Summary{}}
	if err := os.MkdirAll(o.cache, 0o755); err != nil {
		return nil, fmt.Errorf("the cache folder: %w", err)
	}
	tools := benchkit.JavaTools{Java: "java", Javac: "javac", JUnitJar: o.junitJar, TestTimeout: 10 * time.Second, SuiteTimeout: 10 * time.Minute}
	for _, t := range []string{tools.Java, tools.Javac, "mvn"} {
		if _, err := exec.LookPath(t); err != nil {
			return nil, fmt.Errorf("%s not found: %w (make deps installs it)", t, err)
		}
	}
	if _, err := os.Stat(tools.JUnitJar); err != nil {
		return nil, fmt.Errorf("the JUnit console launcher: %w (Debian: apt-get install junit5)", err)
	}

	// The libraries, laid out (once: later runs find them in the cache).
	lays, candidates, names, skipped, err := layOut(ctx, o.cache, libs, PrepareOptions{}, tools, stderr)
	if err != nil {
		return nil, err
	}
	doc.Skipped = skipped
	for _, name := range names {
		lay := lays[name]
		doc.Libraries = append(doc.Libraries, LibraryInfo{Name: name, Package: lay.Library.Package, Version: lay.Version,
			Kind: lay.Library.Kind, Candidates: len(candidates[name]), Suite: lay.SuiteReport})
	}
	if len(names) == 0 {
		return nil, errors.New("no library could be laid out (see the reasons above)")
	}
	doc.Sample = Sample(names, candidates, o.perHalf)
	for h := range doc.Sample {
		if !slices.Contains(halves, h) {
			delete(doc.Sample, h)
		}
	}
	if o.list {
		return doc, nil
	}

	commit, err := commitKey(o.advertest)
	if err != nil {
		return nil, err
	}
	doc.Commit = commit
	bin := o.advertest
	if bin == "" {
		bin = filepath.Join(o.cache, "bin", commit, "advertest")
		if _, err := os.Stat(bin); err != nil {
			fmt.Fprintln(stderr, "building advertest…")
			if err := os.MkdirAll(filepath.Dir(bin), 0o755); err != nil {
				return nil, err
			}
			if err := benchkit.BuildAdvertest(ctx, bin+".tmp"); err != nil {
				return nil, err
			}
			if err := os.Rename(bin+".tmp", bin); err != nil {
				return nil, err
			}
		}
	} else if bin, err = filepath.Abs(bin); err != nil {
		return nil, err
	}
	work, err := os.MkdirTemp("", "real-bench-")
	if err != nil {
		return nil, err
	}
	if o.keep {
		fmt.Fprintln(stderr, "work folder:", work)
	} else {
		defer os.RemoveAll(work)
	}

	// The methods, dev half first, each library's in sample order.
	var todo []Method
	for _, h := range halves {
		for _, m := range doc.Sample[h] {
			if o.only == "" || slices.ContainsFunc(strings.Split(o.only, ","), func(n string) bool { return n == m.Display() || n == m.ID() }) {
				todo = append(todo, m)
			}
		}
	}
	runners := map[string]*methodRunner{}
	for name, lay := range lays {
		runners[name] = &methodRunner{
			lay: lay, advertest: bin, tools: tools, timeout: o.timeout, commit: commit, work: work, keep: o.keep,
			faults: &faultsPlanner{lay: lay, tools: tools, dir: filepath.Join(o.cache, "faults", lay.Library.Package+"_"+lay.Version),
				perMethod: o.faults, tries: 3 * o.faults},
		}
	}
	if !o.methods {
		todo = nil
	}
	for i, m := range todo {
		if ctx.Err() != nil {
			break
		}
		path := resultPath(o.cache, commit, lays[m.Library], m)
		var res MethodResult
		if !o.rerun && readJSONFile(path, &res) == nil && res.Method.Key == m.Key && res.Seeder == SeederVersion {
			doc.Cached++
		} else {
			res = runners[m.Library].measure(ctx, m)
			if ctx.Err() != nil {
				break // an interrupted method is measured again next time
			}
			if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
				return nil, err
			}
			if err := writeJSON(path, res); err != nil {
				return nil, err
			}
		}
		doc.Results = append(doc.Results, res)
		fmt.Fprintf(stderr, "[%d/%d] %s\n", i+1, len(todo), methodLine(res))
	}
	summarizeAll(doc)

	if o.mutate && ctx.Err() == nil {
		for _, name := range names {
			lay := lays[name]
			if lay.Suite == nil || ctx.Err() != nil {
				continue
			}
			path := filepath.Join(o.cache, "results", commit, lay.Library.Package+"_"+lay.Version, "mutate.json")
			var res MutateResult
			if o.rerun || readJSONFile(path, &res) != nil || res.Measure != MutateVersion {
				fmt.Fprintf(stderr, "mutation analysis with %s's own suite…\n", name)
				var sample []Method
				for _, h := range halves {
					for _, m := range doc.Sample[h] {
						if m.Library == name {
							sample = append(sample, m)
						}
					}
				}
				mr := &mutateRunner{lay: lay, advertest: bin, timeout: o.mutateTimeout, commit: commit, work: work, keep: o.keep,
					methods: o.mutateMethods, classMax: o.classMax}
				res = mr.run(ctx, sample, candidates[name])
				if ctx.Err() != nil {
					break
				}
				if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
					return nil, err
				}
				if err := writeJSON(path, res); err != nil {
					return nil, err
				}
			}
			doc.Mutation = append(doc.Mutation, res)
		}
	}
	doc.LoadEnd = benchkit.LoadAverage()
	return doc, nil
}

// layOut prepares the libraries and lists their methods. A library that cannot be fetched,
// built or listed is reported (on log, and in skipped with the reason) and left out; only an
// interruption is an error.
func layOut(ctx context.Context, cache string, libs []Library, opts PrepareOptions, tools benchkit.JavaTools, log io.Writer) (
	lays map[string]*Layouts, candidates map[string][]Method, names []string, skipped []SkippedLib, err error) {
	lays, candidates = map[string]*Layouts{}, map[string][]Method{}
	for _, lib := range libs {
		if ctx.Err() != nil {
			return nil, nil, nil, nil, ctx.Err()
		}
		fmt.Fprintf(log, "laying out %s (%s)…\n", lib.Name, lib.Package)
		lay, err := Prepare(ctx, cache, lib, opts, log)
		if err == nil {
			// The benchmark's own JUnit runs add the launcher's jar to the class path.
			err = CheckClasspath([]string{tools.JUnitJar}, lib.Packages)
		}
		var ms []Method
		if err == nil {
			ms, err = ListMethods(lib.Name, lay.Version, lay.Main.Dir)
		}
		if err != nil {
			if ctx.Err() != nil {
				return nil, nil, nil, nil, ctx.Err()
			}
			fmt.Fprintf(log, "skipping %s: %v\n", lib.Name, err)
			skipped = append(skipped, SkippedLib{Library: lib.Name, Reason: err.Error(), Err: err})
			continue
		}
		lays[lib.Name], candidates[lib.Name] = lay, ms
		names = append(names, lib.Name)
	}
	return lays, candidates, names, skipped, nil
}

// summarizeAll fills the summaries: per library and half, per half, and all.
func summarizeAll(doc *BenchDoc) {
	groups := map[string][]MethodResult{}
	for _, r := range doc.Results {
		groups[r.Method.Library+"/"+string(r.Method.Half)] = append(groups[r.Method.Library+"/"+string(r.Method.Half)], r)
		groups[string(r.Method.Half)] = append(groups[string(r.Method.Half)], r)
		groups["all"] = append(groups["all"], r)
	}
	for k, rs := range groups {
		doc.Summaries[k] = summarize(rs)
	}
}

// resultPath is where a method's result is cached: by the tool's commit, the package version
// and the method.
func resultPath(cache, commit string, lay *Layouts, m Method) string {
	return filepath.Join(cache, "results", commit, lay.Library.Package+"_"+lay.Version, m.ID()+".json")
}

// commitKey names the tool under measurement: the repository's commit (with a hash of the
// uncommitted changes when there are any), or the given binary's hash.
func commitKey(bin string) (string, error) {
	if bin != "" {
		b, err := os.ReadFile(bin)
		if err != nil {
			return "", fmt.Errorf("the advertest binary: %w", err)
		}
		h := sha256.Sum256(b)
		return "bin-" + hex.EncodeToString(h[:6]), nil
	}
	head, err := exec.Command("git", "rev-parse", "--short=12", "HEAD").Output()
	if err != nil {
		return "", fmt.Errorf("the repository's commit (run from the repository, or give -advertest): %w", err)
	}
	key := strings.TrimSpace(string(head))
	diff, err := exec.Command("git", "diff", "HEAD").Output()
	if err != nil {
		return "", fmt.Errorf("git diff: %w", err)
	}
	untracked, err := exec.Command("git", "ls-files", "--others", "--exclude-standard").Output()
	if err != nil {
		return "", fmt.Errorf("git ls-files: %w", err)
	}
	if len(diff) > 0 || len(untracked) > 0 {
		h := sha256.New()
		h.Write(diff)
		for _, f := range strings.Fields(string(untracked)) {
			b, _ := os.ReadFile(f)
			h.Write([]byte(f))
			h.Write(b)
		}
		key += "-dirty-" + hex.EncodeToString(h.Sum(nil)[:4])
	}
	return key, nil
}

// defaultCache is $XDG_CACHE_HOME/advertest-real-bench, else ~/.cache/advertest-real-bench.
func defaultCache() string {
	dir, err := os.UserCacheDir()
	if err != nil {
		dir = os.TempDir()
	}
	return filepath.Join(dir, "advertest-real-bench")
}

func halvesOf(s string) ([]Half, error) {
	switch s {
	case "dev":
		return []Half{Dev}, nil
	case "holdout":
		return []Half{Holdout}, nil
	case "all":
		return []Half{Dev, Holdout}, nil
	}
	return nil, fmt.Errorf("-half: want dev, holdout or all, got %q", s)
}

func selectLibraries(s string) ([]Library, error) {
	if s == "" {
		return Libraries, nil
	}
	var out []Library
	for _, name := range strings.Split(s, ",") {
		lib, ok := LibraryByName(strings.TrimSpace(name))
		if !ok {
			var known []string
			for _, l := range Libraries {
				known = append(known, l.Name)
			}
			return nil, fmt.Errorf("-libs: no library %q (the workbench has %s)", name, strings.Join(known, ", "))
		}
		out = append(out, lib)
	}
	return out, nil
}

// printSample is -list: the libraries and the methods drawn.
func printSample(w io.Writer, doc *BenchDoc) {
	for _, l := range doc.Libraries {
		suite := "no own suite"
		if l.Suite.Counts {
			suite = fmt.Sprintf("own suite: %d of %d test classes", l.Suite.Compiled, l.Suite.TestClasses)
		} else if l.Suite.Reason != "" {
			suite = "no own suite: " + l.Suite.Reason
		}
		fmt.Fprintf(w, "%-12s %-30s %-18s %-11s %5d methods  %s\n", l.Name, l.Package, l.Version, l.Kind, l.Candidates, suite)
	}
	for _, s := range doc.Skipped {
		fmt.Fprintf(w, "%-12s skipped: %s\n", s.Library, s.Reason)
	}
	for _, h := range []Half{Dev, Holdout} {
		for _, m := range doc.Sample[h] {
			fmt.Fprintf(w, "%-8s %-12s %-60s %-34s %s\n", h, m.Library, m.Target(), m.Display(), strings.Join(m.Kinds, ","))
		}
	}
}
