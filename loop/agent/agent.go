package agent

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/advertest/advertest-lsp/javaparse"
	"github.com/advertest/advertest-lsp/loop/mutants"
)

// Subject is the method under test as the agents see it.
type Subject struct {
	// File is the source file's absolute path; Source its text (a snapshot).
	File   string
	Source []byte
	Parsed *javaparse.File
	Method *javaparse.Method
	// Context is the class context of the method (package, imports, fields, signatures, the
	// numbered listing).
	Context *javaparse.Context
	// JUnit is the project's JUnit major version (4 or 5); MockitoVersion is "" when the
	// project has no Mockito.
	JUnit          int
	MockitoVersion string
	// TestClassName is the simple name of the generated test class (TestClassName of the
	// method's top-level class); the generated tests live in the method's package.
	TestClassName string
}

// TestClassName is the generated suite's simple name for the class under test: the top-level
// class's simple name followed by AdverTest (nested classes share their top-level class's
// suite). It is the project's one naming of a generated test class: the loop names the suite
// with it, and the agents the throwaway classes they compile and run on the way.
func TestClassName(topLevelClass string) string {
	return topLevelClass[strings.LastIndexByte(topLevelClass, '.')+1:] + "AdverTest"
}

// Test is one generated JUnit test method.
type Test struct {
	// Name is the method's name in the test class.
	Name string
	// Source is the whole method, annotations included, indented by one level.
	Source string
	// Imports are the imports the method needs ("java.util.List", "static org.junit.Assert.*").
	Imports []string
	// Target names the mutant the test was written against ("" for the initial suite).
	Target string
	// Origin says which agent wrote it: "search" or "llm".
	Origin string
	// Members are the other members of the class the test was written in that it may need:
	// fields and constants, helper methods, set-up and tear-down methods, initialisers, nested
	// classes. The suite keeps each member once, whichever tests carry it, renaming one only
	// when it clashes with a different member of the same name (docs/contracts.md, "Test
	// files"). Tests of one class share the same members.
	Members []Member
	// Disabled, when set, is why the test is written disabled (@Ignore / @Disabled with the
	// reason): it fails on the original and its author says the code is wrong there (a
	// possible bug). A disabled test does not run, so it kills nothing and covers nothing.
	Disabled string
}

// MemberKind says what a Member declares.
type MemberKind string

const (
	// MemberField is a field or constant declaration (one or more names).
	MemberField MemberKind = "field"
	// MemberMethod is a method that is not a test: a helper, or a set-up or tear-down method
	// (its annotations say which).
	MemberMethod MemberKind = "method"
	// MemberInitializer is an instance or static initialiser block (a generated class's
	// constructor becomes one, so that several classes' constructors can live in one class).
	MemberInitializer MemberKind = "initializer"
	// MemberType is a nested class, interface, enum or record.
	MemberType MemberKind = "type"
)

// Member is one member of a generated test class besides its tests.
type Member struct {
	Kind MemberKind
	// Names are the names it declares: a method's or a type's name, a field declaration's
	// variables; none for an initialiser.
	Names []string
	// Source is the whole declaration, annotations and comments included, with its lines'
	// relative indentation.
	Source string
}

// Attempt is what a test agent's last answer about one mutant said besides its tests.
type Attempt struct {
	// Equivalent is the agent's argument that no input tells the mutant from the original
	// ("" when it made none): evidence of a likely equivalence, never proof.
	Equivalent string
	// Bound names the harness bound one of the attempt's tests hit on the original (memory,
	// time, an assumption the worker could not meet): "" when none did.
	Bound string
}

// DroppedTest is a test an agent wrote and did not hand over, or that the loop dropped, with
// why in a few words.
type DroppedTest struct {
	Name   string
	Reason string
}

// AttemptReporter is a TestAgent that says more about its answers than the tests it hands
// over: what its last answer about a mutant claimed, which tests it dropped and why; and that
// hears which of its tests the loop dropped (so that its next prompt can say so). The loop calls
// it from the game's goroutine, between the agent's moves.
type AttemptReporter interface {
	LastAttempt(s *Subject, mutantID string) Attempt
	DroppedTests(s *Subject) []DroppedTest
	TestDropped(s *Subject, test DroppedTest)
}

// TestAgent is T: it writes an initial suite for the method, then tests aimed at given
// surviving mutants (one request per mutant, as the paper's mutant-aware prompt).
type TestAgent interface {
	InitialSuite(ctx context.Context, s *Subject) ([]Test, error)
	// KillMutant writes tests meant to pass on the original and fail on m; none when it finds
	// no way to tell them apart.
	KillMutant(ctx context.Context, s *Subject, m mutants.Mutant) ([]Test, error)
}

// Feedback is what M is told about the current suite before its move.
type Feedback struct {
	// UncoveredLines are the method's lines with code that no test executes.
	UncoveredLines []int
	// Survivors are the mutants the suite did not kill.
	Survivors []mutants.Mutant
	// Known are every mutant in the pool, so that M proposes new ones.
	Known []mutants.Mutant
}

// MutantAgent is M: it writes the initial mutants, then more on uncovered lines and new,
// different ones on the lines of surviving mutants.
type MutantAgent interface {
	InitialMutants(ctx context.Context, s *Subject) ([]mutants.Mutant, error)
	MoreMutants(ctx context.Context, s *Subject, fb Feedback) ([]mutants.Mutant, error)
}

// ErrCannotDrive is matched (errors.Is) by the error of a test agent that cannot write tests for
// a method at all (the offline search cannot build its inputs, say). The game goes on without
// that agent's tests and says why in a warning.
var ErrCannotDrive = errors.New("the test agent cannot drive this method")

// Evidence says why an agent did, or did not do, something: one sentence for the user (Why)
// and the facts behind it (Facts: counts, the observation that was unstable, the bound that was
// hit). The test agents give it when they write no test; the equivalence judges' arguments are
// evidence of the same kind.
type Evidence struct {
	// Why is one sentence, without a final period: "every call ran past its bound (500 ms)".
	Why string `json:"why"`
	// Facts are short observations, each one clause: "598 inputs tried", "0 stable".
	Facts []string `json:"facts,omitempty"`
	// Infection, when the agent watched the mutated site, is what it saw there on the inputs
	// it tried (nil when it could not watch it).
	Infection *Infection `json:"infection,omitempty"`
}

// Infection is what a search saw at a mutant's site (the mutated expression) over the inputs
// it ran on both the original and the mutant: how many reached the site, on how many the
// site's values differed (the state was infected), and on how many an observable outcome
// differed (the infection propagated). Only "reached, infected on some, propagated on none"
// makes a mutant likely equivalent: a site never infected says the search did not reach the
// state that tells the two apart, which is no evidence of equivalence at all.
type Infection struct {
	// Reached counts the inputs whose call evaluated the site at least once.
	Reached int `json:"reached"`
	// Infected counts the inputs on which the site's values (one per evaluation, in order)
	// differed between the original and the mutant.
	Infected int `json:"infected"`
	// Propagated counts the inputs whose observable outcome (result, exception, state,
	// arguments after the call) differed between the original and the mutant.
	Propagated int `json:"propagated"`
	// Untried names the kinds of argument the search can build that none of its inputs had
	// ("cs2 as StringBuilder"): counts over Strings alone say nothing of a CharSequence
	// parameter, so they are no evidence of equivalence then.
	Untried []string `json:"untried,omitempty"`
}

// MinInfectedForEquivalence is the fewest inputs that must have changed the mutated value,
// with no outcome showing it, before the search calls a mutant likely equivalent: one or two
// infected inputs (a search whose other inputs all threw before the site) are too thin a
// sample to say that no input would show the change.
const MinInfectedForEquivalence = 3

// LikelyEquivalent reports whether the counts make the mutant likely equivalent: reached,
// infected on at least MinInfectedForEquivalence inputs, observable on none, and every kind of
// argument the search can build tried.
func (i Infection) LikelyEquivalent() bool {
	return i.Reached > 0 && i.Infected >= MinInfectedForEquivalence && i.Propagated == 0 && len(i.Untried) == 0
}

// Summary is the counts in words, as the editor's hint shows them: "212 inputs reached this
// line, 14 changed its value, none changed the result".
func (i Infection) Summary() string {
	changed := func(n int) string {
		if n == 0 {
			return "none"
		}
		return fmt.Sprint(n)
	}
	return fmt.Sprintf("%s reached this line, %s changed its value, %s changed the result",
		inputs(i.Reached), changed(i.Infected), changed(i.Propagated))
}

func inputs(n int) string {
	if n == 1 {
		return "1 input"
	}
	return fmt.Sprintf("%d inputs", n)
}

// String is Why with the facts in parentheses.
func (e Evidence) String() string {
	if len(e.Facts) == 0 {
		return e.Why
	}
	return e.Why + " (" + strings.Join(e.Facts, "; ") + ")"
}

// Explainer is a TestAgent whose answers say why they hold no test: the same requests as
// TestAgent's, each with its evidence (Why "" when the answer holds tests or the agent has
// nothing to say). The evidence is a return value, so that it is the answer's own: never
// another request's for the same method, on another source or in another game.
type Explainer interface {
	ExplainedInitialSuite(ctx context.Context, s *Subject) ([]Test, Evidence, error)
	ExplainedKillMutant(ctx context.Context, s *Subject, m mutants.Mutant) ([]Test, Evidence, error)
}
