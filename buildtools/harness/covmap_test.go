package harness

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"
)

// mapProject is a small project of its own for the coverage map's tests, in a folder the test
// may change: two main classes, tests that reach one, the other or both.
type mapProject struct {
	root, src, main, test, cache string
}

var mapSources = map[string]string{
	"main/org/m/Alpha.java": `package org.m;

public class Alpha {
    public static int twice(int x) {
        return 2 * x;
    }

    public static int thrice(int x) {
        return 3 * x;
    }
}
`,
	"main/org/m/Beta.java": `package org.m;

public class Beta {
    public static int plusOne(int x) {
        return x + 1;
    }
}
`,
	"test/org/m/AlphaTest.java": `package org.m;

import static org.junit.Assert.assertEquals;
import org.junit.Test;

public class AlphaTest {
    @Test public void twiceOfTwo() { assertEquals(4, Alpha.twice(2)); }
    @Test public void thriceOfTwo() { assertEquals(6, Alpha.thrice(2)); }
}
`,
	"test/org/m/BetaTest.java": `package org.m;

import static org.junit.Assert.assertEquals;
import org.junit.Test;

public class BetaTest {
    @Test public void plusOneOfOne() { assertEquals(2, Beta.plusOne(1)); }
}
`,
	"test/org/m/BothTest.java": `package org.m;

import static org.junit.Assert.assertEquals;
import org.junit.Test;

public class BothTest {
    @Test public void twiceThenPlusOne() { assertEquals(5, Beta.plusOne(Alpha.twice(2))); }
    @Test public void nothingOfOurs() { assertEquals(3, "abc".length()); }
}
`,
}

// allMapTests are the fixture's test classes, as a project's baseline lists them.
var allMapTests = []TestID{{Class: "org.m.AlphaTest"}, {Class: "org.m.BetaTest"}, {Class: "org.m.BothTest"}}

func newMapProject(t *testing.T) *mapProject {
	t.Helper()
	root := t.TempDir()
	p := &mapProject{root: root, src: filepath.Join(root, "src"), main: filepath.Join(root, "classes"), test: filepath.Join(root, "test-classes"), cache: filepath.Join(root, "cache")}
	for rel, text := range mapSources {
		p.write(t, rel, text)
	}
	p.compile(t)
	return p
}

func (p *mapProject) write(t *testing.T, rel, text string) {
	t.Helper()
	part, file, _ := strings.Cut(rel, "/")
	path := filepath.Join(p.src, part, "java", file)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

func (p *mapProject) compile(t *testing.T) {
	t.Helper()
	if err := javac(filepath.Join(p.src, "main", "java"), p.main, nil); err != nil {
		t.Fatal(err)
	}
	if err := javac(filepath.Join(p.src, "test", "java"), p.test, append([]string{p.main}, junit4Libs...)); err != nil {
		t.Fatal(err)
	}
}

func (p *mapProject) config() Config {
	return Config{
		LibraryClasspath: append([]string(nil), junit4Libs...),
		ProjectClassDirs: []string{p.main, p.test},
		SourceRoots:      []string{filepath.Join(p.src, "main", "java"), filepath.Join(p.src, "test", "java")},
		Release:          "11",
		Workers:          1,
		MutantBudget:     Budget{Factor: 1.25, Constant: 2 * time.Second},
		OriginalTimeout:  time.Minute,
		CacheDir:         p.cache,
	}
}

// baseline runs the suite on the original for the lines of one class's file, in a fresh pool
// (as a fresh process would), and gives the run's tests by name and what the map did.
func (p *mapProject) baseline(t *testing.T, cfg Config, class string, lines Lines) ([]string, MapUse) {
	t.Helper()
	pool := openPool(t, cfg)
	defer pool.Close()
	text, err := os.ReadFile(filepath.Join(p.src, "main", "java", strings.ReplaceAll(class, ".", "/")+".java"))
	if err != nil {
		t.Fatal(err)
	}
	res := run(t, pool, RunSpec{
		Overrides: []Source{{ClassName: class, Text: string(text)}},
		Tests:     allMapTests, Coverage: true, CoverClasses: []string{class}, Original: true,
		Reach: &lines,
	})
	if !res.Map.Enabled {
		t.Fatal("the pool kept no coverage map")
	}
	var ran []string
	for _, tr := range res.Tests {
		if tr.Outcome != Passed {
			t.Errorf("%s: %s %s", tr.Test, tr.Outcome, tr.Message)
		}
		ran = append(ran, tr.Test.Method)
	}
	sort.Strings(ran)
	return ran, res.Map
}

// Alpha.twice is on lines 4-6 of Alpha.java, Alpha.thrice on 8-10, Beta.plusOne on 4-6.
var (
	twiceLines   = Lines{Start: 4, End: 6}
	thriceLines  = Lines{Start: 8, End: 10}
	plusOneLines = Lines{Start: 4, End: 6}
)

func TestCoverageMapIsReusedByLaterRuns(t *testing.T) {
	p := newMapProject(t)
	cfg := p.config()
	ran, use := p.baseline(t, cfg, "org.m.Alpha", twiceLines)
	if want := "nothingOfOurs plusOneOfOne thriceOfTwo twiceOfTwo twiceThenPlusOne"; strings.Join(ran, " ") != want {
		t.Fatalf("the first run ran %v, want every test: %s", ran, want)
	}
	if use.Rerun != 5 || use.NotRun != 0 || use.Rebuilt != "no coverage map yet" || use.Bytes == 0 {
		t.Fatalf("first run's map use = %+v, want 5 recorded, rebuilt because there was none, a file", use)
	}
	// Another class, another process: only the tests that enter Beta.plusOne run.
	ran, use = p.baseline(t, cfg, "org.m.Beta", plusOneLines)
	if strings.Join(ran, " ") != "plusOneOfOne twiceThenPlusOne" {
		t.Errorf("the second run ran %v, want the two tests that enter plusOne", ran)
	}
	if use.NotRun != 3 || use.Reaching != 2 || use.Rerun != 0 || use.Rebuilt != "" {
		t.Errorf("second run's map use = %+v, want 3 not run, 2 reaching, none recorded again", use)
	}
	// A method of the first class: the map tells its methods apart.
	ran, _ = p.baseline(t, cfg, "org.m.Alpha", thriceLines)
	if strings.Join(ran, " ") != "thriceOfTwo" {
		t.Errorf("the run on thrice ran %v, want thriceOfTwo alone", ran)
	}
}

func TestCoverageMapInvalidation(t *testing.T) {
	p := newMapProject(t)
	cfg := p.config()
	p.baseline(t, cfg, "org.m.Alpha", twiceLines)

	t.Run("a changed main class reruns the tests that ran it", func(t *testing.T) {
		time.Sleep(10 * time.Millisecond) // a new modification time even on coarse clocks
		p.write(t, "main/org/m/Beta.java", strings.Replace(mapSources["main/org/m/Beta.java"], "x + 1", "1 + x", 1))
		p.compile(t)
		ran, use := p.baseline(t, cfg, "org.m.Alpha", twiceLines)
		// twiceOfTwo reaches twice; twiceThenPlusOne ran Beta, which changed; plusOneOfOne too.
		if strings.Join(ran, " ") != "plusOneOfOne twiceOfTwo twiceThenPlusOne" {
			t.Errorf("ran %v after Beta changed", ran)
		}
		if use.Rerun != 2 || use.Reaching != 1 || use.NotRun != 2 {
			t.Errorf("map use %+v, want 2 rerun (they ran Beta), 1 reaching, 2 not run", use)
		}
	})
	t.Run("a changed test class reruns its tests", func(t *testing.T) {
		time.Sleep(10 * time.Millisecond)
		p.write(t, "test/org/m/BetaTest.java", strings.Replace(mapSources["test/org/m/BetaTest.java"], "plusOneOfOne()", "plusOneOfOneAgain()", 1))
		if err := os.Remove(filepath.Join(p.test, "org", "m", "BetaTest.class")); err != nil {
			t.Fatal(err)
		}
		p.compile(t)
		ran, use := p.baseline(t, cfg, "org.m.Alpha", thriceLines)
		if strings.Join(ran, " ") != "plusOneOfOneAgain thriceOfTwo" {
			t.Errorf("ran %v after BetaTest changed, want its new test and the one reaching thrice", ran)
		}
		if use.Rerun != 1 {
			t.Errorf("map use %+v, want BetaTest's one test recorded again", use)
		}
	})
	t.Run("an edit in memory reruns the tests that ran the class", func(t *testing.T) {
		pool := openPool(t, cfg)
		text := strings.Replace(mapSources["main/org/m/Alpha.java"], "3 * x", "x * 3", 1)
		res := run(t, pool, RunSpec{Overrides: []Source{{ClassName: "org.m.Alpha", Text: text}}, Tests: allMapTests,
			Coverage: true, CoverClasses: []string{"org.m.Alpha"}, Original: true, Reach: &plusOneLines})
		if res.Map.Rerun != 3 || res.Map.NotRun != 2 {
			t.Errorf("map use %+v, want the 3 tests that ran Alpha run again, the other 2 not", res.Map)
		}
	})
	t.Run("a changed jar rebuilds the map", func(t *testing.T) {
		jar := filepath.Join(p.root, "extra.jar")
		if err := os.WriteFile(jar, []byte("PK\x05\x06"+strings.Repeat("\x00", 18)), 0o644); err != nil {
			t.Fatal(err)
		}
		c := cfg
		c.LibraryClasspath = append(append([]string(nil), cfg.LibraryClasspath...), jar)
		if _, use := p.baseline(t, c, "org.m.Beta", plusOneLines); use.NotRun != 0 || !strings.Contains(use.Rebuilt, "class path") {
			t.Errorf("after a new jar, map use %+v: want it rebuilt, every test run", use)
		}
		time.Sleep(10 * time.Millisecond)
		if err := os.WriteFile(jar, []byte("PK\x05\x06"+strings.Repeat("\x00", 18)), 0o644); err != nil {
			t.Fatal(err)
		}
		if _, use := p.baseline(t, c, "org.m.Beta", plusOneLines); use.NotRun != 0 || use.Rebuilt == "" {
			t.Errorf("after the jar was written again, map use %+v: want it rebuilt", use)
		}
	})
}

func TestCoverageMapUnusableFilesAreRebuilt(t *testing.T) {
	p := newMapProject(t)
	cfg := p.config()
	_, use := p.baseline(t, cfg, "org.m.Alpha", twiceLines)
	for _, tc := range []struct {
		name, why string
		spoil     func(path string) error
	}{
		{"corrupt", "unreadable", func(path string) error { return os.WriteFile(path, []byte("not a map"), 0o644) }},
		{"truncated", "unreadable", func(path string) error {
			b, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			return os.WriteFile(path, b[:len(b)/2], 0o644)
		}},
		{"another tool version", "another version", func(path string) error {
			m := &coverageMap{path: path, tool: "an-older-worker", key: "k"}
			m.data = m.empty()
			return m.save(&mapData{})
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if err := tc.spoil(use.Path); err != nil {
				t.Fatal(err)
			}
			ran, got := p.baseline(t, cfg, "org.m.Beta", plusOneLines)
			if len(ran) != 5 || !strings.Contains(got.Rebuilt, tc.why) {
				t.Fatalf("ran %v, map use %+v: want every test run and the map rebuilt (%s)", ran, got, tc.why)
			}
			if ran, got = p.baseline(t, cfg, "org.m.Beta", plusOneLines); len(ran) != 2 || got.Rebuilt != "" {
				t.Errorf("after the rebuild: ran %v, map use %+v; want the map reused", ran, got)
			}
		})
	}
}

// Two writers at once (the CLI and a server): each one's records survive the other's writes.
func TestCoverageMapTwoWritersAtOnce(t *testing.T) {
	path := filepath.Join(t.TempDir(), "map.json.gz")
	writer := func() *coverageMap {
		m := &coverageMap{path: path, tool: "w", key: "k", files: map[string]fileMemo{}}
		m.data = m.empty()
		m.loaded = true
		return m
	}
	const rounds = 40
	var wg sync.WaitGroup
	errs := make(chan error, 2*rounds)
	for w := 0; w < 2; w++ {
		m := writer()
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < rounds; i++ {
				m.mu.Lock()
				err := m.save(&mapData{Tests: map[string]*mapTest{fmt.Sprintf("T%d#t%d", w, i): {Outcome: Passed}}})
				m.mu.Unlock()
				if err != nil {
					errs <- err
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	m := writer()
	d, why := m.readFile()
	if d == nil {
		t.Fatalf("the map cannot be read after two writers: %s", why)
	}
	if len(d.Tests) != 2*rounds {
		t.Errorf("the map has %d tests, want the %d both writers recorded", len(d.Tests), 2*rounds)
	}
}

// Without a map, LikelyFirst runs the test classes that name the class under test and leaves
// the others for later; a run with them completes the map.
func TestCoverageMapLikelyTestsFirst(t *testing.T) {
	p := newMapProject(t)
	cfg := p.config()
	pool := openPool(t, cfg)
	text, err := os.ReadFile(filepath.Join(p.src, "main", "java", "org", "m", "Beta.java"))
	if err != nil {
		t.Fatal(err)
	}
	spec := RunSpec{Overrides: []Source{{ClassName: "org.m.Beta", Text: string(text)}}, Tests: allMapTests,
		Coverage: true, CoverClasses: []string{"org.m.Beta"}, Original: true, Reach: &plusOneLines, LikelyFirst: true}
	res := run(t, pool, spec)
	var ran []string
	for _, tr := range res.Tests {
		ran = append(ran, tr.Test.Method)
	}
	sort.Strings(ran)
	// BetaTest by its name, BothTest by its source; AlphaTest names neither.
	if strings.Join(ran, " ") != "nothingOfOurs plusOneOfOne twiceThenPlusOne" {
		t.Errorf("the likely tests' run ran %v", ran)
	}
	if len(res.Pending) != 1 || res.Pending[0].Class != "org.m.AlphaTest" || res.Map.Pending != 1 {
		t.Errorf("pending %v (map use %+v), want AlphaTest", res.Pending, res.Map)
	}
	spec.LikelyFirst = false
	res = run(t, pool, spec)
	if res.Map.Rerun != 2 || res.Map.Reaching != 2 || res.Map.NotRun != 1 || len(res.Pending) != 0 {
		t.Errorf("the completing run's map use %+v, pending %v: want AlphaTest's 2 tests recorded, the 2 reaching run, 1 not", res.Map, res.Pending)
	}
	// A class that no test class names: nothing to start with, every test runs at once.
	p2 := newMapProject(t)
	p2.write(t, "main/org/m/Gamma.java", "package org.m;\n\npublic class Gamma {\n    public static int zero() {\n        return 0;\n    }\n}\n")
	p2.compile(t)
	pool2 := openPool(t, p2.config())
	res = run(t, pool2, RunSpec{Overrides: []Source{{ClassName: "org.m.Gamma", Text: "package org.m;\n\npublic class Gamma {\n    public static int zero() {\n        return 0;\n    }\n}\n"}},
		Tests: allMapTests, Coverage: true, CoverClasses: []string{"org.m.Gamma"}, Original: true, Reach: &Lines{Start: 4, End: 6}, LikelyFirst: true})
	if len(res.Tests) != 5 || len(res.Pending) != 0 {
		t.Errorf("for a class no test names, ran %d tests with %v pending; want all 5 at once", len(res.Tests), res.Pending)
	}
}

// A test that failed on the original with no record of what it ran (its thread did not stop)
// is not run again while its class is the same; one that passed without a record always runs.
func TestCoverageMapSkipsBlindFailures(t *testing.T) {
	m := &coverageMap{path: filepath.Join(t.TempDir(), "none", "map.json.gz"), tool: "w", key: "k", files: map[string]fileMemo{}, loaded: true}
	m.data = m.empty()
	m.data.TestClasses["org.t.SlowTest"] = &mapTestClass{Key: "absent", Methods: []string{"stuck", "passedBlind", "reaching"}}
	m.data.Tests["org.t.SlowTest#stuck"] = &mapTest{TestKey: "absent", Outcome: Timeout, Blind: true}
	m.data.Tests["org.t.SlowTest#passedBlind"] = &mapTest{TestKey: "absent", Outcome: Passed, Blind: true}
	m.data.Tests["org.t.SlowTest#reaching"] = &mapTest{TestKey: "absent", Outcome: Passed,
		Executed: []mapExec{{Class: "org.t.Subject", ID: "1", Key: "absent", Methods: []int{0}}}}
	m.data.Tables["1"] = []MethodLines{{Name: "f()V", First: 3, Last: 5}}
	spec := RunSpec{Overrides: []Source{{ClassName: "org.t.Subject", Text: "class Subject {}"}}, Tests: []TestID{{Class: "org.t.SlowTest"}}}
	pl := m.plan(spec, Lines{Start: 4, End: 4})
	var ran []string
	for _, id := range pl.run {
		ran = append(ran, id.Method)
	}
	sort.Strings(ran)
	if strings.Join(ran, " ") != "passedBlind reaching" || pl.use.NotRun != 1 {
		t.Errorf("ran %v (map use %+v), want the blind pass and the reaching test, not the blind failure", ran, pl.use)
	}
}

// Two baselines at once on a pool without a map (two methods of a batch): the one that records
// goes first, the other then runs only the tests that reach its method.
func TestCoverageMapRecordsOnceForConcurrentRuns(t *testing.T) {
	p := newMapProject(t)
	cfg := p.config()
	cfg.Workers = 2
	pool := openPool(t, cfg)
	var wg sync.WaitGroup
	counts := make([]int, 2)
	for i, target := range []struct {
		class string
		lines Lines
	}{{"org.m.Alpha", twiceLines}, {"org.m.Beta", plusOneLines}} {
		text, err := os.ReadFile(filepath.Join(p.src, "main", "java", strings.ReplaceAll(target.class, ".", "/")+".java"))
		if err != nil {
			t.Fatal(err)
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			res, err := pool.Run(context.Background(), RunSpec{Overrides: []Source{{ClassName: target.class, Text: string(text)}}, Tests: allMapTests,
				Coverage: true, CoverClasses: []string{target.class}, Original: true, Reach: &target.lines})
			if err != nil {
				t.Error(err)
				return
			}
			counts[i] = len(res.Tests)
		}()
	}
	wg.Wait()
	// One ran all 5; the other the 2 tests that reach its method (twice and plusOne both have 2).
	if counts[0]+counts[1] != 7 {
		t.Errorf("the two runs ran %v tests, want 5 and 2", counts)
	}
}
