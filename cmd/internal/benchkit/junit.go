package benchkit

import (
	"context"
	"encoding/xml"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// JavaTools are the JDK's commands and the JUnit console launcher that generated tests (and a
// library's own tests) run with, outside AdverTest.
type JavaTools struct {
	Java, Javac string
	// JUnitJar is junit-platform-console-standalone.jar: the JUnit 5 API, the Jupiter and
	// Vintage engines (JUnit 4 and 3 tests), JUnit 4 itself and the console launcher in one
	// jar.
	JUnitJar string
	// TestTimeout is JUnit Jupiter's limit per test (a fault can make a loop endless) and
	// SuiteTimeout the limit of one launcher process.
	TestTimeout, SuiteTimeout time.Duration
	// JVMArgs go to the launcher's JVM (a library's Surefire argLine: --add-opens, -Xmx).
	JVMArgs []string
}

// DefaultJUnitJar is where Debian's junit5 package puts the console launcher.
const DefaultJUnitJar = "/usr/share/java/junit-platform-console-standalone.jar"

// CompileOptions are javac's settings for one compile.
type CompileOptions struct {
	// Release is javac's --release (0: 11).
	Release int
	// Encoding is the sources' encoding ("": UTF-8).
	Encoding string
}

// Compile runs javac on sources into dir with class path entries cp (the JUnit jar added),
// writing javac's output to log.
func (t JavaTools) Compile(ctx context.Context, dir string, cp, sources []string, o CompileOptions, log string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	release, enc := o.Release, o.Encoding
	if release == 0 {
		release = 11
	}
	if enc == "" {
		enc = "UTF-8"
	}
	args := []string{"-d", dir, "-cp", strings.Join(append(append([]string(nil), cp...), t.JUnitJar), string(os.PathListSeparator)),
		"--release", strconv.Itoa(release), "-encoding", enc, "-nowarn", "-implicit:none", "-proc:none"}
	out, err := exec.CommandContext(ctx, t.Javac, append(args, sources...)...).CombinedOutput()
	_ = os.WriteFile(log, out, 0o644)
	if err != nil {
		return fmt.Errorf("javac: %w\n%s", err, Tail(string(out), 2000))
	}
	return nil
}

// TestRun is what one launcher run said of each test.
type TestRun struct {
	// Passed are the tests that passed and Failed those that failed or errored (with the
	// first line of why), each as "Class.method" (Class the test's binary name) — or as
	// "method" alone when the run selected one class and Short was asked for.
	Passed map[string]bool
	Failed map[string]string
	// Hung is set when the launcher ran past SuiteTimeout and was stopped.
	Hung bool
}

// RunTests runs the test classes with classes from cp (the first entry wins) and reads the
// per-test outcomes from the launcher's XML reports, keyed "Class.method".
func (t JavaTools) RunTests(ctx context.Context, cp, testClasses []string, reportDir, log string) (*TestRun, error) {
	ctx, cancel := context.WithTimeout(ctx, t.SuiteTimeout)
	defer cancel()
	args := append(append([]string(nil), t.JVMArgs...), "-jar", t.JUnitJar, "--disable-banner", "--details=summary",
		"--class-path", strings.Join(cp, string(os.PathListSeparator)), "--reports-dir", reportDir,
		"--config=junit.jupiter.execution.timeout.default="+fmt.Sprintf("%ds", int(t.TestTimeout.Seconds())),
		"--config=junit.jupiter.execution.timeout.thread.mode.default=SEPARATE_THREAD")
	for _, c := range testClasses {
		args = append(args, "--select-class", c)
	}
	cmd := exec.CommandContext(ctx, t.Java, args...)
	cmd.WaitDelay = 10 * time.Second
	out, err := cmd.CombinedOutput()
	_ = os.WriteFile(log, out, 0o644)
	if ctx.Err() == context.DeadlineExceeded {
		return &TestRun{Hung: true}, nil
	}
	var exit *exec.ExitError
	if err != nil && !(errors.As(err, &exit) && exit.ExitCode() == 1) {
		// 1 is "some test failed"; anything else is the launcher failing.
		return nil, fmt.Errorf("JUnit launcher: %w\n%s", err, Tail(string(out), 2000))
	}
	run := &TestRun{Passed: map[string]bool{}, Failed: map[string]string{}}
	found := false
	for _, engine := range []string{"junit-jupiter", "junit-vintage"} {
		b, err := os.ReadFile(filepath.Join(reportDir, "TEST-"+engine+".xml"))
		if errors.Is(err, os.ErrNotExist) {
			continue
		}
		if err != nil {
			return nil, err
		}
		found = true
		if err := run.read(b); err != nil {
			return nil, err
		}
	}
	if !found {
		return nil, fmt.Errorf("JUnit launcher wrote no report\n%s", Tail(string(out), 2000))
	}
	return run, nil
}

// Of is the outcomes of one test class's tests, keyed by method name alone.
func (r *TestRun) Of(testClass string) *TestRun {
	out := &TestRun{Passed: map[string]bool{}, Failed: map[string]string{}, Hung: r.Hung}
	prefix := testClass + "."
	for k := range r.Passed {
		if m, ok := strings.CutPrefix(k, prefix); ok {
			out.Passed[m] = true
		}
	}
	for k, why := range r.Failed {
		if m, ok := strings.CutPrefix(k, prefix); ok {
			out.Failed[m] = why
		}
	}
	return out
}

// junitSuite is the legacy XML report's shape, as far as it is read here.
type junitSuite struct {
	Cases []struct {
		Name      string    `xml:"name,attr"`
		ClassName string    `xml:"classname,attr"`
		Failure   *junitMsg `xml:"failure"`
		Error     *junitMsg `xml:"error"`
		Skipped   *junitMsg `xml:"skipped"`
	} `xml:"testcase"`
}

type junitMsg struct {
	Message string `xml:"message,attr"`
	Type    string `xml:"type,attr"`
}

// ParseJUnitReport reads one TEST-junit-*.xml: the tests that passed and those that failed or
// errored, keyed "Class.method"; skipped tests are neither.
func ParseJUnitReport(b []byte) (*TestRun, error) {
	r := &TestRun{Passed: map[string]bool{}, Failed: map[string]string{}}
	return r, r.read(b)
}

func (r *TestRun) read(b []byte) error {
	var s junitSuite
	if err := xml.Unmarshal(b, &s); err != nil {
		return fmt.Errorf("reading the JUnit report: %w", err)
	}
	for _, c := range s.Cases {
		name := c.ClassName + "." + strings.TrimSuffix(c.Name, "()")
		switch {
		case c.Failure != nil:
			r.Failed[name] = FirstLine(c.Failure.Type + ": " + c.Failure.Message)
		case c.Error != nil:
			r.Failed[name] = FirstLine(c.Error.Type + ": " + c.Error.Message)
		case c.Skipped != nil:
		default:
			r.Passed[name] = true
		}
	}
	return nil
}
