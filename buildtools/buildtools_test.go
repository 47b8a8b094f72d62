package buildtools

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/advertest/advertest-lsp/internal/testenv"
)

// The tests run the real Maven and Gradle (offline, through the projects' .mvn/maven.config and
// Debian's repository). Every project is copied to t.TempDir() first, so the repository's
// examples and fixtures never get a target/ or build/ folder.

// gradleTestArgs keep Gradle offline and leave no daemon behind.
var gradleTestArgs = []string{"--offline", "--no-daemon"}

func requireTool(t testing.TB, name string) {
	t.Helper()
	testenv.NeedsJVM(t)
	if _, err := exec.LookPath(name); err != nil {
		t.Skipf("%s not installed: %v", name, err)
	}
}

// copyProject copies the project folder src (relative to this package) into a fresh temporary
// folder, leaving out build outputs, and returns the copy's path.
func copyProject(t testing.TB, src string) string {
	t.Helper()
	dst := filepath.Join(t.TempDir(), filepath.Base(src))
	err := filepath.WalkDir(src, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, path)
		if d.IsDir() && (d.Name() == "target" || d.Name() == "build" || d.Name() == ".gradle" || d.Name() == ".advertest") {
			return filepath.SkipDir
		}
		target := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		info, _ := d.Info()
		return os.WriteFile(target, b, info.Mode().Perm())
	})
	if err != nil {
		t.Fatalf("copy %s: %v", src, err)
	}
	return dst
}

// runCounter counts build tool runs through Options.OnToolRun.
type runCounter struct{ n atomic.Int64 }

func (c *runCounter) hook(string, []string, string) { c.n.Add(1) }
func (c *runCounter) get() int64                    { return c.n.Load() }

func testContext(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	t.Cleanup(cancel)
	return ctx
}

func containsBase(paths []string, base string) bool {
	for _, p := range paths {
		if filepath.Base(p) == base {
			return true
		}
	}
	return false
}

func TestFindModuleRoot(t *testing.T) {
	multi, _ := filepath.Abs("testdata/maven-multi")
	cases := []struct {
		file     string
		wantRoot string
		wantBS   BuildSystem
	}{
		{"testdata/maven-multi/app/src/main/java/org/multi/app/App.java", filepath.Join(multi, "app"), Maven},
		{"testdata/maven-multi/core/src/test/java/org/multi/core/GreeterTest.java", filepath.Join(multi, "core"), Maven},
		{"testdata/maven-multi/pom.xml", multi, Maven},
		{"../examples/gradle-inventory/src/main/java/org/acme/inventory/Inventory.java", "", Gradle},
	}
	for _, c := range cases {
		root, bs, err := FindModuleRoot(c.file)
		if err != nil {
			t.Fatalf("FindModuleRoot(%s): %v", c.file, err)
		}
		if c.wantRoot == "" {
			c.wantRoot, _ = filepath.Abs("../examples/gradle-inventory")
		}
		if root != c.wantRoot || bs != c.wantBS {
			t.Errorf("FindModuleRoot(%s) = %s, %s; want %s, %s", c.file, root, bs, c.wantRoot, c.wantBS)
		}
	}

	dir := t.TempDir()
	kts := filepath.Join(dir, "kts", "src", "main", "java")
	if err := os.MkdirAll(kts, 0o755); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, "kts", "build.gradle.kts"), []byte("plugins { java }\n"), 0o644)
	if root, bs, err := FindModuleRoot(filepath.Join(kts, "A.java")); err != nil || bs != Gradle || root != filepath.Join(dir, "kts") {
		t.Errorf("build.gradle.kts: got %s, %s, %v", root, bs, err)
	}
	both := filepath.Join(dir, "both")
	os.MkdirAll(both, 0o755)
	os.WriteFile(filepath.Join(both, "pom.xml"), []byte("<project/>"), 0o644)
	os.WriteFile(filepath.Join(both, "build.gradle"), []byte(""), 0o644)
	if _, bs, err := FindModuleRoot(filepath.Join(both, "A.java")); err != nil || bs != Maven {
		t.Errorf("pom.xml beside build.gradle: got %s, %v; want maven", bs, err)
	}
	nothing := filepath.Join(dir, "nothing")
	os.MkdirAll(nothing, 0o755)
	if _, _, err := FindModuleRoot(filepath.Join(nothing, "A.java")); !errors.Is(err, ErrNoModule) {
		// The temporary folder's parents must not hold a build file for this case to mean anything.
		t.Errorf("no build file: err = %v; want ErrNoModule", err)
	}
}

func TestMavenCalculatorModel(t *testing.T) {
	requireTool(t, "mvn")
	ctx := testContext(t)
	root := copyProject(t, "../examples/maven-calculator")
	srcFile := filepath.Join(root, "src/main/java/org/acme/PriceCalculator.java")
	cacheDir := t.TempDir()
	var runs runCounter
	opts := Options{CacheDir: cacheDir, OnToolRun: runs.hook}
	loader := NewLoader(opts)

	m, err := loader.Load(ctx, srcFile)
	if err != nil {
		t.Fatalf("Load: %v", err)
	}
	if runs.get() != 1 {
		t.Errorf("cold load ran the build tool %d times; want 1", runs.get())
	}

	t.Run("model", func(t *testing.T) {
		if m.Root != root || m.BuildSystem != Maven {
			t.Errorf("root, build = %s, %s; want %s, maven", m.Root, m.BuildSystem, root)
		}
		if want := []string{filepath.Join(root, "src/main/java")}; !slices.Equal(m.MainSourceRoots, want) {
			t.Errorf("MainSourceRoots = %v; want %v", m.MainSourceRoots, want)
		}
		if want := []string{filepath.Join(root, "src/test/java")}; !slices.Equal(m.TestSourceRoots, want) {
			t.Errorf("TestSourceRoots = %v; want %v", m.TestSourceRoots, want)
		}
		if m.MainOutput != filepath.Join(root, "target/classes") || m.TestOutput != filepath.Join(root, "target/test-classes") {
			t.Errorf("outputs = %s, %s", m.MainOutput, m.TestOutput)
		}
		if m.Release != "11" {
			t.Errorf("Release = %q; want 11", m.Release)
		}
		if !containsBase(m.TestClasspath, "junit-jupiter-api-5.9.2.jar") || !containsBase(m.TestClasspath, "junit-jupiter-engine-5.9.2.jar") {
			t.Errorf("TestClasspath lacks the Jupiter jars: %v", m.TestClasspath)
		}
		for _, p := range m.TestClasspath {
			if strings.HasPrefix(p, root) {
				t.Errorf("TestClasspath holds the module's own output %s", p)
			}
		}
		if m.JUnit != 5 || m.MockitoVersion != "" {
			t.Errorf("JUnit, Mockito = %d, %q; want 5, \"\"", m.JUnit, m.MockitoVersion)
		}
		if !slices.Contains(m.BuildFiles, filepath.Join(root, "pom.xml")) || !slices.Contains(m.BuildFiles, filepath.Join(root, ".mvn/maven.config")) {
			t.Errorf("BuildFiles = %v; want the pom and .mvn/maven.config", m.BuildFiles)
		}
	})

	t.Run("files and classes", func(t *testing.T) {
		name, err := m.ClassNameForFile(srcFile)
		if err != nil || name != "org.acme.PriceCalculator" {
			t.Errorf("ClassNameForFile = %q, %v", name, err)
		}
		testFile := filepath.Join(root, "src/test/java/org/acme/PriceCalculatorTest.java")
		if !m.IsTestFile(testFile) || m.IsTestFile(srcFile) {
			t.Errorf("IsTestFile wrong for %s / %s", testFile, srcFile)
		}
		if got := m.TestFileFor("org.acme", "PriceCalculatorAdverTest"); got != filepath.Join(root, "src/test/java/org/acme/PriceCalculatorAdverTest.java") {
			t.Errorf("TestFileFor = %s", got)
		}
		if rel, _ := m.RelPath(srcFile); rel != "src/main/java/org/acme/PriceCalculator.java" {
			t.Errorf("RelPath = %s", rel)
		}
		if got := m.CoverageIncludes(); !slices.Equal(got, []string{"org.acme.*"}) {
			t.Errorf("CoverageIncludes = %v", got)
		}
	})

	t.Run("cache", func(t *testing.T) {
		before := runs.get()
		again, err := loader.Load(ctx, srcFile)
		if err != nil {
			t.Fatal(err)
		}
		if again != m || runs.get() != before {
			t.Errorf("second Load ran the build tool (%d runs) or returned a new model", runs.get()-before)
		}
		fromDisk, err := NewLoader(opts).Load(ctx, srcFile)
		if err != nil {
			t.Fatal(err)
		}
		if runs.get() != before {
			t.Errorf("a new Loader with the same CacheDir ran the build tool")
		}
		if !slices.Equal(fromDisk.TestClasspath, m.TestClasspath) || fromDisk.Release != m.Release || fromDisk.JUnit != 5 {
			t.Errorf("disk cache gave %+v", fromDisk)
		}

		// Changing a build file changes the key: Maven runs again.
		pom := filepath.Join(root, "pom.xml")
		b, _ := os.ReadFile(pom)
		if err := os.WriteFile(pom, append(b, []byte("<!-- changed -->\n")...), 0o644); err != nil {
			t.Fatal(err)
		}
		changed, err := loader.Load(ctx, srcFile)
		if err != nil {
			t.Fatal(err)
		}
		if runs.get() != before+1 || changed.CacheKey == m.CacheKey {
			t.Errorf("after a pom change: %d runs, key %s (old %s); want one run and a new key", runs.get()-before, changed.CacheKey, m.CacheKey)
		}
	})

	t.Run("EnsureCompiled", func(t *testing.T) {
		if st := m.CheckCompiled(); !st.Stale() || st.MissingOutput == "" {
			t.Fatalf("a fresh copy reads as %s; want a missing output", st)
		}
		before := runs.get()
		if err := m.EnsureCompiled(ctx); err != nil {
			t.Fatalf("EnsureCompiled: %v", err)
		}
		for _, f := range []string{"target/classes/org/acme/PriceCalculator.class", "target/test-classes/org/acme/PriceCalculatorTest.class"} {
			if !fileExists(filepath.Join(root, f)) {
				t.Errorf("%s missing after EnsureCompiled", f)
			}
		}
		if runs.get() != before+1 {
			t.Errorf("EnsureCompiled ran the build tool %d times; want 1", runs.get()-before)
		}
		if err := m.EnsureCompiled(ctx); err != nil || runs.get() != before+1 {
			t.Errorf("EnsureCompiled on current classes: err %v, %d runs; want no run", err, runs.get()-before-1)
		}

		// A change since: a new class and an edited one are compiled. The classes are dated back
		// so that the edit is newer on any file system's clock resolution.
		past := time.Now().Add(-time.Minute)
		filepath.WalkDir(filepath.Join(root, "target"), func(p string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() {
				os.Chtimes(p, past, past)
			}
			return nil
		})
		newSrc := filepath.Join(root, "src/main/java/org/acme/Discount.java")
		os.WriteFile(newSrc, []byte("package org.acme;\n\npublic class Discount {\n    public static int of(int p) { return p / 10; }\n}\n"), 0o644)
		if st := m.CheckCompiled(); st.Source != newSrc {
			t.Errorf("CheckCompiled after adding a source = %s; want %s", st, newSrc)
		}
		edited := filepath.Join(root, "src/test/java/org/acme/PriceCalculatorTest.java")
		b, _ := os.ReadFile(edited)
		os.WriteFile(edited, []byte(strings.Replace(string(b), "class PriceCalculatorTest {",
			"class PriceCalculatorTest {\n    static class Extra { int x = Discount.of(100); }\n", 1)), 0o644)
		if err := m.EnsureCompiled(ctx); err != nil {
			t.Fatalf("EnsureCompiled after a change: %v", err)
		}
		if !fileExists(filepath.Join(root, "target/classes/org/acme/Discount.class")) ||
			!fileExists(filepath.Join(root, "target/test-classes/org/acme/PriceCalculatorTest$Extra.class")) {
			t.Errorf("the changed sources were not compiled")
		}
		if st := m.CheckCompiled(); st.Stale() {
			t.Errorf("after recompiling: %s", st)
		}
	})
}

func TestMavenJUnit4Mockito(t *testing.T) {
	requireTool(t, "mvn")
	ctx := testContext(t)
	root := copyProject(t, "testdata/maven-junit4")
	m, err := LoadModule(ctx, filepath.Join(root, "src/main/java/com/example/shop/Cart.java"), Options{CacheDir: "-"})
	if err != nil {
		t.Fatalf("LoadModule: %v", err)
	}
	if want := []string{filepath.Join(root, "src/it/java")}; !slices.Equal(m.TestSourceRoots, want) {
		t.Errorf("TestSourceRoots = %v; want %v (the pom's testSourceDirectory)", m.TestSourceRoots, want)
	}
	if m.Release != "8" {
		t.Errorf("Release = %q; want 8 (maven.compiler.source 1.8)", m.Release)
	}
	if !slices.Contains(m.CompilerArgs, "-parameters") || !slices.Contains(m.CompilerArgs, "-Xlint:unchecked") {
		t.Errorf("CompilerArgs = %v; want -parameters and -Xlint:unchecked", m.CompilerArgs)
	}
	if m.JUnit != 4 {
		t.Errorf("JUnit = %d; want 4", m.JUnit)
	}
	if m.MockitoVersion != "2.23.0" {
		t.Errorf("MockitoVersion = %q; want 2.23.0", m.MockitoVersion)
	}
	if !containsBase(m.TestClasspath, "junit-4.13.2.jar") {
		t.Errorf("TestClasspath lacks junit-4.13.2.jar: %v", m.TestClasspath)
	}
	if name, _ := m.ClassNameForFile(filepath.Join(root, "src/it/java/com/example/shop/CartTest.java")); name != "com.example.shop.CartTest" {
		t.Errorf("ClassNameForFile(test) = %q", name)
	}
}

func TestMavenMultiModule(t *testing.T) {
	requireTool(t, "mvn")
	ctx := testContext(t)
	top := copyProject(t, "testdata/maven-multi")
	loader := NewLoader(Options{CacheDir: "-"})

	app, err := loader.Load(ctx, filepath.Join(top, "app/src/test/java/org/multi/app/AppTest.java"))
	if err != nil {
		t.Fatalf("Load app: %v", err)
	}
	if app.Root != filepath.Join(top, "app") || app.ReactorRoot != top || app.ReactorModule != "app" {
		t.Errorf("app: root %s, reactor %s / %s", app.Root, app.ReactorRoot, app.ReactorModule)
	}
	if app.MainOutput != filepath.Join(top, "app/target/classes") || app.Release != "11" || app.JUnit != 5 {
		t.Errorf("app: output %s, release %s, junit %d", app.MainOutput, app.Release, app.JUnit)
	}
	if !slices.Contains(app.TestClasspath, filepath.Join(top, "core/target/classes")) {
		t.Errorf("app's classpath lacks the sibling module core: %v", app.TestClasspath)
	}
	if err := app.EnsureCompiled(ctx); err != nil {
		t.Fatalf("EnsureCompiled app: %v", err)
	}
	if !fileExists(filepath.Join(top, "app/target/test-classes/org/multi/app/AppTest.class")) {
		t.Errorf("app's test classes missing after EnsureCompiled")
	}

	core, err := loader.Load(ctx, filepath.Join(top, "core/src/main/java/org/multi/core/Greeter.java"))
	if err != nil {
		t.Fatalf("Load core: %v", err)
	}
	if core.Root != filepath.Join(top, "core") || core.ReactorRoot != "" {
		t.Errorf("core: root %s, reactor %q", core.Root, core.ReactorRoot)
	}
	if slices.Contains(core.BuildFiles, filepath.Join(top, "pom.xml")) == false {
		t.Errorf("core's BuildFiles lack the parent pom: %v", core.BuildFiles)
	}
}

func TestMavenBuildFailures(t *testing.T) {
	requireTool(t, "mvn")
	ctx := testContext(t)

	t.Run("does not compile", func(t *testing.T) {
		root := copyProject(t, "testdata/maven-broken")
		m, err := LoadModule(ctx, filepath.Join(root, "src/main/java/org/broken/Broken.java"), Options{CacheDir: "-"})
		if err != nil {
			t.Fatalf("LoadModule: %v (reading the model compiles nothing, so it must work)", err)
		}
		err = m.EnsureCompiled(ctx)
		var be *BuildError
		if !errors.As(err, &be) {
			t.Fatalf("EnsureCompiled = %v; want a *BuildError", err)
		}
		for _, want := range []string{"Broken.java", "cannot find symbol", "COMPILATION ERROR"} {
			if !strings.Contains(err.Error(), want) {
				t.Errorf("error lacks Maven's %q:\n%s", want, err)
			}
		}
		if !strings.Contains(be.Output, "BUILD FAILURE") {
			t.Errorf("BuildError.Output is not Maven's own output:\n%s", be.Output)
		}
	})

	t.Run("unresolvable dependency", func(t *testing.T) {
		root := copyProject(t, "testdata/maven-broken")
		pom := filepath.Join(root, "pom.xml")
		b, _ := os.ReadFile(pom)
		os.WriteFile(pom, []byte(strings.Replace(string(b), "<dependencies>",
			"<dependencies><dependency><groupId>org.nowhere</groupId><artifactId>ghost</artifactId><version>9.9</version></dependency>", 1)), 0o644)
		_, err := LoadModule(ctx, filepath.Join(root, "src/main/java/org/broken/Broken.java"), Options{CacheDir: "-"})
		var be *BuildError
		if !errors.As(err, &be) {
			t.Fatalf("LoadModule = %v; want a *BuildError", err)
		}
		if !strings.Contains(err.Error(), "org.nowhere:ghost") || !strings.Contains(err.Error(), "Could not resolve dependencies") {
			t.Errorf("error lacks Maven's message:\n%s", err)
		}
	})
}

func TestMissingBuildTool(t *testing.T) {
	mavenRoot := copyProject(t, "testdata/maven-junit4")
	gradleRoot := copyProject(t, "../examples/gradle-inventory")
	t.Setenv("PATH", t.TempDir())
	ctx := testContext(t)

	_, err := LoadModule(ctx, filepath.Join(mavenRoot, "src/main/java/com/example/shop/Cart.java"), Options{CacheDir: "-"})
	if !errors.Is(err, ErrToolMissing) || !strings.Contains(err.Error(), "mvn not found") {
		t.Errorf("Maven without mvn: %v", err)
	}
	_, err = LoadModule(ctx, filepath.Join(gradleRoot, "src/main/java/org/acme/inventory/Inventory.java"), Options{CacheDir: "-"})
	if !errors.Is(err, ErrToolMissing) || !strings.Contains(err.Error(), "gradle not found") {
		t.Errorf("Gradle without gradle: %v", err)
	}
}

func TestGradleInventoryModel(t *testing.T) {
	requireTool(t, "gradle")
	ctx := testContext(t)
	root := copyProject(t, "../examples/gradle-inventory")
	var runs runCounter
	loader := NewLoader(Options{GradleArgs: gradleTestArgs, CacheDir: t.TempDir(), OnToolRun: runs.hook})
	srcFile := filepath.Join(root, "src/main/java/org/acme/inventory/Inventory.java")
	m, err := loader.Load(ctx, srcFile)
	if err != nil {
		t.Fatalf("Load: %v", err)
	}
	if m.BuildSystem != Gradle || m.Root != root {
		t.Errorf("root, build = %s, %s", m.Root, m.BuildSystem)
	}
	if !slices.Equal(m.MainSourceRoots, []string{filepath.Join(root, "src/main/java")}) ||
		!slices.Equal(m.TestSourceRoots, []string{filepath.Join(root, "src/test/java")}) {
		t.Errorf("source roots = %v, %v", m.MainSourceRoots, m.TestSourceRoots)
	}
	if m.MainOutput != filepath.Join(root, "build/classes/java/main") || m.TestOutput != filepath.Join(root, "build/classes/java/test") {
		t.Errorf("outputs = %s, %s", m.MainOutput, m.TestOutput)
	}
	if m.Release != "11" || m.JUnit != 4 || m.MockitoVersion != "" {
		t.Errorf("release %q, junit %d, mockito %q; want 11, 4, \"\"", m.Release, m.JUnit, m.MockitoVersion)
	}
	if !containsBase(m.TestClasspath, "junit-4.13.2.jar") {
		t.Errorf("TestClasspath lacks JUnit 4: %v", m.TestClasspath)
	}
	if name, _ := m.ClassNameForFile(srcFile); name != "org.acme.inventory.Inventory" {
		t.Errorf("ClassNameForFile = %q", name)
	}
	before := runs.get()
	if _, err := loader.Load(ctx, srcFile); err != nil || runs.get() != before {
		t.Errorf("cached Load: err %v, %d runs", err, runs.get()-before)
	}

	if err := m.EnsureCompiled(ctx); err != nil {
		t.Fatalf("EnsureCompiled: %v", err)
	}
	for _, f := range []string{"build/classes/java/main/org/acme/inventory/Pricing.class", "build/classes/java/test/org/acme/inventory/PricingTest.class"} {
		if !fileExists(filepath.Join(root, f)) {
			t.Errorf("%s missing after EnsureCompiled", f)
		}
	}
	if st := m.CheckCompiled(); st.Stale() {
		t.Errorf("after EnsureCompiled: %s", st)
	}

	// A fresh copy elsewhere: the model and the classes come from the caches, Gradle never runs.
	if !m.Relocatable {
		t.Fatalf("the Gradle model is not relocatable: %v", m.TestClasspath)
	}
	before = runs.get()
	copyRoot := copyProject(t, "../examples/gradle-inventory")
	c, err := NewLoader(Options{GradleArgs: gradleTestArgs, CacheDir: loader.opts.CacheDir, OnToolRun: runs.hook}).
		Load(ctx, filepath.Join(copyRoot, "src/main/java/org/acme/inventory/Inventory.java"))
	if err != nil {
		t.Fatal(err)
	}
	if err := c.EnsureCompiled(ctx); err != nil {
		t.Fatal(err)
	}
	if runs.get() != before || c.Root != copyRoot || c.MainOutput != filepath.Join(copyRoot, "build/classes/java/main") {
		t.Errorf("a fresh copy: %d Gradle runs, root %s, output %s; want none, the copy's", runs.get()-before, c.Root, c.MainOutput)
	}
	if !fileExists(filepath.Join(copyRoot, "build/classes/java/test/org/acme/inventory/PricingTest.class")) || c.CheckCompiled().Stale() {
		t.Errorf("the copy's classes were not restored: %s", c.CheckCompiled())
	}
}

func TestGradleBuildFailure(t *testing.T) {
	requireTool(t, "gradle")
	ctx := testContext(t)
	root := copyProject(t, "../examples/gradle-inventory")
	os.WriteFile(filepath.Join(root, "build.gradle"), []byte("apply plugin: 'java'\nthis is not groovy\n"), 0o644)
	_, err := LoadModule(ctx, filepath.Join(root, "src/main/java/org/acme/inventory/Inventory.java"),
		Options{GradleArgs: gradleTestArgs, CacheDir: "-"})
	var be *BuildError
	if !errors.As(err, &be) {
		t.Fatalf("LoadModule = %v; want a *BuildError", err)
	}
	if !strings.Contains(err.Error(), "What went wrong") || !strings.Contains(be.Output, "build.gradle") {
		t.Errorf("error lacks Gradle's message:\n%s\n--- output:\n%s", err, be.Output)
	}
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
