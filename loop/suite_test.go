package loop

import (
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
	pf, err := javaparse.Parse([]byte(merged))
	if err != nil || len(pf.SyntaxErrors()) > 0 {
		t.Fatalf("merged file does not parse: %v\n%s", pf.SyntaxErrors(), merged)
	}
	// Merging the same tests again changes nothing.
	again, added2, err := next.Merge([]byte(merged))
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

func TestSplitFileLine(t *testing.T) {
	for _, c := range []struct {
		in   string
		file string
		line int
		bad  bool
	}{
		{"src/A.java:12", "src/A.java", 12, false},
		{"src/A.java", "src/A.java", 0, false},
		{"C:dir/A.java", "C:dir/A.java", 0, false},
		{"A.java:0", "", 0, true},
	} {
		f, l, err := SplitFileLine(c.in)
		if (err != nil) != c.bad || f != c.file || l != c.line {
			t.Errorf("SplitFileLine(%q) = %q, %d, %v", c.in, f, l, err)
		}
	}
}
