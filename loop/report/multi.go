package report

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"
)

// Multi is the report over any target that is not exactly one method (a file, a folder, a
// diff, a shard, several targets): one Report per method and a summary over all of them.
type Multi struct {
	// Methods holds today's single-method report for each method, in Sort's order.
	Methods []Report `json:"methods"`
	// Failures are the methods whose run failed (the class does not compile, the LLM cannot be
	// reached); they count in Summary.FailedMethods and nowhere else.
	Failures []Failure `json:"failures,omitempty"`
	Summary  Summary   `json:"summary"`
	// Shard is set on the report of a `--shard I/N` run.
	Shard *Shard `json:"shard,omitempty"`
}

// Failure is a method whose run failed.
type Failure struct {
	Target    Target `json:"target"`
	ModuleDir string `json:"moduleDir,omitempty"`
	Error     string `json:"error"`
}

// Shard says which slice of the method set a report covers.
type Shard struct {
	// Index is 1-based: 1 ≤ Index ≤ Count.
	Index int `json:"index"`
	Count int `json:"count"`
	// MethodSetHash identifies the whole method set before slicing (MethodSetHash).
	MethodSetHash string `json:"methodSetHash"`
}

// StatusCounts counts the mutants per status; every status is always present in the JSON.
type StatusCounts struct {
	Killed       int `json:"killed"`
	Survived     int `json:"survived"`
	Timeout      int `json:"timeout"`
	Uncompilable int `json:"uncompilable"`
	Equivalent   int `json:"equivalent"`
	Duplicate    int `json:"duplicate"`
	Ignored      int `json:"ignored"`
}

// Summary is the figures over all methods of a Multi: counts and scores over all their mutants
// (not averages of per-method scores), coverage over all their lines and branches, and summed
// LLM use and timing.
type Summary struct {
	// Methods counts the methods with a report; FailedMethods those whose run failed.
	Methods       int `json:"methods"`
	FailedMethods int `json:"failedMethods"`
	Mutants       int `json:"mutants"`
	StatusCounts
	// LikelyEquivalent counts the survivors judged likely equivalent; they are in Survived too.
	LikelyEquivalent int `json:"likelyEquivalent"`
	// MutationScore is killed / (killed + survived); nil when both are 0.
	MutationScore *float64 `json:"mutationScore"`
	// RawMutationScore is killed over every valid mutant (RawScore); nil when none is valid.
	RawMutationScore *float64 `json:"rawMutationScore"`
	// LineCoverage and BranchCoverage are over all methods' lines and branches (0..1).
	LineCoverage   float64 `json:"lineCoverage"`
	BranchCoverage float64 `json:"branchCoverage"`
	Lines          Count   `json:"lines"`
	Branches       Count   `json:"branches"`
	LLM            LLM     `json:"llm"`
	// Timing sums the methods' figures: with methods run in parallel TotalMs exceeds the
	// wall time.
	Timing   Timing   `json:"timing"`
	Warnings []string `json:"warnings,omitempty"`
}

// NewMulti builds the report over many methods: it sorts the methods and failures (Sort),
// normalizes each method's report and computes the summary.
func NewMulti(methods []Report, failures []Failure, shard *Shard) *Multi {
	m := &Multi{Methods: slices.Clone(methods), Failures: slices.Clone(failures), Shard: shard}
	if m.Methods == nil {
		m.Methods = []Report{}
	}
	Sort(m.Methods)
	slices.SortStableFunc(m.Failures, func(a, b Failure) int { return compareTargets(a.ModuleDir, a.Target, b.ModuleDir, b.Target) })
	for i := range m.Methods {
		m.Methods[i].Normalize()
	}
	m.Summary = Summarize(m.Methods)
	m.Summary.FailedMethods = len(m.Failures)
	return m
}

// Sort orders method reports by module, file, first line, class and signature: the order of a
// Multi, the same however the methods were run or sharded.
func Sort(methods []Report) {
	slices.SortStableFunc(methods, func(a, b Report) int {
		return compareTargets(a.ModuleDir, a.Target, b.ModuleDir, b.Target)
	})
}

func compareTargets(am string, a Target, bm string, b Target) int {
	if c := strings.Compare(am, bm); c != 0 {
		return c
	}
	if c := strings.Compare(a.File, b.File); c != 0 {
		return c
	}
	if a.StartLine != b.StartLine {
		return a.StartLine - b.StartLine
	}
	if c := strings.Compare(a.Class, b.Class); c != 0 {
		return c
	}
	return strings.Compare(a.Signature, b.Signature)
}

// Summarize computes the summary over the methods' reports. FailedMethods is left 0: failures
// carry no report (NewMulti sets it).
func Summarize(methods []Report) Summary {
	s := Summary{Methods: len(methods)}
	all := []Mutant{}
	missingCoverage := 0
	for i := range methods {
		r := &methods[i]
		all = append(all, r.Mutants...)
		for j := range r.Mutants {
			if r.Mutants[j].LikelyEquivalent() {
				s.LikelyEquivalent++
			}
		}
		if r.Coverage == nil {
			missingCoverage++
		} else {
			s.Lines = s.Lines.Add(r.Coverage.Lines)
			s.Branches = s.Branches.Add(r.Coverage.Branches)
		}
		s.LLM.Requests += r.LLM.Requests
		s.LLM.PromptTokens += r.LLM.PromptTokens
		s.LLM.CompletionTokens += r.LLM.CompletionTokens
		s.LLM.CostUSD += r.LLM.CostUSD
		s.Timing.TotalMs += r.Timing.TotalMs
		s.Timing.MutantsEvaluated += r.Timing.MutantsEvaluated
		s.Timing.TestExecutions += r.Timing.TestExecutions
		s.Timing.BaselineMs += r.Timing.BaselineMs
		s.Timing.MutantsMs += r.Timing.MutantsMs
		s.Timing.ModelMs += r.Timing.ModelMs
		s.Timing.CompileMs += r.Timing.CompileMs
		s.Timing.WorkersMs += r.Timing.WorkersMs
	}
	c := Counts(all)
	s.Mutants = len(all)
	s.StatusCounts = StatusCounts{
		Killed: c[Killed], Survived: c[Survived], Timeout: c[Timeout], Uncompilable: c[Uncompilable],
		Equivalent: c[Equivalent], Duplicate: c[Duplicate], Ignored: c[Ignored],
	}
	s.MutationScore = Score(all)
	s.RawMutationScore = RawScore(all)
	s.LineCoverage = s.Lines.Ratio()
	s.BranchCoverage = BranchRatio(s.Lines, s.Branches)
	if missingCoverage > 0 {
		s.Warnings = append(s.Warnings, fmt.Sprintf(
			"%d of %d method reports carry no coverage counts (written by an older advertest): the summary's coverage leaves them out",
			missingCoverage, len(methods)))
	}
	return s
}

// Marshal returns the indented JSON of the report.
func (m *Multi) Marshal() ([]byte, error) {
	if m.Methods == nil {
		m.Methods = []Report{}
	}
	for i := range m.Methods {
		m.Methods[i].Normalize()
	}
	return encodeIndented(m)
}

// WriteFile writes the report to path atomically.
func (m *Multi) WriteFile(path string) error { return writeMarshaled(path, m) }

// encodeIndented is the JSON of every file this package writes: indented, with a final newline.
func encodeIndented(v any) ([]byte, error) {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return nil, fmt.Errorf("encoding the report: %w", err)
	}
	return append(b, '\n'), nil
}

// writeMarshaled writes m's JSON to path atomically.
func writeMarshaled(path string, m interface{ Marshal() ([]byte, error) }) error {
	b, err := m.Marshal()
	if err != nil {
		return err
	}
	return WriteFileAtomic(path, b)
}

// Document is a report file as read back: exactly one of Single (a one-method report) and
// Multi (a report over many methods) is set.
type Document struct {
	Single *Report
	Multi  *Multi
}

// Methods returns the document's per-method reports.
func (d Document) Methods() []Report {
	if d.Single != nil {
		return []Report{*d.Single}
	}
	if d.Multi != nil {
		return d.Multi.Methods
	}
	return nil
}

// ErrNotAReport is returned by Decode for JSON that is neither report form.
var ErrNotAReport = errors.New("not an advertest report")

// Decode reads either report form: an object with "methods" is a Multi, one with "target" a
// single-method report.
func Decode(data []byte) (Document, error) {
	var probe map[string]json.RawMessage
	if err := json.Unmarshal(data, &probe); err != nil {
		return Document{}, fmt.Errorf("%w: %v", ErrNotAReport, err)
	}
	dec := func(v any) error {
		d := json.NewDecoder(bytes.NewReader(data))
		return d.Decode(v)
	}
	switch {
	case probe["methods"] != nil:
		var m Multi
		if err := dec(&m); err != nil {
			return Document{}, fmt.Errorf("reading the report over many methods: %w", err)
		}
		return Document{Multi: &m}, nil
	case probe["target"] != nil:
		var r Report
		if err := dec(&r); err != nil {
			return Document{}, fmt.Errorf("reading the report: %w", err)
		}
		return Document{Single: &r}, nil
	}
	return Document{}, fmt.Errorf("%w: it has neither \"methods\" nor \"target\"", ErrNotAReport)
}

// ReadFile reads and decodes a report file; errors name the file.
func ReadFile(path string) (Document, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return Document{}, fmt.Errorf("reading the report: %w", err)
	}
	d, err := Decode(b)
	if err != nil {
		return Document{}, fmt.Errorf("%s: %w", path, err)
	}
	return d, nil
}
