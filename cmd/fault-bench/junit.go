package main

import (
	"context"
	"encoding/xml"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

// javaTools are the JDK's commands and the JUnit console launcher the generated tests run
// with, outside AdverTest, so a detection does not depend on the tool's own test runner.
type javaTools struct {
	java, javac string
	// junitJar is junit-platform-console-standalone.jar: the JUnit 5 API, engine and the
	// console launcher in one jar.
	junitJar string
	// testTimeout is JUnit's limit per test (a fault can make a loop endless) and suiteTimeout
	// the limit of one launcher process.
	testTimeout, suiteTimeout time.Duration
}

// compile runs javac on sources into dir with classpath entries cp (the JUnit jar added).
func (t javaTools) compile(ctx context.Context, dir string, cp []string, sources []string, log string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	args := []string{"-d", dir, "-cp", strings.Join(append(cp, t.junitJar), string(os.PathListSeparator)),
		"--release", "11", "-encoding", "UTF-8", "-nowarn", "-implicit:none"}
	out, err := exec.CommandContext(ctx, t.javac, append(args, sources...)...).CombinedOutput()
	_ = os.WriteFile(log, out, 0o644)
	if err != nil {
		return fmt.Errorf("javac: %w\n%s", err, tail(string(out), 2000))
	}
	return nil
}

// testRun is what one launcher run said of each test.
type testRun struct {
	// passed are the tests that passed, as "method" (the class is the run's one class).
	passed map[string]bool
	// failed are the tests that failed or errored, with the first line of why.
	failed map[string]string
	// hung is set when the launcher ran past suiteTimeout and was stopped.
	hung bool
}

// runTests runs testClass's tests with classes from cp (first entry wins) and reads the
// per-test outcomes from the launcher's XML report.
func (t javaTools) runTests(ctx context.Context, cp []string, testClass, reportDir, log string) (*testRun, error) {
	ctx, cancel := context.WithTimeout(ctx, t.suiteTimeout)
	defer cancel()
	args := []string{"-jar", t.junitJar, "--disable-banner", "--details=summary",
		"--class-path", strings.Join(cp, string(os.PathListSeparator)),
		"--select-class", testClass, "--reports-dir", reportDir,
		"--config=junit.jupiter.execution.timeout.default=" + fmt.Sprintf("%ds", int(t.testTimeout.Seconds())),
		"--config=junit.jupiter.execution.timeout.thread.mode.default=SEPARATE_THREAD"}
	cmd := exec.CommandContext(ctx, t.java, args...)
	out, err := cmd.CombinedOutput()
	_ = os.WriteFile(log, out, 0o644)
	if ctx.Err() == context.DeadlineExceeded {
		return &testRun{hung: true}, nil
	}
	var exit *exec.ExitError
	if err != nil && !(errors.As(err, &exit) && exit.ExitCode() == 1) {
		// 1 is "some test failed"; anything else is the launcher failing.
		return nil, fmt.Errorf("JUnit launcher: %w\n%s", err, tail(string(out), 2000))
	}
	b, err := os.ReadFile(filepath.Join(reportDir, "TEST-junit-jupiter.xml"))
	if err != nil {
		return nil, fmt.Errorf("JUnit launcher wrote no report: %w\n%s", err, tail(string(out), 2000))
	}
	return parseJUnitReport(b, testClass)
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

// parseJUnitReport reads TEST-junit-jupiter.xml: testClass's tests that passed and those that
// failed or errored; skipped tests are neither.
func parseJUnitReport(b []byte, testClass string) (*testRun, error) {
	var s junitSuite
	if err := xml.Unmarshal(b, &s); err != nil {
		return nil, fmt.Errorf("reading the JUnit report: %w", err)
	}
	r := &testRun{passed: map[string]bool{}, failed: map[string]string{}}
	for _, c := range s.Cases {
		if c.ClassName != testClass {
			continue
		}
		name := strings.TrimSuffix(c.Name, "()")
		switch {
		case c.Failure != nil:
			r.failed[name] = firstLine(c.Failure.Type + ": " + c.Failure.Message)
		case c.Error != nil:
			r.failed[name] = firstLine(c.Error.Type + ": " + c.Error.Message)
		case c.Skipped != nil:
		default:
			r.passed[name] = true
		}
	}
	return r, nil
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	return strings.TrimSpace(s)
}

// tail is the end of s, at most n bytes, for error messages.
func tail(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return "…" + s[len(s)-n:]
}
