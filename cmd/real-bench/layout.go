package main

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"
)

// LayoutVersion is the version of the layout code: bump it whenever what Prepare makes changes,
// so that layouts cached by an older build are made again. It is part of a layout's folder
// name and of its layouts.json.
const LayoutVersion = 1

// layoutRecordName is the record Prepare writes last into a layout's folder, next to main/ and
// suite/: its presence (with the same LayoutVersion and key) means the folder is complete.
const layoutRecordName = "layouts.json"

// minSuiteShare is the share of a suite's test classes that must compile for it to count.
const minSuiteShare = 0.8

// maxCompileRounds bounds the rounds of leaving out what javac rejects (each round leaves out
// at least one file).
const maxCompileRounds = 40

// PrepareOptions change what Prepare lays out.
type PrepareOptions struct {
	// OnlyTests, when set, are the test sources the suite layout holds (paths relative to
	// src/test/java, "org/apache/commons/lang3/CharUtilsTest.java"), with the test sources
	// they need to compile (an abstract base test class, a helper): a small suite for a smoke
	// test. Such a layout has a cache folder of its own.
	OnlyTests []string

	// run replaces the runner of external commands (apt-get, tar, mvn, javac, java), and
	// sources the machine's apt source list: for tests. Zero values: the real ones.
	run     runner
	sources string
}

// layoutRecord is layouts.json. Paths in it are relative to the cache folder (class path jars
// excepted), so that a cache that moved is still used.
type layoutRecord struct {
	LayoutVersion int
	Key           string
	Layouts       Layouts
	// Seconds is how long the first Prepare took.
	Seconds float64
}

// Prepare fetches lib (Fetch) and lays it out in cache, once per Debian version, layout
// version, library facts and OnlyTests: the main-sources Maven project (Layouts.Main) and the
// one with the library's own tests that compile here (Layouts.Suite), both built. A later
// Prepare of the same finds its layouts.json and returns at once, running no command. Progress
// goes to log (nil: nowhere). A library that cannot be fetched is a *FetchError; one whose
// main sources do not build, or whose class path holds a jar of itself (*LeakError), another
// error; a suite that does not build or count is no error (Layouts.SuiteReport says why). The
// record is written last, so an interrupted Prepare leaves nothing a later one trusts: that one
// builds the layout anew. Safe for several goroutines and processes (a lock file per layout).
func Prepare(ctx context.Context, cache string, lib Library, opts PrepareOptions, log io.Writer) (*Layouts, error) {
	if log == nil {
		log = io.Discard
	}
	cache, err := filepath.Abs(cache)
	if err != nil {
		return nil, err
	}
	f := fetcher{cache: cache, run: opts.run, sources: opts.sources}
	if f.run == nil {
		f.run = execRunner
	}
	if f.sources == "" {
		f.sources = debianSources
	}
	start := time.Now()
	got, err := f.fetch(ctx, lib)
	if err != nil {
		return nil, err
	}
	key := layoutKey(lib, opts.OnlyTests)
	name := safeName(got.Version) + "-l" + strconv.Itoa(LayoutVersion) + "-" + key
	parent := filepath.Join(cache, "layouts", lib.Name)
	dir := filepath.Join(parent, name)
	if l, err := loadLayouts(dir, cache, key); err == nil {
		return l, nil
	}
	// One process builds a layout at a time; one that waited finds it done.
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return nil, fmt.Errorf("%s: making the layouts folder: %w", lib.Name, err)
	}
	unlock, err := lockFile(ctx, dir+".lock")
	if err != nil {
		return nil, fmt.Errorf("%s: %w", lib.Name, err)
	}
	defer unlock()
	if l, err := loadLayouts(dir, cache, key); err == nil {
		return l, nil
	}
	// Whatever is at dir has no valid record: an interrupted or failed Prepare's. Build anew in
	// place (the Maven projects' own state names their folder, so they are not built elsewhere
	// and moved), and write the record last.
	if err := os.RemoveAll(dir); err != nil {
		return nil, fmt.Errorf("%s: removing the incomplete %s: %w", lib.Name, dir, err)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("%s: %w", lib.Name, err)
	}
	fmt.Fprintf(log, "%s: laying out %s %s in %s\n", lib.Name, got.Source, got.Version, dir)
	b := &builder{ctx: ctx, run: f.run, lib: lib, fetched: got, dir: dir, log: log}
	l, err := b.build(opts.OnlyTests)
	if err != nil {
		return nil, fmt.Errorf("%s %s: %w", lib.Name, got.Version, err)
	}
	l.Upstream = got.Upstream
	rec := layoutRecord{LayoutVersion: LayoutVersion, Key: key, Layouts: *l, Seconds: time.Since(start).Seconds()}
	if err := relativePaths(&rec.Layouts, cache); err != nil {
		return nil, fmt.Errorf("%s: %w", lib.Name, err)
	}
	if err := writeJSON(filepath.Join(dir, layoutRecordName), rec); err != nil {
		return nil, fmt.Errorf("%s: writing %s: %w", lib.Name, layoutRecordName, err)
	}
	fmt.Fprintf(log, "%s: laid out in %.0f s\n", lib.Name, time.Since(start).Seconds())
	return loadLayouts(dir, cache, key)
}

// layoutKey is a short hash of what a layout is made from besides the package version: the
// library's facts and OnlyTests (so that editing library.go never serves a stale layout).
func layoutKey(lib Library, only []string) string {
	sorted := append([]string(nil), only...)
	sort.Strings(sorted)
	b, _ := json.Marshal(struct {
		Lib  Library
		Only []string
	}{lib, sorted})
	h := sha256.Sum256(b)
	key := hex.EncodeToString(h[:6])
	if len(only) > 0 {
		key += "-only"
	}
	return key
}

// safeName makes a Debian version usable as a folder name ("1:2.0-1" → "1_2.0-1").
func safeName(v string) string {
	return strings.Map(func(r rune) rune {
		if r == '/' || r == ':' || r == '\\' || r == ' ' {
			return '_'
		}
		return r
	}, v)
}

// loadLayouts reads a complete layout folder's record, its paths made absolute.
func loadLayouts(dir, cache, key string) (*Layouts, error) {
	b, err := os.ReadFile(filepath.Join(dir, layoutRecordName))
	if err != nil {
		return nil, err
	}
	var rec layoutRecord
	if err := json.Unmarshal(b, &rec); err != nil {
		return nil, fmt.Errorf("reading %s: %w", layoutRecordName, err)
	}
	if rec.LayoutVersion != LayoutVersion || rec.Key != key {
		return nil, fmt.Errorf("%s is of layout version %d, key %s", dir, rec.LayoutVersion, rec.Key)
	}
	l := rec.Layouts
	abs := func(p string) string {
		if p == "" || filepath.IsAbs(p) {
			return p
		}
		return filepath.Join(cache, p)
	}
	mapPaths(&l, abs)
	if _, err := os.Stat(l.Main.ClassesDir); err != nil {
		return nil, err
	}
	return &l, nil
}

// relativePaths makes l's paths relative to cache.
func relativePaths(l *Layouts, cache string) error {
	var bad error
	mapPaths(l, func(p string) string {
		if p == "" {
			return p
		}
		rel, err := filepath.Rel(cache, p)
		if err != nil || strings.HasPrefix(rel, "..") {
			bad = fmt.Errorf("%s is outside the cache %s", p, cache)
		}
		return rel
	})
	return bad
}

// mapPaths applies f to every path of l that lies in the cache.
func mapPaths(l *Layouts, f func(string) string) {
	l.Upstream = f(l.Upstream)
	for _, p := range []*Project{&l.Main, l.Suite} {
		if p != nil {
			p.Dir, p.ClassesDir, p.TestClassesDir = f(p.Dir), f(p.ClassesDir), f(p.TestClassesDir)
		}
	}
}

// builder lays out one library in dir.
type builder struct {
	ctx     context.Context
	run     runner
	lib     Library
	fetched *Fetched
	dir     string
	log     io.Writer
}

func (b *builder) build(only []string) (*Layouts, error) {
	l := &Layouts{Library: b.lib, Version: b.fetched.Version}
	main, err := b.mainLayout()
	if err != nil {
		return nil, err
	}
	l.Main = *main
	suite, report, err := b.suiteLayout(only)
	if err != nil {
		return nil, err
	}
	l.Suite, l.SuiteReport = suite, report
	return l, nil
}

// mainLayout lays out and builds the main sources alone, with the library's JUnit as the only
// test dependency.
func (b *builder) mainLayout() (*Project, error) {
	start := time.Now()
	up := b.fetched.Upstream
	dir := filepath.Join(b.dir, "main")
	if err := copyTree(filepath.Join(up, "src", "main", "java"), filepath.Join(dir, "src", "main", "java"), nil); err != nil {
		return nil, fmt.Errorf("copying the main sources: %w", err)
	}
	if err := b.mainResources(dir); err != nil {
		return nil, err
	}
	if err := writePom(dir, b.lib, b.fetched.Version, "main"); err != nil {
		return nil, fmt.Errorf("writing the main pom: %w", err)
	}
	if _, err := b.mvn(dir, "main-compile", "test-compile", "dependency:build-classpath", "-Dmdep.outputFile=target/classpath.txt"); err != nil {
		return nil, fmt.Errorf("the main sources do not build: %w", err)
	}
	cp, err := readClasspathFile(filepath.Join(dir, "target", "classpath.txt"))
	if err != nil {
		return nil, fmt.Errorf("reading the main class path: %w", err)
	}
	if b.lib.Build.TimeZoneData {
		if err := b.timeZoneData(dir, cp); err != nil {
			return nil, err
		}
	}
	if err := CheckClasspath(cp, b.lib.Packages); err != nil {
		return nil, fmt.Errorf("main layout: %w", err)
	}
	fmt.Fprintf(b.log, "%s: main sources built (%.0f s)\n", b.lib.Name, time.Since(start).Seconds())
	return b.project(dir, cp), nil
}

// mainResources copies the upstream main resources, and the resources the upstream build
// takes from src/main/java, into the layout's src/main/resources.
func (b *builder) mainResources(dir string) error {
	up := b.fetched.Upstream
	res := filepath.Join(dir, "src", "main", "resources")
	if err := copyTree(filepath.Join(up, "src", "main", "resources"), res, nil); err != nil {
		return fmt.Errorf("copying the main resources: %w", err)
	}
	if len(b.lib.Build.JavaResources) == 0 {
		return nil
	}
	pick := func(rel string) bool { return matchesAny(rel, b.lib.Build.JavaResources) }
	if err := copyTree(filepath.Join(up, "src", "main", "java"), res, pick); err != nil {
		return fmt.Errorf("copying the resources of src/main/java: %w", err)
	}
	return nil
}

func (b *builder) project(dir string, cp []string) *Project {
	return &Project{Dir: dir, ClassesDir: filepath.Join(dir, "target", "classes"),
		TestClassesDir: filepath.Join(dir, "target", "test-classes"), Classpath: cp,
		Release: b.lib.Build.Release, Encoding: b.lib.Build.Encoding}
}

// suiteLayout lays out the main sources with the library's own tests (all, or only's closure),
// leaving out what the facts say and then what the compiler rejects, and builds it. The project
// is nil when the suite does not build or count; the report says why. Errors: a jar of the
// library on the class path, a test source that cannot be read or copied, cancellation.
func (b *builder) suiteLayout(only []string) (*Project, SuiteReport, error) {
	start := time.Now()
	report := SuiteReport{LeftOut: map[string]string{}}
	up := b.fetched.Upstream
	dir := filepath.Join(b.dir, "suite")
	if err := copyTree(filepath.Join(b.dir, "main", "src", "main"), filepath.Join(dir, "src", "main"), nil); err != nil {
		return nil, report, fmt.Errorf("copying the main sources into the suite: %w", err)
	}
	upTests := filepath.Join(up, "src", "test", "java")
	all, err := readTestSources(upTests)
	if err != nil {
		return nil, report, fmt.Errorf("reading the test sources: %w", err)
	}
	selected := all
	if len(only) > 0 {
		if selected, err = closure(all, only); err != nil {
			return nil, report, err
		}
	}
	bf := b.lib.Build
	var kept []*testSource
	for _, s := range selected {
		if isTestClass(s, bf.TestIncludes, bf.TestExcludes) {
			report.TestClasses++
		}
		why := bf.LeaveOutFiles[s.Rel]
		if why == "" {
			why = leftOutByImport(s, bf.LeaveOutImports)
		}
		if why != "" {
			report.LeftOut[s.Rel] = why
			continue
		}
		kept = append(kept, s)
	}
	testRoot := filepath.Join(dir, "src", "test", "java")
	for _, s := range kept {
		if err := copyFile(filepath.Join(upTests, filepath.FromSlash(s.Rel)), filepath.Join(testRoot, filepath.FromSlash(s.Rel))); err != nil {
			return nil, report, fmt.Errorf("copying a test source: %w", err)
		}
	}
	// Test data: the test resources, and the non-Java files beside the test sources (tests
	// read some by path, relative to the project).
	if err := copyTree(filepath.Join(up, "src", "test", "resources"), filepath.Join(dir, "src", "test", "resources"), nil); err != nil {
		return nil, report, fmt.Errorf("copying the test resources: %w", err)
	}
	notJava := func(rel string) bool { return !strings.HasSuffix(rel, ".java") }
	if err := copyTree(upTests, testRoot, notJava); err != nil {
		return nil, report, fmt.Errorf("copying the test data: %w", err)
	}
	if err := writePom(dir, b.lib, b.fetched.Version, "suite"); err != nil {
		return nil, report, fmt.Errorf("writing the suite pom: %w", err)
	}
	kept, cp, err := b.leaveOutWhatFails(dir, kept, report.LeftOut)
	var leak *LeakError
	switch {
	case errors.As(err, &leak) || b.ctx.Err() != nil:
		return nil, report, err
	case err != nil:
		report.Reason = "the suite layout does not build: " + err.Error()
		return nil, report, nil
	}
	for _, s := range kept {
		if isTestClass(s, bf.TestIncludes, bf.TestExcludes) {
			report.Compiled++
		}
	}
	if len(report.LeftOut) == 0 {
		report.LeftOut = nil
	}
	switch {
	case report.TestClasses == 0:
		report.Reason = "no test classes"
		return nil, report, nil
	case float64(report.Compiled) < minSuiteShare*float64(report.TestClasses):
		report.Reason = fmt.Sprintf("%d of %d test classes compile, under %.0f%%", report.Compiled, report.TestClasses, 100*minSuiteShare)
		return nil, report, nil
	}
	report.Counts = true
	fmt.Fprintf(b.log, "%s: suite built, %d of %d test classes (%.0f s)\n", b.lib.Name, report.Compiled, report.TestClasses, time.Since(start).Seconds())
	p := b.project(dir, cp)
	p.TestJVMArgs = bf.TestJVMArgs
	return p, report, nil
}

// leaveOutWhatFails builds the suite layout (`mvn test-compile`, with the class path written
// out first) and leaves out every test source the compiler rejects, round after round, until
// the rest compiles. Each left-out file is recorded in leftOut with the compiler's message, or
// with the left-out file whose class it needs. It returns the test sources kept and the
// checked class path.
func (b *builder) leaveOutWhatFails(dir string, kept []*testSource, leftOut map[string]string) ([]*testSource, []string, error) {
	testRoot := filepath.Join(dir, "src", "test", "java")
	var cp []string
	for round := 1; ; round++ {
		if round > maxCompileRounds {
			return nil, nil, fmt.Errorf("the test sources still do not compile after %d rounds of leaving out", maxCompileRounds)
		}
		out, err := b.mvn(dir, fmt.Sprintf("suite-test-compile-%d", round),
			"dependency:build-classpath", "-Dmdep.outputFile=target/classpath.txt", "test-compile")
		if cp == nil {
			// The class path is written before anything compiles: check it first.
			var cpErr error
			if cp, cpErr = readClasspathFile(filepath.Join(dir, "target", "classpath.txt")); cpErr != nil {
				return nil, nil, fmt.Errorf("the suite's class path: %w (%v)", cpErr, err)
			}
			if cpErr = CheckClasspath(cp, b.lib.Packages); cpErr != nil {
				return nil, nil, fmt.Errorf("suite layout: %w", cpErr)
			}
		}
		if err == nil {
			return kept, cp, nil
		}
		if b.ctx.Err() != nil {
			return nil, nil, b.ctx.Err()
		}
		errs, others := parseCompileErrors(string(out), testRoot)
		if len(errs) == 0 {
			if len(others) > 0 {
				return nil, nil, fmt.Errorf("the suite layout does not build, not for its test sources: %w", err)
			}
			return nil, nil, err
		}
		// A file that fails because it needs a left-out class says so.
		leftByName := map[string]string{}
		for rel := range leftOut {
			leftByName[strings.TrimSuffix(filepath.Base(rel), ".java")] = rel
		}
		var next []*testSource
		for _, s := range kept {
			e, failed := errs[s.Rel]
			if !failed {
				next = append(next, s)
				continue
			}
			why := "does not compile: " + e.Message
			if rel, ok := leftByName[e.Symbol]; ok {
				why = "needs " + rel + ", left out (" + leftOut[rel] + ")"
			}
			leftOut[s.Rel] = why
			if err := os.Remove(filepath.Join(testRoot, filepath.FromSlash(s.Rel))); err != nil {
				return nil, nil, err
			}
		}
		if len(next) == len(kept) {
			return nil, nil, fmt.Errorf("the compiler rejects files that are not kept test sources: %w", err)
		}
		fmt.Fprintf(b.log, "%s: compile round %d: %d test sources left out\n", b.lib.Name, round, len(kept)-len(next))
		kept = next
	}
}

// mvn runs Maven in a layout (offline through its .mvn/maven.config, batch mode, quiet) and
// keeps its output in target/<name>.log; an error carries the output's end.
func (b *builder) mvn(dir, name string, args ...string) ([]byte, error) {
	out, err := b.run(b.ctx, dir, "mvn", append([]string{"-B", "-q", "-Dstyle.color=never"}, args...)...)
	if mkErr := os.MkdirAll(filepath.Join(dir, "target"), 0o755); mkErr == nil {
		_ = os.WriteFile(filepath.Join(dir, "target", name+".log"), out, 0o644)
	}
	if err != nil {
		if b.ctx.Err() != nil {
			return out, b.ctx.Err()
		}
		return out, fmt.Errorf("mvn %s: %w\n%s", strings.Join(args, " "), err, tail(string(out), 3000))
	}
	return out, nil
}

func tail(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return "…" + s[len(s)-n:]
}

// copyTree copies the regular files under src to dst, those whose slash-separated path
// relative to src pick accepts (nil: all). A missing src copies nothing.
func copyTree(src, dst string, pick func(rel string) bool) error {
	err := filepath.WalkDir(src, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.Type().IsRegular() {
			return nil
		}
		rel, err := filepath.Rel(src, path)
		if err != nil {
			return err
		}
		if pick != nil && !pick(filepath.ToSlash(rel)) {
			return nil
		}
		return copyFile(path, filepath.Join(dst, rel))
	})
	if errors.Is(err, fs.ErrNotExist) {
		if _, statErr := os.Stat(src); os.IsNotExist(statErr) {
			return nil
		}
	}
	return err
}

func copyFile(src, dst string) error {
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return err
	}
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o644)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}
