package loop

import (
	"time"

	"github.com/advertest/advertest-lsp/loop/report"
)

// Config is what a run needs to know, from the CLI's flags or the server's settings (DESIGN's
// settings contract; the defaults are DefaultConfig's).
type Config struct {
	// Rounds counts the agent actions after the initial moves (T M T M T for 5); an even
	// value is raised by one so that T has the last move.
	Rounds int
	// MutantTimeoutFactor and MutantTimeoutConstant bound each test on a mutant:
	// factor × the test's time on the original + constant.
	MutantTimeoutFactor   float64
	MutantTimeoutConstant time.Duration
	// Workers is the JVM pool's size (0: the number of cores).
	Workers int
	// MavenArgs are added to every Maven call.
	MavenArgs []string
	// JacocoAgentPath overrides where the JaCoCo agent is found.
	JacocoAgentPath string
	// TimeLimit, when positive, stops the game before an action that would start after it
	// (the budget hook; tokens and dollars join it with the LLM agents).
	TimeLimit time.Duration
	// Budget, when set, is asked before every agent action; a non-nil answer (tokens or
	// dollars spent, say) ends the game cleanly after the last evaluation, with the answer as
	// a warning.
	Budget func() error
	// Usage, when set, gives the LLM figures for the report.
	Usage func() report.LLM
	// CacheDir holds the compiled worker and the project models ("" = the user's cache dir).
	CacheDir string
}

// DefaultConfig returns the defaults of DESIGN's settings.
func DefaultConfig() Config {
	return Config{
		Rounds:                5,
		MutantTimeoutFactor:   1.25,
		MutantTimeoutConstant: 4 * time.Second,
	}
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
