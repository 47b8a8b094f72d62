package harness

import (
	"encoding/json"
	"errors"
	"fmt"
	"time"
)

// The worker protocol, Go's half: one type per message, encoded and decoded here only. The
// messages, their fields and their order are described in docs/worker-protocol.md; the Java
// half is java/advertest/worker/Protocol.java.

// request is a line Go sends to the worker (on the worker's fd 4).
type request interface {
	op() string
	head() *requestHead
}

// requestHead starts every request: which operation, and the id its answers carry.
type requestHead struct {
	Op string `json:"op"`
	ID int64  `json:"id"`
}

func (h *requestHead) head() *requestHead { return h }

type initRequest struct {
	requestHead
	LibraryClasspath []string `json:"libraryClasspath"`
	ProjectClassDirs []string `json:"projectClassDirs"`
	Release          string   `json:"release"`
	CompilerArgs     []string `json:"compilerArgs"`
	ScratchDir       string   `json:"scratchDir"`
	ThreadLimit      int      `json:"threadLimit"`
	OutputLimit      int      `json:"outputLimit"`
	// PrivateTmp are the sandbox's private temporary folders (/tmp, /dev/shm), which the worker
	// empties after each test; none outside the sandbox, where /tmp is the host's.
	PrivateTmp []string `json:"privateTmp"`
	// TmpKeep are paths bound into those folders (the scratch folder, a project under /tmp):
	// what holds them is left alone.
	TmpKeep []string `json:"tmpKeep"`
}

type compileRequest struct {
	requestHead
	Sources []wireSource `json:"sources"`
	// Export asks for javac's bytes in the answer (wireCompile.Classes), to ship to the other
	// workers with their first run of the same sources.
	Export bool `json:"export,omitempty"`
	// WarmUp: compile without keeping the result among the worker's last compiles (the pool's
	// warm-up in idle time, Config.WarmUpCompiles).
	WarmUp bool `json:"warmUp,omitempty"`
}

type discoverRequest struct {
	requestHead
	Classes []string `json:"classes"`
}

type runRequest struct {
	requestHead
	Overrides          []wireSource     `json:"overrides"`
	ExtraTests         []wireSource     `json:"extraTests"`
	Tests              []wireTest       `json:"tests"`
	Coverage           bool             `json:"coverage"`
	CoverClasses       []string         `json:"coverClasses"`
	StopAtFirstFailure bool             `json:"stopAtFirstFailure"`
	DefaultBudgetMs    int64            `json:"defaultBudgetMs"`
	BudgetsMs          map[string]int64 `json:"budgetsMs"`             // "class#method" → ms
	StepBudgets        map[string]int64 `json:"stepBudgets,omitempty"` // "class#method" → steps
	ActiveMutant       int              `json:"activeMutant,omitempty"`
	SkipDigests        []string         `json:"skipDigests,omitempty"`
	// Precompiled are the classes another worker compiled from exactly these overrides and
	// extra tests: the worker defines them instead of compiling, unless it has them already.
	Precompiled *wirePrecompiled `json:"precompiled,omitempty"`
	// ExportProbes asks for the union's raw JaCoCo probes in the done line (runDone.Probes):
	// a shard of a sharded run, whose union Go merges.
	ExportProbes bool `json:"exportProbes,omitempty"`
	// RecordCompares asks the run's classes to note their comparisons (RunSpec.RecordCompares).
	RecordCompares bool `json:"recordCompares,omitempty"`
	// RecordExecuted asks, with coverage, for each test's executed classes and the method
	// tables they index (resultEvent.Executed, .Tables): the coverage map's records.
	RecordExecuted bool `json:"recordExecuted,omitempty"`
}

// analyzeRequest asks for the coverage of merged probes over a run's classes: the run's sources
// (compiled as the run compiled them) and its CoverClasses.
type analyzeRequest struct {
	requestHead
	Overrides    []wireSource     `json:"overrides"`
	ExtraTests   []wireSource     `json:"extraTests"`
	Precompiled  *wirePrecompiled `json:"precompiled,omitempty"`
	CoverClasses []string         `json:"coverClasses"`
	Probes       []wireProbes     `json:"probes"`
}

// wireProbes are one class's JaCoCo probes: its binary name, its class id (JaCoCo's CRC64 of
// the bytes it instrumented, hex) and one '0' or '1' per probe.
type wireProbes struct {
	Class  string `json:"class"`
	ID     string `json:"id"`
	Probes string `json:"probes"`
}

// wirePrecompiled is an exported compile: javac's bytes by class name (base64 on the wire) and
// the source each class came from.
type wirePrecompiled struct {
	Classes  map[string][]byte `json:"classes"`
	SourceOf map[string]string `json:"sourceOf"`
}

type statsRequest struct{ requestHead }

// cancelRequest asks the worker to stop request ID; it has no answer of its own.
type cancelRequest struct{ requestHead }

func (*initRequest) op() string     { return "init" }
func (*compileRequest) op() string  { return "compile" }
func (*discoverRequest) op() string { return "discover" }
func (*runRequest) op() string      { return "run" }
func (*analyzeRequest) op() string  { return "analyze" }
func (*statsRequest) op() string    { return "stats" }
func (*cancelRequest) op() string   { return "cancel" }

// encodeRequest is r as one protocol line, with its op and id set.
func encodeRequest(id int64, r request) ([]byte, error) {
	h := r.head()
	h.Op, h.ID = r.op(), id
	b, err := json.Marshal(r)
	if err != nil {
		return nil, fmt.Errorf("harness: encode %s request: %w", r.op(), err)
	}
	return append(b, '\n'), nil
}

type wireSource struct {
	ClassName string `json:"className"`
	Text      string `json:"text"`
	Digest    bool   `json:"digest,omitempty"`
}

type wireTest struct {
	Class  string `json:"class"`
	Method string `json:"method"`
}

func (t wireTest) id() TestID { return TestID(t) }

// replyHead starts every line the worker writes (on its fd 3).
type replyHead struct {
	ID    int64  `json:"id"`
	Done  bool   `json:"done"`  // the request's last line
	Event string `json:"event"` // plan | start | result: the lines of a run before its done line
	Error string `json:"error"` // the request failed (done lines only)
}

// answer is the done line of a single-answer request.
type answer interface{ failure() string }

func (h *replyHead) failure() string { return h.Error }

type initReply struct {
	replyHead
	Ready               bool   `json:"ready"`
	Java                string `json:"java"`
	JUnit               int    `json:"junit"`
	CoverageUnavailable string `json:"coverageUnavailable"`
	PID                 int64  `json:"pid"`
}

type compileReply struct {
	replyHead
	Compile *wireCompile `json:"compile"`
}

type analyzeReply struct {
	replyHead
	Coverage map[string]wireClassCov `json:"coverage"`
}

type discoverReply struct {
	replyHead
	Tests  []wireTest `json:"tests"`
	Errors []string   `json:"errors"`
}

type statsReply struct {
	replyHead
	LoadedClasses int64 `json:"loadedClasses"`
	HeapUsed      int64 `json:"heapUsed"`
	NonHeapUsed   int64 `json:"nonHeapUsed"`
	Threads       int   `json:"threads"`
	ThreadGroups  int   `json:"threadGroups"`
}

// planEvent opens a run whose classes compiled: every test it will run, in order.
type planEvent struct {
	replyHead
	Compile *wireCompile `json:"compile"`
	Tests   []wireTest   `json:"tests"`
}

// startEvent says test Index of the plan starts now, with its budget.
type startEvent struct {
	replyHead
	Index    int    `json:"index"`
	Class    string `json:"class"`
	Method   string `json:"method"`
	BudgetMs int64  `json:"budgetMs"`
	// BudgetSteps is the test's step budget, 0 for none.
	BudgetSteps int64 `json:"budgetSteps"`
}

// resultEvent is how test Index ended.
type resultEvent struct {
	replyHead
	Index           int                     `json:"index"`
	Class           string                  `json:"class"`
	Method          string                  `json:"method"`
	Outcome         string                  `json:"outcome"`
	Message         string                  `json:"message"`
	Ms              float64                 `json:"ms"`
	Stuck           bool                    `json:"stuck"` // its thread did not stop: the run ends with a fatal done
	Coverage        map[string]wireClassCov `json:"coverage"`
	CoverageError   string                  `json:"coverageError"`
	Stdout          string                  `json:"stdout"`
	Stderr          string                  `json:"stderr"`
	OutputDropped   int64                   `json:"outputDropped"` // bytes past the output limit
	ThreadsLeft     int                     `json:"threadsLeft"`   // live non-daemon threads the tests left so far
	ProcessesKilled int                     `json:"processesKilled"`
	Files           bool                    `json:"files"` // the test left files in its scratch folder
	Steps           int64                   `json:"steps"` // backward jumps and method entries in the compiled classes
	// Executed and Tables answer recordExecuted: the project classes the test ran with the
	// methods it entered, and the method tables of class ids this run had not sent yet.
	Executed []wireExec         `json:"executed"`
	Tables   map[string][][]any `json:"tables"`
}

// wireExec is one class a test ran: JaCoCo's class id (hex) and the indexes of the methods it
// entered in that id's table (null: the worker has no table for it).
type wireExec struct {
	Class   string `json:"class"`
	ID      string `json:"id"`
	Methods []int  `json:"methods"`
}

// decodeTables reads the method tables' rows: [name+descriptor, first line, last line].
func decodeTables(w map[string][][]any) map[string][]MethodLines {
	if len(w) == 0 {
		return nil
	}
	out := make(map[string][]MethodLines, len(w))
	for id, rows := range w {
		t := make([]MethodLines, 0, len(rows))
		for _, r := range rows {
			ml := MethodLines{First: -1, Last: -1}
			if len(r) == 3 {
				ml.Name, _ = r[0].(string)
				if f, ok := r[1].(float64); ok {
					ml.First = int(f)
				}
				if l, ok := r[2].(float64); ok {
					ml.Last = int(l)
				}
			}
			t = append(t, ml)
		}
		out[id] = t
	}
	return out
}

// runDone ends a run.
type runDone struct {
	replyHead
	Compile       *wireCompile            `json:"compile"` // only when the classes did not compile (no plan)
	Cancelled     bool                    `json:"cancelled"`
	Fatal         string                  `json:"fatal"` // the worker must be restarted: oom, a stuck thread, too many threads left
	Coverage      map[string]wireClassCov `json:"coverage"`
	CoverageError string                  `json:"coverageError"`
	Probes        []wireProbes            `json:"probes"` // when the run asked for them (ExportProbes)
}

type wireCompile struct {
	OK           bool                  `json:"ok"`
	Diagnostics  []wireDiagnostic      `json:"diagnostics"`
	Ms           float64               `json:"ms"`
	Digests      map[string]wireDigest `json:"digests"`
	DigestMs     float64               `json:"digestMs"`
	Origin       string                `json:"origin"`
	JavacContext string                `json:"javacContext"`
	// Classes and SourceOf come with an exported compile (compileRequest.Export).
	Classes  map[string][]byte `json:"classes,omitempty"`
	SourceOf map[string]string `json:"sourceOf,omitempty"`
}

// wireDigest is the bytecode digest of one digested source (Digest.java).
type wireDigest struct {
	Original string         `json:"original"`
	Mutants  map[int]string `json:"mutants"`
	Unknown  []int          `json:"unknown"`
	Opaque   bool           `json:"opaque"`
	Error    string         `json:"error"`
}

type wireDiagnostic struct {
	ClassName string `json:"className"`
	Line      int    `json:"line"`
	Column    int    `json:"column"`
	Kind      string `json:"kind"`
	Message   string `json:"message"`
}

type wireClassCov struct {
	SourceFile string  `json:"sourceFile"`
	Lines      [][]int `json:"lines"` // [line, coveredInsn, missedInsn, coveredBranches, missedBranches]
}

// errProtocol marks a line that breaks the protocol: not JSON, the wrong id, a message out of
// sequence. The worker that wrote it cannot be trusted any more (see docs/worker-protocol.md).
var errProtocol = errors.New("worker protocol violation")

func protocolErrorf(format string, args ...any) error {
	return fmt.Errorf("%w: %s", errProtocol, fmt.Sprintf(format, args...))
}

// decodeHead reads the head of a worker line.
func decodeHead(line []byte) (replyHead, error) {
	var h replyHead
	if err := json.Unmarshal(line, &h); err != nil {
		return h, protocolErrorf("not a protocol message (%v): %s", err, clip(line, 120))
	}
	return h, nil
}

// decodeDone reads the done line of a single-answer request (init, compile, discover, stats)
// into reply, checking that it is the done line of request id.
func decodeDone(line []byte, id int64, reply any) error {
	h, err := decodeHead(line)
	if err != nil {
		return err
	}
	if h.ID != id || !h.Done || h.Event != "" {
		return protocolErrorf("expected the done line of request %d, got %s", id, clip(line, 120))
	}
	if err := json.Unmarshal(line, reply); err != nil {
		return protocolErrorf("bad done line of request %d (%v): %s", id, err, clip(line, 120))
	}
	return nil
}

func clip(b []byte, n int) string {
	if len(b) > n {
		return fmt.Sprintf("%s... (%d bytes)", b[:n], len(b))
	}
	return string(b)
}

// runSequence checks the lines of one run against the protocol: an optional plan, then for each
// test of the plan in order one start and the result of that test, then done. Anything else is
// a violation (a test wrote on the protocol's descriptor, or the worker is broken).
type runSequence struct {
	id          int64
	stopAtFirst bool
	cancelSent  bool

	planned  bool
	plan     []TestID
	next     int // the plan index of the next test to start
	current  int // the plan index of the running test, -1 between tests
	lastFail bool
}

func newRunSequence(id int64, stopAtFirst bool) *runSequence {
	return &runSequence{id: id, stopAtFirst: stopAtFirst, current: -1}
}

// running is the test that has started and not ended, if any.
func (s *runSequence) running() (TestID, bool) {
	if s.current < 0 {
		return TestID{}, false
	}
	return s.plan[s.current], true
}

// lastRun is the test that ended last, if any.
func (s *runSequence) lastRun() (TestID, bool) {
	if s.next == 0 || s.current >= 0 {
		return TestID{}, false
	}
	return s.plan[s.next-1], true
}

// left is the planned tests not started yet.
func (s *runSequence) left() []TestID { return s.plan[s.next:] }

// accept decodes line as the next message of the run: *planEvent, *startEvent, *resultEvent or
// *runDone. An error wraps errProtocol.
func (s *runSequence) accept(line []byte) (any, error) {
	h, err := decodeHead(line)
	if err != nil {
		return nil, err
	}
	if h.ID != s.id {
		return nil, protocolErrorf("a line for request %d during run %d: %s", h.ID, s.id, clip(line, 120))
	}
	switch {
	case h.Done && h.Event == "":
		return s.acceptDone(line)
	case h.Done:
		return nil, protocolErrorf("a done line with event %q", h.Event)
	case h.Event == "plan":
		var m planEvent
		if err := json.Unmarshal(line, &m); err != nil {
			return nil, protocolErrorf("bad plan (%v)", err)
		}
		if s.planned {
			return nil, protocolErrorf("a second plan")
		}
		if m.Compile == nil || !m.Compile.OK {
			return nil, protocolErrorf("a plan without a successful compile")
		}
		s.planned = true
		for _, t := range m.Tests {
			s.plan = append(s.plan, t.id())
		}
		return &m, nil
	case h.Event == "start":
		var m startEvent
		if err := json.Unmarshal(line, &m); err != nil {
			return nil, protocolErrorf("bad start (%v)", err)
		}
		switch {
		case !s.planned:
			return nil, protocolErrorf("a start before the plan")
		case s.current >= 0:
			return nil, protocolErrorf("a start of %s.%s while %s runs", m.Class, m.Method, s.plan[s.current])
		case s.next >= len(s.plan):
			return nil, protocolErrorf("a start of %s.%s after every planned test", m.Class, m.Method)
		case s.stopAtFirst && s.lastFail:
			return nil, protocolErrorf("a start after a failure in a run that stops at the first one")
		case m.Index != s.next || (TestID{Class: m.Class, Method: m.Method}) != s.plan[s.next]:
			return nil, protocolErrorf("a start of #%d %s.%s where #%d %s is next", m.Index, m.Class, m.Method, s.next, s.plan[s.next])
		}
		s.current = s.next
		s.next++
		return &m, nil
	case h.Event == "result":
		var m resultEvent
		if err := json.Unmarshal(line, &m); err != nil {
			return nil, protocolErrorf("bad result (%v)", err)
		}
		if s.current < 0 {
			return nil, protocolErrorf("a result of %s.%s while no test runs", m.Class, m.Method)
		}
		if m.Index != s.current || (TestID{Class: m.Class, Method: m.Method}) != s.plan[s.current] {
			return nil, protocolErrorf("a result of #%d %s.%s while #%d %s runs", m.Index, m.Class, m.Method, s.current, s.plan[s.current])
		}
		if !knownOutcome(Outcome(m.Outcome)) {
			return nil, protocolErrorf("a result with outcome %q", m.Outcome)
		}
		s.current = -1
		s.lastFail = m.Outcome != string(Passed) && m.Outcome != string(Skipped)
		return &m, nil
	}
	return nil, protocolErrorf("an unknown message: %s", clip(line, 120))
}

func (s *runSequence) acceptDone(line []byte) (*runDone, error) {
	var m runDone
	if err := json.Unmarshal(line, &m); err != nil {
		return nil, protocolErrorf("bad done line (%v)", err)
	}
	switch {
	case s.current >= 0:
		return nil, protocolErrorf("a done line while %s runs", s.plan[s.current])
	case m.Cancelled && !s.cancelSent:
		return nil, protocolErrorf("a cancelled run that nobody cancelled")
	case !s.planned && m.Error == "" && (m.Compile == nil || m.Compile.OK):
		return nil, protocolErrorf("a done line without a plan, an error or a failed compile")
	case s.planned && m.Compile != nil:
		return nil, protocolErrorf("a done line with a compile result after the plan")
	case s.planned && s.next < len(s.plan) && m.Error == "" && m.Fatal == "" && !m.Cancelled && !(s.stopAtFirst && s.lastFail):
		return nil, protocolErrorf("a done line with %d planned tests not run", len(s.plan)-s.next)
	}
	return &m, nil
}

func knownOutcome(o Outcome) bool {
	switch o {
	case Passed, Failed, Error, Timeout, Exit, OOM, Skipped:
		return true
	}
	return false
}

func (c *wireCompile) toResult() *CompileResult {
	if c == nil {
		return &CompileResult{OK: false, Diagnostics: []CompileDiagnostic{{Kind: "error", Message: "no compile result from the worker"}}}
	}
	r := &CompileResult{OK: c.OK, Duration: msDuration(c.Ms), Diagnostics: []CompileDiagnostic{}, DigestDuration: msDuration(c.DigestMs), Origin: c.Origin, JavacContext: c.JavacContext}
	for _, d := range c.Diagnostics {
		r.Diagnostics = append(r.Diagnostics, CompileDiagnostic(d))
	}
	for name, d := range c.Digests {
		if d.Error != "" || d.Original == "" {
			continue // ASM could not read a class: no digest, no verdict from it
		}
		if r.Digests == nil {
			r.Digests = map[string]Digest{}
		}
		r.Digests[name] = Digest{Original: d.Original, Mutants: d.Mutants, Unknown: d.Unknown, Opaque: d.Opaque}
	}
	return r
}

func (m *resultEvent) toTestResult() TestResult {
	r := TestResult{
		Test:     TestID{Class: m.Class, Method: m.Method},
		Outcome:  Outcome(m.Outcome),
		Message:  m.Message,
		Duration: msDuration(m.Ms),
		Coverage: decodeCoverage(m.Coverage),
		Stdout:   m.Stdout,
		Stderr:   m.Stderr,
		Steps:    m.Steps,
		executed: m.Executed,
		tables:   decodeTables(m.Tables),
	}
	if m.CoverageError != "" && r.Message == "" {
		r.Message = "coverage: " + m.CoverageError
	}
	return r
}

func msDuration(ms float64) time.Duration { return time.Duration(ms * float64(time.Millisecond)) }

func wireSources(srcs []Source) []wireSource {
	out := make([]wireSource, 0, len(srcs))
	for _, s := range srcs {
		out = append(out, wireSource{ClassName: s.ClassName, Text: s.Text, Digest: s.Digest})
	}
	return out
}

func wireTests(tests []TestID) []wireTest {
	out := make([]wireTest, 0, len(tests))
	for _, t := range tests {
		out = append(out, wireTest(t))
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
