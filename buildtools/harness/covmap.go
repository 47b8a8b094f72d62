package harness

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"

	"go.uber.org/zap"
)

// The coverage map outlives a run (docs/coverage-map.md): per test of the project, its outcome
// on the original, its time and steps, and what it executed — each project class it ran (by
// JaCoCo's class id, and by the key of the class files or source it ran) with the methods it
// entered. A baseline (RunSpec.Reach) then runs only the tests the map does not know, those
// that ran a class that has changed since, and those that reach the lines under analysis; the
// others cannot execute a mutant there, so their verdicts are not needed.

// Lines are 1-based source lines, inclusive, of the file of a run's first override.
type Lines struct{ Start, End int }

// MapUse is what the coverage map did for a run with RunSpec.Reach.
type MapUse struct {
	// Enabled is false when the pool keeps no map (no coverage, no cache folder); the run then
	// ran every test.
	Enabled bool
	// NotRun counts the tests the map knew, unchanged, not to reach the lines: not run.
	NotRun int
	// Reaching counts the tests the map knew to reach the lines: run for their fresh coverage,
	// times and steps. Rerun counts the tests it did not know, or whose classes (or classes
	// they ran) changed since it recorded them: run, and recorded again.
	Reaching, Rerun int
	// Pending counts the test classes the map did not know that were left for later
	// (RunSpec.LikelyFirst): RunResult.Pending lists them.
	Pending int
	// Rebuilt says why the map was started afresh at this run ("" when it was reused): no map
	// yet, another tool version, an unreadable file, a changed class path, JDK or setting.
	Rebuilt string
	// Bytes is the map file's size after the run; Path its location.
	Bytes int64
	Path  string
}

// mapFormat changes whenever the file's meaning changes: a file of another format is rebuilt.
const mapFormat = 1

// mapData is the map file's content (gzipped JSON).
type mapData struct {
	Format int    `json:"format"`
	Tool   string `json:"tool"` // the worker's build: its sources' hash
	Key    string `json:"key"`  // class path, JDK, resources, settings (globalKey)
	// TestClasses are the test classes the map knows whole: their key and test methods.
	TestClasses map[string]*mapTestClass `json:"testClasses"`
	// Tests are keyed "class#method".
	Tests map[string]*mapTest `json:"tests"`
	// Tables are the method tables of the classes tests ran, by JaCoCo's class id.
	Tables map[string][]MethodLines `json:"tables"`
}

type mapTestClass struct {
	Key     string   `json:"key"`
	Methods []string `json:"methods"`
}

type mapTest struct {
	TestKey  string    `json:"testKey"` // the key of the test's top-level class
	Outcome  Outcome   `json:"outcome"`
	Message  string    `json:"message,omitempty"`
	Ms       float64   `json:"ms"`
	Steps    int64     `json:"steps,omitempty"`
	Executed []mapExec `json:"executed"`
	// Blind: the run gave no record of what the test executed (a coverage error, a worker
	// lost in it): the map cannot say what it reaches, so it always runs.
	Blind bool `json:"blind,omitempty"`
}

// mapExec is one class a test ran: its binary name, JaCoCo's class id of the bytes it ran,
// the key of its top-level class (classKeys) and the indexes of the methods it entered in the
// id's table (nil: not known).
type mapExec struct {
	Class   string `json:"class"`
	ID      string `json:"id"`
	Key     string `json:"key"`
	Methods []int  `json:"methods"`
}

// MethodLines is one method of a class's table: its name and descriptor, first and last line
// (-1 without line numbers).
type MethodLines struct {
	Name        string
	First, Last int
}

// coverageMap is a pool's map: loaded on first use, written after each run that recorded
// something (locked and atomic: the CLI and a server may share it). Its methods are called from
// any goroutine of Pool.Run; mu guards everything.
type coverageMap struct {
	// recording is held by a run that records test classes the map did not know, from its
	// plan to its record (runReaching); taken before mu, never while holding it.
	recording sync.Mutex
	path      string
	key       string // globalKey at open
	tool      string
	cfg       Config
	log       *zap.Logger
	mu        sync.Mutex
	data      *mapData
	stamp     fileStamp // of the file when last read or written
	why       string    // why the map was started afresh, until a write says otherwise
	files     map[string]fileMemo
	loaded    bool
}

type fileStamp struct {
	size  int64
	mtime time.Time
}

type fileMemo struct {
	stamp fileStamp
	sum   string
}

// newCoverageMap is the map of cfg's module, nil when there can be none (no class folders).
func newCoverageMap(cfg Config, spec *launchSpec) *coverageMap {
	if len(cfg.ProjectClassDirs) == 0 || spec.cacheDir == "" || spec.workerJar == "" {
		return nil
	}
	h := sha256.New()
	for _, d := range cfg.ProjectClassDirs {
		abs, _ := filepath.Abs(d)
		fmt.Fprintf(h, "%s\x00", abs)
	}
	module := hex.EncodeToString(h.Sum(nil))[:20]
	m := &coverageMap{
		path:  filepath.Join(spec.cacheDir, "coverage-map", module, "map.json.gz"),
		tool:  filepath.Base(filepath.Dir(spec.workerJar)),
		cfg:   cfg,
		log:   cfg.Logger,
		files: map[string]fileMemo{},
	}
	m.key = globalKey(cfg, spec)
	return m
}

// globalKey covers what changes every test's result at once: the JDK, the library class path,
// the resources beside the classes, and the settings that change a run on the original.
func globalKey(cfg Config, spec *launchSpec) string {
	h := sha256.New()
	stampOf := func(p string) {
		if st, err := os.Stat(p); err == nil {
			fmt.Fprintf(h, "%s %d %d\n", p, st.Size(), st.ModTime().UnixNano())
		} else {
			fmt.Fprintf(h, "%s absent\n", p)
		}
	}
	stampOf(spec.java)
	if real, err := filepath.EvalSymlinks(spec.java); err == nil {
		stampOf(real)
	}
	for _, p := range cfg.LibraryClasspath {
		stampOf(p)
	}
	for _, d := range cfg.ProjectClassDirs {
		_ = filepath.WalkDir(d, func(p string, e fs.DirEntry, err error) error {
			if err != nil || e.IsDir() || strings.HasSuffix(p, ".class") {
				return nil
			}
			stampOf(p) // a resource
			return nil
		})
	}
	fmt.Fprintf(h, "timeout %d workdir %q release %q args %q includes %q sandbox %s heap %d threads %d\n",
		cfg.OriginalTimeout, cfg.WorkDir, cfg.Release, cfg.CompilerArgs, cfg.CoverageIncludes, cfg.Sandbox.Kind, cfg.HeapMB, cfg.ThreadLimit)
	fmt.Fprintf(h, "args %q\n", spec.args)
	return hex.EncodeToString(h.Sum(nil))
}

// classKeys are the keys of top-level classes as one run sees them: a class compiled in memory
// from a text equal to its source file has the key of its class files (the same source gives the
// same lines and behaviour); any other text has a key of its own.
type classKeys struct {
	m       *coverageMap
	memory  map[string]string // top-level class → text compiled in memory this run
	resolve map[string]string
}

func (m *coverageMap) keysFor(spec RunSpec) *classKeys {
	k := &classKeys{m: m, memory: map[string]string{}, resolve: map[string]string{}}
	for _, s := range spec.Overrides {
		k.memory[topLevelOf(s.ClassName)] = s.Text
	}
	for _, s := range spec.ExtraTests {
		k.memory[topLevelOf(s.ClassName)] = s.Text
	}
	return k
}

// of is the key of the top-level class of name.
func (k *classKeys) of(name string) string {
	top := topLevelOf(name)
	if key, ok := k.resolve[top]; ok {
		return key
	}
	key := k.m.diskKey(top)
	if text, inMemory := k.memory[top]; inMemory {
		if src, err := os.ReadFile(k.m.sourceOf(top)); err != nil || string(src) != text {
			sum := sha256.Sum256([]byte(text))
			key = "mem:" + hex.EncodeToString(sum[:16])
		}
	}
	k.resolve[top] = key
	return key
}

func topLevelOf(binary string) string {
	if i := strings.IndexByte(binary, '$'); i >= 0 {
		return binary[:i]
	}
	return binary
}

// sourceOf is where top's source file would be in the source roots ("" when in none).
func (m *coverageMap) sourceOf(top string) string {
	rel := strings.ReplaceAll(top, ".", string(filepath.Separator)) + ".java"
	for _, root := range m.cfg.SourceRoots {
		if p := filepath.Join(root, rel); fileExists(p) {
			return p
		}
	}
	return ""
}

// diskKey hashes the class files of top and its nested classes in the class folders, each
// file's hash remembered while its size and modification time stay. Called with mu held.
func (m *coverageMap) diskKey(top string) string {
	pkg, simple := "", top
	if i := strings.LastIndexByte(top, '.'); i >= 0 {
		pkg, simple = strings.ReplaceAll(top[:i], ".", string(filepath.Separator)), top[i+1:]
	}
	h := sha256.New()
	found := false
	for i, d := range m.cfg.ProjectClassDirs {
		entries, err := os.ReadDir(filepath.Join(d, pkg))
		if err != nil {
			continue
		}
		var names []string
		for _, e := range entries {
			n := e.Name()
			if n == simple+".class" || (strings.HasPrefix(n, simple+"$") && strings.HasSuffix(n, ".class")) {
				names = append(names, n)
			}
		}
		sort.Strings(names)
		for _, n := range names {
			p := filepath.Join(d, pkg, n)
			sum, ok := m.fileSum(p)
			if !ok {
				continue
			}
			found = true
			fmt.Fprintf(h, "%d %s %s\n", i, n, sum)
		}
	}
	if !found {
		return "absent"
	}
	return hex.EncodeToString(h.Sum(nil))[:32]
}

func (m *coverageMap) fileSum(p string) (string, bool) {
	st, err := os.Stat(p)
	if err != nil {
		return "", false
	}
	stamp := fileStamp{size: st.Size(), mtime: st.ModTime()}
	if f, ok := m.files[p]; ok && f.stamp == stamp {
		return f.sum, true
	}
	b, err := os.ReadFile(p)
	if err != nil {
		return "", false
	}
	s := sha256.Sum256(b)
	sum := hex.EncodeToString(s[:16])
	m.files[p] = fileMemo{stamp: stamp, sum: sum}
	return sum, true
}
