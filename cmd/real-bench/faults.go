package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/advertest/advertest-lsp/buildtools/buildtest"
	"github.com/advertest/advertest-lsp/cmd/internal/benchkit"
)

// SeededFault is one seeded fault of a method, with what the library's own tests made of it.
type SeededFault struct {
	Fault
	// Status: "counts" (the library's own tests detect it: it changes behaviour), or why it
	// does not count: "uncompilable", "not detected by the library's own tests".
	Status string `json:"status"`
	// OwnDetectedBy is one own test that detects it ("Class.method: why"), when it counts.
	OwnDetectedBy string `json:"ownDetectedBy,omitempty"`
	// Classes is the folder of the faulty file's compiled classes (in the cache), when it
	// compiled.
	Classes string `json:"classes,omitempty"`
}

// MethodFaults are a method's seeded faults as the library's own suite judged them: they
// depend on the package version and the seeder only, not on the tool, so they are kept apart
// from the per-commit results and reused by every later run.
type MethodFaults struct {
	SeederVersion int `json:"seederVersion"`
	// Reason says why no fault could count, when none does ("the library has no own suite", "no
	// test class of the suite refers to the class").
	Reason string `json:"reason,omitempty"`
	// OwnTestClasses are the suite's test classes that refer to the method's class: the ones
	// run against each fault.
	OwnTestClasses []string      `json:"ownTestClasses,omitempty"`
	Faults         []SeededFault `json:"faults"`
}

// Counted are the faults that count.
func (mf *MethodFaults) Counted() []SeededFault {
	var out []SeededFault
	for _, f := range mf.Faults {
		if f.Status == "counts" {
			out = append(out, f)
		}
	}
	return out
}

// faultsPlanner seeds a library's methods and judges the faults with its own suite.
type faultsPlanner struct {
	lay   *Layouts
	tools benchkit.JavaTools
	// dir is the library's faults folder in the cache: one subfolder per method.
	dir string
	// perMethod is how many counted faults a method gets at most, tries how many candidates
	// are tried for them at most.
	perMethod, tries int
}

// plan returns the method's seeded faults, from the cache when they were judged before.
func (p *faultsPlanner) plan(ctx context.Context, m Method) (*MethodFaults, error) {
	mdir := filepath.Join(p.dir, m.ID())
	record := filepath.Join(mdir, "faults.json")
	var cached MethodFaults
	if readJSONFile(record, &cached) == nil && cached.SeederVersion == SeederVersion {
		return &cached, nil
	}
	mf, err := p.judge(ctx, m, mdir)
	if err != nil {
		return nil, err
	}
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	if err := writeJSON(record, mf); err != nil {
		return nil, err
	}
	return mf, nil
}

func (p *faultsPlanner) judge(ctx context.Context, m Method, mdir string) (*MethodFaults, error) {
	mf := &MethodFaults{SeederVersion: SeederVersion, Faults: []SeededFault{}}
	suite := p.lay.Suite
	if suite == nil {
		mf.Reason = "the library has no own suite here"
		if p.lay.SuiteReport.Reason != "" {
			mf.Reason += ": " + p.lay.SuiteReport.Reason
		}
		return mf, nil
	}
	if err := os.RemoveAll(mdir); err != nil {
		return nil, err
	}
	if err := os.MkdirAll(mdir, 0o755); err != nil {
		return nil, err
	}
	classes, err := testClassesReferring(p.lay.Library, suite.Dir, m.Class)
	if err != nil {
		return nil, err
	}
	if len(classes) == 0 {
		mf.Reason = "no test class of the library's suite refers to the class"
		return mf, nil
	}
	mf.OwnTestClasses = classes
	srcPath := filepath.Join(suite.Dir, filepath.FromSlash(m.File))
	src, err := os.ReadFile(srcPath)
	if err != nil {
		return nil, err
	}
	candidates, err := SeedCandidates(src, m.Line, m.Key)
	if err != nil {
		return nil, fmt.Errorf("seeding %s: %w", m.Display(), err)
	}
	if len(candidates) == 0 {
		mf.Reason = "the seeder finds nothing to change in the method"
		return mf, nil
	}
	cp := append([]string{suite.ClassesDir, suite.TestClassesDir}, suite.Classpath...)
	// The library's own tests run as its Surefire runs them (its argLine).
	own := p.tools
	own.JVMArgs = suite.TestJVMArgs
	onFixed, err := own.RunTests(ctx, append(cp, p.tools.JUnitJar), classes, filepath.Join(mdir, "own-fixed"), filepath.Join(mdir, "own-fixed.log"))
	if err != nil {
		return nil, fmt.Errorf("the library's own tests on the fixed code: %w", err)
	}
	if onFixed.Hung || len(onFixed.Passed) == 0 {
		mf.Reason = "the library's own tests of the class do not pass on the fixed code here"
		return mf, nil
	}
	counted := 0
	for i, f := range candidates {
		if counted >= p.perMethod || i >= p.tries || ctx.Err() != nil {
			break
		}
		sf := SeededFault{Fault: f}
		fdir := filepath.Join(mdir, f.ID)
		faulty, err := f.Apply(src)
		if err != nil {
			return nil, err
		}
		faultySrc := filepath.Join(fdir, "src", filepath.Base(srcPath))
		if err := os.MkdirAll(filepath.Dir(faultySrc), 0o755); err != nil {
			return nil, err
		}
		if err := os.WriteFile(faultySrc, faulty, 0o644); err != nil {
			return nil, err
		}
		out := filepath.Join(fdir, "classes")
		opts := benchkit.CompileOptions{Release: suite.Release, Encoding: suite.Encoding}
		if err := p.tools.Compile(ctx, out, append([]string{suite.ClassesDir}, suite.Classpath...), []string{faultySrc}, opts, filepath.Join(fdir, "javac.log")); err != nil {
			sf.Status = "uncompilable"
			mf.Faults = append(mf.Faults, sf)
			continue
		}
		onFaulty, err := own.RunTests(ctx, append([]string{out}, append(cp, p.tools.JUnitJar)...), classes, filepath.Join(fdir, "own"), filepath.Join(fdir, "own.log"))
		if err != nil {
			return nil, fmt.Errorf("the library's own tests on fault %s: %w", f.ID, err)
		}
		if by, ok := detects(onFixed, onFaulty); ok {
			sf.Status, sf.OwnDetectedBy, sf.Classes = "counts", by, out
			counted++
		} else {
			sf.Status = "not detected by the library's own tests"
		}
		mf.Faults = append(mf.Faults, sf)
	}
	return mf, nil
}

// detects says whether a run tells a fault apart: a test that passed on the fixed code fails
// (or the run hangs, with tests that passed before), and names one such test.
func detects(onFixed, onFaulty *benchkit.TestRun) (string, bool) {
	if onFaulty.Hung {
		return "the tests hang on it", len(onFixed.Passed) > 0
	}
	var names []string
	for name := range onFixed.Passed {
		if onFaulty.Passed[name] {
			continue
		}
		names = append(names, name)
	}
	if len(names) == 0 {
		return "", false
	}
	slices.Sort(names)
	why, ok := onFaulty.Failed[names[0]]
	if !ok {
		why = "not run"
	}
	return names[0] + ": " + why, true
}

// testClassesReferring lists the binary names of the suite's test classes (by the library's
// Surefire patterns, as a plain `mvn test` of the suite runs them) that test the top-level class
// of class: those named after it (FooTest, FooBarTest, TestFoo for class Foo) when there are
// any, else those whose source names it as a word. Running these is how the benchmark asks the
// library's own tests about a fault: a detection proves that the fault changes behaviour.
// Preferring the class's own test classes keeps a class used everywhere (StringUtils) from
// sending every fault through most of the suite.
func testClassesReferring(lib Library, suiteDir, class string) ([]string, error) {
	top := class
	if i := strings.IndexByte(top, '$'); i >= 0 {
		top = top[:i]
	}
	simple := top[strings.LastIndexByte(top, '.')+1:]
	word := regexp.MustCompile(`\b` + regexp.QuoteMeta(simple) + `\b`)
	sources, err := readTestSources(filepath.Join(suiteDir, "src", "test", "java"))
	if err != nil {
		return nil, err
	}
	var named, referring []string
	for _, s := range sources {
		if !isTestClass(s, lib.Build.TestIncludes, lib.Build.TestExcludes) {
			continue
		}
		switch {
		case strings.HasPrefix(s.Name, simple) || s.Name == "Test"+simple:
			named = append(named, s.FullName())
		case word.MatchString(s.text):
			referring = append(referring, s.FullName())
		}
	}
	if len(named) > 0 {
		return named, nil
	}
	return referring, nil
}

// generatedSuite is the generated test class compiled and run outside the tool.
type generatedSuite struct {
	class   string
	classes string // its compiled folder
	onFixed *benchkit.TestRun
}

// checkGenerated compiles the generated test file against the main layout's classes and runs
// it on the fixed code, in work folder dir.
func checkGenerated(ctx context.Context, tools benchkit.JavaTools, main Project, testFile, dir string) (*generatedSuite, error) {
	class, err := benchkit.JavaClassName(testFile)
	if err != nil {
		return nil, err
	}
	out := filepath.Join(dir, "generated-classes")
	cp := append([]string{main.ClassesDir}, main.Classpath...)
	opts := benchkit.CompileOptions{Release: max(main.Release, 11), Encoding: "UTF-8"}
	if err := tools.Compile(ctx, out, cp, []string{testFile}, opts, filepath.Join(dir, "javac-generated.log")); err != nil {
		return nil, fmt.Errorf("the written suite does not compile outside the tool: %w", err)
	}
	run, err := tools.RunTests(ctx, append([]string{out}, append(cp, tools.JUnitJar)...), []string{class}, filepath.Join(dir, "generated-fixed"), filepath.Join(dir, "generated-fixed.log"))
	if err != nil {
		return nil, fmt.Errorf("running the written suite on the fixed code: %w", err)
	}
	if run.Hung {
		return nil, errors.New("the written suite hangs on the fixed code")
	}
	return &generatedSuite{class: class, classes: out, onFixed: run}, nil
}

// detect runs the generated suite with a fault's classes first on the class path.
func (g *generatedSuite) detect(ctx context.Context, tools benchkit.JavaTools, main Project, f SeededFault, dir string) (string, bool, error) {
	cp := append([]string{f.Classes, g.classes, main.ClassesDir}, main.Classpath...)
	fdir := filepath.Join(dir, "fault-"+f.ID)
	run, err := tools.RunTests(ctx, append(cp, tools.JUnitJar), []string{g.class}, fdir, fdir+".log")
	if err != nil {
		return "", false, fmt.Errorf("running the written suite on fault %s: %w", f.ID, err)
	}
	by, ok := detects(g.onFixed, run)
	return by, ok, nil
}

// freshCopy copies a laid-out project (without its build output) into dst.
func freshCopy(p Project, dst string) error {
	return buildtest.CopyProject(p.Dir, dst)
}
