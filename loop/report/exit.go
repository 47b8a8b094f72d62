package report

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// The CLI's exit statuses.
const (
	ExitOK = 0
	// ExitFailed: a method's run failed (the project does not build, the LLM cannot be reached).
	ExitFailed = 1
	// ExitUsage: bad usage.
	ExitUsage = 2
	// ExitBelowThreshold: the summary's mutationScore is below --fail-under.
	ExitBelowThreshold = 3
	// ExitInterrupted: interrupted, after writing the partial report.
	ExitInterrupted = 130
)

// Gate is what decides the exit status once every report is written.
type Gate struct {
	// Interrupted: the run was interrupted (SIGINT, SIGTERM).
	Interrupted bool
	// Failed: at least one method's run failed.
	Failed bool
	// Score is the summary's mutationScore (0..1); nil when no mutant counts.
	Score *float64
	// FailUnder is --fail-under in percent (0..100); nil when the flag is not given.
	FailUnder *float64
}

// ExitStatus returns the exit status, by precedence: 130 when interrupted, then 1 when a
// method's run failed, then 3 when the score is below the threshold, else 0. A nil score
// (no valid mutant to count) is never below the threshold, as a run with zero valid mutants
// exits 0 with a warning.
func (g Gate) ExitStatus() int {
	switch {
	case g.Interrupted:
		return ExitInterrupted
	case g.Failed:
		return ExitFailed
	case g.Below():
		return ExitBelowThreshold
	}
	return ExitOK
}

// Below reports whether the score is below the threshold. Scores are compared in percent with
// a tolerance of 1e-9, so 57 of 100 killed (0.57·100 = 56.99999999999999 in floating point)
// meets --fail-under 57.
func (g Gate) Below() bool {
	if g.FailUnder == nil || g.Score == nil {
		return false
	}
	return *g.Score*100 < *g.FailUnder-1e-9
}

// ParseFailUnder reads --fail-under's value: a percentage from 0 to 100, with or without "%".
func ParseFailUnder(s string) (float64, error) {
	v, err := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(s), "%"), 64)
	if err != nil || math.IsNaN(v) || v < 0 || v > 100 {
		return 0, fmt.Errorf("--fail-under %q: want a percentage from 0 to 100, e.g. 80", s)
	}
	return v, nil
}
