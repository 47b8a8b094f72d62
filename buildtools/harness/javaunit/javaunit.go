// Package javaunit runs JUnit 5 tests written in Java from a Go test: it compiles a folder of Java
// test sources against a class path and runs them with the JUnit Platform console launcher
// (Debian's junit-platform-console-standalone.jar, from the junit5 package), and fails the Go
// test with the launcher's report when a Java test fails or none is found. The harness's worker
// and the offline agent's explorer test their Java this way. It is for tests only.
package javaunit

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// tool is $JAVA_HOME/bin/name when there is one, else name from PATH.
func tool(name string) string {
	if home := os.Getenv("JAVA_HOME"); home != "" {
		if f := filepath.Join(home, "bin", name); fileExists(f) {
			return f
		}
	}
	return name
}

func fileExists(f string) bool {
	_, err := os.Stat(f)
	return err == nil
}

// ConsoleJar is the JUnit Platform console launcher with Jupiter, JUnit 4 and Hamcrest inside;
// $JUNIT_CONSOLE_JAR overrides it.
func ConsoleJar() string {
	if f := os.Getenv("JUNIT_CONSOLE_JAR"); f != "" {
		return f
	}
	return "/usr/share/java/junit-platform-console-standalone.jar"
}

// Run compiles the .java files under srcDir against classpath (and the console launcher's
// JUnit) and runs every test class in them (names ending in Test or Tests).
func Run(t testing.TB, srcDir string, classpath []string) {
	t.Helper()
	console := ConsoleJar()
	if _, err := os.Stat(console); err != nil {
		t.Fatalf("javaunit: no JUnit console launcher (install Debian's junit5, or set JUNIT_CONSOLE_JAR): %v", err)
	}
	java, javac := tool("java"), tool("javac")
	var sources []string
	err := filepath.WalkDir(srcDir, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".java") {
			sources = append(sources, p)
		}
		return err
	})
	if err != nil || len(sources) == 0 {
		t.Fatalf("javaunit: no Java tests under %s: %v", srcDir, err)
	}
	out := t.TempDir()
	cp := strings.Join(append(append([]string(nil), classpath...), console), string(os.PathListSeparator))
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	args := append([]string{"-g", "-encoding", "UTF-8", "-nowarn", "-d", out, "-cp", cp}, sources...)
	if msg, err := exec.CommandContext(ctx, javac, args...).CombinedOutput(); err != nil {
		t.Fatalf("javaunit: compiling the Java tests: %v\n%s", err, msg)
	}
	cmd := exec.CommandContext(ctx, java, "-jar", console, "--disable-banner", "--disable-ansi-colors", "--details=tree",
		"--fail-if-no-tests", "--class-path", out+string(os.PathListSeparator)+strings.Join(classpath, string(os.PathListSeparator)),
		"--scan-class-path", out)
	cmd.Dir = out
	msg, err := cmd.CombinedOutput()
	report := string(msg)
	if err != nil {
		t.Fatalf("javaunit: the Java tests under %s failed (%v):\n%s", srcDir, err, report)
	}
	t.Logf("javaunit: %s", summary(report))
}

// summary is the launcher's count of tests run, passed and failed.
func summary(report string) string {
	var parts []string
	for _, line := range strings.Split(report, "\n") {
		line = strings.TrimSpace(strings.Trim(line, "[]"))
		for _, key := range []string{"tests successful", "tests failed", "tests found"} {
			if strings.HasSuffix(line, key) {
				parts = append(parts, strings.Join(strings.Fields(line), " "))
			}
		}
	}
	if len(parts) == 0 {
		return fmt.Sprintf("%d bytes of report", len(report))
	}
	return strings.Join(parts, ", ")
}
