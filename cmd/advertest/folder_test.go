package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/advertest/advertest-lsp/buildtools/buildtest"
	"github.com/advertest/advertest-lsp/internal/testenv"
	"github.com/advertest/advertest-lsp/javaparse"
	"github.com/advertest/advertest-lsp/loop/report"
)

// calculatorCopy copies the Maven example into a temp folder and makes it the current one.
func calculatorCopy(t *testing.T) string {
	t.Helper()
	dir := exampleCopy(t)
	t.Chdir(dir)
	return dir
}

// exampleCopy copies the Maven example into a temp folder, for a test that runs the JVM.
func exampleCopy(t *testing.T) string {
	t.Helper()
	testenv.NeedsJVM(t)
	if testing.Short() {
		t.Skip("runs the JVM: not with -short")
	}
	if _, err := exec.LookPath("mvn"); err != nil {
		t.Skip("mvn missing")
	}
	dir := filepath.Join(t.TempDir(), "calc")
	if err := buildtest.CopyProject(filepath.Join("..", "..", "examples", "maven-calculator"), dir); err != nil {
		t.Fatal(err)
	}
	return dir
}

// methodsWithBody are the identities of the methods with a body in the Java files under dir.
func methodsWithBody(t *testing.T, dir string) []string {
	t.Helper()
	var keys []string
	err := filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".java") {
			return err
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		f, err := javaparse.Parse(src)
		if err != nil {
			return err
		}
		for _, m := range f.Methods() {
			if m.BodyStartByte >= 0 {
				keys = append(keys, report.MethodKey(m.BinaryClassName, m.Signature))
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(keys)
	return keys
}

// readMulti reads a report over many methods.
func readMulti(t *testing.T, path string) *report.Multi {
	t.Helper()
	d, err := report.ReadFile(path)
	if err != nil || d.Multi == nil {
		t.Fatalf("%s: %v (not a report over many methods)", path, err)
	}
	return d.Multi
}

// TestMutateFolderShardsMerge: `advertest mutate src/main/java` covers every method of the
// Maven example with a body; its shards 1/2 and 2/2, merged, give the same methods and the
// same mutants with the same verdicts. A verdict that hangs on the wall clock (timeout) may
// differ from run to run under load: a mutant that timed out in one run and was killed or
// survived in the other is logged, not failed.
func TestMutateFolderShardsMerge(t *testing.T) {
	dir := calculatorCopy(t)
	mutate := func(args ...string) {
		t.Helper()
		code, _, stderr := runCLI(append([]string{"mutate", "src/main/java"}, args...)...)
		if code != exitOK {
			t.Fatalf("mutate %q: status %d\n%s", args, code, stderr)
		}
		t.Logf("mutate %q:\n%s", args, stderr)
		checkReadable(t, stderr)
	}
	mutate("--json", "all.json")
	mutate("--shard", "1/2", "--json", "s1.json")
	mutate("--shard", "2/2", "--json", "s2.json")
	code, _, stderr := runCLI("merge", "s1.json", "s2.json", "--json", "merged.json", "--sarif", "merged.sarif", "--html", "merged.html")
	if code != exitOK {
		t.Fatalf("merge: status %d\n%s", code, stderr)
	}

	all, merged := readMulti(t, "all.json"), readMulti(t, "merged.json")
	s1, s2 := readMulti(t, "s1.json"), readMulti(t, "s2.json")
	want := methodsWithBody(t, filepath.Join(dir, "src", "main", "java"))
	got := methodKeys(all.Methods)
	slices.Sort(got)
	if !slices.Equal(got, want) || len(all.Failures) != 0 {
		t.Fatalf("the folder's methods %q (failures %+v); want every method with a body: %q", got, all.Failures, want)
	}
	if len(s1.Methods) == 0 || len(s2.Methods) == 0 || len(s1.Methods)+len(s2.Methods) != len(want) ||
		s1.Shard == nil || s2.Shard == nil || s1.Shard.MethodSetHash != s2.Shard.MethodSetHash {
		t.Fatalf("shards: %d and %d methods, %+v %+v", len(s1.Methods), len(s2.Methods), s1.Shard, s2.Shard)
	}
	if !slices.Equal(methodKeys(merged.Methods), methodKeys(all.Methods)) || merged.Shard != nil {
		t.Fatalf("merged %q; want the unsharded run's %q in its order", methodKeys(merged.Methods), methodKeys(all.Methods))
	}
	timeouts, compared := 0, 0
	for i := range all.Methods {
		a, m := all.Methods[i], merged.Methods[i]
		ids := func(r report.Report) []string {
			out := make([]string, len(r.Mutants))
			for j, x := range r.Mutants {
				out[j] = x.ID
			}
			return out
		}
		if !slices.Equal(ids(a), ids(m)) {
			t.Errorf("%s: mutants %q, merged %q", a.Target.Key(), ids(a), ids(m))
			continue
		}
		for j := range a.Mutants {
			x, y := a.Mutants[j], m.Mutants[j]
			compared++
			switch {
			case x.Status == y.Status:
			case x.Status == report.Timeout || y.Status == report.Timeout:
				timeouts++
				t.Logf("%s %s: %s unsharded, %s in its shard (a wall-clock timeout)", a.Target.Key(), x.ID, x.Status, y.Status)
			default:
				t.Errorf("%s %s (line %d %q): %s unsharded, %s in its shard", a.Target.Key(), x.ID, x.Line, strings.TrimSpace(x.Mutated), x.Status, y.Status)
			}
		}
	}
	if compared == 0 || merged.Summary.Mutants != all.Summary.Mutants || timeouts > compared/10 {
		t.Errorf("%d mutants compared, %d differ by a timeout; summaries %d and %d mutants", compared, timeouts, all.Summary.Mutants, merged.Summary.Mutants)
	}
	if timeouts == 0 && (*merged.Summary.MutationScore != *all.Summary.MutationScore || merged.Summary.Killed != all.Summary.Killed) {
		t.Errorf("summaries differ: %+v and %+v", merged.Summary, all.Summary)
	}
	for _, f := range []string{"merged.sarif", "merged.html"} {
		if fi, err := os.Stat(f); err != nil || fi.Size() == 0 {
			t.Errorf("%s: %v", f, err)
		}
	}
}

// TestRunGrowsTheClassSuite: `advertest run` on two methods of one class plays them in turn:
// the second method's game starts from the suite the first grew (its report's suite holds the
// first's tests), and --write-tests writes one file for the class with every method's tests.
func TestRunGrowsTheClassSuite(t *testing.T) {
	dir := calculatorCopy(t)
	file := "src/main/java/org/acme/PriceCalculator.java"
	code, _, stderr := runCLI("run", file+":25", file+":91", "--agents", "offline", "--rounds", "1", "--write-tests", "--json", "run.json")
	t.Logf("run:\n%s", stderr)
	if code != exitOK {
		t.Fatalf("status %d", code)
	}
	checkReadable(t, stderr)
	m := readMulti(t, "run.json")
	if len(m.Methods) != 2 || m.Methods[0].Target.Method != "clamp" || m.Methods[1].Target.Method != "bulkPrice" {
		t.Fatalf("methods %q", methodKeys(m.Methods))
	}
	first, second := m.Methods[0].Tests, m.Methods[1].Tests
	if len(first.Methods) == 0 || len(second.Methods) == 0 {
		t.Fatalf("generated tests %q and %q; want some for each method", first.Methods, second.Methods)
	}
	name := func(test string) string { return test[strings.LastIndexByte(test, '.')+1:] }
	written, err := os.ReadFile(filepath.Join(dir, "src", "test", "java", "org", "acme", "PriceCalculatorAdverTest.java"))
	if err != nil {
		t.Fatal(err)
	}
	for _, test := range first.Methods {
		if !strings.Contains(second.Source, " "+name(test)+"(") {
			t.Errorf("the second method's suite lacks the first's test %s: the class's suite did not grow", test)
		}
	}
	for _, test := range append(append([]string{}, first.Methods...), second.Methods...) {
		if !strings.Contains(string(written), " "+name(test)+"(") {
			t.Errorf("the written file lacks %s", test)
		}
	}
	if !strings.HasPrefix(string(written), "// Generated by AdverTest") || strings.Count(stderr, "PriceCalculatorAdverTest.java") != 1 {
		t.Errorf("want one marked file written once:\n%.300s", written)
	}
}

// TestRunSaysWhyNoTest: `advertest run` on a method the offline T cannot drive (its class's
// only constructor always throws) prints why it wrote no test, in one sentence, and puts the
// sentence in the report's warnings.
func TestRunSaysWhyNoTest(t *testing.T) {
	dir := calculatorCopy(t)
	file := filepath.Join("src", "main", "java", "org", "acme", "Sealed.java")
	src := `package org.acme;

public final class Sealed {
    public Sealed() {
        throw new IllegalStateException("sealed");
    }

    public int doubled(int x) {
        return 2 * x;
    }
}
`
	if err := os.WriteFile(filepath.Join(dir, file), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, stderr := runCLI("run", file, "--method", "doubled", "--agents", "offline", "--rounds", "1", "--json", "run.json")
	t.Logf("run:\n%s", stderr)
	if code != exitOK {
		t.Fatalf("status %d", code)
	}
	const why = "the test agent wrote no initial test for this method: every input failed before the call"
	if n := strings.Count(stderr, why); n != 1 || !strings.Contains(stderr, "warning: `doubled`: "+why) {
		t.Errorf("stderr says %q %d times, want once, as a warning on `doubled`", why, n)
	}
	checkReadable(t, stderr)
	d, err := report.ReadFile("run.json")
	if err != nil || d.Single == nil {
		t.Fatalf("run.json: %v", err)
	}
	if !slices.ContainsFunc(d.Single.Warnings, func(w string) bool { return strings.HasPrefix(w, why) }) {
		t.Errorf("the report's warnings %q lack %q", d.Single.Warnings, why)
	}
}
