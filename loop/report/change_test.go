package report

import (
	"testing"
	"unicode/utf16"
)

func TestSpanMarksWholeTokens(t *testing.T) {
	cases := []struct {
		orig, mut        string
		start, end       int
		original, replac string
	}{
		{"        if (lo > hi) {", "        if (lo >= hi) {", 16, 17, ">", ">="},
		{"        if (value > hi) {", "        if (false) {", 13, 23, "value > hi", "false"},
		{"            return lo;", "            return 0;", 20, 22, "lo", "0"},
		{"        if (taxPercent > 100) {", "        if (taxPercent > 101) {", 26, 29, "100", "101"},
		{"        foo(x);", "", 1, 16, "        foo(x);", ""},
		{"        foo(x);", "        ", 9, 16, "foo(x);", ""},
		{"    int r = a - b;", "    int r = a + b;", 15, 16, "-", "+"},
		{"    x++;", "    x--;", 6, 8, "++", "--"},
		{"            if (needsReorder(sku)) {", "            if (!needsReorder(sku)) {", 17, 29, "needsReorder", "!needsReorder"},
		{"    return a;", "    return a + 1;", 12, 13, "a", "a + 1"},
		// Columns count UTF-16 units: the emoji before the change takes two.
		{`    s = "😀" + a;`, `    s = "😀" - a;`, 14, 15, "+", "-"},
	}
	for _, c := range cases {
		m := Mutant{Original: c.orig, Mutated: c.mut}
		sp := m.Span()
		if sp.StartColumn != c.start || sp.EndColumn != c.end || sp.Original != c.original || sp.Replacement != c.replac {
			t.Errorf("%q → %q: span %+v, want %d..%d %q → %q", c.orig, c.mut, sp, c.start, c.end, c.original, c.replac)
		}
	}
}

// Every real mutant's span, put back into its line, gives the mutated line.
func TestSpanRebuildsEveryRealMutant(t *testing.T) {
	n := 0
	for _, r := range loadTestReports(t) {
		for _, m := range r.Mutants {
			sp := m.Span()
			u := utf16.Encode([]rune(m.Original))
			got := string(utf16.Decode(u[:sp.StartColumn-1])) + sp.Replacement + string(utf16.Decode(u[sp.EndColumn-1:]))
			if got != m.Mutated {
				t.Errorf("%s: span %+v rebuilds %q, want %q", m.ID, sp, got, m.Mutated)
			}
			if string(utf16.Decode(u[sp.StartColumn-1:sp.EndColumn-1])) != sp.Original {
				t.Errorf("%s: span %+v does not mark %q", m.ID, sp, sp.Original)
			}
			n++
		}
	}
	if n < 100 {
		t.Fatalf("only %d mutants in the test data", n)
	}
}

func TestDescribe(t *testing.T) {
	for _, c := range []struct {
		m    Mutant
		want string
	}{
		{Mutant{Description: "`a` → `b`", Original: "x", Mutated: "y"}, "`a` → `b`"},
		{Mutant{Original: "    a < b;", Mutated: "    a <= b;"}, "`a < b;` → `a <= b;`"},
		{Mutant{Original: "    foo();", Mutated: "    "}, "`foo();` removed"},
	} {
		if got := c.m.Describe(); got != c.want {
			t.Errorf("Describe(%+v) = %q, want %q", c.m, got, c.want)
		}
	}
}
