package prompts

import (
	"strings"
	"testing"
)

func TestRenderEveryPrompt(t *testing.T) {
	m := Method{QualifiedClass: "org.acme.Calc", Package: "org.acme", Imports: []string{"java.util.List"},
		ClassDeclaration: "public class Calc", Fields: []string{"private int n;"},
		MethodSignatures: []string{"public static int clamp(int v, int lo, int hi)"}, Signature: "public static int clamp(int v, int lo, int hi)",
		MethodName: "clamp", FileName: "Calc.java", StartLine: 10, EndLine: 12, Listing: "10: int clamp() {\n11:   return 1;\n12: }"}
	for _, junit := range []int{4, 5} {
		for _, agent := range []string{"T", "M", "J"} {
			s, err := System(agent, Project{JUnit: junit, Mockito: "2.23"})
			if err != nil || len(s) < 500 || strings.Contains(s, "<no value>") {
				t.Errorf("System(%s, JUnit %d): %v\n%s", agent, junit, err, s)
			}
		}
	}
	for _, kind := range []string{TestInitial, TestMutant, TestRepair, MutantInitial, MutantMore, Judge} {
		u, err := User(kind, m, Task{TestClassName: "CalcAdverTest", Mutant: Mutant{Line: 11, Original: "  return 1;", Mutated: "  return 2;"},
			TestSource: "class X {}", Errors: "oops", MaxMutants: 8, UncoveredLines: []int{11}, Input: "clamp(0, 0, 1)",
			SurvivorGroups: []SurvivorGroup{{Line: 11, Original: "return 1;", Mutated: []string{"return 0;"}}}})
		if err != nil || strings.Contains(u, "<no value>") || !strings.Contains(u, "11:   return 1;") {
			t.Errorf("User(%s): %v\n%s", kind, err, u)
		}
	}
}
