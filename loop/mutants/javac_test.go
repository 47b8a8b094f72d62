package mutants

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/advertest/advertest-lsp/internal/testenv"
)

// TestMutantsCompileWithJavac compiles every mutant (default and strong) of the corpus
// with the real javac, in one call: each mutated copy goes into a package of its own.
// -XDshould-stop.ifError=FLOW makes javac attribute and flow-check every file even after
// errors in others, so each uncompilable copy is found.
func TestMutantsCompileWithJavac(t *testing.T) {
	testenv.NeedsJVM(t)
	javac, err := exec.LookPath("javac")
	if err != nil {
		t.Skip("javac not on PATH")
	}
	src := readCorpus(t)
	if !bytes.HasPrefix(src, []byte("package org.acme;\n")) {
		t.Fatal("the corpus must start with its package line")
	}
	dir := t.TempDir()
	var files []string
	var all []Mutant
	write := func(pkg string, text []byte) { files = append(files, writeCorpusCopy(t, dir, pkg, text)) }
	write("original", src)
	// A control that must fail, so a broken error count cannot pass for 100%.
	write("broken", bytes.Replace(src, []byte("return lo;"), []byte("return \"lo\";"), 1))
	methods := allMutants(t, src)
	names := make([]string, 0, len(methods))
	for name := range methods {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		for _, m := range methods[name] {
			out, err := Apply(src, m)
			if err != nil {
				t.Fatal(err)
			}
			write(fmt.Sprintf("m%04d", len(all)), out)
			all = append(all, m)
		}
	}
	output, errs := flowCheck(t, javac, dir, files)
	failed := map[string]bool{}
	for pkg := range errs {
		failed[pkg] = true
	}
	if failed["original"] {
		t.Fatalf("the corpus itself does not compile:\n%s", output)
	}
	if !failed["broken"] {
		t.Fatalf("javac's errors were not counted: the broken control passed:\n%s", output)
	}
	var bad []string
	for i, m := range all {
		if failed[fmt.Sprintf("m%04d", i)] {
			bad = append(bad, fmt.Sprintf("%s line %d: %s (%s)", m.Operator, m.Line, strings.TrimSpace(m.Mutated), m.Description))
		}
	}
	rate := float64(len(all)-len(bad)) / float64(len(all))
	t.Logf("javac: %d of %d mutants compile (%.1f%%)", len(all)-len(bad), len(all), 100*rate)
	for _, b := range bad {
		t.Logf("does not compile: %s", b)
	}
	if rate < 0.90 {
		t.Errorf("compile rate %.1f%% is under 90%%", 100*rate)
	}
}

// writeCorpusCopy writes text, moved to package pkg, as dir/pkg/Corpus.java.
func writeCorpusCopy(t *testing.T, dir, pkg string, text []byte) string {
	t.Helper()
	d := filepath.Join(dir, pkg)
	if err := os.MkdirAll(d, 0o755); err != nil {
		t.Fatal(err)
	}
	text = bytes.Replace(text, []byte("package org.acme;"), []byte("package "+pkg+";"), 1)
	f := filepath.Join(d, "Corpus.java")
	if err := os.WriteFile(f, text, 0o644); err != nil {
		t.Fatal(err)
	}
	return f
}

// corpusError is javac's error line for dir/<package>/Corpus.java.
var corpusError = regexp.MustCompile(`(?m)^.*[/\\]([a-z]+\d*)[/\\]Corpus\.java:(\d+): error:`)

// flowCheck runs javac over files up to flow analysis (nothing is generated; javac attributes
// and flow-checks every file even after errors in others) and returns its output and the lines
// with errors, by package.
func flowCheck(t *testing.T, javac, dir string, files []string) (string, map[string][]int) {
	t.Helper()
	args := append([]string{"-XDshould-stop.ifError=FLOW", "-XDshould-stop.ifNoError=FLOW", "-J-XX:TieredStopAtLevel=1",
		"-proc:none", "-Xmaxerrs", "100000", "-nowarn", "-d", filepath.Join(dir, "classes")}, files...)
	output, _ := exec.Command(javac, args...).CombinedOutput() // a non-zero exit is expected: some copies need not compile
	errs := map[string][]int{}
	for _, g := range corpusError.FindAllStringSubmatch(string(output), -1) {
		line, _ := strconv.Atoi(g[2])
		errs[g[1]] = append(errs[g[1]], line)
	}
	return string(output), errs
}
