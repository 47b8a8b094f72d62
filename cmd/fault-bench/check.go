package main

import (
	"bufio"
	"bytes"
	"context"
	_ "embed"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// checkFaultsJava compiles every variant and runs the witnesses in one JVM (a javac process
// per fault would take a minute on two cores).
//
//go:embed java/CheckFaults.java
var checkFaultsJava []byte

// CheckResult is one line of the check: a witness on the fixed code ("fixed NAME") or a
// fault ("fault NAME").
type CheckResult struct {
	What string
	OK   bool
	// Detail is why it failed, compile errors included.
	Detail string
}

// CheckFaults compiles the project's fixed code and, one by one, the code with each fault
// applied, and runs each fault's witness on both: it must pass on the fixed code and fail
// (or hang) on the buggy one. A fault that does not compile, or that its witness cannot see,
// is no fault. java is the java launcher (Java 11 or later, with the JDK's compiler).
func CheckFaults(ctx context.Context, m *Manifest, faults []Fault, java string) ([]CheckResult, error) {
	work, err := os.MkdirTemp("", "fault-bench-check-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(work)
	helper := filepath.Join(work, "CheckFaults.java")
	if err := os.WriteFile(helper, checkFaultsJava, 0o644); err != nil {
		return nil, err
	}
	variants := filepath.Join(work, "variants")
	names := map[string]string{}
	srcRoot := filepath.Join(m.Dir, "src", "main", "java")
	for i, f := range faults {
		buggy, err := m.Buggy(f)
		if err != nil {
			return nil, err
		}
		rel, err := filepath.Rel(srcRoot, f.Path(m.Dir))
		if err != nil || strings.HasPrefix(rel, "..") {
			return nil, fmt.Errorf("%s: %s is not under src/main/java", f.Name(), f.File)
		}
		id := fmt.Sprintf("%03d", i)
		names[id] = f.Name()
		dir := filepath.Join(variants, id)
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return nil, err
		}
		for file, text := range map[string][]byte{"witness": []byte(f.Witness), "file": []byte(filepath.ToSlash(rel)), "Buggy.java": buggy} {
			if err := os.WriteFile(filepath.Join(dir, file), text, 0o644); err != nil {
				return nil, err
			}
		}
	}
	cmd := exec.CommandContext(ctx, java, helper, srcRoot, filepath.Join(m.Dir, "witness", "Witnesses.java"), variants, filepath.Join(work, "out"))
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("running the fault check (%s): %w\n%s%s", java, err, out, stderr.Bytes())
	}
	var results []CheckResult
	done := false
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		line := sc.Text()
		switch {
		case line == "done":
			done = true
		case strings.HasPrefix(line, "    ") && len(results) > 0:
			results[len(results)-1].Detail += "\n" + line
		default:
			kind, rest, _ := strings.Cut(line, " ")
			name, verdict, _ := strings.Cut(rest, " ")
			if kind == "fault" {
				name = names[name]
			}
			r := CheckResult{What: kind + " " + name, OK: verdict == "ok"}
			if !r.OK {
				r.Detail = strings.TrimPrefix(verdict, "FAIL ")
			}
			results = append(results, r)
		}
	}
	if !done {
		return results, fmt.Errorf("the fault check stopped early:\n%s%s", out, stderr.Bytes())
	}
	return results, nil
}
