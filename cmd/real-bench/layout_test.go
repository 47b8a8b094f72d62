package main

import (
	"archive/zip"
	"context"
	"encoding/xml"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/advertest/advertest-lsp/internal/testenv"
)

// TestCheckClasspathFindsTheLibrarysOwnClasses: a jar (made here) holding a class of the
// library's packages, or of a subpackage, or in a multi-release folder, fails the check, as
// does a class folder; a jar of a package that merely starts with the same letters does not.
func TestCheckClasspathFindsTheLibrarysOwnClasses(t *testing.T) {
	dir := t.TempDir()
	jar := func(name string, entries ...string) string {
		path := filepath.Join(dir, name)
		f, err := os.Create(path)
		if err != nil {
			t.Fatal(err)
		}
		w := zip.NewWriter(f)
		for _, e := range entries {
			ew, err := w.Create(e)
			if err != nil {
				t.Fatal(err)
			}
			ew.Write([]byte{0xca, 0xfe, 0xba, 0xbe})
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		f.Close()
		return path
	}
	clean := jar("clean.jar", "META-INF/MANIFEST.MF", "org/hamcrest/Matcher.class", "org/apache/commons/lang3x/Foo.class",
		"org/apache/commons/lang3/package.html")
	leaky := jar("commons-lang3-3.12.0.jar", "org/apache/commons/lang3/StringUtils.class")
	sub := jar("sub.jar", "org/apache/commons/lang3/text/StrBuilder.class")
	multi := jar("multi.jar", "META-INF/versions/9/org/apache/commons/lang3/Foo.class")
	classes := filepath.Join(dir, "classes")
	if err := os.MkdirAll(filepath.Join(classes, "org", "apache", "commons", "lang3"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(classes, "org", "apache", "commons", "lang3", "A.class"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	pkgs := []string{"org.apache.commons.lang3"}

	if err := CheckClasspath([]string{clean, filepath.Join(dir, "missing.jar")}, pkgs); err != nil {
		t.Errorf("a class path without the library: %v", err)
	}
	for _, bad := range []string{leaky, sub, multi, classes} {
		err := CheckClasspath([]string{clean, bad}, pkgs)
		var leak *LeakError
		if !errors.As(err, &leak) || leak.Entry != bad {
			t.Errorf("CheckClasspath with %s = %v; want a LeakError naming it", bad, err)
		}
	}
	if err := CheckClasspath([]string{leaky}, []string{"org.jsoup"}); err != nil {
		t.Errorf("another library's jar: %v", err)
	}
}

func TestAntPatterns(t *testing.T) {
	cases := []struct {
		pattern, path string
		want          bool
	}{
		{"**/*Test.java", "org/a/FooTest.java", true},
		{"**/*Test.java", "FooTest.java", true},
		{"**/*Test.java", "org/a/FooTests.java", false},
		{"**/Test*.java", "org/joda/time/TestDays.java", true},
		{"**/TestAll*.java", "org/joda/time/TestAllPackages.java", true},
		{"**/*$*", "org/a/Foo$Bar.java", true},
		{"**/Abstract*.java", "org/a/AbstractMapTest.java", true},
		{"**/perf/PerformanceTest.java", "org/apache/commons/csv/perf/PerformanceTest.java", true},
		{"**/perf/PerformanceTest.java", "org/apache/commons/csv/PerformanceTest.java", false},
		{"org/apache/commons/lang3/time/Java15BugFastDateParserTest.java", "org/apache/commons/lang3/time/Java15BugFastDateParserTest.java", true},
	}
	for _, c := range cases {
		if got := antPattern(c.pattern).MatchString(c.path); got != c.want {
			t.Errorf("%s matches %s: %v; want %v", c.pattern, c.path, got, c.want)
		}
	}
}

func TestTestSources(t *testing.T) {
	base := parseTestSource("p/AbstractThingTest.java", "package p;\n\npublic abstract class AbstractThingTest {\n}\n")
	thing := parseTestSource("p/ThingTest.java", "package p;\n\nimport org.junit.jupiter.api.Test;\nimport static org.junitpioneer.jupiter.DefaultLocale.X;\n\n"+
		"public class ThingTest extends AbstractThingTest {\n  @Test void t() { Helper.go(); }\n}\n")
	helper := parseTestSource("p/util/Helper.java", "package p.util;\nfinal class Helper {}\n")
	usesHelper := parseTestSource("p/OtherTest.java", "package p;\nimport p.util.*;\nclass OtherTest { Helper h; }\n")
	unrelated := parseTestSource("q/HelperTest.java", "package q;\nclass HelperTest {}\n")
	iface := parseTestSource("p/MarkerTest.java", "package p;\npublic interface MarkerTest {}\n")

	if !base.Abstract || thing.Abstract || !iface.Abstract {
		t.Errorf("abstract: base %v, thing %v, interface %v", base.Abstract, thing.Abstract, iface.Abstract)
	}
	inc, exc := []string{"**/*Test.java"}, []string{"**/Abstract*.java"}
	if isTestClass(base, inc, nil) || !isTestClass(thing, inc, exc) || isTestClass(helper, inc, exc) {
		t.Error("isTestClass: want only ThingTest")
	}
	if why := leftOutByImport(thing, map[string]string{"org.junitpioneer": "needs junit-pioneer"}); why != "needs junit-pioneer" {
		t.Errorf("leftOutByImport of a static import = %q", why)
	}
	if why := leftOutByImport(thing, map[string]string{"org.junitp": "x"}); why != "" {
		t.Errorf("leftOutByImport matched a prefix that is not a package: %q", why)
	}

	all := []*testSource{base, thing, helper, usesHelper, unrelated, iface}
	got, err := closure(all, []string{"p/ThingTest.java"})
	if err != nil {
		t.Fatal(err)
	}
	var rels []string
	for _, s := range got {
		rels = append(rels, s.Rel)
	}
	// ThingTest needs its base class (same package); Helper is in another package, not
	// imported by ThingTest, so ThingTest's "Helper" is not it.
	if want := []string{"p/AbstractThingTest.java", "p/ThingTest.java"}; !slices.Equal(rels, want) {
		t.Errorf("closure(ThingTest) = %v; want %v", rels, want)
	}
	got, _ = closure(all, []string{"p/OtherTest.java"})
	if len(got) != 2 || got[0].Rel != "p/util/Helper.java" {
		t.Errorf("closure(OtherTest) misses the class of an on-demand import: %v", got)
	}
	if _, err := closure(all, []string{"p/NoSuchTest.java"}); err == nil {
		t.Error("closure of a missing test source: no error")
	}
}

func TestParseCompileErrors(t *testing.T) {
	root := "/c/suite/src/test/java"
	out := "\x1b[0m\x1b[0m[ERROR] COMPILATION ERROR : \n" +
		"[ERROR] /c/suite/src/test/java/x/Bad2Test.java:[2,32] package org.junitpioneer.jupiter does not exist\n" +
		"[ERROR] /c/suite/src/test/java/x/BadTest.java:[2,17] cannot find symbol\n" +
		"  symbol:   class FastDatePrinterTest\n" +
		"  location: class x.BadTest\n" +
		"[ERROR] /c/suite/src/test/java/x/BadTest.java:[2,41] incompatible types: java.lang.String cannot be converted to int\n" +
		"[ERROR] /c/suite/src/main/java/y/Main.java:[3,1] class, interface, or enum expected\n" +
		"[ERROR] Failed to execute goal org.apache.maven.plugins:maven-compiler-plugin:3.10.1:testCompile\n" +
		"[ERROR] /c/suite/src/test/java/x/BadTest.java:[2,17] cannot find symbol\n" +
		"[ERROR]   symbol:   class FastDatePrinterTest\n"
	errs, others := parseCompileErrors(out, root)
	want := map[string]compileError{
		"x/Bad2Test.java": {Rel: "x/Bad2Test.java", Message: "line 2: package org.junitpioneer.jupiter does not exist"},
		"x/BadTest.java": {Rel: "x/BadTest.java", Message: "line 2: cannot find symbol (symbol:   class FastDatePrinterTest)",
			Symbol: "FastDatePrinterTest"},
	}
	if !reflect.DeepEqual(errs, want) {
		t.Errorf("parseCompileErrors = %+v\nwant %+v", errs, want)
	}
	if len(others) != 1 || !strings.Contains(others[0], "Main.java") {
		t.Errorf("others = %q; want the main source's error", others)
	}
}

// TestPomsAreWellFormed: the poms name the library's JUnit, the pinned plugins, and (the suite)
// the test dependencies and Surefire's patterns.
func TestPomsAreWellFormed(t *testing.T) {
	type dep struct {
		GroupID    string `xml:"groupId"`
		ArtifactID string `xml:"artifactId"`
		Version    string `xml:"version"`
		Scope      string `xml:"scope"`
	}
	type pom struct {
		Release  string   `xml:"properties>maven.compiler.release"`
		Encoding string   `xml:"properties>project.build.sourceEncoding"`
		Deps     []dep    `xml:"dependencies>dependency"`
		Plugins  []dep    `xml:"build>pluginManagement>plugins>plugin"`
		Includes []string `xml:"build>plugins>plugin>configuration>includes>include"`
	}
	lib, _ := LibraryByName("jodatime")
	for _, variant := range []string{"main", "suite"} {
		dir := t.TempDir()
		if err := writePom(dir, lib, "2.10.14-1", variant); err != nil {
			t.Fatal(err)
		}
		b, err := os.ReadFile(filepath.Join(dir, "pom.xml"))
		if err != nil {
			t.Fatal(err)
		}
		var p pom
		if err := xml.Unmarshal(b, &p); err != nil {
			t.Fatalf("%s pom: %v\n%s", variant, err, b)
		}
		if p.Release != "8" || p.Encoding != "UTF-8" || len(p.Plugins) != len(pinnedPlugins) {
			t.Errorf("%s pom: release %q, encoding %q, %d plugins", variant, p.Release, p.Encoding, len(p.Plugins))
		}
		want := []dep{{"org.joda", "joda-convert", "2.2.2", "compile"}, {"junit", "junit", "4.13.2", "test"}}
		if !reflect.DeepEqual(p.Deps, want) {
			t.Errorf("%s pom's dependencies = %+v; want %+v", variant, p.Deps, want)
		}
		if (variant == "suite") != (len(p.Includes) > 0) {
			t.Errorf("%s pom's Surefire includes: %v", variant, p.Includes)
		}
		if cfg, err := os.ReadFile(filepath.Join(dir, ".mvn", "maven.config")); err != nil || !strings.Contains(string(cfg), "-o") {
			t.Errorf("%s: .mvn/maven.config %q, %v; want offline", variant, cfg, err)
		}
	}
}

// countingRunner runs commands for real and counts them by name.
type countingRunner struct {
	mu    sync.Mutex
	calls []string
}

func (c *countingRunner) run(ctx context.Context, dir, name string, args ...string) ([]byte, error) {
	c.mu.Lock()
	c.calls = append(c.calls, name)
	c.mu.Unlock()
	return execRunner(ctx, dir, name, args...)
}

func (c *countingRunner) ran(name string) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	n := 0
	for _, call := range c.calls {
		if call == name {
			n++
		}
	}
	return n
}

// TestPrepareCommonsCSV lays out the smallest library for real (from Debian's registry; it
// skips only when the registry cannot be reached): both layouts build, the suite counts with
// what needs H2 left out, a second Prepare runs no command, a layout whose record is missing
// (an interrupted Prepare) is made again without fetching again, an OnlyTests layout holds that
// test class alone, and a library whose main sources do not build is an error saying so.
func TestPrepareCommonsCSV(t *testing.T) {
	testenv.NeedsJVM(t)
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Minute)
	defer cancel()
	cache := t.TempDir()
	lib, _ := LibraryByName("csv")
	var log strings.Builder
	first := &countingRunner{}
	l, err := Prepare(ctx, cache, lib, PrepareOptions{run: first.run}, &log)
	if IsNetworkError(err) {
		t.Skipf("Debian's registry cannot be reached: %v", err)
	}
	if err != nil {
		t.Fatalf("Prepare(csv): %v\n%s", err, log.String())
	}
	if l.Version == "" || l.Suite == nil || !l.SuiteReport.Counts || first.ran("apt-get") == 0 || first.ran("mvn") == 0 {
		t.Fatalf("Prepare(csv) = %+v (apt-get %d, mvn %d runs); want a version, a counting suite", l, first.ran("apt-get"), first.ran("mvn"))
	}
	for _, p := range []Project{l.Main, *l.Suite} {
		if _, err := os.Stat(filepath.Join(p.ClassesDir, "org", "apache", "commons", "csv", "CSVParser.class")); err != nil {
			t.Errorf("%s: main classes not built: %v", p.Dir, err)
		}
		if len(p.Classpath) == 0 || p.Release != 8 || p.Encoding != "UTF-8" {
			t.Errorf("%s: class path %v, release %d, encoding %q", p.Dir, p.Classpath, p.Release, p.Encoding)
		}
	}
	if _, err := os.Stat(filepath.Join(l.Suite.TestClassesDir, "org", "apache", "commons", "csv", "CSVParserTest.class")); err != nil {
		t.Errorf("suite test classes not built: %v", err)
	}
	if _, err := os.Stat(filepath.Join(l.Main.Dir, "src", "test")); !os.IsNotExist(err) {
		t.Errorf("the main layout has tests: %v", err)
	}
	rep := l.SuiteReport
	if !strings.Contains(rep.LeftOut["org/apache/commons/csv/CSVPrinterTest.java"], "H2") || rep.Compiled < rep.TestClasses*4/5 || rep.Compiled >= rep.TestClasses {
		t.Errorf("suite report %+v; want CSVPrinterTest left out for H2, at least 80%% compiled", rep)
	}

	// A second Prepare reads the record: no apt-get, no mvn, nothing.
	again := &countingRunner{}
	l2, err := Prepare(ctx, cache, lib, PrepareOptions{run: again.run}, nil)
	if err != nil || len(again.calls) != 0 || !reflect.DeepEqual(l, l2) {
		t.Fatalf("second Prepare: %v, ran %v; want the same layouts and no command", err, again.calls)
	}

	// An interrupted Prepare (no record) is made again; the download is reused.
	if err := os.Remove(filepath.Join(filepath.Dir(l.Main.Dir), layoutRecordName)); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(l.Main.Dir, "stale-marker"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	rebuild := &countingRunner{}
	l3, err := Prepare(ctx, cache, lib, PrepareOptions{run: rebuild.run}, nil)
	if err != nil || rebuild.ran("apt-get") != 0 || rebuild.ran("mvn") == 0 || !reflect.DeepEqual(l, l3) {
		t.Fatalf("Prepare after an interruption: %v, ran %v; want the same layouts rebuilt without apt-get", err, rebuild.calls)
	}
	if _, err := os.Stat(filepath.Join(l.Main.Dir, "stale-marker")); !os.IsNotExist(err) {
		t.Errorf("the incomplete layout was kept, not made again: %v", err)
	}

	// OnlyTests: one test class, in a layout of its own.
	only := "org/apache/commons/csv/CSVFormatTest.java"
	lo, err := Prepare(ctx, cache, lib, PrepareOptions{OnlyTests: []string{only}}, nil)
	if err != nil {
		t.Fatalf("Prepare(csv, OnlyTests): %v", err)
	}
	tests, _ := readTestSources(filepath.Join(lo.Suite.Dir, "src", "test", "java"))
	if lo.Suite.Dir == l.Suite.Dir || lo.SuiteReport.TestClasses != 1 || lo.SuiteReport.Compiled != 1 || len(tests) != 1 || tests[0].Rel != only {
		t.Errorf("OnlyTests layout %s: report %+v, sources %v", lo.Suite.Dir, lo.SuiteReport, tests)
	}

	// Main sources that do not build (javac has no release 6) are an error with Maven's why.
	broken := lib
	broken.Build.Release = 6
	_, err = Prepare(ctx, cache, broken, PrepareOptions{}, nil)
	if err == nil || !strings.Contains(err.Error(), "main sources do not build") || IsNetworkError(err) {
		t.Errorf("Prepare of a library that does not build = %v; want an error saying so", err)
	}
}
