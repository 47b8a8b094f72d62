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
	"CHAR/default": func(t *testing.T) {
		forOperator(t, "CHAR/default").in("boolean f(String s)").on("return Character.isLetter(s.charAt(0));").mutants("return Character.isLetterOrDigit(s.charAt(0));")
		forOperator(t, "CHAR/default").in("boolean f(char c)").on("return java.lang.Character.isLetterOrDigit(c);").
			mutants("return java.lang.Character.isDigit(c);", "return java.lang.Character.isLetter(c);")
		forOperator(t, "CHAR/default").in("boolean f(int cp)").on("return Character.isUpperCase(cp);").mutants("return Character.isLowerCase(cp);")
		forOperator(t, "CHAR/default").in("boolean f(char c)").on("return Chars.isLetter(c);").noMutants()
		forOperator(t, "CHAR/default").in("char f(char c)").on("return Character.toUpperCase(c);").noMutants()
	},
	"VCR/default": func(t *testing.T) {
		forOperator(t, "VCR/default").in("void f(int a)").on("foo(a);").mutants("")
		forOperator(t, "VCR/default").in("void f(int a)").on("if (a > 0) foo(a);").mutants("if (a > 0) ;")
		forOperator(t, "VCR/default").in("void f(int a)").on("log.info(name);").noMutants()
		forOperator(t, "VCR/default").in("void f(int a)").on("try { foo(a); } catch (java.io.IOException e) { }").noMutants()
	},
	"WRAP/default": func(t *testing.T) {
		forOperator(t, "WRAP/default").in("int f(int x)").on("return Math.max(0, x);").mutants("return x;")
		forOperator(t, "WRAP/default").in("int f(int x, int cap)").on("return Math.min(x, cap);").mutants("return x;")
		forOperator(t, "WRAP/default").in("int f(int level, int quantity)").on("return Math.min(level, quantity);").
			mutants("return level;", "return quantity;")
		// The clamp idiom: the inner call is what the outer one clamps; lo and hi are bounds.
		forOperator(t, "WRAP/default").in("int f(int lo, int hi, int v)").on("return Math.max(lo, Math.min(hi, v));").
			mutants("return Math.min(hi, v);", "return Math.max(lo, v);")
		forOperator(t, "WRAP/default").in("int f(int a, int b)").on("return Math.abs(a - b) * 2;").mutants("return (a - b) * 2;")
		forOperator(t, "WRAP/default").in("int f(int a, int b)").on("return Math.floorMod(a, b);").mutants("return a % b;")
		forOperator(t, "WRAP/default").in("long f(long a, long b)").on("return Math.multiplyExact(a, b + 1);").mutants("return a * (b + 1);")
		forOperator(t, "WRAP/default").in("String f(String s)").on("return java.util.Objects.requireNonNull(s, \"s\").trim();").
			mutants("return s.trim();")
		forOperator(t, "WRAP/default").in("String f(String s)").on("return s.trim().toLowerCase();").
			mutants("return s.toLowerCase();", "return s.trim();")
		// floorMod(long, int) is an int, `long % int` a long.
		forOperator(t, "WRAP/default").in("int f(long a, int b)").on("return Math.floorMod(a, b);").noMutants()
		forOperator(t, "WRAP/default").in("void f(String s)").on("java.util.Objects.requireNonNull(s);").noMutants()
		forOperator(t, "WRAP/default").in("int f()").on("return Math.min(0, Integer.MAX_VALUE);").noMutants()
		forOperator(t, "WRAP/default").in("int f(int x)").on("return Mine.max(0, x);").noMutants()
	},
	"SWAP/default": func(t *testing.T) {
		forOperator(t, "SWAP/default").in("int f(int a, int b)").on("return a - b;").mutants("return b - a;")
		forOperator(t, "SWAP/default").in("int f(int a, int b, int c)").on("return a - b * c;").mutants("return b * c - a;")
		forOperator(t, "SWAP/default").in("int f(int total, int parts)").on("return 100 - total % parts;").
			mutants("return total % parts - 100;", "return 100 - parts % total;")
		forOperator(t, "SWAP/default").in("String f(String s, int n)").on("return s + n;").mutants("return n + s;")
		forOperator(t, "SWAP/default").in("String f(String s)").on(`return "<" + s + ">";`).
			mutants(`return ">" + ("<" + s);`, `return s + "<" + ">";`)
		forOperator(t, "SWAP/default").in("int f(int n)").on("return n - 1;").noMutants()
		forOperator(t, "SWAP/default").in("int f(int a, int b)").on("return a + b;").noMutants()
		forOperator(t, "SWAP/default").in("boolean f(int a, int b)").on("return a < b;").noMutants()
		forOperator(t, "SWAP/default").in("void f(String s)").on(`throw new IllegalArgumentException("bad: " + s);`).noMutants()
		forOperator(t, "SWAP/default").in("void f(String s)").on(`log.info("got " + s);`).noMutants()
	},
	"LOOP/default": func(t *testing.T) {
		forOperator(t, "LOOP/default").in("void f(int n, int m)").on("for (int i = 0; i < n; i++) for (int j = 0; j < m; j++) foo(j);").
			mutants("for (int i = 0; i < n; i++) for (int j = 0; j < i; j++) foo(j);",
				"for (int i = 0; i < n; i++) for (int j = 0; j < n; j++) foo(j);")
		forOperator(t, "LOOP/default").in("void f(int[][] g)").on("for (int r = 0; r < g.length; r++) for (int c = 0; g[r].length > c; c++) foo(c);").
			mutants("for (int r = 0; r < g.length; r++) for (int c = 0; g.length > c; c++) foo(c);",
				"for (int r = 0; r < g.length; r++) for (int c = 0; r > c; c++) foo(c);")
		forOperator(t, "LOOP/default").in("void f(int n)").on("for (int i = 0; i < n; i++) foo(i);").noMutants()
		// The enclosing loop's condition is no ordering of its variable: nothing to take.
		forOperator(t, "LOOP/default").in("void f(int n, int m)").on("for (int i = 0; i != n; i++) for (int j = 0; j < m; j++) foo(j);").noMutants()
	},
	"EXIT/default": func(t *testing.T) {
		forOperator(t, "EXIT/default").in("int f(int x, int lo)").on("if (x < lo) return lo; return x;").mutants("if (x < lo) ; return x;")
		forOperator(t, "EXIT/default").in("int f(int x, int lo)").on("if (x < lo) { return lo; } else if (x == 0) { return 1; } return x;").
			mutants("if (x < lo) { } else if (x == 0) { return 1; } return x;", "if (x < lo) { return lo; } else if (x == 0) { } return x;")
		forOperator(t, "EXIT/default").in("void f(boolean c)").on("if (c) { foo(1); return; } foo(2);").mutants("if (c) { foo(1); } foo(2);")
		// The method would fall off its end.
		forOperator(t, "EXIT/default").in("int f(boolean c)").on("if (c) { return 1; } else { return 2; }").noMutants()
		forOperator(t, "EXIT/default").in("int f(int[] a, int k)").on("for (int i = 0; i < a.length; i++) { if (a[i] == k) return i; } return -1;").noMutants()
		forOperator(t, "EXIT/default").in("int f(int x)").on("return x;").noMutants()
	},
	"EXIT/strong": func(t *testing.T) {
		forOperator(t, "EXIT/strong").in("int f(int[] a, int k)").on("for (int i = 0; i < a.length; i++) { if (a[i] == k) return i; } return -1;").
			mutants("for (int i = 0; i < a.length; i++) { if (a[i] == k) ; } return -1;")
		forOperator(t, "EXIT/strong").in("void f(int[] a)").on("for (int x : a) { if (x < 0) continue; foo(x); }").
			mutants("for (int x : a) { if (x < 0) ; foo(x); }")
		forOperator(t, "EXIT/strong").in("void f(int[] a)").on("for (int x : a) { if (x < 0) { foo(0); break; } }").
			mutants("for (int x : a) { if (x < 0) { foo(0); } }")
		// Only the break ends the loop: the code after it would be unreachable.
		forOperator(t, "EXIT/strong").in("void f(int a)").on("while (true) { if (a > 3) break; a++; }").noMutants()
		forOperator(t, "EXIT/strong").in("void f(int[] a)").on("outer: for (int x : a) { for (int y : a) { if (y > x) break outer; } }").noMutants()
		// EXIT/default's guard clause is not repeated.
		forOperator(t, "EXIT/strong").in("int f(int x, int lo)").on("if (x < lo) return lo; return x;").noMutants()
	},
	"VAR/strong": func(t *testing.T) {
		forOperator(t, "VAR/strong").in("int f(int value, int lo, int hi)").on("return lo;").mutants("return hi;", "return value;")
		forOperator(t, "VAR/strong").in("int f(int[] xs, int[] ys, int i)").on("return xs[i] + xs.length;").
			mutants("return ys[i] + xs.length;", "return xs[i] + ys.length;")
		// The nearest declaration first; the loop's own variable stays in its condition.
		forOperator(t, "VAR/strong").in("int f(int n, int m)").on("int i = 0; while (i < n) { i++; } return i;").
			mutants("int i = 0; while (i < m) { i++; } return i;", "int i = 0; while (i < n) { i++; } return m;",
				"int i = 0; while (i < n) { i++; } return n;")
		forOperator(t, "VAR/strong").in("void f(int a, int b)").on("int c = a;").mutants("int c = b;")
		// Not to a variable of another type, not the same variable twice, not a field, not
		// in a lambda (a captured local must be effectively final).
		forOperator(t, "VAR/strong").in("long f(int a, long b)").on("return a;").noMutants()
		forOperator(t, "VAR/strong").in("boolean f(int a, int b)").on("return a < b;").noMutants()
		forOperator(t, "VAR/strong").in("String f(String s)").on("return name;").noMutants()
		forOperator(t, "VAR/strong").in("java.util.function.IntSupplier f(int a, int b)").on("return () -> a;").noMutants()
	},
	"ARG/strong": func(t *testing.T) {
		forOperator(t, "ARG/strong").in("String f(String s, int from, int to)").on("return s.substring(from, to);").
			mutants("return s.substring(to, from);")
		forOperator(t, "ARG/strong").in("String f(int a, int b)").on(`return String.format("%d-%d", a, b);`).
			mutants(`return String.format("%d-%d", b, a);`)
		forOperator(t, "ARG/strong").in("int f(int v)").on("return clamp(v, 0, 50);").
			mutants("return clamp(0, v, 50);", "return clamp(v, 50, 0);")
		forOperator(t, "ARG/strong").in("int f(int a, int b)").on("return Math.max(a, b);").noMutants()
		forOperator(t, "ARG/strong").in("boolean f(String a, String b)").on("return java.util.Objects.equals(a, b);").noMutants()
		forOperator(t, "ARG/strong").in("String f(String s, int i, long j)").on("return s.substring((int) j, i);").noMutants()
	},
	"IDX/strong": func(t *testing.T) {
		forOperator(t, "IDX/strong").in("int f(int[] a, int i)").on("return a[i];").mutants("return a[i + 1];", "return a[i - 1];")
		forOperator(t, "IDX/strong").in("int f(java.util.List<Integer> xs, int i)").on("return xs.get(i);").
			mutants("return xs.get(i + 1);", "return xs.get(i - 1);")
		forOperator(t, "IDX/strong").in("char f(String s, int i)").on("return s.charAt(i);").
			mutants("return s.charAt(i + 1);", "return s.charAt(i - 1);")
		forOperator(t, "IDX/strong").in("int f(int[] a)").on("return a[0];").noMutants()
		forOperator(t, "IDX/strong").in("int f(int[] a, int i)").on("return a[i - 1];").noMutants()
		forOperator(t, "IDX/strong").in("int f(java.util.Map<Integer, Integer> m, int k)").on("return m.get(k);").noMutants()
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
