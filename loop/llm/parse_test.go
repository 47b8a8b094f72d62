package llm

import (
	"strings"
	"testing"

	"github.com/advertest/advertest-lsp/javaparse"
	"github.com/advertest/advertest-lsp/loop/agent"
	"github.com/advertest/advertest-lsp/loop/mutants"
)

const calcSrc = `package org.acme;

public class Calc {
    public static int clamp(int value, int lo, int hi) {
        if (value < lo) {
            return lo;
        }
        if (value > hi) {
            return hi;
        }
        return value;
    }
}
`

func calcSubject(t *testing.T) *agent.Subject {
	t.Helper()
	f, err := javaparse.Parse([]byte(calcSrc))
	if err != nil {
		t.Fatal(err)
	}
	m := f.FindMethods("clamp")[0]
	return &agent.Subject{File: "/x/Calc.java", Source: []byte(calcSrc), Parsed: f, Method: m, Context: f.Context(m), JUnit: 5, TestClassName: "CalcAdverTest"}
}

func TestExtractJava(t *testing.T) {
	class := "class A {\n    @Test\n    void t() {}\n}"
	for _, tc := range []struct{ name, reply string }{
		{"fenced with chatter", "Sure, here it is:\n```java\n" + class + "\n```\nThis covers everything."},
		{"plain fence", "```\n" + class + "\n```"},
		{"no fence, chatter around", "Here are the tests.\n\n" + class + "\n\nHope this helps!"},
		{"cut off inside the fence", "```java\n" + class[:len(class)-2]},
		{"json block first", "```json\n{}\n```\n```java\n" + class + "\n```"},
	} {
		got := ExtractJava(tc.reply)
		if !strings.HasPrefix(got, "class A {") || strings.Contains(got, "```") || strings.Contains(got, "Hope") || strings.Contains(got, "covers") {
			t.Errorf("%s: got %q", tc.name, got)
		}
	}
	if got := ExtractJava("I cannot find inputs that tell them apart."); got != "" {
		t.Errorf("no Java: got %q", got)
	}
}

func TestParseMutants(t *testing.T) {
	s := calcSubject(t)
	reply := "Here you go:\n```json\n" + `{"mutants": [
  {"line": 9, "original": "        if (value < lo) {", "mutated": "        if (value <= lo) {", "description": "wrong line number"},
  {"line": 5, "original": "if (value < lo) {", "mutated": "if (value <= lo) {"},
  {"line": 6, "original": "            return lo;", "mutated": "            return  lo;"},
  {"line": 11, "original": "        return value;", "mutated": "        return value; /* x */"},
  {"line": 6, "original": "            return lo;", "mutated": "            return lo;\n            //"},
  {"line": 8, "original": "        if (value > hi) {", "mutated": "        if (value > hi {"},
  {"line": 8, "original": "        if (value > 99) {", "mutated": "        if (value < 99) {"},
  {"line": 9, "original": "            return hi;", "mutated": "return hi + 1;",},
],}` + "\n```"
	ms, drops := ParseMutants(reply, s, nil)
	if len(ms) != 2 {
		t.Fatalf("kept %d mutants %+v, want 2 (drops %+v)", len(ms), ms, drops)
	}
	if ms[0].Line != 5 || ms[0].Mutated != "        if (value <= lo) {" || ms[0].Origin != mutants.OriginLLM {
		t.Errorf("first mutant %+v: want line 5 (original trusted), indentation kept", ms[0])
	}
	if ms[1].Line != 9 || ms[1].Mutated != "            return hi + 1;" {
		t.Errorf("second mutant %+v: want the file's indentation", ms[1])
	}
	want := MutantDrops{NotFound: 1, MultiLine: 1, NoOp: 2, Repeated: 1, Unparsable: 1}
	if drops != want {
		t.Errorf("drops %+v, want %+v", drops, want)
	}
	// The same change as a rule mutant has the rule mutant's id.
	rule := mutants.Generate(s.Parsed, s.Method, mutants.Options{})
	found := false
	for _, r := range rule {
		if r.Mutated == ms[0].Mutated && r.ID == ms[0].ID {
			found = true
		}
	}
	if !found {
		t.Errorf("the LLM's `value <= lo` has id %s, no rule mutant shares it", ms[0].ID)
	}
	// Known ids are repeats; a cut-off reply keeps its complete entries; a bare array works.
	if again, d := ParseMutants(reply, s, map[string]bool{ms[0].ID: true}); len(again) != 1 || d.Repeated != 2 {
		t.Errorf("with a known id: %d kept, drops %+v", len(again), d)
	}
	cut := `{"mutants": [{"line": 6, "original": "            return lo;", "mutated": "            return hi;"}, {"line": 9, "orig`
	if got, _ := ParseMutants(cut, s, nil); len(got) != 1 || got[0].Line != 6 {
		t.Errorf("cut-off reply: %+v", got)
	}
	if got, _ := ParseMutants(`[{"line": 6, "original": "return lo;", "mutated": "return value;"}]`, s, nil); len(got) != 1 {
		t.Errorf("bare array: %+v", got)
	}
	if got, _ := ParseMutants("I think line 5 is risky.", s, nil); len(got) != 0 {
		t.Errorf("no JSON: %+v", got)
	}
}

func TestSplitTests(t *testing.T) {
	src := `package org.acme;

import static org.junit.jupiter.api.Assertions.*;
import org.junit.jupiter.api.*;

class CalcTest {
    private static final int HI = 10;
    private int lo;

    @BeforeEach
    void setUp() throws Exception {
        lo = 0;
    }

    @AfterEach
    void tearDown() {
        lo = -1;
    }

    @Test
    void keepsInside() {
        assertEquals(5, Calc.clamp(5, lo, HI));
    }

    @Test
    void usesHelper() {
        check(3, 3);
    }

    @Test
    void helperReadsField() {
        checkLo(0);
    }

    private static void check(int want, int value) {
        assertEquals(want, twice(value) / 2);
    }

    private static int twice(int v) {
        return 2 * v;
    }

    private void checkLo(int want) {
        assertEquals(want, lo);
    }
}
`
	res, err := SplitTests(src, "llm", "m1")
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Tests) != 3 || len(res.Dropped) != 0 || len(res.Broken) != 0 {
		t.Fatalf("tests %d, dropped %v, broken %v", len(res.Tests), res.Dropped, res.Broken)
	}
	k := res.Tests[0]
	if k.Name != "keepsInside" || k.Target != "m1" || k.Origin != "llm" || len(k.Imports) != 2 || strings.Contains(k.Source, "lo = 0") {
		t.Errorf("test %+v", k)
	}
	// Each test carries the class's members as they are: fields, set-up, tear-down, helpers.
	var names []string
	for _, m := range k.Members {
		names = append(names, string(m.Kind)+":"+strings.Join(m.Names, ","))
	}
	if got := strings.Join(names, " "); got != "field:HI field:lo method:setUp method:tearDown method:check method:twice method:checkLo" {
		t.Errorf("members %s", got)
	}
	if !strings.Contains(k.Members[0].Source, "private static final int HI = 10;") {
		t.Errorf("the constant lost its modifiers: %q", k.Members[0].Source)
	}
}

func TestSplitTestsDropsReflection(t *testing.T) {
	src := `package org.acme;

import java.lang.reflect.Method;
import org.junit.jupiter.api.Test;

class CalcTest {
    @Test
    void direct() {
        Calc.clamp(1, 0, 2);
    }

    @Test
    void throughHelper() throws Exception {
        assertEquals(4, invoke("twice", 2));
    }

    @Test
    void requestMethodIsNoReflection() {
        new Request().getMethod();
    }

    private static Object invoke(String name, int arg) throws Exception {
        Method m = Calc.class.getDeclaredMethod(name, int.class);
        m.setAccessible(true);
        return m.invoke(null, arg);
    }
}
`
	res, err := SplitTests(src, "llm", "")
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Tests) != 2 || res.Tests[0].Name != "direct" || res.Tests[1].Name != "requestMethodIsNoReflection" {
		t.Errorf("kept %v", res.Tests)
	}
	if len(res.Dropped) != 1 || res.Dropped[0].Name != "throughHelper" || res.Dropped[0].Reason != ReasonReflection {
		t.Errorf("dropped %+v", res.Dropped)
	}
}

func TestImportsForJUnit4(t *testing.T) {
	rc := RuleContext{Package: "org.acme.inventory", Class: "org.acme.inventory.Inventory", Imports: []string{"java.util.Map", "java.util.HashMap"}, JUnit: 4, TestPackage: "org.acme.inventory"}
	src := "package org.acme.inventory;\n\npublic class InventoryAdverTest {\n}\n"
	out, ok := addImports(src, []string{"Test", "assertEquals", "Map", "List"}, rc)
	for _, want := range []string{"import org.junit.Test;", "import static org.junit.Assert.*;", "import java.util.Map;", "import java.util.List;"} {
		if !ok || !strings.Contains(out, want) {
			t.Errorf("missing %q in:\n%s", want, out)
		}
	}
	if again, changed := addImports(out, []string{"Test"}, rc); changed || again != out {
		t.Errorf("an import already there was added again")
	}
}
