package offline

import (
	"context"
	"errors"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"go.uber.org/zap"

	"github.com/advertest/advertest-lsp/buildtools"
	"github.com/advertest/advertest-lsp/javaparse"
	"github.com/advertest/advertest-lsp/loop/agent"
)

// TestEntryPointsOfUncallableMethods: each method a test cannot call is reached through the
// methods and constructors of its file that call it and that a test can call, nearest first.
func TestEntryPointsOfUncallableMethods(t *testing.T) {
	_, f := parseFixture(t, "Reach")
	for _, c := range []struct{ target, want string }{
		{"parseCents", "new Reach(String)"},
		{"isVowel", "Reach.vowels(String)"},
		{"clip", "Reach.clipTo(int, int)"},
		{"scale", "Reach.bucket(int)"},
		{"never", "Reach.guarded(int)"},
	} {
		ms := f.FindMethods(c.target)
		if len(ms) != 1 {
			t.Fatalf("FindMethods(%s) = %d", c.target, len(ms))
		}
		var got []string
		for _, e := range entryPoints(f, ms[0]) {
			got = append(got, entryName(e))
		}
		if len(got) == 0 || got[0] != c.want {
			t.Errorf("entry points of %s = %v, want %s first", c.target, got, c.want)
		}
	}
}

// TestEntryPointsAreCallable: no entry point is private, in a private class or an inner class
// of an instance, and a method calling through a chain of private helpers is found at depth.
func TestEntryPointsAreCallable(t *testing.T) {
	src := []byte(`package p;
public class Outer {
    public int api(int x) { return middle(x) + new Inner().viaInner(x); }
    private int middle(int x) { return leaf(x); }
    private static int leaf(int x) { return x + 1; }
    private static class Hidden { public int call(int x) { return leaf(x); } }
    class Inner { public int viaInner(int x) { return leaf(x); } }
    public Outer() { this(1); }
    public Outer(int v) { leaf(v); }
}
`)
	// Outer() runs one input only: last, though nearer than api
	checkEntryPoints(t, src, "leaf", "new Outer(int)", "Outer.api(int)", "new Outer()")
}

// checkEntryPoints checks the entry points found for method of src, in order.
func checkEntryPoints(t *testing.T, src []byte, method string, want ...string) {
	t.Helper()
	f, err := javaparse.Parse(src)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range entryPoints(f, f.FindMethods(method)[0]) {
		got = append(got, entryName(e))
	}
	if strings.Join(got, "; ") != strings.Join(want, "; ") {
		t.Errorf("entry points of %s = %v, want %v", method, got, want)
	}
}

// TestEntryPointsThroughClassInitialisation: a private method called only by a field
// initialiser of its class runs when the class is first used: the methods that use a static
// member of that class reach it.
func TestEntryPointsThroughClassInitialisation(t *testing.T) {
	src := []byte(`package p;
public class Formats {
    public static String year() { return Holder.YEAR; }
    public static String yearOf(int y) { return Holder.YEAR + y; }
    public static String other(int y) { return "" + y; }
    static final class Holder {
        static final String YEAR = yearElement();
        private static String yearElement() { return "yyyy"; }
    }
}
`)
	checkEntryPoints(t, src, "yearElement", "Formats.yearOf(int)", "Formats.year()")
}

// TestEntryProbeKeepsLines: the probe's call goes on the target's first line, after a
// constructor's this(...), and the file's line count before the appended probe is the same.
func TestEntryProbeKeepsLines(t *testing.T) {
	src := []byte("package p;\nclass A {\n    A() {\n        this(1);\n    }\n    A(int x) {\n    }\n    private int f(int x) {\n        return x;\n    }\n}\n")
	f, err := javaparse.Parse(src)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		method *javaparse.Method
		line   string
	}{
		{f.FindMethods("f")[0], "    private int f(int x) { " + entryProbeClass + ".hit();"},
		{f.Methods()[0], "        this(1); " + entryProbeClass + ".hit();"},
	} {
		out := string(withEntryProbe(src, probeOffset(f, c.method)))
		if !strings.Contains(out, c.line+"\n") {
			t.Errorf("no line %q in\n%s", c.line, out)
		}
		if before := out[:strings.Index(out, entryProbeSource)]; strings.Count(before, "\n") != strings.Count(string(src), "\n") {
			t.Errorf("the probe moved lines:\n%s", out)
		}
	}
	// a mutant changed before the probe shifts it by the change's length
	mutated := []byte(strings.Replace(string(src), "this(1)", "this(12)", 1))
	g, _ := javaparse.Parse(mutated)
	want := withEntryProbe(mutated, probeOffset(g, g.Methods()[0]))
	if got := probedMutant(src, mutated, &entryPoint{probeAt: probeOffset(f, f.Methods()[0])}); string(got) != string(want) {
		t.Errorf("probed mutant:\n%s\nwant\n%s", got, want)
	}
}

// TestReflectionIsDropped: a generated test that calls, makes or reads anything through
// reflection is dropped, a private field's read too; a plain test is kept, also one that calls
// a project method named like a reflective one (getField).
func TestReflectionIsDropped(t *testing.T) {
	plain := "    @Test\n    void recordUpdatesTotal() {\n        Ledger ledger = new Ledger();\n        ledger.record(1);\n" +
		"        assertEquals(1, ledger.total());\n        assertEquals(\"a\", ledger.getField(\"name\"));\n    }\n"
	calls := []string{
		"Method m = Ledger.class.getDeclaredMethod(\"scale\", int.class);\n m.setAccessible(true);\n assertEquals(3, m.invoke(null, 10));",
		"Constructor<Ledger> c = Ledger.class.getDeclaredConstructor();\n c.setAccessible(true);\n c.newInstance();",
		"Class<?> k = Class.forName(\"org.acme.Ledger\");",
		"Field totalField = Ledger.class.getDeclaredField(\"total\");\n totalField.setAccessible(true);\n assertEquals(1, totalField.get(ledger));",
		"for (Field f : Ledger.class.getFields()) { f.get(ledger); }",
		"Field totalField = Ledger.class.getDeclaredField(\"total\");\n totalField.setAccessible(true);\n totalField.set(ledger, 3);\n Method m = null;\n otherField.setAccessible(true);",
	}
	tests := []rendered{{name: "kept", source: plain}}
	cands := []candidate{{rec: &record{I: 0}}}
	for i, c := range calls {
		tests = append(tests, rendered{name: "call" + strconv.Itoa(i), source: "    @Test\n    void t() throws Exception {\n        " + c + "\n    }\n"})
		cands = append(cands, candidate{rec: &record{I: i + 1}})
	}
	tests = append(tests, rendered{name: "imported", source: "    @Test\n    void t() {\n    }\n", imports: []string{"java.lang.reflect.Method"}})
	cands = append(cands, candidate{rec: &record{I: 9}})
	tests = append(tests, rendered{name: "importedField", source: "    @Test\n    void t() {\n    }\n", imports: []string{"java.lang.reflect.Field"}})
	cands = append(cands, candidate{rec: &record{I: 10}})
	kept, keptCands := withoutReflection(tests, cands)
	if len(kept) != 1 || kept[0].name != "kept" || keptCands[0].rec.I != 0 {
		var names []string
		for _, k := range kept {
			names = append(names, k.name)
		}
		t.Errorf("kept %v, want only the plain test", names)
	}
}

// TestUncallableMethodsThroughEntryPoints: a private helper reached through a constructor, a
// private static helper reached through a public static method and a private nested class's
// method reached through its owner's public API each get an initial suite that calls the entry
// point and runs the method, and a kept test that kills one of the method's mutants; no test
// uses reflection.
func TestUncallableMethodsThroughEntryPoints(t *testing.T) {
	proj, _ := calculator(t)
	a := newAgent(t, proj)
	for _, c := range []struct {
		method, call, from, to string
	}{
		{"parseCents", "new Reach(", "return Long.parseLong(amount) * 100;", "return Long.parseLong(amount) * 10;"},
		{"isVowel", "Reach.vowels(", "c == 'e'", "c != 'e'"},
		{"clip", "Reach.clipTo(", "return size;", "return size - 1;"},
	} {
		t.Run(c.method, func(t *testing.T) {
			for _, tc := range throughEntryTests(t, a, proj, "Reach", c.method, c.from, c.to) {
				if !strings.Contains(tc.Source, c.call) {
					t.Errorf("the test does not call the entry point %s:\n%s", c.call, tc.Source)
				}
			}
		})
	}
}

// TestOnlyInputsThatEnterCount: bucket calls scale only above 100; the tests for scale all pass
// a value above 100 (an input that does not enter scale is no test of it), and a method whose
// only entry point never enters it says which and why in one sentence.
func TestOnlyInputsThatEnterCount(t *testing.T) {
	proj, _ := calculator(t)
	a := newAgent(t, proj)
	s := renderFixture(t, proj, "Reach", "scale", "")
	tests, why, err := a.ExplainedInitialSuite(testCtx(t), s)
	if err != nil {
		t.Fatal(err)
	}
	if len(tests) == 0 {
		t.Fatalf("no initial test: %s", why)
	}
	// the inputs counted for scale are those whose call entered it
	_, orig, err := a.drive(testCtx(t), s)
	if err != nil {
		t.Fatal(err)
	}
	if orig.missed == 0 || len(orig.records) == 0 {
		t.Errorf("%d inputs did not enter scale, %d did: want some of each", orig.missed, len(orig.records))
	}
	for _, r := range orig.records {
		if v, err := strconv.Atoi(strings.TrimPrefix(r.Args[0], "Integer.")); err == nil && v <= 100 {
			t.Errorf("an input of %d counts for scale, which it does not enter", v)
		}
	}
	arg := regexp.MustCompile(`Reach\.bucket\((-?\d+)\)`)
	for _, tc := range tests {
		m := arg.FindStringSubmatch(tc.Source)
		if m == nil {
			t.Errorf("the test does not call bucket with a number:\n%s", tc.Source)
			continue
		}
		if v, _ := strconv.Atoi(m[1]); v <= 100 {
			t.Errorf("a test of scale passes %d, which does not enter it:\n%s", v, tc.Source)
		}
	}

	_, _, err = a.ExplainedInitialSuite(testCtx(t), renderFixture(t, proj, "Reach", "never", ""))
	var ue *UnsupportedError
	if !errors.As(err, &ue) {
		t.Fatalf("never: %v, want an *UnsupportedError", err)
	}
	if !strings.Contains(ue.Reason, "Reach.guarded(int) did not enter it on any of ") || !strings.Contains(ue.Reason, " returned)") || strings.Count(ue.Reason, ". ") > 0 {
		t.Errorf("never: %s", ue.Reason)
	}
	t.Logf("never: %s", err)
}

// TestOneUncompilableTestIsDropped: a batch of one generated test that does not compile loses
// that test, as a larger batch would, instead of failing the request (an entry point's
// argument the renderer wrote wrong made `advertest run` fail on MatrixUtils).
func TestOneUncompilableTestIsDropped(t *testing.T) {
	a := &Agent{log: zap.NewNop()}
	run := func([]rendered, []candidate) ([]int, error) {
		return nil, &testsCompileError{msgs: []string{"11: incompatible types"}}
	}
	got, err := a.dropAndRetry(context.Background(), nil, "p", []rendered{{name: "t"}}, []candidate{{}}, run)
	if err != nil || len(got) != 0 {
		t.Errorf("dropAndRetry = %v, %v; want no test and no error", got, err)
	}
}

// TestMethodsThroughAResult: a private nested class's method that implements an interface of
// the file, reached only through a public static factory that returns the interface, and an
// inner class's Iterator.hasNext, reached only through a public method on a receiver that
// returns the Iterator, and an anonymous Comparator<String>'s compare, reached only through a
// public static method, each get an initial suite that calls the method on the returned object
// declared as the interface (with the type arguments the method returns it with, which the
// arguments take), and a kept test that kills one of the method's mutants; no test uses
// reflection.
func TestMethodsThroughAResult(t *testing.T) {
	proj, _ := calculator(t)
	a := newAgent(t, proj)
	for _, c := range []struct {
		method, call, declared, from, to string
	}{
		{"apply", "Tally.clamping(", "Scale ", "return bound;", "return bound - 1;"},
		{"hasNext", ".positives()", "Iterator<Integer> ", "counts[i] <= 0", "counts[i] < 0"},
		{"compare", "Tally.byLength()", "Comparator<String> ", "return -1;", "return 1;"},
	} {
		t.Run(c.method, func(t *testing.T) {
			for _, tc := range throughEntryTests(t, a, proj, "Tally", c.method, c.from, c.to) {
				if !strings.Contains(tc.Source, c.call) || !strings.Contains(tc.Source, c.declared) || !strings.Contains(tc.Source, "."+c.method+"(") {
					t.Errorf("the test does not call %s on what %s returns as %s:\n%s", c.method, c.call, c.declared, tc.Source)
				}
			}
		})
	}
}

// throughEntryTests are the initial suite of a method of a testdata/render class and the tests
// that kill its mutant (from → to); it fails the test when either is empty, a killing test does
// not kill, or a test uses reflection.
func throughEntryTests(t *testing.T, a *Agent, proj *buildtools.Project, class, method, from, to string) []agent.Test {
	t.Helper()
	s := renderFixture(t, proj, class, method, "")
	initial, why, err := a.ExplainedInitialSuite(testCtx(t), s)
	if err != nil {
		t.Fatal(err)
	}
	if len(initial) == 0 {
		t.Fatalf("no initial test: %s", why)
	}
	m := mutantOn(t, s, from, to)
	killing, why, err := a.ExplainedKillMutant(testCtx(t), s, m)
	if err != nil {
		t.Fatal(err)
	}
	if len(killing) == 0 {
		t.Fatalf("no test kills %s: %s", m.Description, why)
	}
	checkKills(t, proj, s, m, killing)
	for _, tc := range append(initial, killing...) {
		if usesReflection(tc.Source, tc.Imports) || reflective.MatchString(tc.Source) {
			t.Errorf("the test uses reflection:\n%s", tc.Source)
		}
	}
	t.Logf("initial:\n%s\nkilling:\n%s", initial[0].Source, killing[0].Source)
	return append(initial, killing...)
}

// TestResultEntries: a method of a class a test cannot name gets the entry through a result
// when its class has a supertype (a private nested class implementing an interface, an inner
// Iterator, an anonymous Comparator); none for a nameable class's method, a private method, or
// a class that extends and implements nothing (Reach's Window: only Object's methods to
// override).
func TestResultEntries(t *testing.T) {
	for _, c := range []struct {
		class, method string
		want          bool
	}{
		{"Tally", "apply", true},
		{"Tally", "hasNext", true},
		{"Tally", "compare", true},
		{"Tally", "positives", false},
		{"Reach", "clip", false},
		{"Reach", "scale", false},
	} {
		_, f := parseFixture(t, c.class)
		var m *javaparse.Method
		for _, k := range f.FindMethods(c.method) {
			if k.BodyStartByte >= 0 {
				m = k // Clamp's apply, not the interface's
			}
		}
		got := resultEntries(f, m, probeOffset(f, m))
		if (len(got) == 1) != c.want || len(got) == 1 && (!got[0].result || got[0].entry != m) {
			t.Errorf("%s.%s: %d entries through a result, want one: %v", c.class, c.method, len(got), c.want)
		}
	}
}
