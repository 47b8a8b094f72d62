package prompts

import (
	"strings"
	"testing"
)

// every is one Method and Task that fill every field a template reads.
func every() (Method, Task) {
	m := Method{QualifiedClass: "org.acme.Calc", Package: "org.acme", Signature: "private static int clamp(int v, int lo, int hi)",
		MethodName: "clamp", FileName: "Calc.java", StartLine: 10, EndLine: 12,
		Listing: "1: package org.acme;\n2: class Calc {\n10: int clamp() {\n11:   return 1;\n12: }\n13: }", Elided: true,
		Others: "// Helper.java\n3: static int twice(int x) {\n4:   return 2 * x;\n5: }", Private: "it is private",
		Callers: []string{"public int total() (line 20)"}}
	task := Task{TestClassName: "CalcAdverTest", JUnit: 4, Mutant: Mutant{Line: 11, Original: "  return 1;", Mutated: "  return 2;"},
		TestSource: "class X {}", Errors: "oops", MaxMutants: 8, UncoveredLines: []int{11}, Input: "clamp(0, 0, 1)",
		SurvivorGroups: []SurvivorGroup{{Line: 11, Original: "return 1;", Mutated: []string{"return 0;"}}},
		KnownGroups:    []SurvivorGroup{{Line: 11, Original: "return 1;", Mutated: []string{"return 3;", "return -1;"}}},
		Previous:       true, Feedback: []TestFeedback{{Name: "a", Fate: "did not compile: cannot find symbol"}, {Name: "b", Fate: "passed on the original and on the mutant", Source: "@Test\nvoid b() {}"}},
		Failing: []FailingTest{{Name: "c", Source: "@Test\nvoid c() {}", Failure: "expected: <1> but was: <2>"}}}
	return m, task
}

var kinds = []string{TestInitial, TestMutant, TestRepair, TestExpectation, MutantInitial, MutantMore, Judge}

func TestRenderEveryPrompt(t *testing.T) {
	m, task := every()
	for _, junit := range []int{4, 5} {
		for _, agent := range []string{"T", "M", "J"} {
			s, err := System(agent, Project{JUnit: junit, Mockito: "2.23"})
			if err != nil || len(s) < 500 || strings.Contains(s, "<no value>") {
				t.Errorf("System(%s, JUnit %d): %v\n%s", agent, junit, err, s)
			}
		}
	}
	for _, kind := range kinds {
		u, err := User(kind, m, task)
		if err != nil || strings.Contains(u, "<no value>") || !strings.Contains(u, "11:   return 1;") || !strings.Contains(u, "`public int total() (line 20)`") {
			t.Errorf("User(%s): %v\n%s", kind, err, u)
		}
		if strings.HasPrefix(kind, "test_") && !strings.Contains(u, "Write it for JUnit 4: `org.junit.Test`") {
			t.Errorf("User(%s) does not name the JUnit version:\n%s", kind, u)
		}
	}
}

// TestNoPromptRepeatsAParagraph: no line of substance (over 30 characters) comes twice in one
// prompt, the system message included.
func TestNoPromptRepeatsAParagraph(t *testing.T) {
	m, task := every()
	for _, kind := range kinds {
		role := map[byte]string{'t': "T", 'm': "M", 'j': "J"}[kind[0]]
		sys, err := System(role, Project{JUnit: 4})
		if err != nil {
			t.Fatal(err)
		}
		u, err := User(kind, m, task)
		if err != nil {
			t.Fatal(err)
		}
		seen := map[string]bool{}
		for _, l := range strings.Split(sys+"\n"+u, "\n") {
			l = strings.TrimSpace(l)
			if len(l) <= 30 || strings.HasPrefix(l, "```") {
				continue
			}
			if seen[l] {
				t.Errorf("%s: the line %q comes twice", kind, l)
			}
			seen[l] = true
		}
	}
}
