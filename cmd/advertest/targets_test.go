package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/advertest/advertest-lsp/loop/report"
)

// TestManyTargetsUsage: bad targets and flags of the runs over many methods are usage errors
// (status 2), before any project opens.
func TestManyTargetsUsage(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "A.java")
	if err := os.WriteFile(file, []byte("class A {\n    int f(int x) {\n        return x + 1;\n    }\n}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Chdir(dir) // outside any git repository
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"mutate", file, "--shard", "3/2"}, `--shard "3/2": want I/N with 1 ≤ I ≤ N`},
		{[]string{"mutate", file, "--shard", "x"}, `--shard "x"`},
		{[]string{"run", file, "--fail-under", "120"}, `--fail-under "120": want a percentage from 0 to 100`},
		{[]string{"mutate", file, file, "--method", "f"}, "--method NAME picks a method of one FILE"},
		{[]string{"mutate", dir, "--method", "f"}, "is a folder: LINE and --method pick a method of a FILE"},
		{[]string{"mutate", filepath.Join(dir, "missing")}, "cannot read"},
		{[]string{"mutate", file + ":3", "--method", "f"}, "give either FILE:LINE or --method NAME, not both"},
		{[]string{"run"}, "missing TARGET"},
		{[]string{"mutate", "--diff", "HEAD", dir}, "is not in a git repository"},
		{[]string{"mutate", "--diff", "HEAD", dir}, "advertest mutate: --diff HEAD: "},
		{[]string{"merge"}, "missing REPORT..."},
		{[]string{"merge", "a.json", "--fail-under", "x"}, `--fail-under "x"`},
	} {
		code, out, errOut := runCLI(tc.args...)
		if code != exitUsage || out != "" || !strings.Contains(errOut, tc.want) {
			t.Errorf("%q: status %d, stdout %q, stderr %q; want 2 and %q", tc.args, code, out, errOut, tc.want)
		}
	}
	for _, cmd := range []string{"run", "mutate", "merge"} {
		_, out, _ := runCLI("help", cmd)
		for _, flag := range []string{"--sarif PATH", "--mte PATH", "--html PATH", "--fail-under PCT"} {
			if !strings.Contains(out, flag) {
				t.Errorf("%s's help lacks %s:\n%s", cmd, flag, out)
			}
		}
		if cmd != "merge" && (!strings.Contains(out, "--shard I/N") || !strings.Contains(out, "--diff REV")) {
			t.Errorf("%s's help lacks --shard or --diff:\n%s", cmd, out)
		}
	}
}

// gitRepo makes a git repository with one commit of a Maven module in a temp folder.
func gitRepo(t *testing.T, files map[string]string) string {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git missing")
	}
	dir := t.TempDir()
	for name, text := range files {
		path := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, args := range [][]string{{"init", "-q"}, {"add", "."}, {"commit", "-q", "-m", "one"}} {
		cmd := exec.Command("git", append([]string{"-C", dir, "-c", "user.name=t", "-c", "user.email=t@example.com", "-c", "commit.gpgsign=false"}, args...)...)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %q: %v\n%s", args, err, out)
		}
	}
	return dir
}

// TestEmptyDiffAndShard: a diff with no changed method and an empty shard still write their
// report over many methods (no method, the summary, the shard), and exit 0; no project opens.
func TestEmptyDiffAndShard(t *testing.T) {
	dir := gitRepo(t, map[string]string{
		"pom.xml":                    "<project/>",
		"src/main/java/p/Only.java":  "package p;\nclass Only {\n    int f() {\n        return 1;\n    }\n}\n",
		"src/main/java/p/README.txt": "not Java",
	})
	t.Chdir(dir)
	code, out, errOut := runCLI("mutate", "--diff", "HEAD", "--json", "-", "--sarif", "empty.sarif", "--fail-under", "90")
	if code != exitOK || !strings.Contains(errOut, "no method to run changed since HEAD") || !strings.Contains(errOut, "--fail-under does not apply") {
		t.Fatalf("status %d, stderr:\n%s", code, errOut)
	}
	doc, err := report.Decode([]byte(out))
	if err != nil || doc.Multi == nil || len(doc.Multi.Methods) != 0 || doc.Multi.Shard != nil || doc.Multi.Summary.Methods != 0 {
		t.Fatalf("stdout is not an empty report over many methods (%v):\n%s", err, out)
	}
	if b, err := os.ReadFile("empty.sarif"); err != nil || !strings.Contains(string(b), `"results": []`) {
		t.Errorf("empty.sarif: %v\n%s", err, b)
	}

	code, out, errOut = runCLI("run", "--diff", "HEAD", "--shard", "2/3", "--json", "-")
	if code != exitOK || !strings.Contains(errOut, "shard 2/3: 0 of 0 methods") {
		t.Fatalf("status %d, stderr:\n%s", code, errOut)
	}
	var raw map[string]json.RawMessage
	if err := json.Unmarshal([]byte(out), &raw); err != nil || string(raw["methods"]) != "[]" || raw["shard"] == nil || raw["summary"] == nil {
		t.Errorf("the empty shard's report: %v\n%s", err, out)
	}
}

func TestSplitFileLine(t *testing.T) {
	for _, c := range []struct {
		in   string
		file string
		line int
		bad  bool
	}{
		{"src/A.java:12", "src/A.java", 12, false},
		{"src/A.java", "src/A.java", 0, false},
		{"C:dir/A.java", "C:dir/A.java", 0, false},
		{"A.java:0", "", 0, true},
	} {
		f, l, err := splitFileLine(c.in)
		if (err != nil) != c.bad || f != c.file || l != c.line {
			t.Errorf("splitFileLine(%q) = %q, %d, %v", c.in, f, l, err)
		}
	}
}
