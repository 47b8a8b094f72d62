package plain

import (
	"context"
	"encoding/xml"
	"errors"
	"fmt"
	"github.com/advertest/advertest-lsp/buildtools/buildtest"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"time"
)

// ConsoleLauncherJar is Debian's JUnit Platform console launcher, with the Jupiter and
// Vintage engines and JUnit 4 bundled.
const ConsoleLauncherJar = "/usr/share/java/junit-platform-console-standalone.jar"

// Project is what the plain way needs of a module.
type Project struct {
	// Classpath holds the dependency jars (the module's own output folders excluded).
	Classpath []string
	// MainOutput and TestOutput are the compiled main and test classes of the original.
	MainOutput, TestOutput string
	// Release is the language level ("" for the JDK's default).
	Release string
	// TestClasses are the test classes to run (binary names).
	TestClasses []string
	// Timeout bounds one suite run (a mutant with an endless loop).
	Timeout time.Duration
}

// Outcome is the plain way's view of one run.
type Outcome struct {
	// CompileError is javac's output when the class did not compile.
	CompileError string
	// Failing are the tests that failed or errored, as Class.method.
	Failing []string
	// TimedOut is set when the suite did not finish within the timeout.
	TimedOut bool
	// Tests counts the tests run.
	Tests int
}

// RunOriginal runs the suite on the original classes.
func (p Project) RunOriginal(ctx context.Context) (*Outcome, error) {
	dir, err := os.MkdirTemp("", "advertest-plain-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	return p.runSuite(ctx, dir, nil)
}

// RunMutant compiles source (the whole text of the top-level class className with the mutant
// applied) with javac and runs the suite with it ahead of the original classes.
func (p Project) RunMutant(ctx context.Context, className, source string) (*Outcome, error) {
	dir, err := os.MkdirTemp("", "advertest-plain-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	srcFile := filepath.Join(dir, "src", filepath.FromSlash(strings.ReplaceAll(className, ".", "/"))+".java")
	if err := os.MkdirAll(filepath.Dir(srcFile), 0o755); err != nil {
		return nil, err
	}
	if err := os.WriteFile(srcFile, []byte(source), 0o644); err != nil {
		return nil, err
	}
	classes := filepath.Join(dir, "classes")
	args := []string{"-nowarn", "-d", classes, "-cp", strings.Join(append([]string{p.MainOutput}, p.Classpath...), string(os.PathListSeparator))}
	if p.Release != "" {
		args = append(args, "--release", p.Release)
	}
	args = append(args, srcFile)
	out, err := exec.CommandContext(ctx, "javac", args...).CombinedOutput()
	if err != nil {
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			return &Outcome{CompileError: string(out)}, nil
		}
		return nil, fmt.Errorf("running javac: %w", err)
	}
	return p.runSuite(ctx, dir, []string{classes})
}

func (p Project) runSuite(ctx context.Context, dir string, ahead []string) (*Outcome, error) {
	timeout := p.Timeout
	if timeout <= 0 {
		timeout = 60 * time.Second
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	reports := filepath.Join(dir, "reports")
	cp := append(append(append([]string{}, ahead...), p.MainOutput, p.TestOutput), p.Classpath...)
	args := []string{"-jar", ConsoleLauncherJar,
		"--class-path", strings.Join(cp, string(os.PathListSeparator)),
		"--disable-banner", "--details=none", "--reports-dir", reports}
	for _, c := range p.TestClasses {
		args = append(args, "--select-class", c)
	}
	cmd := exec.CommandContext(ctx, "java", args...)
	cmd.WaitDelay = 2 * time.Second
	out, err := cmd.CombinedOutput()
	if ctx.Err() == context.DeadlineExceeded {
		return &Outcome{TimedOut: true}, nil
	}
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	o, perr := parseReports(reports)
	if perr != nil {
		return nil, fmt.Errorf("reading the console launcher's reports (%v; output: %s): %w", err, lastLines(string(out), 15), perr)
	}
	return o, nil
}

// reportRoot is a report's root: <testsuites> holding suites, or a single <testsuite>.
type reportRoot struct {
	XMLName xml.Name
	Suites  []testSuite `xml:"testsuite"`
	Cases   []testCase  `xml:"testcase"`
}
type testSuite struct {
	Cases []testCase `xml:"testcase"`
}
type testCase struct {
	Name      string    `xml:"name,attr"`
	ClassName string    `xml:"classname,attr"`
	Failure   *struct{} `xml:"failure"`
	Error     *struct{} `xml:"error"`
	Skipped   *struct{} `xml:"skipped"`
}

// parseReports reads the launcher's legacy XML reports.
func parseReports(dir string) (*Outcome, error) {
	o := &Outcome{}
	found := false
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".xml") {
			return err
		}
		found = true
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		var root reportRoot
		if err := xml.Unmarshal(b, &root); err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
		if root.XMLName.Local == "testsuite" {
			root.Suites = []testSuite{{Cases: root.Cases}}
		}
		for _, s := range root.Suites {
			for _, c := range s.Cases {
				if c.Skipped != nil {
					continue
				}
				o.Tests++
				if c.Failure != nil || c.Error != nil {
					o.Failing = append(o.Failing, c.ClassName+"."+strings.TrimSuffix(c.Name, "()"))
				}
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	if !found {
		return nil, errors.New("no report written")
	}
	sort.Strings(o.Failing)
	return o, nil
}

// Verdict is the plain way's verdict of a mutant given the original's outcome: "killed" when a
// test fails on the mutant that passed on the original, "survived", "uncompilable" or "timeout".
func Verdict(original, mutant *Outcome) string {
	switch {
	case mutant.CompileError != "":
		return "uncompilable"
	case mutant.TimedOut:
		return "timeout"
	}
	before := map[string]bool{}
	for _, f := range original.Failing {
		before[f] = true
	}
	for _, f := range mutant.Failing {
		if !before[f] {
			return "killed"
		}
	}
	return "survived"
}

// MavenTest copies the module at root (without its build output) to a temporary folder,
// writes source over the file at rel (relative to root), runs `mvn test` there with args, and
// reports whether the build failed, with its output: the naive way of mutation testing, one Maven run per mutant.
func MavenTest(ctx context.Context, root, rel, source string, args []string) (failed bool, output string, dur time.Duration, err error) {
	dir, err := os.MkdirTemp("", "advertest-naive-")
	if err != nil {
		return false, "", 0, err
	}
	defer os.RemoveAll(dir)
	if err := buildtest.CopyProject(root, dir); err != nil {
		return false, "", 0, fmt.Errorf("copying %s: %w", root, err)
	}
	if err := os.WriteFile(filepath.Join(dir, rel), []byte(source), 0o644); err != nil {
		return false, "", 0, err
	}
	start := time.Now()
	cmd := exec.CommandContext(ctx, "mvn", append([]string{"-q", "-B", "test"}, args...)...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	dur = time.Since(start)
	if err != nil {
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			return true, string(out), dur, nil
		}
		return false, string(out), dur, fmt.Errorf("running mvn: %w: %s", err, lastLines(string(out), 10))
	}
	return false, string(out), dur, nil
}

func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}
