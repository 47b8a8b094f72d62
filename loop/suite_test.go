package loop

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/advertest/advertest-lsp/javaparse"
	"github.com/advertest/advertest-lsp/loop/agent"
)

func test(name, body string, imports ...string) agent.Test {
	return agent.Test{
		Name:    name,
		Source:  "@Test\nvoid " + name + "() {\n    " + body + "\n}",
		Imports: imports,
	}
}

func TestSuiteSourceParsesAndCarriesTheMarker(t *testing.T) {
	for _, junit := range []int{4, 5} {
		s := &Suite{Package: "org.acme", ClassName: "CalcAdverTest", JUnit: junit}
		s.Add(test("clampKeepsFive", "assertEquals(5, Calc.clamp(5, 0, 10));"),
			test("clampRaisesLow", "assertEquals(0, Calc.clamp(-1, 0, 10));", "java.util.List"))
		src := s.Source()
		if !HasMarker([]byte(src)) {
			t.Fatalf("JUnit %d: no marker:\n%s", junit, src)
		}
		pf, err := javaparse.Parse([]byte(src))
		if err != nil || len(pf.SyntaxErrors()) > 0 {
			t.Fatalf("JUnit %d: the suite does not parse: %v %v\n%s", junit, err, pf.SyntaxErrors(), src)
		}
		if got := len(pf.Methods()); got != 2 {
			t.Errorf("JUnit %d: %d methods, want 2", junit, got)
		}
		wantTestImport := map[int]string{4: "import org.junit.Test;", 5: "import org.junit.jupiter.api.Test;"}[junit]
		if !strings.Contains(src, wantTestImport) || !strings.Contains(src, "import java.util.List;") {
			t.Errorf("JUnit %d: imports missing:\n%s", junit, src)
		}
		if junit == 4 && !strings.Contains(src, "public class CalcAdverTest") {
			t.Errorf("JUnit 4 needs a public class:\n%s", src)
		}
	}
}

func TestSuiteAddDropsDuplicatesAndRenamesClashes(t *testing.T) {
	s := &Suite{Package: "p", ClassName: "XAdverTest", JUnit: 5}
	kept := s.Add(test("a", "assertEquals(1, X.f());"), test("a", "assertEquals(2, X.f());"), test("b", "assertEquals(1, X.f());"))
	if len(kept) != 2 || kept[0].Name != "a" || kept[1].Name != "a2" {
		t.Fatalf("kept %+v", kept)
	}
	if !strings.Contains(kept[1].Source, "void a2()") {
		t.Errorf("renamed test's source not renamed: %s", kept[1].Source)
	}
}

func TestMergeKeepsTheUsersChanges(t *testing.T) {
	s := &Suite{Package: "org.acme", ClassName: "CalcAdverTest", JUnit: 5}
	s.Add(test("first", "assertEquals(5, Calc.clamp(5, 0, 10));"))
	existing := s.Source()
	// The user edits the generated file: a comment, a changed assertion, a helper of their own.
	edited := strings.Replace(existing, "assertEquals(5, Calc.clamp(5, 0, 10));", "// checked by hand\n        assertEquals(5, Calc.clamp(5, 0, 9));", 1)
	edited = strings.Replace(edited, "class CalcAdverTest {", "class CalcAdverTest {\n    private static int helper() { return 3; }\n", 1)

	next := &Suite{Package: "org.acme", ClassName: "CalcAdverTest", JUnit: 5}
	next.Add(
		test("first", "assertEquals(0, Calc.clamp(-4, 0, 10));"),                       // a new test whose name is taken
		test("second", "assertEquals(10, Calc.clamp(12, 0, 10));", "java.util.Map"),    // a new test and import
		test("again", "// checked by hand\n    assertEquals(5, Calc.clamp(5, 0, 9));"), // the user's own body: a duplicate
	)
	merged, added, err := next.Merge([]byte(edited))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"// checked by hand", "Calc.clamp(5, 0, 9)", "private static int helper()", "void first2()", "void second()", "import java.util.Map;"} {
		if !strings.Contains(merged, want) {
			t.Errorf("merged file lacks %q:\n%s", want, merged)
		}
	}
	if len(added) != 2 {
		t.Errorf("added %d tests, want 2 (the duplicate left out)", len(added))
	}
	assertMergedAndStable(t, next, merged)
}

// assertMergedAndStable checks that a merged file parses and that merging the same tests
// again changes nothing.
func assertMergedAndStable(t *testing.T, s *Suite, merged string) {
	t.Helper()
	pf, err := javaparse.Parse([]byte(merged))
	if err != nil || len(pf.SyntaxErrors()) > 0 {
		t.Fatalf("merged file does not parse: %v\n%s", pf.SyntaxErrors(), merged)
	}
	again, added2, err := s.Merge([]byte(merged))
	if err != nil || again != merged || len(added2) != 0 {
		t.Errorf("a second merge changed the file (%d added, err %v)", len(added2), err)
	}
}

func TestMergeRefusesAFileWithoutTheMarker(t *testing.T) {
	s := &Suite{Package: "p", ClassName: "XAdverTest", JUnit: 4}
	s.Add(test("a", "assertEquals(1, X.f());"))
	if _, _, err := s.Merge([]byte("package p;\nclass XAdverTest {}\n")); err == nil {
		t.Fatal("merged into a file that the user wrote")
	}
}

// modelClass is a model's test class as SplitTests hands it over: each test carries the
// class's members.
func modelClass(t *testing.T, src string) []agent.Test {
	t.Helper()
	tc, err := ParseTestClass([]byte(src), "")
	if err != nil {
		t.Fatal(err)
	}
	var out []agent.Test
	for _, ct := range tc.Tests {
		out = append(out, agent.Test{Name: ct.Name, Source: ct.Source, Imports: tc.Imports, Members: tc.Members})
	}
	return out
}

const classA = `package org.acme;

import static org.junit.jupiter.api.Assertions.*;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class ATest {
  private static final double EXACT = 0.0;
  private Calc calc;

  @BeforeEach
  void setUp() {
    calc = new Calc(10);
  }

  @Test
  void halves() {
    assertEquals(5.0, calc.half(), EXACT);
  }

  @Test
  void clamps() {
    check(3, 3);
  }

  private void check(int want, int value) {
    assertEquals(want, Calc.clamp(value, 0, 10));
  }

  private int unused() { return 1; }
}
`

// classB shares the set-up and the helper word for word, and has a constant of the same name
// with another value.
const classB = `package org.acme;

import static org.junit.jupiter.api.Assertions.*;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class BTest {
    private static final double EXACT = 1e-9;
    private Calc calc;

    @BeforeEach
    void setUp() {
        calc = new Calc(10);
    }

    @Test
    void thirds() {
        assertEquals(3.3333333333, calc.third(), EXACT);
    }

    private void check(int want, int value) {
        assertEquals(want, Calc.clamp(value, 0, 10));
    }
}
`

func TestSuiteKeepsTheClassMembersOnce(t *testing.T) {
	s := &Suite{Package: "org.acme", ClassName: "CalcAdverTest", JUnit: 5}
	s.Add(modelClass(t, classA)...)
	s.Add(modelClass(t, classB)...)
	src := s.Source()
	for _, want := range []string{
		"    private static final double EXACT = 0.0;\n",
		"    private static final double EXACT2 = 1e-9;\n",
		"        assertEquals(3.3333333333, calc.third(), EXACT2);\n",
		"        assertEquals(5.0, calc.half(), EXACT);\n",
		"    @BeforeEach\n    void setUp() {\n        calc = new Calc(10);\n    }\n",
		"    private void check(int want, int value) {\n        assertEquals(want, Calc.clamp(value, 0, 10));\n    }\n",
	} {
		if !strings.Contains(src, want) {
			t.Errorf("the suite lacks %q:\n%s", want, src)
		}
	}
	for what, n := range map[string]int{"void setUp()": 1, "void check(": 1, "private Calc calc;": 1, "unused()": 0, "final double EXACT": 2} {
		if got := strings.Count(src, what); got != n {
			t.Errorf("%q %d times, want %d:\n%s", what, got, n, src)
		}
	}
	pf, err := javaparse.Parse([]byte(src))
	if err != nil || len(pf.SyntaxErrors()) > 0 {
		t.Fatalf("the suite does not parse: %v\n%s", pf.SyntaxErrors(), src)
	}
	// Every line sits at its depth: members at 4, their bodies at 8.
	for i, l := range strings.Split(src, "\n") {
		if ind := len(l) - len(strings.TrimLeft(l, " ")); ind%4 != 0 {
			t.Errorf("line %d indented by %d: %q", i+1, ind, l)
		}
	}
	// Taking a class's tests out takes the members only they needed.
	s.Remove("thirds")
	if src := s.Source(); strings.Contains(src, "EXACT2") || !strings.Contains(src, "EXACT = 0.0") {
		t.Errorf("after removing thirds:\n%s", src)
	}
}

func TestMergeKeepsTheUsersMembersAndAddsTheModels(t *testing.T) {
	s := &Suite{Package: "org.acme", ClassName: "CalcAdverTest", JUnit: 5}
	s.Add(modelClass(t, classA)...)
	// The user reformats a test with tabs, adds a field of their own and renames nothing.
	edited := strings.Replace(s.Source(), "    private Calc calc;\n", "    private Calc calc;\n\tint mine = 7; // the user's\n", 1)
	next := &Suite{Package: "org.acme", ClassName: "CalcAdverTest", JUnit: 5}
	next.Add(modelClass(t, classB)...)
	merged, added, err := next.Merge([]byte(edited))
	if err != nil {
		t.Fatal(err)
	}
	if len(added) != 1 || added[0].Name != "thirds" {
		t.Fatalf("added %+v", added)
	}
	for _, want := range []string{"\tint mine = 7; // the user's\n", "    private static final double EXACT2 = 1e-9;\n", "calc.third(), EXACT2);"} {
		if !strings.Contains(merged, want) {
			t.Errorf("merged lacks %q:\n%s", want, merged)
		}
	}
	if !strings.HasPrefix(merged, edited[:strings.Index(edited, "    private Calc calc;")]) {
		t.Errorf("the file's head changed:\n%s", merged)
	}
	for what, n := range map[string]int{"void setUp()": 1, "void check(": 1, "private Calc calc;": 1} {
		if got := strings.Count(merged, what); got != n {
			t.Errorf("%q %d times, want %d:\n%s", what, got, n, merged)
		}
	}
	// The new field follows the file's last field.
	if i, j := strings.Index(merged, "int mine"), strings.Index(merged, "EXACT2 = 1e-9"); i < 0 || j < i {
		t.Errorf("the new constant is not after the file's fields:\n%s", merged)
	}
	assertMergedAndStable(t, next, merged)
}

func TestDisabledTestsAreWrittenWithTheirReason(t *testing.T) {
	for _, junit := range []int{4, 5} {
		s := &Suite{Package: "p", ClassName: "XAdverTest", JUnit: junit}
		s.Add(test("a", "assertEquals(1, X.f());"), test("b", "assertEquals(2, X.g());"))
		s.Disable("b", `g() returns 3 where its Javadoc says "2"`)
		src := s.Source()
		ann, imp := map[int][2]string{4: {"@Ignore", "import org.junit.Ignore;"}, 5: {"@Disabled", "import org.junit.jupiter.api.Disabled;"}}[junit][0],
			map[int][2]string{4: {"@Ignore", "import org.junit.Ignore;"}, 5: {"@Disabled", "import org.junit.jupiter.api.Disabled;"}}[junit][1]
		want := "    " + ann + `("possible bug: g() returns 3 where its Javadoc says \"2\"")` + "\n    @Test\n    void b() {"
		if !strings.Contains(src, want) || !strings.Contains(src, imp) || strings.Count(src, ann+"(") != 1 {
			t.Errorf("JUnit %d: want %q and %q in:\n%s", junit, want, imp, src)
		}
	}
}

func TestMinimalCover(t *testing.T) {
	// a covers k1 and line 1; b covers line 1; c covers k2 and line 2; d covers k1, k2, line 1
	// and 2 (it alone is enough); e covers line 3, which the project's tests cover.
	elements := map[string][]string{
		"a": {"kill:k1", "line:1"}, "b": {"line:1"}, "c": {"kill:k2", "line:2"},
		"d": {"kill:k1", "kill:k2", "line:1", "line:2"}, "e": {"line:3"},
	}
	got := minimalCover([]string{"a", "b", "c", "d", "e"}, elements, map[string]bool{"line:3": true})
	if len(got) != 1 || got[0] != "d" {
		t.Errorf("kept %v, want [d]", got)
	}
	// Without d: a and c, each needed.
	delete(elements, "d")
	got = minimalCover([]string{"a", "b", "c", "e"}, elements, map[string]bool{"line:3": true})
	if strings.Join(got, ",") != "a,c" {
		t.Errorf("kept %v, want [a c]", got)
	}
}

// TestMinimalCoverKeepsEveryElementAndNoSpareTest: on random instances the kept tests cover
// every element the candidates do, and none of them can go without losing one.
func TestMinimalCoverKeepsEveryElementAndNoSpareTest(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for round := 0; round < 300; round++ {
		var candidates []string
		elements := map[string][]string{}
		covered := map[string]bool{}
		for c := 0; c < 1+rng.IntN(12); c++ {
			name := fmt.Sprintf("t%d", c)
			candidates = append(candidates, name)
			for e := 0; e < 10; e++ {
				if rng.IntN(4) == 0 {
					elements[name] = append(elements[name], fmt.Sprintf("e%d", e))
				}
			}
		}
		for e := 0; e < 10; e++ {
			if rng.IntN(8) == 0 {
				covered[fmt.Sprintf("e%d", e)] = true
			}
		}
		kept := minimalCover(candidates, elements, covered)
		count := map[string]int{}
		for _, k := range kept {
			for _, e := range elements[k] {
				count[e]++
			}
		}
		for _, c := range candidates {
			for _, e := range elements[c] {
				if !covered[e] && count[e] == 0 {
					t.Fatalf("round %d: %s lost (kept %v of %v)", round, e, kept, elements)
				}
			}
		}
		for _, k := range kept {
			spare := true
			for _, e := range elements[k] {
				if !covered[e] && count[e] == 1 {
					spare = false
				}
			}
			if spare {
				t.Fatalf("round %d: %s is kept but adds nothing (kept %v of %v)", round, k, kept, elements)
			}
		}
	}
}

// TestMergeRenamesAgainstTheFile: a file whose own constant takes the name of the suite's
// first class's constant; that one is renamed, and the second class's (renamed in the suite
// already) does not end up with the same new name.
func TestMergeRenamesAgainstTheFile(t *testing.T) {
	s := &Suite{Package: "org.acme", ClassName: "CalcAdverTest", JUnit: 5}
	s.Add(modelClass(t, classA)...)
	s.Add(modelClass(t, classB)...)
	file := Marker + "\npackage org.acme;\n\nclass CalcAdverTest {\n    static final double EXACT = 5.0;\n}\n"
	merged, _, err := s.Merge([]byte(file))
	if err != nil {
		t.Fatal(err)
	}
	tc, err := ParseTestClass([]byte(merged), "CalcAdverTest")
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, m := range tc.Members {
		for _, n := range m.Names {
			if m.Kind == agent.MemberField && seen[n] {
				t.Errorf("field %s declared twice:\n%s", n, merged)
			}
			seen[n] = true
		}
	}
	for _, want := range []string{"static final double EXACT = 5.0;", "EXACT2 = 0.0;", "EXACT3 = 1e-9;", "calc.half(), EXACT2);", "calc.third(), EXACT3);"} {
		if !strings.Contains(merged, want) {
			t.Errorf("merged lacks %q:\n%s", want, merged)
		}
	}
}
