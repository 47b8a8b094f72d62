package harness

import (
	"encoding/json"
	"time"
)

// wireMsg is any line the worker writes: an event of a run, or the done line of a request.
type wireMsg struct {
	ID        int64  `json:"id"`
	Done      bool   `json:"done"`
	Event     string `json:"event"` // plan | start | result
	Error     string `json:"error"`
	Fatal     string `json:"fatal"` // the worker must be restarted (oom, a stuck thread)
	Cancelled bool   `json:"cancelled"`

	// init
	Ready               bool   `json:"ready"`
	Java                string `json:"java"`
	JUnit               int    `json:"junit"`
	CoverageUnavailable string `json:"coverageUnavailable"`

	// stats
	LoadedClasses int64 `json:"loadedClasses"`
	HeapUsed      int64 `json:"heapUsed"`
	NonHeapUsed   int64 `json:"nonHeapUsed"`

	Compile *wireCompile `json:"compile"`
	Tests   [][]string   `json:"tests"`  // plan, discover
	Errors  []string     `json:"errors"` // discover

	// start, result
	Class         string                  `json:"class"`
	Method        string                  `json:"method"`
	BudgetMs      int64                   `json:"budgetMs"`
	Outcome       string                  `json:"outcome"`
	Message       string                  `json:"message"`
	Ms            float64                 `json:"ms"`
	Stuck         bool                    `json:"stuck"`
	Coverage      map[string]wireClassCov `json:"coverage"`
	CoverageError string                  `json:"coverageError"`
}

type wireCompile struct {
	OK          bool `json:"ok"`
	Diagnostics []struct {
		ClassName string `json:"className"`
		Line      int    `json:"line"`
		Column    int    `json:"column"`
		Kind      string `json:"kind"`
		Message   string `json:"message"`
	} `json:"diagnostics"`
	Ms float64 `json:"ms"`
}

type wireClassCov struct {
	SourceFile string  `json:"sourceFile"`
	Lines      [][]int `json:"lines"` // [line, coveredInsn, missedInsn, coveredBranches, missedBranches]
}

func decodeMsg(line []byte) (*wireMsg, error) {
	var m wireMsg
	if err := json.Unmarshal(line, &m); err != nil {
		return nil, err
	}
	return &m, nil
}

func (c *wireCompile) toResult() *CompileResult {
	if c == nil {
		return &CompileResult{OK: false, Diagnostics: []CompileDiagnostic{{Kind: "error", Message: "no compile result from the worker"}}}
	}
	r := &CompileResult{OK: c.OK, Duration: msDuration(c.Ms), Diagnostics: []CompileDiagnostic{}}
	for _, d := range c.Diagnostics {
		r.Diagnostics = append(r.Diagnostics, CompileDiagnostic{ClassName: d.ClassName, Line: d.Line, Column: d.Column, Kind: d.Kind, Message: d.Message})
	}
	return r
}

func (m *wireMsg) toTestResult() TestResult {
	r := TestResult{
		Test:     TestID{Class: m.Class, Method: m.Method},
		Outcome:  Outcome(m.Outcome),
		Message:  m.Message,
		Duration: msDuration(m.Ms),
	}
	r.Coverage = decodeCoverage(m.Coverage)
	if m.CoverageError != "" && r.Message == "" {
		r.Message = "coverage: " + m.CoverageError
	}
	return r
}

func msDuration(ms float64) time.Duration { return time.Duration(ms * float64(time.Millisecond)) }

func wireSources(srcs []Source) []map[string]string {
	out := make([]map[string]string, 0, len(srcs))
	for _, s := range srcs {
		out = append(out, map[string]string{"className": s.ClassName, "text": s.Text})
	}
	return out
}

func wireTests(tests [][]string) []map[string]string {
	out := make([]map[string]string, 0, len(tests))
	for _, t := range tests {
		out = append(out, map[string]string{"class": t[0], "method": t[1]})
	}
	return out
}

// decodeCoverage turns the worker's coverage into ours; nil stays nil.
func decodeCoverage(w map[string]wireClassCov) *Coverage {
	if w == nil {
		return nil
	}
	cov := &Coverage{Classes: map[string]*ClassCoverage{}}
	for name, c := range w {
		cc := &ClassCoverage{SourceFile: c.SourceFile, Lines: map[int]LineCoverage{}}
		for _, l := range c.Lines {
			if len(l) == 5 {
				cc.Lines[l[0]] = LineCoverage{CoveredInstructions: l[1], MissedInstructions: l[2], CoveredBranches: l[3], MissedBranches: l[4]}
			}
		}
		cov.Classes[name] = cc
	}
	return cov
}
