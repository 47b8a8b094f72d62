package app

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/advertest/advertest-lsp/buildtools/sandbox"
	"github.com/advertest/advertest-lsp/loop"
)

// conventional is a Resolver whose modules keep their main sources in src/main/java (the
// build model's answer for the fixtures below, without running Maven or Gradle). It counts
// the modules it was asked about.
func conventional(asked map[string]int) *Resolver {
	return &Resolver{MainSourceRoots: func(_ context.Context, root string) ([]string, error) {
		if asked != nil {
			asked[root]++
		}
		return []string{filepath.Join(root, "src", "main", "java")}, nil
	}}
}

// writeFiles writes files (slash paths relative to dir) with their text.
func writeFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, text := range files {
		path := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// keys are the resolved methods' identities, in order.
func keys(r *Resolved) []string {
	out := make([]string, len(r.Methods))
	for i, m := range r.Methods {
		out[i] = m.Key()
	}
	return out
}

const calcJava = `package org.a;

public class Calc {
    private final int base;

    public Calc(int base) {
        this.base = base;
    }

    public int add(int x) {
        return base + x;
    }

    abstract static class Shape {
        abstract double area();

        double twice() {
            return 2 * area();
        }
    }

    interface Op {
        int apply(int x);

        default int applyTwice(int x) {
            return apply(apply(x));
        }
    }
}
`

// TestResolveFilesAndFolders: a file gives every method with a body (constructors, nested
// classes, default methods; not abstract or interface methods); a folder every such method of
// the Java files under it that lie in their module's main sources, across modules, skipping
// test sources, files outside any module and hidden folders; several targets are joined
// without repeating a method; FILE:LINE and --method pick one.
func TestResolveFilesAndFolders(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"pom.xml":                              "<project/>",
		"src/main/java/org/a/Calc.java":        calcJava,
		"src/main/java/org/a/deep/Deep.java":   "package org.a.deep;\nclass Deep {\n    int f() {\n        return 1;\n    }\n}\n",
		"src/test/java/org/a/CalcTest.java":    "package org.a;\nclass CalcTest {\n    void t() {\n    }\n}\n",
		"src/main/java/.hidden/Hidden.java":    "class Hidden {\n    void h() {\n    }\n}\n",
		"lib/build.gradle":                     "",
		"lib/src/main/java/org/b/Lib.java":     "package org.b;\npublic class Lib {\n    public static int g(int x) {\n        return -x;\n    }\n}\n",
		"scripts/Loose.java":                   "class Loose {\n    void l() {\n    }\n}\n",
		"lib/src/main/resources/NotJava.txt":   "text",
		"lib/src/main/java/org/b/package.html": "<p/>",
	})
	asked := map[string]int{}
	r := conventional(asked)
	ctx := context.Background()
	resolve := func(tg Targets) *Resolved {
		t.Helper()
		tg.Dir = dir
		res, err := r.Resolve(ctx, tg)
		if err != nil {
			t.Fatalf("%+v: %v", tg, err)
		}
		return res
	}

	calc := []string{"org.a.Calc#Calc(int)", "org.a.Calc#add(int)", "org.a.Calc$Shape#twice()", "org.a.Calc$Op#applyTwice(int)"}
	if got := keys(resolve(Targets{Specs: []TargetSpec{{Path: "src/main/java/org/a/Calc.java"}}})); !slices.Equal(got, calc) {
		t.Errorf("a file: %q; want %q", got, calc)
	}

	all := resolve(Targets{Specs: []TargetSpec{{Path: "."}}})
	want := append(append([]string{}, "org.b.Lib#g(int)"), calc...)
	want = append(want, "org.a.deep.Deep#f()")
	if got := keys(all); !slices.Equal(got, want) {
		t.Errorf("the whole folder: %q; want %q (files in order, methods by line)", got, want)
	}
	if len(all.Notes) != 1 || !strings.Contains(all.Notes[0], "skipped 2 Java files outside the modules' main sources") ||
		!strings.Contains(all.Notes[0], "CalcTest.java") || !strings.Contains(all.Notes[0], "Loose.java") {
		t.Errorf("notes %q; want the test source and the loose file named", all.Notes)
	}
	if len(asked) != 2 || asked[dir] != 1 || asked[filepath.Join(dir, "lib")] != 1 {
		t.Errorf("main source roots asked %v; want each of the two modules once", asked)
	}
	for _, m := range all.Methods {
		if !filepath.IsAbs(m.Target.File) || m.Target.Method.BodyStartByte < 0 {
			t.Errorf("%s: file %s, body at %d", m.Key(), m.Target.File, m.Target.Method.BodyStartByte)
		}
	}

	// A folder inside a module's main sources, and one that is a test source root.
	if got := keys(resolve(Targets{Specs: []TargetSpec{{Path: "src/main/java/org/a/deep"}}})); !slices.Equal(got, []string{"org.a.deep.Deep#f()"}) {
		t.Errorf("a package folder: %q", got)
	}
	if got := resolve(Targets{Specs: []TargetSpec{{Path: "src/test"}}}); len(got.Methods) != 0 || len(got.Notes) != 1 {
		t.Errorf("the test sources: %q, notes %q; want none, one note", keys(got), got.Notes)
	}

	// Several targets: overlaps are joined, the order stays the files' and lines'.
	several := resolve(Targets{Specs: []TargetSpec{{Path: "lib"}, {Path: "src/main/java/org/a/Calc.java", Line: 11}, {Path: "src/main/java/org/a/Calc.java", Query: "Calc"}, {Path: "src/main/java/org/a/Calc.java"}}})
	if got := keys(several); !slices.Equal(got, append([]string{"org.b.Lib#g(int)"}, calc...)) {
		t.Errorf("several targets: %q", got)
	}
	line := Targets{Specs: []TargetSpec{{Path: "src/main/java/org/a/Calc.java", Line: 11}}}
	if got := keys(resolve(line)); !slices.Equal(got, []string{"org.a.Calc#add(int)"}) || !line.Single() {
		t.Errorf("FILE:LINE: %q, single %v", got, line.Single())
	}
	for _, tg := range []Targets{
		{Specs: []TargetSpec{{Path: "src/main/java/org/a/Calc.java"}}},
		{Specs: []TargetSpec{{Path: "lib"}}},
		{Specs: []TargetSpec{{Path: "A.java", Line: 3}, {Path: "B.java", Line: 4}}},
		{Specs: []TargetSpec{{Path: "A.java", Line: 3}}, Diff: "HEAD"},
		{Diff: "HEAD"},
	} {
		if tg.Single() {
			t.Errorf("%+v is not one method", tg)
		}
	}

	// Bad targets are usage errors.
	for _, tg := range []Targets{
		{Specs: []TargetSpec{{Path: "missing/Nope.java"}}},
		{Specs: []TargetSpec{{Path: "lib", Line: 3}}},
		{Specs: []TargetSpec{{Path: "pom.xml"}}},
		{Specs: []TargetSpec{{Path: "src/main/java/org/a/Calc.java", Query: "nope"}}},
		{Specs: []TargetSpec{{Path: "src/main/java/org/a/Calc.java", Line: 2}}},
	} {
		tg.Dir = dir
		if _, err := r.Resolve(ctx, tg); !loop.IsRequestError(err) {
			t.Errorf("%+v: %v; want a usage error", tg.Specs, err)
		}
	}
}

// git runs git in dir, failing the test on an error.
func git(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-C", dir, "-c", "user.name=t", "-c", "user.email=t@example.com", "-c", "commit.gpgsign=false"}, args...)...)
	cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %q: %v\n%s", args, err, out)
	}
	return string(out)
}

const changedV1 = `package org.a;

public class Changed {
    public int kept(int x) {
        return x + 1;
    }

    public int edited(int x) {
        return x * 2;
    }

    public int shrunk(int x) {
        int y = x;
        y += 3;
        return y;
    }

    /** The comment of a method whose comment alone changes. */
    public int commented(int x) {
        return x - 1;
    }
}
`

const changedV2 = `package org.a;

public class Changed {
    public int kept(int x) {
        return x + 1;
    }

    public int edited(int x) {
        return x * 3;
    }

    public int shrunk(int x) {
        int y = x;
        return y;
    }

    /** The comment of a method whose comment alone changed: not its lines. */
    public int commented(int x) {
        return x - 1;
    }
}
`

const movedV1 = `package org.a;

public class Moved {
    public int first(int x) {
        if (x > 0) {
            return x;
        }
        return -x;
    }

    public int second(int x) {
        return x / 2;
    }

    public int third(int x) {
        return x % 2;
    }
}
`

// TestResolveDiff: --diff REV picks exactly the methods whose lines differ between the working
// tree and REV: in a changed file the changed methods only (an edited line, removed lines, not
// a change of the comment above), every method of an added file, the changed method of a file
// renamed and changed (the rename is followed), nothing of a file outside the main sources,
// and the untracked files; with targets, the changed methods among theirs.
func TestResolveDiff(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git missing")
	}
	dir := t.TempDir()
	main := "src/main/java/org/a/"
	writeFiles(t, dir, map[string]string{
		"pom.xml":                           "<project/>",
		main + "Changed.java":               changedV1,
		main + "Moved.java":                 movedV1,
		main + "Same.java":                  "package org.a;\nclass Same {\n    int s() {\n        return 0;\n    }\n}\n",
		"src/test/java/org/a/SameTest.java": "package org.a;\nclass SameTest {\n    void t() {\n    }\n}\n",
	})
	git(t, dir, "init", "-q")
	git(t, dir, "add", ".")
	git(t, dir, "commit", "-q", "-m", "one")

	writeFiles(t, dir, map[string]string{
		main + "Changed.java":               changedV2,
		main + "Added.java":                 "package org.a;\nclass Added {\n    Added() {\n    }\n\n    int a() {\n        return 1;\n    }\n}\n",
		"src/test/java/org/a/SameTest.java": "package org.a;\nclass SameTest {\n    void t() {\n        int x = 1;\n    }\n}\n",
	})
	if err := os.MkdirAll(filepath.Join(dir, "src/main/java/org/b"), 0o755); err != nil {
		t.Fatal(err)
	}
	git(t, dir, "mv", main+"Moved.java", "src/main/java/org/b/Moved.java")
	moved := strings.Replace(strings.Replace(movedV1, "package org.a;", "package org.b;", 1), "return x / 2;", "return x >> 1;", 1)
	writeFiles(t, dir, map[string]string{"src/main/java/org/b/Moved.java": moved})
	git(t, dir, "add", "-A")
	git(t, dir, "commit", "-q", "-m", "two")
	if out := git(t, dir, "diff", "-M", "--name-status", "HEAD~1"); !strings.Contains(out, "R0") && !strings.Contains(out, "R9") {
		t.Fatalf("git does not see the rename:\n%s", out)
	}

	// A user's git configuration (in the home: git gets HOME) that changes what `git diff`
	// prints must change nothing.
	home := t.TempDir()
	writeFiles(t, home, map[string]string{".gitconfig": "[diff]\n\trenames = false\n\tnoprefix = true\n\tmnemonicPrefix = true\n\trelative = true\n" +
		"[color]\n\tdiff = always\n[core]\n\tquotePath = true\n"})
	t.Setenv("HOME", home)
	if out, err := runGit(context.Background(), nil, dir, "config", "--get", "diff.noprefix"); err != nil || strings.TrimSpace(string(out)) != "true" {
		t.Fatalf("git does not read the home's configuration: %q %v", out, err)
	}
	r := conventional(nil)
	ctx := context.Background()
	res, err := r.Resolve(ctx, Targets{Diff: "HEAD~1", Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"org.a.Added#Added()", "org.a.Added#a()", "org.a.Changed#edited(int)", "org.a.Changed#shrunk(int)", "org.b.Moved#second(int)"}
	if got := keys(res); !slices.Equal(got, want) {
		t.Errorf("--diff HEAD~1: %q; want %q", got, want)
	}
	if len(res.Notes) != 1 || !strings.Contains(res.Notes[0], "skipped 1 changed Java files outside the modules' main sources") || !strings.Contains(res.Notes[0], "SameTest.java") {
		t.Errorf("notes %q; want the changed test file named", res.Notes)
	}

	// From a subfolder, with a target: the changed methods among the target's.
	res, err = r.Resolve(ctx, Targets{Diff: "HEAD~1", Dir: filepath.Join(dir, "src"), Specs: []TargetSpec{{Path: "main/java/org/a"}}})
	if err != nil {
		t.Fatal(err)
	}
	if got := keys(res); !slices.Equal(got, want[:4]) {
		t.Errorf("--diff HEAD~1 main/java/org/a: %q; want %q", got, want[:4])
	}
	res, err = r.Resolve(ctx, Targets{Diff: "HEAD~1", Dir: dir, Specs: []TargetSpec{{Path: main + "Changed.java", Query: "kept"}, {Path: main + "Same.java"}}})
	if err != nil || len(res.Methods) != 0 {
		t.Errorf("unchanged targets: %q, %v; want none", keys(res), err)
	}

	// Against HEAD, with the work tree edited and a file untracked: only those.
	writeFiles(t, dir, map[string]string{
		main + "Fresh.java":  "package org.a;\nclass Fresh {\n    int f() {\n        return 2;\n    }\n}\n",
		main + "Same.java":   "package org.a;\nclass Same {\n    int s() {\n        return 1;\n    }\n}\n",
		"target/Built.java":  "class Built {\n    void b() {\n    }\n}\n",
		".gitignore":         "target/\n",
		main + "Ignored.txt": "not java",
	})
	res, err = r.Resolve(ctx, Targets{Diff: "HEAD", Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	if got := keys(res); !slices.Equal(got, []string{"org.a.Fresh#f()", "org.a.Same#s()"}) {
		t.Errorf("--diff HEAD with edits: %q", got)
	}

	// A revision git does not know, a folder outside any repository.
	for _, tg := range []Targets{{Diff: "no-such-branch", Dir: dir}, {Diff: "--all", Dir: dir}, {Diff: "HEAD", Dir: t.TempDir()}} {
		if _, err := r.Resolve(ctx, tg); !loop.IsRequestError(err) {
			t.Errorf("%+v: %v; want a usage error", tg, err)
		}
	}
}

// TestParseDiff reads the corners of git's unified diff: quoted names, removed and added lines
// that look like headers, the missing-newline marker, pure removals, deleted files.
func TestParseDiff(t *testing.T) {
	diff := strings.Join([]string{
		`diff --git "a/src/x y\"\303\244.java" "b/src/x y\"\303\244.java"`,
		`index 1..2 100644`,
		`--- "a/src/x y\"\303\244.java"`,
		`+++ "b/src/x y\"\303\244.java"`,
		`@@ -3 +3 @@ class X {`,
		`--- removed line that looks like a header`,
		`+++ added line that looks like a header`,
		`@@ -10,2 +9,0 @@`,
		`-a`,
		`-b`,
		`\ No newline at end of file`,
		`@@ -20,0 +19,3 @@`,
		`+diff --git a/fake b/fake`,
		`+@@ -1 +1 @@`,
		`++++ b/fake`,
		`diff --git a/gone.java b/gone.java`,
		`deleted file mode 100644`,
		`--- a/gone.java`,
		`+++ /dev/null`,
		`@@ -1,2 +0,0 @@`,
		`-x`,
		`-y`,
		`diff --git a/old.java b/new.java`,
		`similarity index 100%`,
		`rename from old.java`,
		`rename to new.java`,
		``,
	}, "\n")
	got, err := parseDiff(diff)
	if err != nil {
		t.Fatal(err)
	}
	c := got["src/x y\"ä.java"]
	if len(got) != 1 || c == nil {
		t.Fatalf("files %v; want the quoted one alone", got)
	}
	if !slices.Equal(c.ranges, [][2]int{{3, 3}, {19, 21}}) || !slices.Equal(c.removedAfter, []int{9}) {
		t.Errorf("ranges %v removed after %v; want [[3 3] [19 21]] [9]", c.ranges, c.removedAfter)
	}
	if _, err := parseDiff("+++ b/x\n@@ -1 +1 @\n"); err == nil {
		t.Error("a bad hunk header was accepted")
	}
	if _, err := unquoteGitPath(`"a\9"`); err == nil {
		t.Error("a bad escape was accepted")
	}
}

// recordingTool writes a script name into a new folder that records its environment into
// record and then runs the real tool (found on PATH now) with its arguments, and puts the
// folder first on PATH.
func recordingTool(t *testing.T, name, record string) {
	t.Helper()
	real, err := exec.LookPath(name)
	if err != nil {
		t.Skipf("%s missing", name)
	}
	bin := t.TempDir()
	script := fmt.Sprintf("#!/bin/sh\nenv > '%s'\nexec '%s' \"$@\"\n", record, real)
	if err := os.WriteFile(filepath.Join(bin, name), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))
}

// TestGitGetsTheAllowlist: git (and any helper it runs) starts with the workers' allowlist and
// HOME: never the API key variable, the default one or the configured one, nor other variables
// unless sandbox.env names them.
func TestGitGetsTheAllowlist(t *testing.T) {
	dir := t.TempDir()
	record := filepath.Join(t.TempDir(), "git.env")
	recordingTool(t, "git", record)
	git(t, dir, "init", "-q")
	t.Setenv("OPENAI_API_KEY", "sk-default-secret")
	t.Setenv("MY_LLM_KEY", "sk-configured-secret")
	t.Setenv("ADVERTEST_CANARY", "canary")
	t.Setenv("PASSED_ON", "passed")
	for _, tc := range []struct {
		name   string
		env    []string
		passed []string
	}{
		{"default policy", nil, []string{"PATH=", "HOME="}},
		{"sandbox.env and llm.apiKeyEnv", sandbox.Policy{APIKeyEnv: "MY_LLM_KEY", Env: []string{"PASSED_ON", "MY_LLM_KEY"}}.ToolEnv(os.Environ()),
			[]string{"PATH=", "HOME=", "PASSED_ON=passed"}},
	} {
		os.Remove(record)
		r := conventional(nil)
		r.GitEnv = tc.env
		if _, err := r.changes(context.Background(), dir, "HEAD"); err == nil {
			t.Fatalf("%s: --diff HEAD in a repository without commits worked", tc.name)
		}
		b, err := os.ReadFile(record)
		if err != nil {
			t.Fatalf("%s: the git on PATH did not run: %v", tc.name, err)
		}
		env := string(b)
		for _, secret := range []string{"sk-default-secret", "sk-configured-secret", "ADVERTEST_CANARY"} {
			if strings.Contains(env, secret) {
				t.Errorf("%s: git got %s", tc.name, secret)
			}
		}
		for _, want := range tc.passed {
			if !strings.Contains("\n"+env, "\n"+want) {
				t.Errorf("%s: git lacks %s", tc.name, want)
			}
		}
	}
}
