package app

import (
	"context"

	"github.com/advertest/advertest-lsp/loop"
	"github.com/advertest/advertest-lsp/loop/report"
)

// Events receives what a use case has to tell while it runs. The methods are called from the
// use case's goroutines, Progress also from the engine's goroutines that evaluate the mutants
// (through the game's loop.EventSink: one call at a time and in order within a run, see
// loop.EventSink); Progress must not block for long. An implementation shared by runs
// that go on at once (BatchEvents.Method's, a server's) must be safe for concurrent calls:
// the server's (handlers' jobEvents) and the CLI's (cmd/advertest's printers) each print or
// send through their own lock.
type Events interface {
	// Progress is a step of the work: opening the project (loop.PhaseProject) or the game's.
	Progress(loop.Event)
	// Verdicts are the method's mutants as the last evaluation left them.
	Verdicts(Verdicts)
	// Suite offers the generated tests for their test file; the error says why they were not
	// written (the use case then warns and keeps them in the state or the report).
	Suite(ctx context.Context, f SuiteFile) error
	// Warning is something the user should know that does not stop the work.
	Warning(Warning)
}

// Verdicts are mutants' verdicts.
type Verdicts struct {
	// Mutants are every mutant of the method with its verdict; empty at the start of a fresh
	// run (the old verdicts no longer stand).
	Mutants []report.Mutant
	// Update says that Mutants are the new verdicts of those mutants alone (a kill), the
	// others standing as they were.
	Update bool
	// Final marks the run's last verdicts, with Covering and FailingOnOriginal.
	Final bool
	// Covering maps each surviving mutant's id to the tests that execute its line (Class.method).
	Covering map[string][]string
	// FailingOnOriginal are the generated tests that fail on the current code (Class.method):
	// possible bugs.
	FailingOnOriginal []string
}

// SuiteFile is generated tests offered for their test file.
type SuiteFile struct {
	// Path is the test file's absolute path.
	Path string
	// Text is the file's text as the run knew it: the suite alone for a new file, else the new
	// tests merged into the generated file as it was when the run started.
	Text string
	// Writable is false when a file without AdverTest's marker holds Path: it is never written.
	Writable bool
	// Tests counts the new tests.
	Tests int
	// For says what the tests are for ("tests for `clamp`", "a test that kills m…").
	For string
	// Merge merges the new tests into a newer text of the file (an editor's buffer with
	// unsaved changes, the file saved since the run started), keeping what is there.
	Merge func(current []byte) (string, error)
}

// Warning is a message for the user.
type Warning struct {
	Message string
	// Err is the error behind it, if any (a *state.CorruptError, the sandbox's refusal).
	Err error
}

// NoEvents drops every event and takes every suite; embed it to receive some events only.
type NoEvents struct{}

func (NoEvents) Progress(loop.Event)                    {}
func (NoEvents) Verdicts(Verdicts)                      {}
func (NoEvents) Suite(context.Context, SuiteFile) error { return nil }
func (NoEvents) Warning(Warning)                        {}

var _ Events = NoEvents{}
