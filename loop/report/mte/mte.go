package mte

import (
	"encoding/json"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"unicode/utf16"

	"github.com/advertest/advertest-lsp/loop/report"
)

// SchemaVersion is the report schema version written.
const SchemaVersion = "2"

// Options say what the mte report cannot read from advertest's reports.
type Options struct {
	// ReadSource returns a source file's text by its path relative to the repository root
	// (report.Report.RepoPath); SourcesUnder(root) reads them from disk. A file it cannot read
	// is rebuilt from the mutants' lines, with a warning.
	ReadSource func(repoPath string) ([]byte, error)
	// ProjectRoot is the repository root's absolute path, shown by the report; optional.
	ProjectRoot string
	// ToolVersion is advertest's version; optional.
	ToolVersion string
	// Thresholds colour the scores; zero means high 80, low 60.
	Thresholds Thresholds
}

// SourcesUnder reads sources from the repository root's folder.
func SourcesUnder(root string) func(string) ([]byte, error) {
	return func(p string) ([]byte, error) {
		if !filepath.IsLocal(filepath.FromSlash(p)) {
			return nil, fmt.Errorf("%s is not a path inside the repository", p)
		}
		return os.ReadFile(filepath.Join(root, filepath.FromSlash(p)))
	}
}

// Build returns the mte report of advertest's method reports, and warnings for what it had to
// make up (a source file it could not read, a line that changed since the report).
func Build(methods []report.Report, opts Options) (*Report, []string, error) {
	out := &Report{
		SchemaVersion: SchemaVersion,
		Thresholds:    opts.Thresholds,
		ProjectRoot:   opts.ProjectRoot,
		Files:         map[string]*File{},
		Framework:     &Framework{Name: "AdverTest", Version: opts.ToolVersion},
		Performance:   &Performance{},
	}
	if out.Thresholds == (Thresholds{}) {
		out.Thresholds = Thresholds{High: 80, Low: 60}
	}
	var warnings []string
	lines := map[string][]string{}
	tests := newTestIndex()
	for i := range methods {
		r := &methods[i]
		key := r.RepoPath()
		if key == "" {
			return nil, nil, fmt.Errorf("mte: %s.%s: the report names no file", r.Target.Class, r.Target.Method)
		}
		f := out.Files[key]
		if f == nil {
			src, warn := readSource(opts.ReadSource, key, methods)
			if warn != "" {
				warnings = append(warnings, warn)
			}
			f = &File{Language: "java", Source: src, Mutants: []Mutant{}}
			out.Files[key] = f
			lines[key] = strings.Split(src, "\n")
		}
		changed := false
		for _, m := range r.Mutants {
			mm, ok := mutant(r, &m, lines[key])
			changed = changed || !ok
			f.Mutants = append(f.Mutants, mm)
			tests.add(m.KilledBy...)
			tests.add(m.CoveredBy...)
		}
		if changed {
			warnings = append(warnings, fmt.Sprintf("%s changed since the report of %s.%s: some mutants' locations may be off", key, r.Target.Class, r.Target.Method))
		}
		tests.addSuite(r)
		out.Performance.InitialRun += float64(r.Timing.BaselineMs)
		out.Performance.Mutation += float64(r.Timing.MutantsMs)
		if rest := r.Timing.TotalMs - r.Timing.BaselineMs - r.Timing.MutantsMs; rest > 0 {
			out.Performance.Setup += float64(rest)
		}
	}
	for _, f := range out.Files {
		slices.SortStableFunc(f.Mutants, func(a, b Mutant) int {
			if a.Location.Start.Line != b.Location.Start.Line {
				return a.Location.Start.Line - b.Location.Start.Line
			}
			return a.Location.Start.Column - b.Location.Start.Column
		})
	}
	out.TestFiles = tests.files()
	return out, warnings, nil
}

// mutant maps one mutant; ok is false when its line in the source is not its original line.
func mutant(r *report.Report, m *report.Mutant, lines []string) (Mutant, bool) {
	sp := m.Span()
	line, ok := m.Line, true
	if line < 1 || line > len(lines) {
		line, ok = max(1, min(line, len(lines))), false
	}
	text := strings.TrimSuffix(lines[line-1], "\r")
	if text != m.Original {
		ok = false
		// Keep the location inside the line the report shows.
		n := len(utf16.Encode([]rune(text))) + 1
		sp.StartColumn, sp.EndColumn = min(sp.StartColumn, n), min(sp.EndColumn, n)
	}
	out := Mutant{
		ID:          m.ID,
		MutatorName: report.OperatorName(m.Operator),
		Replacement: sp.Replacement,
		Description: m.Describe(),
		Location:    Location{Start: Position{line, sp.StartColumn}, End: Position{line, sp.EndColumn}},
		CoveredBy:   m.CoveredBy,
		KilledBy:    m.KilledBy,
	}
	out.Status, out.StatusReason = status(r, m)
	if len(out.KilledBy) == 0 {
		out.KilledBy = nil
	}
	return out, ok
}

// status maps advertest's status to the schema's: killed → Killed, survived → Survived (or
// NoCoverage when no test executes its line), timeout → Timeout, uncompilable → CompileError,
// equivalent, duplicate and ignored → Ignored.
func status(r *report.Report, m *report.Mutant) (string, string) {
	eq := func(what string) string {
		if m.Equivalence == nil {
			return what
		}
		s := what + " (by " + string(m.Equivalence.By) + ")"
		if m.Equivalence.Evidence != "" {
			s += ": " + m.Equivalence.Evidence
		}
		return s
	}
	switch m.Status {
	case report.Killed:
		if len(m.KilledBy) == 0 {
			return StatusKilled, "a test fails on it"
		}
		return StatusKilled, "killed by " + strings.Join(m.KilledBy, ", ")
	case report.Survived:
		if r.IsUncovered(m) {
			return StatusNoCoverage, "no test executes this line"
		}
		if m.LikelyEquivalent() {
			return StatusSurvived, eq("no test tells them apart; likely equivalent")
		}
		return StatusSurvived, "no test tells them apart"
	case report.Timeout:
		return StatusTimeout, "the tests ran past their time budget"
	case report.Uncompilable:
		return StatusCompileError, "the mutant does not compile"
	case report.Equivalent:
		return StatusIgnored, eq("equivalent to the original")
	case report.Duplicate:
		if m.DuplicateOf != "" {
			return StatusIgnored, "a duplicate: the same bytecode as mutant " + m.DuplicateOf
		}
		return StatusIgnored, eq("a duplicate: the same bytecode as another mutant")
	case report.Ignored:
		return StatusIgnored, eq("ignored by the user")
	}
	return StatusIgnored, "unknown status " + string(m.Status)
}

// readSource reads a file's source, or rebuilds it from the mutants' lines when it cannot.
func readSource(read func(string) ([]byte, error), key string, methods []report.Report) (string, string) {
	if read == nil {
		return rebuild(key, methods), fmt.Sprintf("%s: no source given; the report shows only the mutated lines", key)
	}
	b, err := read(key)
	if err != nil {
		return rebuild(key, methods), fmt.Sprintf("reading %s: %v; the report shows only the mutated lines", key, err)
	}
	return string(b), ""
}

// rebuild makes a source with the mutants' original lines at their line numbers.
func rebuild(key string, methods []report.Report) string {
	var lines []string
	for i := range methods {
		if methods[i].RepoPath() != key {
			continue
		}
		for _, m := range methods[i].Mutants {
			for len(lines) < m.Line {
				lines = append(lines, "")
			}
			lines[m.Line-1] = m.Original
		}
	}
	return strings.Join(lines, "\n")
}

// testIndex gathers the tests the mutants name, by test class, and the generated suites with
// their source.
type testIndex struct {
	byClass map[string][]string
	// suites are the generated test files, by repository path: source and class.
	suites map[string]suite
}

type suite struct {
	class, source string
	methods       []string
}

func newTestIndex() *testIndex {
	return &testIndex{byClass: map[string][]string{}, suites: map[string]suite{}}
}

func (x *testIndex) add(ids ...string) {
	for _, id := range ids {
		c := classOf(id)
		if !slices.Contains(x.byClass[c], id) {
			x.byClass[c] = append(x.byClass[c], id)
		}
	}
}

func (x *testIndex) addSuite(r *report.Report) {
	if r.Tests.Source == "" || len(r.Tests.Methods) == 0 {
		return
	}
	key := classOf(r.Tests.Methods[0])
	if r.Tests.File != nil && *r.Tests.File != "" {
		key = path.Join(r.ModuleDir, *r.Tests.File)
	}
	s := x.suites[key]
	s.class, s.source = classOf(r.Tests.Methods[0]), r.Tests.Source
	for _, id := range r.Tests.Methods {
		if !slices.Contains(s.methods, id) {
			s.methods = append(s.methods, id)
		}
	}
	x.suites[key] = s
}

// files returns the testFiles: each generated suite under its file with its source and the
// tests' lines, every other test class by its name.
func (x *testIndex) files() map[string]*TestFile {
	out := map[string]*TestFile{}
	for key, s := range x.suites {
		tf := &TestFile{Source: s.source}
		ids := slices.Clone(s.methods)
		for _, id := range x.byClass[s.class] {
			if !slices.Contains(ids, id) {
				ids = append(ids, id)
			}
		}
		for _, id := range ids {
			t := Test{ID: id, Name: nameOf(id)}
			if line, col := findTest(s.source, nameOf(id)); line > 0 {
				t.Location = &OpenLocation{Start: Position{line, col}}
			}
			tf.Tests = append(tf.Tests, t)
		}
		out[key] = tf
		delete(x.byClass, s.class)
	}
	for class, ids := range x.byClass {
		tf := &TestFile{}
		for _, id := range ids {
			tf.Tests = append(tf.Tests, Test{ID: id, Name: nameOf(id)})
		}
		out[class] = tf
	}
	if len(out) == 0 {
		return nil
	}
	// A test file whose source is shown needs every test located; leave out the others.
	for _, tf := range out {
		if tf.Source == "" {
			continue
		}
		tf.Tests = slices.DeleteFunc(tf.Tests, func(t Test) bool { return t.Location == nil })
	}
	return out
}

// classOf returns the class of a test id "pkg.Class.method" (parameters or an index after the
// name are not part of it).
func classOf(id string) string {
	base := id
	if i := strings.IndexAny(base, "[("); i >= 0 {
		base = base[:i]
	}
	if i := strings.LastIndexByte(base, '.'); i >= 0 {
		return id[:i]
	}
	return id
}

func nameOf(id string) string {
	c := classOf(id)
	if c == id {
		return id
	}
	return id[len(c)+1:]
}

// findTest returns the 1-based line and column of test method name's declaration in source.
func findTest(source, name string) (int, int) {
	base := name
	if i := strings.IndexAny(base, "[("); i >= 0 {
		base = base[:i]
	}
	re := regexp.MustCompile(`\bvoid\s+(` + regexp.QuoteMeta(base) + `)\s*\(`)
	for i, l := range strings.Split(source, "\n") {
		if loc := re.FindStringSubmatchIndex(l); loc != nil {
			return i + 1, len(utf16.Encode([]rune(l[:loc[2]]))) + 1
		}
	}
	return 0, 0
}

// Marshal returns the report's JSON (compact: it is read by programs, and inlined in the HTML
// report).
func (r *Report) Marshal() ([]byte, error) {
	b, err := json.Marshal(r)
	if err != nil {
		return nil, fmt.Errorf("encoding the mte report: %w", err)
	}
	return b, nil
}

// WriteFile builds the mte report of the methods and writes it to path atomically; it returns
// Build's warnings.
func WriteFile(path string, methods []report.Report, opts Options) ([]string, error) {
	r, warnings, err := Build(methods, opts)
	if err != nil {
		return nil, err
	}
	b, err := r.Marshal()
	if err != nil {
		return nil, err
	}
	return warnings, report.WriteFileAtomic(path, append(b, '\n'))
}

// Metrics are the figures mutation-testing-elements computes from a report: its own score
// formula, which counts timeouts as detected (advertest's mutationScore leaves them out).
type Metrics struct {
	Killed, Survived, NoCoverage, Timeout, CompileError, Ignored int
	// Detected is Killed + Timeout; Valid is Detected + Survived + NoCoverage.
	Detected, Valid int
	// MutationScore is Detected / Valid in percent; nil when Valid is 0.
	MutationScore *float64
	// ScoreOfCovered is Detected / (Detected + Survived) in percent, the score over the
	// covered code; nil when that is 0.
	ScoreOfCovered *float64
}

// ComputeMetrics returns the report's figures as mutation-testing-elements shows them.
func ComputeMetrics(r *Report) Metrics {
	var m Metrics
	for _, f := range r.Files {
		for _, x := range f.Mutants {
			switch x.Status {
			case StatusKilled:
				m.Killed++
			case StatusSurvived:
				m.Survived++
			case StatusNoCoverage:
				m.NoCoverage++
			case StatusTimeout:
				m.Timeout++
			case StatusCompileError:
				m.CompileError++
			case StatusIgnored:
				m.Ignored++
			}
		}
	}
	m.Detected = m.Killed + m.Timeout
	m.Valid = m.Detected + m.Survived + m.NoCoverage
	pct := func(n, d int) *float64 {
		if d == 0 {
			return nil
		}
		v := 100 * float64(n) / float64(d)
		return &v
	}
	m.MutationScore = pct(m.Detected, m.Valid)
	m.ScoreOfCovered = pct(m.Detected, m.Detected+m.Survived)
	return m
}
