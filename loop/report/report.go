package report

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"syscall"
)

// Target is the method a report is about.
type Target struct {
	// File is relative to the module root, with forward slashes.
	File string `json:"file"`
	// Class is the binary name of the class that declares the method (org.acme.Outer$Inner).
	Class string `json:"class"`
	// Method is the method's name, or the class's simple name for a constructor.
	Method    string `json:"method"`
	Signature string `json:"signature"`
	// StartLine and EndLine are 1-based and inclusive.
	StartLine int `json:"startLine"`
	EndLine   int `json:"endLine"`
}

// Status is a mutant's verdict.
type Status string

const (
	Killed       Status = "killed"
	Survived     Status = "survived"
	Uncompilable Status = "uncompilable"
	Timeout      Status = "timeout"
)

// Mutant is one evaluated mutant.
type Mutant struct {
	ID string `json:"id"`
	// Line is 1-based in the source file; Original and Mutated are the whole line's text.
	Line     int    `json:"line"`
	Original string `json:"original"`
	Mutated  string `json:"mutated"`
	Origin   string `json:"origin"`
	Operator string `json:"operator"`
	Status   Status `json:"status"`
	// KilledBy names the test(s) that failed on the mutant, as Class.method.
	KilledBy []string `json:"killedBy"`
	// Description names the change, e.g. "`a < b` → `a <= b`".
	Description string `json:"description,omitempty"`

	// Equivalence is the verdict that the mutant behaves like the original, when one was
	// reached; absent otherwise (see status.go).
	Equivalence *Equivalence `json:"equivalence,omitempty"`
	// DuplicateOf is, on a duplicate, the id of the mutant of the report that compiles to the
	// same bytecode and carries the verdict for both.
	DuplicateOf string `json:"duplicateOf,omitempty"`
	// CoveredBy names the passing tests that execute the mutated line, as Class.method; absent
	// when not measured.
	CoveredBy []string `json:"coveredBy,omitempty"`
}

// Tests is the generated suite.
type Tests struct {
	// File is the generated test file relative to the module root; nil for `mutate`.
	File    *string  `json:"file"`
	Source  string   `json:"source"`
	Methods []string `json:"methods"`
	// FailingOnOriginal are the generated tests that fail on the original: possible bugs,
	// written disabled (Disabled says why).
	FailingOnOriginal []string `json:"failingOnOriginal"`
	// Disabled are the tests written disabled (@Ignore / @Disabled), with the reason.
	Disabled []TestNote `json:"disabled,omitempty"`
	// Dropped are the tests written and not kept, with why (did not compile, hit a bound,
	// used reflection, a wrong expectation the model did not correct, …).
	Dropped []TestNote `json:"dropped,omitempty"`
	// LeftOut are the tests the minimal suite left out: they kill no mutant and cover no line
	// or branch of the method that the kept ones do not.
	LeftOut []string `json:"leftOut,omitempty"`
}

// TestNote is a test and a reason.
type TestNote struct {
	Test   string `json:"test"`
	Reason string `json:"reason"`
}

// Round is one entry of the history: index 0 the initial moves, then one per agent action.
type Round struct {
	Index          int      `json:"index"`
	Agent          string   `json:"agent"`
	MutationScore  *float64 `json:"mutationScore"`
	LineCoverage   float64  `json:"lineCoverage"`
	BranchCoverage float64  `json:"branchCoverage"`
	Mutants        int      `json:"mutants"`
	Tests          int      `json:"tests"`
}

// LLM counts the model's use.
type LLM struct {
	Requests         int     `json:"requests"`
	PromptTokens     int     `json:"promptTokens"`
	CompletionTokens int     `json:"completionTokens"`
	CostUSD          float64 `json:"costUSD"`
	// Estimated is set when some reply came without usage figures: its tokens, and the cost,
	// were estimated at four characters a token.
	Estimated bool `json:"estimated"`
	// Tests is what the LLM's test agent did with the classes it was sent; nil without it.
	Tests *LLMTests `json:"tests,omitempty"`
	// MutantDrops counts the mutants the LLM proposed that were dropped, by reason; nil
	// without the LLM's mutant agent.
	MutantDrops *MutantDrops `json:"mutantDrops,omitempty"`
	// Judge is what the equivalence judge did with the survivors T could not kill; nil when
	// no judge played.
	Judge *LLMJudge `json:"judge,omitempty"`
}

// LLMJudge counts the equivalence judge's work (its requests are in LLM.Requests).
type LLMJudge struct {
	// Asked is the survivors put to the judge.
	Asked int `json:"asked"`
	// LikelyEquivalent is those it judged equivalent (equivalence likelyEquivalent, by llm).
	LikelyEquivalent int `json:"likelyEquivalent"`
	// Inputs is those it judged not equivalent with an input that T turned into tests;
	// KilledByInput those of them the tests killed (the others stay survivors, no verdict).
	Inputs        int `json:"inputs"`
	KilledByInput int `json:"killedByInput"`
	// Unanswered is the replies that could not be read (no verdict).
	Unanswered int `json:"unanswered"`
}

// LLMTests counts the test agent's work on the LLM's classes.
type LLMTests struct {
	// Classes is the test classes received (initial suite, kill requests; repairs not counted).
	Classes int `json:"classes"`
	// Generated is the test methods handed to the game.
	Generated int `json:"generated"`
	// RuleRepairs counts rule passes that changed a class; LLMRepairs the LLM repair rounds.
	RuleRepairs int `json:"ruleRepairs"`
	LLMRepairs  int `json:"llmRepairs"`
	// Dropped is the tests dropped: unrepairable, timing out, or not foldable into the suite.
	Dropped int `json:"dropped"`
	// FailingOnOriginal is the tests kept that fail on the original (possible bugs).
	FailingOnOriginal int `json:"failingOnOriginal"`
	// EquivalenceAnswers counts the kill requests the model answered with "no input tells
	// them apart" (the mutant is then not asked about again; a hint, as the judge's).
	EquivalenceAnswers int `json:"equivalenceAnswers"`
	// ExpectationRounds counts the requests that showed the model its tests failing on the
	// original; Corrected the tests it corrected so that they pass.
	ExpectationRounds int `json:"expectationRounds"`
	Corrected         int `json:"corrected"`
}

// MutantDrops counts proposed mutants that were dropped, by reason.
type MutantDrops struct {
	// NotFound: the original line is not in the method.
	NotFound int `json:"notFound"`
	// MultiLine: the change spans more than one line.
	MultiLine int `json:"multiLine"`
	// NoOp: only whitespace or comments change.
	NoOp int `json:"noOp"`
	// Repeated: an earlier or known mutant.
	Repeated int `json:"repeated"`
	// Unparsable: the entry or the mutated code does not parse.
	Unparsable int `json:"unparsable"`
}

// Timing holds the run's figures.
type Timing struct {
	TotalMs          int64 `json:"totalMs"`
	MutantsEvaluated int   `json:"mutantsEvaluated"`
	// TestExecutions counts test runs against mutants (not the baseline runs).
	TestExecutions int `json:"testExecutions"`
	// BaselineMs is the time of the coverage run on the original.
	BaselineMs int64 `json:"baselineMs"`
	// MutantsMs is the wall time spent evaluating mutants.
	MutantsMs int64 `json:"mutantsMs"`
	// ModelMs, CompileMs and WorkersMs are the fixed costs of opening the project (the build
	// model, compiling what was stale, preparing the worker pool), in the report of the run
	// that opened it; 0 when the project was warm. They are not part of TotalMs.
	ModelMs   int64 `json:"modelMs"`
	CompileMs int64 `json:"compileMs"`
	WorkersMs int64 `json:"workersMs"`
	// CoverageMap says what the project's coverage map did for the last run on the original
	// (docs/coverage-map.md); absent when there is none.
	CoverageMap *CoverageMap `json:"coverageMap,omitempty"`
	// FirstVerdictsMs, in an analysis that began with the likely tests (no coverage map yet),
	// is when their verdicts were known; the rest of the suite then completed them. 0 otherwise.
	FirstVerdictsMs int64 `json:"firstVerdictsMs,omitempty"`
}

// CoverageMap is the coverage map's part of a baseline: the project's tests it knew not to reach
// the method (not run), those it knew to reach it (run), those it did not know or that changed
// (run and recorded), why it was started afresh ("" when reused), and its file's size and path.
type CoverageMap struct {
	NotRun   int    `json:"notRun"`
	Reaching int    `json:"reaching"`
	Rerun    int    `json:"rerun"`
	Rebuilt  string `json:"rebuilt,omitempty"`
	Bytes    int64  `json:"bytes"`
	Path     string `json:"path"`
}

// Report is the whole report JSON.
type Report struct {
	Target        Target   `json:"target"`
	Mutants       []Mutant `json:"mutants"`
	MutationScore *float64 `json:"mutationScore"`
	// RawMutationScore is killed over every valid mutant (RawScore); null when none is valid.
	RawMutationScore *float64 `json:"rawMutationScore"`
	LineCoverage     float64  `json:"lineCoverage"`
	BranchCoverage   float64  `json:"branchCoverage"`
	Tests            Tests    `json:"tests"`
	Rounds           []Round  `json:"rounds"`
	LLM              LLM      `json:"llm"`
	Timing           Timing   `json:"timing"`
	// Warnings carries what the user should know (zero valid mutants, tests failing on the
	// original, a method the offline test agent cannot drive).
	Warnings []string `json:"warnings,omitempty"`
	// ProjectTestsFailing are the project's own tests that fail on the original, each with
	// its failure's first line: they cannot kill mutants. One warning counts them.
	ProjectTestsFailing []TestNote `json:"projectTestsFailingOnOriginal,omitempty"`

	// Coverage holds the counts behind LineCoverage and BranchCoverage, so that a report over
	// many methods can add them up; absent in reports written before it existed.
	Coverage *Coverage `json:"coverage,omitempty"`
	// ModuleDir is the module root relative to the repository root, with forward slashes;
	// empty when they are one (or unknown). Repository-relative outputs (SARIF, mte) put it
	// before Target.File.
	ModuleDir string `json:"moduleDir,omitempty"`
	// Sandbox says what contained the JVMs that ran the tests; absent in reports written
	// before it existed.
	Sandbox *Sandbox `json:"sandbox,omitempty"`
}

// Sandbox is the sandbox decision a report's run was made under (see docs/sandbox.md).
type Sandbox struct {
	// Mode is the setting sandbox.mode: auto, on or off.
	Mode string `json:"mode"`
	// Kind is what contained the JVMs: "bwrap", or "none".
	Kind string `json:"kind"`
	// Reason says why nothing did, or names the sandbox that ran and what it could not bound.
	Reason string `json:"reason"`
}

// Score returns killed / valid, where uncompilable and timed-out mutants are not valid; nil
// when nothing is valid.
func Score(mutants []Mutant) *float64 {
	valid, killed := 0, 0
	for _, m := range mutants {
		switch m.Status {
		case Killed:
			valid++
			killed++
		case Survived:
			valid++
		}
	}
	if valid == 0 {
		return nil
	}
	s := float64(killed) / float64(valid)
	return &s
}

// Rescore sets the report's scores from its mutants' statuses: MutationScore (Score) and
// RawMutationScore (RawScore).
func (r *Report) Rescore() {
	r.MutationScore = Score(r.Mutants)
	r.RawMutationScore = RawScore(r.Mutants)
}

// Counts returns the number of mutants per status.
func Counts(mutants []Mutant) map[Status]int {
	c := map[Status]int{}
	for _, m := range mutants {
		c[m.Status]++
	}
	return c
}

// Normalize replaces nil slices by empty ones, so that the JSON carries [] rather than null.
func (r *Report) Normalize() {
	if r.Mutants == nil {
		r.Mutants = []Mutant{}
	}
	for i := range r.Mutants {
		if r.Mutants[i].KilledBy == nil {
			r.Mutants[i].KilledBy = []string{}
		}
	}
	if r.Tests.Methods == nil {
		r.Tests.Methods = []string{}
	}
	if r.Tests.FailingOnOriginal == nil {
		r.Tests.FailingOnOriginal = []string{}
	}
	if r.Rounds == nil {
		r.Rounds = []Round{}
	}
}

// Marshal returns the indented JSON of the report.
func (r *Report) Marshal() ([]byte, error) {
	r.Normalize()
	b, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return nil, fmt.Errorf("encoding the report: %w", err)
	}
	return append(b, '\n'), nil
}

// WriteFile writes the report to path atomically (a temporary file renamed into place), so a
// reader never sees half a report.
func (r *Report) WriteFile(path string) error {
	b, err := r.Marshal()
	if err != nil {
		return err
	}
	return WriteFileAtomic(path, b)
}

// WriteFileAtomic writes data to path through a temporary file in the same folder, renamed
// into place, so that a reader sees the old file or the new one, never half of one. See
// ReplaceFile.
func WriteFileAtomic(path string, data []byte) error { return ReplaceFile(path, data, nil) }

// ReplaceFile is WriteFileAtomic with a last check: when guard is set, it is called just
// before the rename with what path holds then (exists false when nothing), and a non-nil
// answer leaves path as it is and is returned. The new file keeps the mode of the file it
// replaces, or else gets 0666 less the umask (as os.WriteFile would), not os.CreateTemp's
// 0600. Its data is flushed to the disk before the rename, and the folder after, so that a
// crash leaves the old file or the whole new one.
func ReplaceFile(path string, data []byte, guard func(current []byte, exists bool) error) (err error) {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("creating %s: %w", dir, err)
	}
	tmp, err := createTemp(dir, "."+filepath.Base(path)+".", ".tmp")
	if err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	defer func() {
		if err != nil {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	if info, statErr := os.Stat(path); statErr == nil && info.Mode().IsRegular() {
		if err := tmp.Chmod(info.Mode().Perm()); err != nil {
			return fmt.Errorf("writing %s: %w", path, err)
		}
	}
	if _, err := tmp.Write(data); err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	if err := syncFile(tmp); err != nil {
		return fmt.Errorf("writing %s: flushing to disk: %w", path, err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	if guard != nil {
		current, readErr := os.ReadFile(path)
		exists := readErr == nil
		if readErr != nil && !errors.Is(readErr, fs.ErrNotExist) {
			return fmt.Errorf("writing %s: reading it again before replacing it: %w", path, readErr)
		}
		if err := guard(current, exists); err != nil {
			return err
		}
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	// EINVAL: a file system that cannot flush a folder; the rename is done all the same.
	if err := syncDir(dir); err != nil && !errors.Is(err, syscall.EINVAL) {
		return fmt.Errorf("writing %s: flushing its folder to disk: %w", path, err)
	}
	return nil
}

// createTemp makes a new file dir/prefix<random>suffix like os.CreateTemp, but with mode
// 0666 so that the umask applies.
func createTemp(dir, prefix, suffix string) (*os.File, error) {
	for try := 0; ; try++ {
		name := filepath.Join(dir, prefix+strconv.FormatUint(rand.Uint64(), 36)+suffix)
		f, err := os.OpenFile(name, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o666)
		if errors.Is(err, fs.ErrExist) && try < 100 {
			continue
		}
		return f, err
	}
}

// syncFile and syncDir flush to the disk; tests replace them to see the order of the steps.
var (
	syncFile = (*os.File).Sync
	syncDir  = func(dir string) error {
		if runtime.GOOS == "windows" {
			return nil // a folder cannot be opened for syncing there; NTFS orders the rename
		}
		d, err := os.Open(dir)
		if err != nil {
			return err
		}
		defer d.Close()
		return d.Sync()
	}
)
