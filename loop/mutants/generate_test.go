package mutants

import (
	"bytes"
	"fmt"
	"os"
	"reflect"
	"sort"
	"strings"
	"testing"

	sitter "github.com/smacker/go-tree-sitter"

	"github.com/advertest/advertest-lsp/javaparse"
)

func readCorpus(t testing.TB) []byte {
	t.Helper()
	src, err := os.ReadFile("testdata/Corpus.java")
	if err != nil {
		t.Fatal(err)
	}
	return src
}

// short renders a mutant as "OP|trimmed mutated line" for table comparisons.
func short(ms []Mutant) []string {
	out := make([]string, len(ms))
	for i, m := range ms {
		out[i] = m.Operator + "|" + strings.TrimSpace(m.Mutated)
	}
	return out
}

func TestDefaultGroupPerMethod(t *testing.T) {
	src := readCorpus(t)
	tests := []struct {
		method string
		want   []string
	}{
		// hi is the bound: WRAP keeps x.
		{"clamp", []string{
			"ROR|if (x <= lo) {",
			"ROR|if (x >= lo) {",
			"EXIT|",
			"RET|return 0;",
			"RET|return 0; // x > hi gives hi",
			"WRAP|return x; // x > hi gives hi",
			"MATH|return Math.max(x, hi); // x > hi gives hi",
		}},
		{"sum", []string{
			"ROR|for (int i = 0; i <= values.length; i++) {",
			"ROR|for (int i = 0; i >= values.length; i++) {",
			"RET|return 0;",
		}},
		// Strings: no AOR on concatenations, nothing inside literals or the comment.
		{"greet", []string{
			"SWAP|String msg = \"! (x < y && y > z)\" + (\"Hello, \" + who);",
			"SWAP|String msg = who + \"Hello, \" + \"! (x < y && y > z)\";",
			"NEG|if (!(who.isEmpty() || who.length() > LIMIT)) {",
			"LCR|if (who.isEmpty() && who.length() > LIMIT) {",
			"ROR|if (who.isEmpty() || who.length() <= LIMIT) {",
			"ROR|if (who.isEmpty() || who.length() >= LIMIT) {",
			"EXIT|",
			`RET|return "";`,
			"RET|return null;",
			`RET|return "";`,
			"RET|return null;",
			"SWAP|return count + msg;",
		}},
		{"inRange", []string{
			"RET|return false; /* x >= 0 || x - 1 */",
			"RET|return true; /* x >= 0 || x - 1 */",
			"ROR|return x < 0 && x <= LIMIT; /* x >= 0 || x - 1 */",
			"ROR|return x > 0 && x <= LIMIT; /* x >= 0 || x - 1 */",
			"LCR|return x >= 0 || x <= LIMIT; /* x >= 0 || x - 1 */",
			"ROR|return x >= 0 && x < LIMIT; /* x >= 0 || x - 1 */",
			"ROR|return x >= 0 && x > LIMIT; /* x >= 0 || x - 1 */",
		}},
		// Lambdas: their bodies are mutated, but their returns are not the method's.
		// Generics and the method reference are left alone.
		{"upper", []string{
			"ROR|if (s == null) {",
			"VCR|",
			"AOR|Function<String, Integer> len = s -> { return s.length() / 2; };",
			"VCR|",
			"RET|return java.util.Collections.emptyList();",
			"RET|return null;",
		}},
		{"find", []string{
			"ROR|if (v != null) return Optional.empty();",
			"EXIT|if (v == null) ;",
			"RET|return Optional.empty();",
			"SWAP|return Optional.of(\"=\" + key + v);",
			"SWAP|return Optional.of(v + (key + \"=\"));",
		}},
		// A call that is the body of an if becomes the empty statement.
		{"reset", []string{
			"VCR|",
			"ROR|if (count != 0) notifyListeners();",
			"VCR|if (count == 0) ;",
		}},
		// A pattern binding is not negated; the switch label's constant stays; the
		// anonymous class's run() is a method of its own.
		{"describe", []string{
			"EXIT|",
			"RET|return 0;",
			"VCR|",
			"RET|return 0;",
			"ROR|return o != null ? -1 : o.hashCode() % LIMIT;",
			"AOR|return o == null ? -1 : o.hashCode() * LIMIT;",
		}},
		{"run", []string{"VCR|"}},
		{"average", []string{
			"NEG|if (!xs.isEmpty()) return 0.0;",
			"EXIT|if (xs.isEmpty()) ;",
			"RET|if (xs.isEmpty()) return 1;",
			"RET|return 0;",
			"SWAP|return xs.size() / s;",
			"AOR|return s * xs.size();",
		}},
		// The text block's `<` and `&&` are string content.
		{"banner", []string{
			`RET|return "";`,
			"RET|return null;",
			"ROR|return t.repeat(width <= 1 ? width : 1);",
			"ROR|return t.repeat(width >= 1 ? width : 1);",
		}},
		{"weighted", []string{
			"RET|return 0;",
			"SWAP|return b * c - a + (a + b) / 2;",
			"AOR|return a + b * c + (a + b) / 2;",
			"AOR|return a - b / c + (a + b) / 2;",
			"AOR|return a - b * c - (a + b) / 2;",
			"AOR|return a - b * c + (a - b) / 2;",
			"AOR|return a - b * c + (a + b) * 2;",
		}},
		{"boxed", []string{
			"RET|public Integer boxed(int a) { return 0; }",
			"RET|public Integer boxed(int a) { return null; }",
			"ROR|public Integer boxed(int a) { return a <= 0 ? a : null; }",
			"ROR|public Integer boxed(int a) { return a >= 0 ? a : null; }",
		}},
		{"names", []string{"RET|public String[] names() { return null; }"}},
		{"counts", []string{
			"RET|public int[] counts() { return new int[0]; }",
			"RET|public int[] counts() { return null; }",
			"AOR|public int[] counts() { return new int[] {count, count - 1}; }",
		}},
		// The constructor: super(...) stays, no return values.
		{"Corpus", []string{"VCR|"}},
	}
	for _, tt := range tests {
		t.Run(tt.method, func(t *testing.T) {
			got := short(gen(t, src, tt.method, Options{}))
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("default mutants of %s:\n got %q\nwant %q", tt.method, got, tt.want)
			}
		})
	}
}

func TestStrongGroupOperators(t *testing.T) {
	src := readCorpus(t)
	tests := []struct {
		method      string
		want, never []string
	}{
		{"clamp", []string{"CDR|if (false) {", "CDR|if (true) {", "ROR|if (x != lo) {", "ROR|if (x == lo) {", "ROR|if (x > lo) {"}, nil},
		{"sum", []string{"BND|int total = 1;", "INC|for (int i = 0; i < values.length; i--) {", "INC|total -= values[i];"}, nil},
		// Long suffix, hex digits and underscores are kept in BND.
		{"mix", []string{
			"BND|long r = (a << 2) ^ (b >>> 1) & 0x100L;",
			"BND|long r = (a << 2) ^ (b >>> 1) & 0xFEL;",
			"BND|while (r > 999L) { r /= 2; }",
			"INC|while (r > 1_000L) { r *= 2; }",
			"AOR|long r = (a >> 2) ^ (b >>> 1) & 0xFFL;",
			"AOR|return r;",
			// Precedence is kept: `b % 7` → `b + 7` must not bind to `r * 31`.
			"AOR|r = r * 31 + (b + 7);",
		}, nil},
		{"evens", []string{"INC|for (int i = 0; i <= n; i -= 2) {", "BND|for (int i = 0; i <= n; i += 3) {"}, nil},
		{"inRange", []string{"LCR|return x <= LIMIT; /* x >= 0 || x - 1 */", "LCR|return x >= 0; /* x >= 0 || x - 1 */"}, nil},
		// `o == null` is no number comparison: no `o < null`.
		{"describe", []string{"NEG|if (o instanceof String s && s.isEmpty()) {", "INC|count++;"},
			[]string{"ROR|return o < null ? -1 : o.hashCode() % LIMIT;", "BND|case 2:", "BND|case 0:"}},
		{"find", []string{"CDR|if (true) return Optional.empty();"}, []string{"ROR|if (v < null) return Optional.empty();"}},
		{"grade", []string{"CDR|char c = score >= 90 ? 'A' : true ? 'B' : '<';", "BND|char c = score >= 91 ? 'A' : score >= 80 ? 'B' : '<';"}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.method, func(t *testing.T) {
			got := short(gen(t, src, tt.method, Options{Strong: true}))
			set := map[string]bool{}
			for _, g := range got {
				set[g] = true
			}
			for _, w := range tt.want {
				if !set[w] {
					t.Errorf("strong mutants of %s lack %q; got %q", tt.method, w, got)
				}
			}
			for _, n := range tt.never {
				if set[n] {
					t.Errorf("strong mutants of %s include %q", tt.method, n)
				}
			}
		})
	}
}

// allMutants returns every mutant, default and strong, of every method of src, by
// method name (the corpus has no overloads).
func allMutants(t testing.TB, src []byte) map[string][]Mutant {
	t.Helper()
	out := map[string][]Mutant{}
	tree := parseJava(t, src)
	for _, m := range rawMethods(t, src) {
		for _, strong := range []bool{false, true} {
			out[m.name] = append(out[m.name], generate(tree.RootNode(), src, m.start, m.end, m.returnType, Options{Class: "org.acme.Corpus", Method: m.name, Strong: strong})...)
		}
	}
	return out
}

// literalTexts lists, in order, the text of every node of the given types.
func literalTexts(root *sitter.Node, src []byte, types ...string) []string {
	var out []string
	var walk func(n *sitter.Node)
	walk = func(n *sitter.Node) {
		for _, ty := range types {
			if n.Type() == ty {
				out = append(out, n.Content(src))
				return
			}
		}
		for i := 0; i < int(n.ChildCount()); i++ {
			walk(n.Child(i))
		}
	}
	walk(root)
	return out
}

func TestEveryMutantIsOneLineParsesAndSparesCommentsStringsGenerics(t *testing.T) {
	src := readCorpus(t)
	tree := parseJava(t, src)
	if tree.RootNode().HasError() {
		t.Fatal("the corpus itself does not parse")
	}
	comments := literalTexts(tree.RootNode(), src, "line_comment", "block_comment")
	strs := literalTexts(tree.RootNode(), src, "string_literal", "text_block", "character_literal")
	generics := literalTexts(tree.RootNode(), src, "type_arguments", "type_parameters")
	total := 0
	for method, ms := range allMutants(t, src) {
		for _, m := range ms {
			total++
			if m.Mutated == m.Original || strings.ContainsAny(m.Mutated, "\r\n") {
				t.Errorf("%s: %+v changes nothing or more than one line", method, m)
			}
			if m.Origin != OriginRule || m.ID == "" || m.Description == "" || m.Operator == "" {
				t.Errorf("%s: incomplete mutant %+v", method, m)
			}
			out, err := Apply(src, m)
			if err != nil {
				t.Fatalf("%s: %v", method, err)
			}
			if got, want := bytes.Count(out, []byte("\n")), bytes.Count(src, []byte("\n")); got != want {
				t.Errorf("%s: %+v changes the line count", method, m)
			}
			mt := parseJava(t, out)
			if mt.RootNode().HasError() {
				t.Errorf("%s: mutant %q (%s) does not parse", method, strings.TrimSpace(m.Mutated), m.Description)
				continue
			}
			if got := literalTexts(mt.RootNode(), out, "line_comment", "block_comment"); !reflect.DeepEqual(got, comments) {
				t.Errorf("%s: mutant %q touches a comment", method, m.Mutated)
			}
			if got := literalTexts(mt.RootNode(), out, "type_arguments", "type_parameters"); !reflect.DeepEqual(got, generics) {
				t.Errorf("%s: mutant %q touches generics", method, m.Mutated)
			}
			gotStrs := literalTexts(mt.RootNode(), out, "string_literal", "text_block", "character_literal")
			switch m.Operator {
			case "SWAP", "ARG":
				// Swapped operands or arguments take their literals along, unchanged.
				if !reflect.DeepEqual(sorted(gotStrs), sorted(strs)) {
					t.Errorf("%s: mutant %q changes a string", method, m.Mutated)
				}
			case "VCR", "RET", "EXIT", "WRAP":
				// A removed call or statement, a replaced return value or an unwrapped call
				// may take literals along, and RET brings `""`; no literal is ever changed.
				left := map[string]int{}
				for _, s := range strs {
					left[s]++
				}
				for _, s := range gotStrs {
					if left[s]--; left[s] < 0 && s != `""` {
						t.Errorf("%s: mutant %q changes a string", method, m.Mutated)
					}
				}
			default:
				if !reflect.DeepEqual(gotStrs, strs) {
					t.Errorf("%s: mutant %q touches a string", method, m.Mutated)
				}
			}
		}
	}
	if total < 100 {
		t.Errorf("only %d mutants over the corpus", total)
	}
	t.Logf("%d mutants over the corpus, all parse", total)
}

func sorted(xs []string) []string {
	out := append([]string(nil), xs...)
	sort.Strings(out)
	return out
}

func TestNoDuplicatesAndDeterministic(t *testing.T) {
	src := readCorpus(t)
	first := allMutants(t, src)
	second := allMutants(t, src)
	if !reflect.DeepEqual(first, second) {
		t.Fatal("two runs over the same source differ")
	}
	ids := map[string]string{}
	for method, ms := range first {
		seen := map[string]bool{}
		for i, m := range ms {
			key := fmt.Sprintf("%d\x00%s", m.Line, m.Mutated)
			if seen[key] {
				t.Errorf("%s: duplicate mutant line %d %q", method, m.Line, m.Mutated)
			}
			seen[key] = true
			if prev, ok := ids[m.ID]; ok {
				t.Errorf("id %s given twice: %s and %s line %d", m.ID, prev, method, m.Line)
			}
			ids[m.ID] = fmt.Sprintf("%s line %d", method, m.Line)
			_ = i
		}
	}
	// Each group on its own is sorted by line.
	for method := range first {
		for _, strong := range []bool{false, true} {
			ms := gen(t, src, method, Options{Strong: strong})
			if !sort.SliceIsSorted(ms, func(i, j int) bool { return ms[i].Line < ms[j].Line }) {
				t.Errorf("%s (strong %v) not sorted by line", method, strong)
			}
		}
	}
}

func TestStaging(t *testing.T) {
	src := readCorpus(t)
	for _, method := range []string{"clamp", "mix", "greet", "describe", "weighted"} {
		def := gen(t, src, method, Options{})
		strongAll := gen(t, src, method, Options{Strong: true})
		if len(strongAll) == 0 {
			t.Fatalf("%s: no strong mutants", method)
		}
		inDefault := map[string]bool{}
		for _, m := range def {
			inDefault[fmt.Sprint(m.Line, m.Mutated)] = true
		}
		for _, m := range strongAll {
			if inDefault[fmt.Sprint(m.Line, m.Mutated)] {
				t.Errorf("%s: strong mutant %q repeats a default one", method, m.Mutated)
			}
		}
		// Strong on one line: exactly the strong mutants of that line.
		line := strongAll[len(strongAll)-1].Line
		var want []Mutant
		for _, m := range strongAll {
			if m.Line == line {
				want = append(want, m)
			}
		}
		got := gen(t, src, method, Options{Strong: true, Lines: []int{line, 9999}})
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: strong on line %d:\n got %q\nwant %q", method, line, short(got), short(want))
		}
		// Lines limits the default group too.
		dl := def[0].Line
		for _, m := range gen(t, src, method, Options{Lines: []int{dl}}) {
			if m.Line != dl {
				t.Errorf("%s: default on line %d gave line %d", method, dl, m.Line)
			}
		}
	}
}

func TestIDsStableWhenLinesShiftAndIndentationChanges(t *testing.T) {
	src := readCorpus(t)
	// Three new lines above the class and every method re-indented with tabs.
	moved := strings.Replace(string(src), "/** A corpus", "// one\n// two\n// three\n/** A corpus", 1)
	moved = strings.ReplaceAll(moved, "\n    ", "\n\t")
	before, after := allMutants(t, src), allMutants(t, []byte(moved))
	if len(before) != len(after) {
		t.Fatalf("%d methods before, %d after", len(before), len(after))
	}
	byID := map[string]Mutant{}
	for _, ms := range after {
		for _, m := range ms {
			byID[m.ID] = m
		}
	}
	n := 0
	for _, ms := range before {
		for _, m := range ms {
			am, ok := byID[m.ID]
			if !ok {
				t.Errorf("mutant %s (%q) lost its id after the move", m.ID, m.Mutated)
				continue
			}
			n++
			if am.Line != m.Line+3 || strings.TrimSpace(am.Mutated) != strings.TrimSpace(m.Mutated) {
				t.Errorf("id %s: line %d %q became line %d %q", m.ID, m.Line, m.Mutated, am.Line, am.Mutated)
			}
			// Relocating the old mutant into the new text gives the newly generated one.
			rm, ok := Relocate([]byte(moved), m, m.Line-5, m.Line+10)
			if !ok || rm != am {
				t.Errorf("relocate %s: got %+v, %v; want %+v", m.ID, rm, ok, am)
			}
		}
	}
	t.Logf("%d ids checked", n)
}

func TestIDsOfRepeatedLines(t *testing.T) {
	src := []byte("class D {\n    int f(int x) {\n        x++;\n        x++;\n        return x;\n    }\n}\n")
	ms := gen(t, src, "f", Options{Class: "D", Method: "f(int)", Strong: true})
	var incs []Mutant
	for _, m := range ms {
		if m.Operator == "INC" {
			incs = append(incs, m)
		}
	}
	if len(incs) != 2 {
		t.Fatalf("want 2 INC mutants, got %+v", incs)
	}
	base := NewID("D", "f(int)", "x++;", "x--;")
	if incs[0].ID != base || incs[1].ID != base+"-2" {
		t.Errorf("ids %q, %q; want %q, %q", incs[0].ID, incs[1].ID, base, base+"-2")
	}
	if NewID("D", "f(int)", "  x++;", "x--;\t") != base {
		t.Error("NewID depends on indentation")
	}
	if NewID("D", "g(int)", "x++;", "x--;") == base || NewID("E", "f(int)", "x++;", "x--;") == base {
		t.Error("NewID ignores the class or the method")
	}
}

func TestCRLFSource(t *testing.T) {
	src := readCorpus(t)
	crlf := bytes.ReplaceAll(src, []byte("\n"), []byte("\r\n"))
	lf, cr := allMutants(t, src), allMutants(t, crlf)
	if !reflect.DeepEqual(lf, cr) {
		t.Fatal("mutants of the CRLF copy differ from the LF ones")
	}
	for _, ms := range cr {
		for _, m := range ms {
			out, err := Apply(crlf, m)
			if err != nil {
				t.Fatal(err)
			}
			if bytes.Count(out, []byte("\r\n")) != bytes.Count(crlf, []byte("\r\n")) || bytes.Count(out, []byte("\n")) != bytes.Count(crlf, []byte("\n")) {
				t.Fatalf("applying %q broke the CRLF terminators", m.Mutated)
			}
		}
	}
}

func TestReturnValuesByType(t *testing.T) {
	tests := []struct {
		typ, expr string
		want      []string
	}{
		{"boolean", "ok", []string{"false", "true"}},
		{"boolean", "true", []string{"false"}},
		{"Boolean", "false", []string{"null", "true"}},
		{"int", "x", []string{"0"}},
		{"int", "0", []string{"1"}},
		{"long", "0L", []string{"1"}},
		{"double", "x", []string{"0"}},
		{"char", "'a'", []string{"0"}},
		{"Integer", "x", []string{"0", "null"}},
		{"Long", "x", []string{"0L", "null"}},
		{"Double", "0.0", []string{"1.0", "null"}},
		{"String", "s", []string{`""`, "null"}},
		{"String", `""`, []string{"null"}},
		{"String", "null", []string{`""`}},
		{"Optional<String>", "o", []string{"Optional.empty()"}},
		{"java.util.Optional<String>", "o", []string{"java.util.Optional.empty()"}},
		{"OptionalInt", "o", []string{"OptionalInt.empty()"}},
		{"List<String>", "xs", []string{"java.util.Collections.emptyList()", "null"}},
		{"java.util.Map<String, Integer>", "m", []string{"java.util.Collections.emptyMap()", "null"}},
		{"Set<T>", "s", []string{"java.util.Collections.emptySet()", "null"}},
		{"ArrayList<String>", "xs", []string{"null"}},
		{"int[]", "xs", []string{"new int[0]", "null"}},
		{"String[]", "xs", []string{"null"}},
		{"T", "t", []string{"null"}},
		{"Object", "null", nil},
		{"void", "", nil},
	}
	for _, tt := range tests {
		t.Run(tt.typ+" "+tt.expr, func(t *testing.T) {
			ret := "return " + tt.expr + ";"
			if tt.expr == "" {
				ret = "return;"
			}
			src := []byte("class R {\n    " + tt.typ + " f() {\n        " + ret + "\n    }\n}\n")
			var got []string
			for _, m := range gen(t, src, "f", Options{}) {
				if m.Operator == "RET" {
					got = append(got, strings.TrimSuffix(strings.TrimPrefix(strings.TrimSpace(m.Mutated), "return "), ";"))
				}
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
	// With java.util.Collections imported, the short name is used.
	src := []byte("import java.util.*;\nclass R {\n    List<String> f() {\n        return xs;\n    }\n}\n")
	if got := short(gen(t, src, "f", Options{})); got[0] != "RET|return Collections.emptyList();" {
		t.Errorf("with java.util.* imported: %q", got)
	}
}

func TestOperatorEdgeCases(t *testing.T) {
	tests := []struct {
		name, body string
		strong     bool
		want       []string // exact, as "OP|trimmed mutated line"
	}{
		{"string plus is no arithmetic, but swaps", `String s = name + 1; s = "a" + (2 + 3); return;`, false,
			[]string{"SWAP|String s = 1 + name; s = \"a\" + (2 + 3); return;", "SWAP|String s = name + 1; s = (2 + 3) + \"a\"; return;",
				"AOR|String s = name + 1; s = \"a\" + (2 - 3); return;"}},
		{"string compound assignment stays", `String s = ""; s += name; return;`, true, nil},
		{"a multi-line condition is not negated, its one-line operator is swapped", "if (a <\n            b) { return; }", false,
			[]string{"ROR|if (a <=", "ROR|if (a >=", "EXIT|b) { }"}},
		{"a multi-line call is not removed", "foo(a,\n            b);", false, nil},
		{"a while(true) is not negated", "while (true) { foo(a); }", false, []string{"VCR|while (true) { }"}},
		{"switch rule calls are not removed", "switch (a) { case 1 -> foo(a); default -> { } }", false, nil},
		{"int max is not overflowed", "int m = 2147483647; int k = 0x7fffffff;", true,
			[]string{"BND|int m = 0; int k = 0x7fffffff;", "BND|int m = 2147483646; int k = 0x7fffffff;",
				"BND|int m = 2147483647; int k = 0x0;", "BND|int m = 2147483647; int k = 0x7ffffffe;"}},
		{"narrow constants stay in range", "byte m = 127; short k = 0;", true,
			[]string{"BND|byte m = 0; short k = 0;", "BND|byte m = 126; short k = 0;", "BND|byte m = 127; short k = 1;"}},
		{"octal and binary literals are left", "int m = 017; int k = 0b11;", true, nil},
		{"Math.max qualified", "int m = java.lang.Math.max(a, b);", false,
			[]string{"WRAP|int m = a;", "WRAP|int m = b;", "MATH|int m = java.lang.Math.min(a, b);"}},
		{"not a Math call", "int m = Mine.max(a, b);", false, nil},
		{"a local class's methods are their own", "class L { int g() { return a + b; } }", false, nil},
		{"asserts are left alone", `assert a < b : "a < b"; return;`, true, nil},
		{"log calls are not removed", "log.info(name); LOGGER.debug(name); this.logger.warn(name);", false, nil},
		{"calls in a try that catches unchecked exceptions only are removed", "try { foo(a); } catch (java.io.UncheckedIOException | IllegalStateException e) { foo(b); }", false,
			[]string{"VCR|try { } catch (java.io.UncheckedIOException | IllegalStateException e) { foo(b); }",
				"VCR|try { foo(a); } catch (java.io.UncheckedIOException | IllegalStateException e) { }"}},
		{"a call in a try that catches a checked exception stays", "try { foo(a); } catch (java.io.IOException e) { foo(b); }", false,
			[]string{"VCR|try { foo(a); } catch (java.io.IOException e) { }"}},
		{"NEG on negation strips it", "if (!done) { return; }", false, []string{"NEG|if (done) { return; }", "EXIT|if (!done) { }"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src := []byte("class E {\n    String name; boolean done;\n    void f(int a, int b) {\n        " + tt.body + "\n    }\n    void foo(int x, int... y) { }\n}\n")
			got := short(gen(t, src, "f", Options{Strong: tt.strong}))
			if len(got) == 0 {
				got = nil
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got %q\nwant %q", got, tt.want)
			}
		})
	}
}

func TestDescriptions(t *testing.T) {
	src := readCorpus(t)
	want := map[string]bool{
		"`x < lo` → `x <= lo`":                     false,
		"`Math.min(x, hi)` → `Math.max(x, hi)`":    false,
		"`return lo;` → `return 0;`":               false,
		"`validate();` removed":                    false,
		"`notifyListeners();` removed":             false,
		"`xs.isEmpty()` → `!xs.isEmpty()`":         false,
		"`b % 7` → `(b + 7)`":                      false,
		"`(b >>> 1) & 0xFFL` → `(b >>> 1) & 0x0L`": false,
	}
	for _, ms := range allMutants(t, src) {
		for _, m := range ms {
			if _, ok := want[m.Description]; ok {
				want[m.Description] = true
			}
		}
	}
	for d, found := range want {
		if !found {
			t.Errorf("no mutant described as %s", d)
		}
	}
}

// TestGenerateThroughJavaparse runs the exported entry point on javaparse's view of the corpus.
func TestGenerateThroughJavaparse(t *testing.T) {
	src := readCorpus(t)
	f, err := javaparse.Parse(src)
	if err != nil {
		t.Fatal(err)
	}
	var clamp, run *javaparse.Method
	for _, m := range f.Methods() {
		switch m.Name {
		case "clamp":
			clamp = m
		case "run":
			run = m
		}
	}
	if clamp == nil || run == nil {
		t.Fatal("javaparse did not find clamp and run")
	}
	got := Generate(f, clamp, Options{})
	want := gen(t, src, "clamp", Options{Class: "org.acme.Corpus", Method: "clamp(int,int,int)"})
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Generate:\n got %+v\nwant %+v", got, want)
	}
	if got[0].ID != NewID("org.acme.Corpus", "clamp(int,int,int)", got[0].Original, got[0].Mutated) {
		t.Errorf("default ids do not use the binary class name and the parameter types")
	}
	// The anonymous class's method: its own class and mutants.
	rm := Generate(f, run, Options{})
	if len(rm) != 1 || rm[0].Operator != "VCR" || rm[0].ID != NewID("org.acme.Corpus$1", "run()", rm[0].Original, rm[0].Mutated) {
		t.Errorf("run(): %+v", rm)
	}
}

// BenchmarkGenerateCorpus: both groups for every method of the corpus, on a parsed tree.
func BenchmarkGenerateCorpus(b *testing.B) {
	src := readCorpus(b)
	tree := parseJava(b, src)
	methods := rawMethods(b, src)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for _, m := range methods {
			generate(tree.RootNode(), src, m.start, m.end, m.returnType, Options{})
			generate(tree.RootNode(), src, m.start, m.end, m.returnType, Options{Strong: true})
		}
	}
}
