package mutants

import (
	"reflect"
	"strings"
	"testing"
)

// operatorTests holds one test per record of the registry, by Name; each reads as a
// sentence: for this operator, in this method, on this code, exactly these mutants (the
// mutated lines, trimmed, in Generate's order). TestEveryOperatorHasATest keeps the table
// complete.
var operatorTests = map[string]func(t *testing.T){
	"ROR/default": func(t *testing.T) {
		forOperator(t, "ROR/default").in("boolean f(int a, int b)").on("return a < b;").
			mutants("return a <= b;", "return a >= b;")
		forOperator(t, "ROR/default").in("boolean f(int a, int b)").on("return a >= b;").
			mutants("return a < b;", "return a > b;")
		forOperator(t, "ROR/default").in("boolean f(String s)").on("return s == null;").
			mutants("return s != null;")
	},
	"ROR/strong": func(t *testing.T) {
		forOperator(t, "ROR/strong").in("boolean f(int a, int b)").on("return a < b;").
			mutants("return a != b;", "return a == b;", "return a > b;")
		forOperator(t, "ROR/strong").in("boolean f(int a, int b)").on("return a == b;").
			mutants("return a < b;", "return a <= b;", "return a > b;", "return a >= b;")
		forOperator(t, "ROR/strong").in("boolean f(String s)").on("return s == null;").noMutants()
	},
	"AOR/default": func(t *testing.T) {
		forOperator(t, "AOR/default").in("int f(int a, int b)").on("return a + b;").mutants("return a - b;")
		forOperator(t, "AOR/default").in("int f(int a, int b)").on("return a % b;").mutants("return a * b;")
		forOperator(t, "AOR/default").in("int f(int a, int b)").on("return a - b * 2;").
			mutants("return a + b * 2;", "return a - b / 2;")
		forOperator(t, "AOR/default").in("String f(String s, int a)").on("return s + a;").noMutants()
	},
	"AOR/strong": func(t *testing.T) {
		forOperator(t, "AOR/strong").in("int f(int a, int b)").on("return a + b;").
			mutants("return a % b;", "return a * b;", "return a / b;")
		forOperator(t, "AOR/strong").in("int f(int a, int b)").on("return a & b;").mutants("return a | b;")
		forOperator(t, "AOR/strong").in("int f(int a, int b)").on("return a >>> b;").mutants("return a >> b;")
		forOperator(t, "AOR/strong").in("int f(int a)").on("return -a;").mutants("return a;")
		// Precedence is kept: `b % 7` → `b + 7` must not bind to `a * 31`, and `+` → `*` must
		// not take `b` from `b % 7`.
		forOperator(t, "AOR/strong").in("int f(int a, int b)").on("return a * 31 + b % 7;").
			mutants("return a * 31 % (b % 7);", "return a * 31 * (b % 7);", "return a * 31 / (b % 7);",
				"return a % 31 + b % 7;", "return a + 31 + b % 7;", "return a - 31 + b % 7;",
				"return a * 31 + (b + 7);", "return a * 31 + (b - 7);", "return a * 31 + b / 7;")
	},
	"NEG/default": func(t *testing.T) {
		forOperator(t, "NEG/default").in("int f(boolean c)").on("if (c) { return 1; }").mutants("if (!c) { return 1; }")
		forOperator(t, "NEG/default").in("int f(boolean c)").on("if (!c) { return 1; }").mutants("if (c) { return 1; }")
		forOperator(t, "NEG/default").in("int f(boolean c)").on("return c ? 1 : 2;").mutants("return !c ? 1 : 2;")
		forOperator(t, "NEG/default").in("void f(boolean c, boolean d)").on("while (c && d) { }").mutants("while (!(c && d)) { }")
		// ROR's negation already makes `a >= b`.
		forOperator(t, "NEG/default").in("int f(int a, int b)").on("if (a < b) { return 1; }").noMutants()
	},
	"NEG/strong": func(t *testing.T) {
		forOperator(t, "NEG/strong").in("boolean f(boolean c)").on("return !c;").mutants("return c;")
		forOperator(t, "NEG/strong").in("boolean f(Object o)").on("return !(o instanceof String s);").noMutants()
	},
	"LCR/default": func(t *testing.T) {
		forOperator(t, "LCR/default").in("boolean f(boolean c, boolean d)").on("return c && d;").mutants("return c || d;")
		forOperator(t, "LCR/default").in("boolean f(boolean c, boolean d)").on("return c || d;").mutants("return c && d;")
		forOperator(t, "LCR/default").in("boolean f(Object o)").on("return o instanceof String s && s.isEmpty();").noMutants()
	},
	"LCR/strong": func(t *testing.T) {
		forOperator(t, "LCR/strong").in("boolean f(boolean c, boolean d)").on("return c && d;").mutants("return c;", "return d;")
	},
	"RET/default": func(t *testing.T) {
		forOperator(t, "RET/default").in("boolean f(boolean c)").on("return c;").mutants("return false;", "return true;")
		forOperator(t, "RET/default").in("int f(int a)").on("return a;").mutants("return 0;")
		forOperator(t, "RET/default").in("int f(int a)").on("return 0;").mutants("return 1;")
		forOperator(t, "RET/default").in("String f(String s)").on("return s;").mutants(`return "";`, "return null;")
		forOperator(t, "RET/default").in("java.util.List<String> f(java.util.List<String> xs)").on("return xs;").
			mutants("return java.util.Collections.emptyList();", "return null;")
		forOperator(t, "RET/default").in("void f(int a)").on("return;").noMutants()
	},
	"MATH/default": func(t *testing.T) {
		forOperator(t, "MATH/default").in("int f(int a, int b)").on("return Math.max(a, b);").mutants("return Math.min(a, b);")
		forOperator(t, "MATH/default").in("int f(int a, int b)").on("return Mine.max(a, b);").noMutants()
	},
	"VCR/default": func(t *testing.T) {
		forOperator(t, "VCR/default").in("void f(int a)").on("foo(a);").mutants("")
		forOperator(t, "VCR/default").in("void f(int a)").on("if (a > 0) foo(a);").mutants("if (a > 0) ;")
		forOperator(t, "VCR/default").in("void f(int a)").on("log.info(name);").noMutants()
		forOperator(t, "VCR/default").in("void f(int a)").on("try { foo(a); } catch (java.io.IOException e) { }").noMutants()
	},
	"BND/strong": func(t *testing.T) {
		forOperator(t, "BND/strong").in("int f(int a)").on("return a + 10;").
			mutants("return a + 0;", "return a + 11;", "return a + 9;")
		forOperator(t, "BND/strong").in("long f()").on("return 0xFFL;").mutants("return 0x0L;", "return 0x100L;", "return 0xFEL;")
		forOperator(t, "BND/strong").in("void f()").on("byte m = 127;").mutants("byte m = 0;", "byte m = 126;")
		forOperator(t, "BND/strong").in("int f()").on("return 017;").noMutants()
	},
	"INC/strong": func(t *testing.T) {
		forOperator(t, "INC/strong").in("void f(int a)").on("a++;").mutants("a--;")
		forOperator(t, "INC/strong").in("void f(int a)").on("a += 2;").mutants("a -= 2;")
		forOperator(t, "INC/strong").in("void f(int a)").on("a *= 2;").mutants("a /= 2;")
		forOperator(t, "INC/strong").in("void f(String s)").on(`s += "x";`).noMutants()
	},
	"CDR/strong": func(t *testing.T) {
		forOperator(t, "CDR/strong").in("int f(int a, int b)").on("if (a < b) { return 1; }").
			mutants("if (false) { return 1; }", "if (true) { return 1; }")
		forOperator(t, "CDR/strong").in("int f(boolean c)").on("return c ? 1 : 2;").
			mutants("return false ? 1 : 2;", "return true ? 1 : 2;")
		forOperator(t, "CDR/strong").in("void f(boolean c)").on("while (c) { }").noMutants()
	},
}

func TestOperators(t *testing.T) {
	for _, op := range Operators() {
		test, ok := operatorTests[op.Name()]
		if !ok {
			continue // TestEveryOperatorHasATest says so
		}
		t.Run(op.Name(), test)
	}
}

func TestEveryOperatorHasATest(t *testing.T) {
	names := map[string]bool{}
	for _, op := range Operators() {
		names[op.Name()] = true
		if _, ok := operatorTests[op.Name()]; !ok {
			t.Errorf("operator %s has no test: add one to operatorTests", op.Name())
		}
	}
	for name := range operatorTests {
		if !names[name] {
			t.Errorf("operatorTests has %s, which is not in the registry", name)
		}
	}
}

// operatorCase is a sentence under construction: forOperator(t, "ROR/default").in(sig).on(code).
type operatorCase struct {
	t   *testing.T
	op  *Operator
	sig string
}

// forOperator starts a sentence about the registry's record name ("CODE/group").
func forOperator(t *testing.T, name string) *operatorCase {
	t.Helper()
	for _, op := range registry {
		if op.Name() == name {
			return &operatorCase{t: t, op: op, sig: "void f()"}
		}
	}
	t.Fatalf("no operator %s in the registry", name)
	return nil
}

// in sets the method's signature ("boolean f(int a, int b)"); the method sits in a class
// with the fields `String name; boolean done;`, a logger `log` and `void foo(int x)`.
func (c *operatorCase) in(sig string) *operatorCase {
	c.sig = sig
	return c
}

// operatorResult is what the operator made of one body.
type operatorResult struct {
	c    *operatorCase
	body string
	got  []Mutant
}

// on generates the operator's mutants of a method whose body is the given code.
func (c *operatorCase) on(body string) operatorResult {
	c.t.Helper()
	src := "class Sample {\n    String name; boolean done; java.util.logging.Logger log;\n" +
		"    " + c.sig + " {\n        " + body + "\n    }\n    void foo(int x) { }\n}\n"
	if tree := parseJava(c.t, []byte(src)); tree.RootNode().HasError() {
		c.t.Fatalf("the input does not parse:\n%s", src)
	}
	name := strings.TrimSpace(c.sig[:strings.IndexByte(c.sig, '(')])
	name = name[strings.LastIndexByte(name, ' ')+1:]
	got := gen(c.t, []byte(src), name, Options{Operators: MustSelect(c.op.Name()), Strong: c.op.Group == GroupStrong})
	for _, m := range got {
		if m.Operator != c.op.Code {
			c.t.Errorf("%s on %q made a mutant of operator %s", c.op.Name(), body, m.Operator)
		}
	}
	return operatorResult{c: c, body: body, got: got}
}

// mutants checks the mutated lines, trimmed, exactly and in order.
func (r operatorResult) mutants(want ...string) {
	r.c.t.Helper()
	got := make([]string, len(r.got))
	for i, m := range r.got {
		got[i] = strings.TrimSpace(m.Mutated)
	}
	if len(want) == 0 {
		want = []string{}
	}
	if !reflect.DeepEqual(got, want) {
		r.c.t.Errorf("%s on %q in %s:\n got %q\nwant %q", r.c.op.Name(), r.body, r.c.sig, got, want)
	}
}

// noMutants checks that the operator leaves the code alone.
func (r operatorResult) noMutants() {
	r.c.t.Helper()
	r.mutants()
}
