package buildtools

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// A fresh copy of a project that was opened before, at another path, gets the first copy's model
// (moved to its own path) and its compiled classes from the caches: no Maven run at all. A copy
// whose sources differ gets the model but compiles; one whose pom differs loads its model again.
func TestFreshCopyReusesTheModelAndTheClasses(t *testing.T) {
	requireTool(t, "mvn")
	ctx := testContext(t)
	cacheDir := t.TempDir()
	var runs runCounter
	opts := Options{CacheDir: cacheDir, OnToolRun: runs.hook}
	const src = "src/main/java/org/acme/PriceCalculator.java"
	const class = "target/classes/org/acme/PriceCalculator.class"

	first := copyProject(t, "../examples/maven-calculator")
	a, err := NewLoader(opts).Load(ctx, filepath.Join(first, src))
	if err != nil {
		t.Fatal(err)
	}
	if err := a.EnsureCompiled(ctx); err != nil {
		t.Fatal(err)
	}
	if runs.get() != 2 || !a.Relocatable || a.Anchor != first {
		t.Fatalf("first copy: %d runs, relocatable %v, anchor %s; want 2 runs (model, compile), relocatable, anchor %s",
			runs.get(), a.Relocatable, a.Anchor, first)
	}

	t.Run("same files elsewhere", func(t *testing.T) {
		before := runs.get()
		second := copyProject(t, "../examples/maven-calculator")
		b, err := NewLoader(opts).Load(ctx, filepath.Join(second, src))
		if err != nil {
			t.Fatal(err)
		}
		if runs.get() != before {
			t.Errorf("loading the copy's model ran the build tool")
		}
		if b.Root != second || b.MainOutput != filepath.Join(second, "target/classes") ||
			b.TestOutput != filepath.Join(second, "target/test-classes") ||
			!slices.Equal(b.MainSourceRoots, []string{filepath.Join(second, "src/main/java")}) ||
			!slices.Contains(b.BuildFiles, filepath.Join(second, "pom.xml")) {
			t.Errorf("the model was not moved to the copy: %+v", b)
		}
		if !slices.Equal(b.TestClasspath, a.TestClasspath) || b.Release != a.Release || b.JUnit != a.JUnit {
			t.Errorf("the copy's class path or release differ: %v %s %d", b.TestClasspath, b.Release, b.JUnit)
		}
		for _, p := range append(append(b.SourceRoots(), b.BuildFiles...), b.Root, b.MainOutput, b.TestOutput) {
			if strings.HasPrefix(p, first) {
				t.Errorf("the copy's model points into the first copy: %s", p)
			}
		}
		if st := b.CheckCompiled(); st.MissingOutput == "" {
			t.Fatalf("the copy reads as %s before EnsureCompiled; want a missing output", st)
		}
		if err := b.EnsureCompiled(ctx); err != nil {
			t.Fatal(err)
		}
		if runs.get() != before {
			t.Errorf("compiling the copy ran the build tool")
		}
		want, _ := os.ReadFile(filepath.Join(first, class))
		got, err := os.ReadFile(filepath.Join(second, class))
		if err != nil || !bytes.Equal(got, want) || len(want) == 0 {
			t.Errorf("the copy's %s is not the first copy's (err %v)", class, err)
		}
		if !fileExists(filepath.Join(second, "target/test-classes/org/acme/PriceCalculatorTest.class")) {
			t.Errorf("the copy's test classes were not restored")
		}
		if st := b.CheckCompiled(); st.Stale() {
			t.Errorf("after the restore the copy reads as %s", st)
		}
	})

	t.Run("an edited source", func(t *testing.T) {
		before := runs.get()
		third := copyProject(t, "../examples/maven-calculator")
		file := filepath.Join(third, src)
		text, _ := os.ReadFile(file)
		os.WriteFile(file, append(text, []byte("\n// edited\n")...), 0o644)
		c, err := NewLoader(opts).Load(ctx, file)
		if err != nil {
			t.Fatal(err)
		}
		if err := c.EnsureCompiled(ctx); err != nil {
			t.Fatal(err)
		}
		if runs.get() != before+1 {
			t.Errorf("a copy with an edited source: %d build tool runs; want 1 (the compile, not the model)", runs.get()-before)
		}
	})

	t.Run("an edited pom", func(t *testing.T) {
		before := runs.get()
		fourth := copyProject(t, "../examples/maven-calculator")
		pom := filepath.Join(fourth, "pom.xml")
		text, _ := os.ReadFile(pom)
		os.WriteFile(pom, append(text, []byte("<!-- edited -->\n")...), 0o644)
		if _, err := NewLoader(opts).Load(ctx, filepath.Join(fourth, src)); err != nil {
			t.Fatal(err)
		}
		if runs.get() != before+1 {
			t.Errorf("a copy with an edited pom: %d build tool runs; want 1 (its model)", runs.get()-before)
		}
	})

	t.Run("output folders with classes are left alone", func(t *testing.T) {
		fifth := copyProject(t, "../examples/maven-calculator")
		own := filepath.Join(fifth, "target/classes/org/acme/Own.class")
		os.MkdirAll(filepath.Dir(own), 0o755)
		os.WriteFile(own, []byte("mine"), 0o644)
		m, err := a.relocated(first, fifth)
		if err != nil {
			t.Fatal(err)
		}
		key, err := m.classesKey()
		if err != nil {
			t.Fatal(err)
		}
		dir := NewLoader(opts).classesCacheDir()
		if m.restoreClasses(dir, key) {
			t.Errorf("restored into an output folder that has a class")
		}
		if b, _ := os.ReadFile(own); string(b) != "mine" || fileExists(filepath.Join(fifth, class)) {
			t.Errorf("the restore touched the output folder")
		}
	})
}

// What may be moved: a model whose paths outside its build are in repositories or far from it;
// not one with a file beside the build (a copy would bring its own) or a sibling module's output.
func TestWhichModelsRelocate(t *testing.T) {
	home, err := os.UserHomeDir()
	if err != nil {
		t.Skip(err)
	}
	anchor := filepath.Join(t.TempDir(), "build")
	root := filepath.Join(anchor, "app")
	base := func() *Module {
		return &Module{Root: root, MainOutput: filepath.Join(root, "target/classes"), TestOutput: filepath.Join(root, "target/test-classes"),
			MainSourceRoots: []string{filepath.Join(root, "src/main/java")},
			BuildFiles:      []string{filepath.Join(root, "pom.xml"), filepath.Join(anchor, "pom.xml"), filepath.Join(home, ".m2/settings.xml")},
		}
	}
	for _, tc := range []struct {
		name string
		jar  string
		want bool
	}{
		{"a jar of the user's repository", filepath.Join(home, ".m2/repository/junit/junit/4.13/junit-4.13.jar"), true},
		{"a jar of Debian's repository", "/usr/share/maven-repo/junit/junit/4.x/junit-4.x.jar", true},
		{"a jar beside the build", filepath.Join(filepath.Dir(anchor), "lib/x.jar"), false},
		{"a sibling module's classes", filepath.Join(anchor, "core/target/classes"), false},
	} {
		m := base()
		m.TestClasspath = []string{tc.jar}
		if got := canRelocate(m, anchor); got != tc.want {
			t.Errorf("%s (%s): canRelocate = %v; want %v", tc.name, tc.jar, got, tc.want)
		}
	}
	if got := buildAnchor(root, Maven, base().BuildFiles); got != anchor {
		t.Errorf("buildAnchor = %s; want the parent pom's folder %s", got, anchor)
	}

	to := filepath.Join(t.TempDir(), "elsewhere")
	m := base()
	m.TestClasspath = []string{"/usr/share/java/x.jar"}
	m.CompilerArgs = []string{"-parameters", "-Aout=" + filepath.Join(anchor, "gen"), filepath.Join(anchor, "proc.jar")}
	moved, err := m.relocated(anchor, to)
	if err != nil {
		t.Fatal(err)
	}
	if moved.Root != filepath.Join(to, "app") || moved.MainOutput != filepath.Join(to, "app/target/classes") ||
		moved.TestClasspath[0] != "/usr/share/java/x.jar" || moved.BuildFiles[2] != filepath.Join(home, ".m2/settings.xml") ||
		!slices.Equal(moved.CompilerArgs, []string{"-parameters", "-Aout=" + filepath.Join(to, "gen"), filepath.Join(to, "proc.jar")}) {
		t.Errorf("relocated = %+v", moved)
	}
	if m.Root != root {
		t.Errorf("relocated changed the original")
	}
	// A folder whose name only begins like the anchor's is not under it.
	if got := movePath(anchor+"-other/x", anchor, to); got != anchor+"-other/x" {
		t.Errorf("movePath moved a neighbour: %s", got)
	}
}
