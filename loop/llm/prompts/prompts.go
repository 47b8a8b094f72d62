// Package prompts holds the agents' prompt templates, embedded in the binary as readable
// text/template files in the paper's structure: an instruction giving the role, chain-of-thought
// steps, few-shot examples, guidelines (with the project's JUnit and Mockito versions), then
// the task inputs and the task. The parts are ordered from the most stable to the most
// specific, so that providers' prompt caching applies: the system message is the same for
// every request of an agent in a project; the task inputs (class context, numbered listing)
// are the same for every request about one method; only the last lines are request-specific.
package prompts

import (
	"bytes"
	"embed"
	"fmt"
	"strings"
	"text/template"
)

//go:embed *.tmpl
var files embed.FS

var templates = template.Must(template.New("prompts").Funcs(template.FuncMap{
	"trim": strings.TrimSpace,
}).ParseFS(files, "*.tmpl"))

// Project is what the system prompts know of the project.
type Project struct {
	JUnit   int    // 4 or 5
	Mockito string // "" when the project has no Mockito
}

// Method is the task inputs: the method under test and the file that holds it.
type Method struct {
	QualifiedClass string
	Package        string
	Signature      string
	MethodName     string
	FileName       string
	StartLine      int
	EndLine        int
	// Listing is the file with its own line numbers ("12: code"), the bodies of the members the
	// method does not reach left out when Elided (loop/llm/classview.go).
	Listing string
	Elided  bool
	// Others are the methods of other classes of the project that the method calls, each with
	// its file's line numbers ("" when none, or no room).
	Others string
	// Private, for a method a test cannot call directly, says why ("it is private", "its class
	// is private"); Callers are then the accessible methods that reach it.
	Private string
	Callers []string
}

// Mutant is a mutant as a prompt shows it.
type Mutant struct {
	Line              int
	Original, Mutated string
	Description       string
}

// SurvivorGroup is the surviving mutants of one line (or, in KnownGroups, the mutants already
// proposed on it).
type SurvivorGroup struct {
	Line     int
	Original string
	Mutated  []string
}

// TestFeedback is what became of one test of an earlier attempt at a mutant.
type TestFeedback struct {
	Name string
	// Fate says it in words: "did not compile: …", "failed on the original: …", "passed on
	// the original and on the mutant: …", "dropped: …".
	Fate string
	// Source is the test, for those that ran and did not kill (the others' fate says why).
	Source string
}

// FailingTest is a generated test that fails on the original, and its failure.
type FailingTest struct {
	Name, Source, Failure string
}

// Task is the request-specific part.
type Task struct {
	TestClassName string
	MethodName    string
	// JUnit is the project's JUnit major version (the task says it, as the system prompt does).
	JUnit          int
	Mutant         Mutant
	TestSource     string
	Errors         string
	MaxMutants     int
	UncoveredLines []int
	SurvivorGroups []SurvivorGroup
	// KnownGroups are every mutant already proposed for the method (survivors aside, which
	// SurvivorGroups list), by line.
	KnownGroups []SurvivorGroup
	// Previous is set when T already targeted this mutant and it survived; Feedback says what
	// became of each test of that attempt, PreviousNoClass that its answer held no class.
	Previous        bool
	Feedback        []TestFeedback
	PreviousNoClass bool
	// Input is an input the equivalence judge says tells the mutant from the original (T's
	// request built on it; "" otherwise).
	Input string
	// Failing are the tests that fail on the original, for TestExpectation.
	Failing []FailingTest
}

// The requests the agents make; each names its task template.
const (
	TestInitial = "test_initial"
	TestMutant  = "test_mutant"
	TestRepair  = "test_repair"
	// TestExpectation shows T its tests that fail on the original, once.
	TestExpectation = "test_expectation"
	MutantInitial   = "mutant_initial"
	MutantMore      = "mutant_more"
	// Judge is the equivalence judge's request (agent "J").
	Judge = "judge"
)

// System renders the system prompt of agent "T", "M" or "J" (the equivalence judge).
func System(agent string, p Project) (string, error) {
	name := "test_system.tmpl"
	switch agent {
	case "M":
		name = "mutant_system.tmpl"
	case "J":
		name = "judge_system.tmpl"
	}
	return render(name, p)
}

// User renders the user message of a request: the method's task inputs, then the task.
func User(kind string, m Method, t Task) (string, error) {
	ctx, err := render("context.tmpl", m)
	if err != nil {
		return "", err
	}
	t.MethodName = m.MethodName
	task, err := render(kind+".tmpl", t)
	if err != nil {
		return "", err
	}
	return ctx + "\n" + task, nil
}

func render(name string, data any) (string, error) {
	var b bytes.Buffer
	if err := templates.ExecuteTemplate(&b, name, data); err != nil {
		return "", fmt.Errorf("prompts: rendering %s: %w", name, err)
	}
	return strings.TrimLeft(b.String(), "\n"), nil
}
