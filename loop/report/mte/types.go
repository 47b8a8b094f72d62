package mte

// The mutation-testing-elements report (schema version 2, npm package
// mutation-testing-report-schema): what Stryker's HTML report and dashboard read.

// Report is the MutationTestResult object.
type Report struct {
	SchemaVersion string               `json:"schemaVersion"`
	Thresholds    Thresholds           `json:"thresholds"`
	ProjectRoot   string               `json:"projectRoot,omitempty"`
	Files         map[string]*File     `json:"files"`
	TestFiles     map[string]*TestFile `json:"testFiles,omitempty"`
	Performance   *Performance         `json:"performance,omitempty"`
	Framework     *Framework           `json:"framework,omitempty"`
}

// Thresholds colour the scores: at or above High good, below Low bad (percent).
type Thresholds struct {
	High int `json:"high"`
	Low  int `json:"low"`
}

// File is a mutated source file, keyed by its path relative to the repository root.
type File struct {
	Language string   `json:"language"`
	Source   string   `json:"source"`
	Mutants  []Mutant `json:"mutants"`
}

// Mutant is one mutant.
type Mutant struct {
	ID          string   `json:"id"`
	MutatorName string   `json:"mutatorName"`
	Replacement string   `json:"replacement,omitempty"`
	Description string   `json:"description,omitempty"`
	Location    Location `json:"location"`
	// Status is one of Killed, Survived, NoCoverage, CompileError, RuntimeError, Timeout,
	// Ignored, Pending.
	Status       string   `json:"status"`
	StatusReason string   `json:"statusReason,omitempty"`
	CoveredBy    []string `json:"coveredBy,omitempty"`
	KilledBy     []string `json:"killedBy,omitempty"`
}

// Location is a range, start inclusive, end exclusive; lines and columns 1-based.
type Location struct {
	Start Position `json:"start"`
	End   Position `json:"end"`
}

// Position is a line and column, both 1-based.
type Position struct {
	Line   int `json:"line"`
	Column int `json:"column"`
}

// TestFile holds tests, keyed by file path or class name.
type TestFile struct {
	Source string `json:"source,omitempty"`
	Tests  []Test `json:"tests"`
}

// Test is one test; its ID is what mutants' coveredBy and killedBy name.
type Test struct {
	ID       string        `json:"id"`
	Name     string        `json:"name"`
	Location *OpenLocation `json:"location,omitempty"`
}

// OpenLocation is a location whose end may be left out.
type OpenLocation struct {
	Start Position `json:"start"`
}

// Performance is the time of each phase, in milliseconds.
type Performance struct {
	Setup      float64 `json:"setup"`
	InitialRun float64 `json:"initialRun"`
	Mutation   float64 `json:"mutation"`
}

// Framework names the tool.
type Framework struct {
	Name    string `json:"name"`
	Version string `json:"version,omitempty"`
}

// The statuses of the schema that advertest's statuses map to.
const (
	StatusKilled       = "Killed"
	StatusSurvived     = "Survived"
	StatusNoCoverage   = "NoCoverage"
	StatusTimeout      = "Timeout"
	StatusCompileError = "CompileError"
	StatusIgnored      = "Ignored"
)
