package offline

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/advertest/advertest-lsp/buildtools/buildtest"

	"go.uber.org/zap"
	"go.uber.org/zap/zaptest"

	"github.com/advertest/advertest-lsp/buildtools"
	"github.com/advertest/advertest-lsp/buildtools/harness"
	"github.com/advertest/advertest-lsp/internal/testenv"
	"github.com/advertest/advertest-lsp/javaparse"
	"github.com/advertest/advertest-lsp/loop/agent"
	"github.com/advertest/advertest-lsp/loop/mutants"
)

// The tests run the real build tools and the real JVM worker on copies of the examples: the
// examples' own suites leave mutants alive, the agent must write tests that kill them.

// fixture is one opened example project, shared by the tests of this package.
type fixture struct {
	once sync.Once
	proj *buildtools.Project
	root string
	err  error
}

var fixtures = map[string]*fixture{"maven-calculator": {}, "gradle-inventory": {}}

func TestMain(m *testing.M) {
	code := m.Run()
	for _, f := range fixtures {
		if f.proj != nil {
			f.proj.Close()
		}
		if f.root != "" {
			os.RemoveAll(f.root)
		}
	}
	os.Exit(code)
}

func openExample(t testing.TB, name string) (*buildtools.Project, string) {
	t.Helper()
	testenv.NeedsJVM(t)
	f := fixtures[name]
	f.once.Do(func() {
		tool := "mvn"
		if strings.HasPrefix(name, "gradle") {
			tool = "gradle"
		}
		if _, err := exec.LookPath(tool); err != nil {
			f.err = err
			return
		}
		if _, err := exec.LookPath("javac"); err != nil {
			f.err = err
			return
		}
		dir, err := os.MkdirTemp("", "offline-test-")
		if err != nil {
			f.err = err
			return
		}
		f.root = dir
		dst := filepath.Join(dir, name)
		if f.err = buildtest.CopyProject(filepath.Join("..", "..", "examples", name), dst); f.err != nil {
			return
		}
		ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
		defer cancel()
		file := filepath.Join(dst, "src", "main", "java", "org", "acme")
		f.proj, f.err = buildtools.OpenProject(ctx, buildtools.NewLoader(buildtools.Options{}), file,
			buildtools.ProjectOptions{Workers: 2, CacheDir: filepath.Join(dir, "cache")})
	})
	if f.err != nil {
		var ee *exec.Error
		if errors.As(f.err, &ee) {
			t.Skipf("toolchain missing: %v", f.err)
		}
		t.Fatalf("opening %s: %v", name, f.err)
	}
	return f.proj, filepath.Join(f.root, name)
}

func testCtx(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	t.Cleanup(cancel)
	return ctx
}

// subject builds the agent's view of a method of a file in the project copy.
func subject(t testing.TB, proj *buildtools.Project, file, method string) *agent.Subject {
	t.Helper()
	src, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	f, err := javaparse.Parse(src)
	if err != nil {
		t.Fatal(err)
	}
	ms := f.FindMethods(method)
	if len(ms) != 1 {
		t.Fatalf("FindMethods(%q) = %d methods", method, len(ms))
	}
	m := ms[0]
	return &agent.Subject{
		File: file, Source: src, Parsed: f, Method: m, Context: f.Context(m),
		JUnit: proj.Pool.JUnitVersion(), TestClassName: m.ClassPath[0] + "AdverTest",
	}
}

func newAgent(t *testing.T, proj *buildtools.Project) *Agent {
	t.Helper()
	a, err := New(proj.Pool, Options{CacheDir: filepath.Join(t.TempDir(), "cache"), Logger: zaptest.NewLogger(t, zaptest.Level(zap.DebugLevel))})
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// mutantOn makes a mutant replacing from with to on the first line of the method that has it.
func mutantOn(t testing.TB, s *agent.Subject, from, to string) mutants.Mutant {
	t.Helper()
	lines := strings.Split(string(s.Source), "\n")
	for i := s.Method.StartLine - 1; i < s.Method.EndLine && i < len(lines); i++ {
		if strings.Contains(lines[i], from) {
			mutated := strings.Replace(lines[i], from, to, 1)
			return mutants.Mutant{
				ID:   mutants.NewID(s.Method.BinaryClassName, s.Method.Name, lines[i], mutated),
				Line: i + 1, Original: lines[i], Mutated: mutated, Origin: "rule",
				Description: "`" + from + "` → `" + to + "`",
			}
		}
	}
	t.Fatalf("no line of %s contains %q", s.Method.Name, from)
	return mutants.Mutant{}
}

// survives reports whether the project's own tests (plus extra) all pass on the mutant.
func survives(t *testing.T, proj *buildtools.Project, s *agent.Subject, m mutants.Mutant, extra *harness.Source, extraTests []harness.TestID) (bool, []harness.TestResult) {
	t.Helper()
	mutated, err := mutants.Apply(s.Source, m)
	if err != nil {
		t.Fatal(err)
	}
	var tests []harness.TestID
	for _, c := range proj.TestClasses {
		tests = append(tests, harness.TestID{Class: c})
	}
	spec := harness.RunSpec{
		Overrides: []harness.Source{{ClassName: s.Method.TopLevelClass, Text: string(mutated)}},
		Tests:     append(tests, extraTests...),
	}
	if extra != nil {
		spec.ExtraTests = []harness.Source{*extra}
	}
	res, err := proj.Pool.Run(testCtx(t), spec)
	if err != nil {
		t.Fatal(err)
	}
	if !res.Compile.OK {
		t.Fatalf("does not compile: %v", res.Compile.Diagnostics)
	}
	for _, r := range res.Tests {
		if r.Outcome != harness.Passed {
			return false, res.Tests
		}
	}
	return true, res.Tests
}

// runOn runs a generated test class on a source (the original or a mutant) and returns each
// test's outcome.
func runOn(t *testing.T, proj *buildtools.Project, s *agent.Subject, text []byte, class harness.Source, ids []harness.TestID) map[string]harness.TestResult {
	t.Helper()
	res, err := proj.Pool.Run(testCtx(t), harness.RunSpec{
		Overrides:  []harness.Source{{ClassName: s.Method.TopLevelClass, Text: string(text)}},
		ExtraTests: []harness.Source{class},
		Tests:      ids,
	})
	if err != nil {
		t.Fatal(err)
	}
	if !res.Compile.OK {
		t.Fatalf("generated class does not compile: %v\n%s", res.Compile.Diagnostics, class.Text)
	}
	out := map[string]harness.TestResult{}
	for _, r := range res.Tests {
		out[r.Test.Method] = r
	}
	return out
}

// suiteClass puts tests into a class in the subject's package.
func suiteClass(s *agent.Subject, name string, tests []agent.Test) (harness.Source, []harness.TestID) {
	var rs []rendered
	var ids []harness.TestID
	pkg := s.Context.Package
	for _, t := range tests {
		rs = append(rs, rendered{name: t.Name, source: t.Source, imports: t.Imports, members: t.Members})
		ids = append(ids, harness.TestID{Class: pkg + "." + name, Method: t.Name})
	}
	return harness.Source{ClassName: pkg + "." + name, Text: testClass(pkg, name, rs)}, ids
}

// checkKills asserts that the tests pass on the original and fail on the mutant.
func checkKills(t *testing.T, proj *buildtools.Project, s *agent.Subject, m mutants.Mutant, tests []agent.Test) {
	t.Helper()
	if len(tests) == 0 {
		t.Fatalf("no test for mutant %s (%s)", m.ID, m.Description)
	}
	class, ids := suiteClass(s, s.TestClassName, tests)
	for id, r := range runOn(t, proj, s, s.Source, class, ids) {
		if r.Outcome != harness.Passed {
			t.Errorf("test %s fails on the original: %s %s\n%s", id, r.Outcome, r.Message, class.Text)
		}
	}
	mutated, _ := mutants.Apply(s.Source, m)
	killed := false
	for _, r := range runOn(t, proj, s, mutated, class, ids) {
		if r.Outcome != harness.Passed {
			killed = true
		}
	}
	if !killed {
		t.Errorf("the tests pass on the mutant %s:\n%s", m.Description, class.Text)
	}
}

func calculator(t testing.TB) (*buildtools.Project, string) {
	proj, root := openExample(t, "maven-calculator")
	return proj, filepath.Join(root, "src/main/java/org/acme/PriceCalculator.java")
}

// killCase is one mutant of an example method that the example's own suite leaves alive.
type killCase struct {
	method, from, to string
	show             bool // print the generated test in the log
}

func runKillCases(t *testing.T, proj *buildtools.Project, file string, cases []killCase) {
	a := newAgent(t, proj)
	for _, c := range cases {
		t.Run(c.method+"/"+c.to, func(t *testing.T) {
			s := subject(t, proj, file, c.method)
			m := mutantOn(t, s, c.from, c.to)
			if ok, _ := survives(t, proj, s, m, nil, nil); !ok {
				t.Fatalf("the project's own tests already kill %s", m.Description)
			}
			start := time.Now()
			tests, err := a.KillMutant(testCtx(t), s, m)
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("KillMutant took %v", time.Since(start))
			checkKills(t, proj, s, m, tests)
			if c.show && len(tests) > 0 {
				t.Logf("generated test for %s:\n%s", m.Description, tests[0].Source)
			}
		})
	}
}

// withExtra returns the calculator's source with extra members added before its last brace:
// an unsaved buffer, never written to disk.
func withExtra(t *testing.T, proj *buildtools.Project, file, extra, method string) *agent.Subject {
	t.Helper()
	s := subject(t, proj, file, "clamp")
	src := string(s.Source)
	i := strings.LastIndex(src, "}")
	buf := []byte(src[:i] + extra + src[i:])
	f, err := javaparse.Parse(buf)
	if err != nil {
		t.Fatal(err)
	}
	ms := f.FindMethods(method)
	if len(ms) != 1 {
		t.Fatalf("FindMethods(%q) = %d", method, len(ms))
	}
	return &agent.Subject{File: file, Source: buf, Parsed: f, Method: ms[0], Context: f.Context(ms[0]),
		JUnit: s.JUnit, TestClassName: s.TestClassName}
}
