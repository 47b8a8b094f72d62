package loop

import (
	"time"

	"github.com/advertest/advertest-lsp/loop/mutants"
	"github.com/advertest/advertest-lsp/loop/report"
	"github.com/advertest/advertest-lsp/settings/schema"
)

// Config is what a run needs to know, from the CLI's flags or the server's settings (see
// docs/settings.md; ConfigFrom takes them from the settings table, DefaultConfig gives the
// table's defaults).
type Config struct {
	// Rounds counts the agent actions after the initial moves (T M T M T for 5); an even
	// value is raised by one so that T has the last move.
	Rounds int
	// MutantTimeoutFactor and MutantTimeoutConstant bound each test on a mutant:
	// factor × the test's time on the original + constant.
	MutantTimeoutFactor   float64
	MutantTimeoutConstant time.Duration
	// OriginalTestTimeout (originalTestTimeoutMs) bounds each test on the original: the
	// baseline's limit, which the mutants' budgets never replace.
	OriginalTestTimeout time.Duration
	// Workers is the JVM pool's size (0: the number of cores).
	Workers int
	// MavenArgs are added to every Maven call.
	MavenArgs []string
	// JacocoAgentPath overrides where the JaCoCo agent is found.
	JacocoAgentPath string
	// StepFactor and StepConstant (mutantTimeout.stepFactor, .stepConstant) are the
	// deterministic budget of a test on a mutant: factor × the loop steps counted on the
	// original + constant steps.
	StepFactor   float64
	StepConstant int64
	// Operators (mutants.operators) are the rule-based M's operator groups and codes.
	Operators []string
	// WorkerHeapMB (worker.heapMB) is each worker JVM's heap, in MiB.
	WorkerHeapMB int
	// MaxLeakedThreads (worker.maxLeakedThreads) is how many live non-daemon threads tests
	// may leave in a worker before it is restarted.
	MaxLeakedThreads int
	// SandboxMode (sandbox.mode) is auto, on or off; SandboxEnv (sandbox.env) names the
	// extra environment variables passed into the sandbox.
	SandboxMode string
	SandboxEnv  []string
	// TimeLimit, when positive, stops the game before an action that would start after it
	// (the budget hook; tokens and dollars join it with the LLM agents).
	TimeLimit time.Duration
	// Budget, when set, is asked before every agent action; a non-nil answer (tokens or
	// dollars spent, say) ends the game cleanly after the last evaluation, with the answer as
	// a warning.
	Budget func() error
	// Usage, when set, gives the LLM figures for the report.
	Usage func() report.LLM
	// Ignore names the mutants the user ignored or marked equivalent: neither T nor the
	// judge spends effort on them, nor M on their lines (the use case marks them in the
	// report, see docs/state.md).
	Ignore map[string]bool
	// Judged names the mutants that carry an equivalence verdict from an earlier run: neither
	// T nor the judge is asked about them again.
	Judged map[string]bool
	// MinimalSuite, when set, leaves out of the written suite the new tests the minimal cover
	// does not need (minimal.go). ConfigFrom sets it unless suite.minimal is off; the use case
	// clears it for the offline agents under auto.
	MinimalSuite bool
}

// DefaultConfig returns the settings table's defaults (the environment plays no part in them).
func DefaultConfig() Config {
	return ConfigFrom(schema.Defaults(func(string) string { return "" }))
}

// ConfigFrom is the part of the settings v a run needs; the hooks (TimeLimit, Budget, Usage)
// are the caller's to add.
func ConfigFrom(v schema.Values) Config {
	return Config{
		Rounds:                v.Rounds,
		MutantTimeoutFactor:   v.MutantTimeoutFactor,
		MutantTimeoutConstant: v.MutantTimeoutConstant,
		OriginalTestTimeout:   v.OriginalTestTimeout,
		Workers:               v.Workers,
		MavenArgs:             append([]string(nil), v.MavenArgs...),
		JacocoAgentPath:       v.JacocoAgent,
		StepFactor:            v.StepFactor,
		StepConstant:          v.StepConstant,
		Operators:             append([]string(nil), v.Operators...),
		WorkerHeapMB:          v.WorkerHeapMB,
		MaxLeakedThreads:      v.MaxLeakedThreads,
		SandboxMode:           v.SandboxMode,
		SandboxEnv:            append([]string(nil), v.SandboxEnv...),
		MinimalSuite:          v.SuiteMinimal != "off",
	}
}

// Selection is the operators the rule-based mutants may use (mutants.Select of Operators;
// none given: every operator).
func (c Config) Selection() (mutants.Selection, error) {
	if len(c.Operators) == 0 {
		return mutants.Selection{}, nil
	}
	return mutants.Select(c.Operators)
}

// EffectiveRounds is Rounds made odd (T has the last move) and at least 1.
func (c Config) EffectiveRounds() int {
	r := c.Rounds
	if r < 1 {
		r = 1
	}
	if r%2 == 0 {
		r++
	}
	return r
}
