package loop

import "github.com/advertest/advertest-lsp/loop/report"

// Phase names a step of a run, for progress reports.
type Phase string

const (
	// PhaseProject: loading the build model, compiling the module, starting the JVMs.
	PhaseProject Phase = "project"
	// PhaseBaseline: the suite's coverage run on the original.
	PhaseBaseline Phase = "baseline"
	// PhaseMutants: an agent M move (generating mutants).
	PhaseMutants Phase = "mutants"
	// PhaseTests: an agent T move (generating and repairing tests).
	PhaseTests Phase = "tests"
	// PhaseEvaluate: mutation testing of the mutants against the suite.
	PhaseEvaluate Phase = "evaluate"
	// PhaseJudge: the equivalence judge on the survivors T could not kill, after the game.
	PhaseJudge Phase = "judge"
	// PhaseDone: the run is over; the event carries the final figures.
	PhaseDone Phase = "done"
)

// Event is one progress report. Counts that do not apply to a phase are zero.
type Event struct {
	Phase Phase
	// Round is the action's index (0 for the initial moves) of Rounds; Agent is "T", "M"
	// or "T+M".
	Round, Rounds int
	Agent         string
	// Done and Total count the phase's units of work (mutants evaluated, tests generated).
	Done, Total int
	// Mutants, Killed and Survived are the pool's counts after the last evaluation.
	Mutants, Killed, Survived int
	// Score is the mutation score after the last evaluation (nil: nothing valid yet).
	Score *float64
	// Message is a short human-readable line.
	Message string
	// Verdicts, on the event that ends an evaluation, are every mutant's verdict so far (for a
	// server that publishes them as they come); nil on other events.
	Verdicts []report.Mutant
}

// EventSink receives events; it must not block for long. A nil sink drops them.
//
// Concurrency: a run calls its sink from the goroutine that runs it (phases, rounds, the end)
// and, for an evaluation's counts (PhaseEvaluate), from the engine's goroutines that evaluate
// the mutants (engine.Options.Progress). The calls of one run come one at a time and in order:
// the engine makes its count calls under one lock, in the order of the counts it takes under
// its own, and the run's other calls come before the evaluation starts or after it has
// returned. A sink may still be called from a different goroutine on each call, and a sink
// that several runs share (a batch's printer, a server's state) is called by them at once: it
// must be safe for both.
type EventSink func(Event)

func (s EventSink) emit(e Event) {
	if s != nil {
		s(e)
	}
}
