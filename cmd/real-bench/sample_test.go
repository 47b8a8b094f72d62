package main

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

func TestListMethodsKinds(t *testing.T) {
	ms, err := ListMethods("fixture", "1.0-1", "testdata/sample")
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, m := range ms {
		got[m.Signature] = strings.Join(m.Kinds, ",")
		if !strings.HasPrefix(m.File, "src/main/java/p/") || m.Line < 1 || m.Key == "" || len(m.Order) != 64 {
			t.Errorf("%s: file %q line %d key %q", m.Display(), m.File, m.Line, m.Key)
		}
	}
	want := map[string]string{
		"protected Shapes(int sides)":           "constructor,protected,abstract,overload",
		"public Shapes()":                       "constructor,abstract,overload",
		"public static int twice(int x)":        "static,overload",
		"public static int twice(int x, int y)": "static,overload",
		"public int sides()":                    "instance,abstract",
		"private boolean even()":                "instance,private,abstract",
		"Square()":                              "constructor,nested",
		"protected double area()":               "instance,protected,nested",
		"int index()":                           "instance,inner",
		"default String name()":                 "instance,nested,abstract",
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s: kinds %q, want %q", k, got[k], v)
		}
	}
	// Not candidates: a method without a body (area, plain) and the anonymous class's run.
	if len(got) != len(want) {
		t.Errorf("candidates %v, want exactly %d (no bodiless or anonymous-class method)", got, len(want))
	}
}

// fakeMethods makes n candidates of a library whose kinds cycle through the given sets.
func fakeMethods(lib string, n int, kinds ...[]string) []Method {
	var out []Method
	for i := range n {
		class, sig := fmt.Sprintf("%s.C%d", lib, i%7), fmt.Sprintf("void m%d(int x)", i)
		m := Method{Library: lib, Class: class, Name: fmt.Sprintf("m%d", i), Signature: sig,
			Kinds: kinds[i%len(kinds)], Half: HalfOf(class, sig), Key: lib + "|" + class + "|" + sig}
		m.Order = fmt.Sprintf("%064x", fnv(m.Key))
		out = append(out, m)
	}
	return out
}

func fnv(s string) uint64 {
	h := uint64(14695981039346656037)
	for i := 0; i < len(s); i++ {
		h ^= uint64(s[i])
		h *= 1099511628211
	}
	return h
}

func TestSampleIsFixedSharedAndMeetsQuotas(t *testing.T) {
	libs := []string{"a", "b", "c"}
	cands := map[string][]Method{
		"a": fakeMethods("a", 400, []string{KindStatic}, []string{KindInstance}, []string{KindConstructor, KindPrivate}),
		"b": fakeMethods("b", 300, []string{KindInstance, KindInner}, []string{KindInstance, KindAbstract, KindProtected}, []string{KindStatic, KindOverload}),
		"c": fakeMethods("c", 8, []string{KindInstance, KindNested}), // fewer than its share in a half
	}
	one := Sample(libs, cands, 30)
	two := Sample(libs, cands, 30)
	for _, h := range []Half{Dev, Holdout} {
		if !slices.EqualFunc(one[h], two[h], func(x, y Method) bool { return x.Key == y.Key }) {
			t.Fatalf("%s: two samples differ", h)
		}
		perLib, kinds := map[string]int{}, map[string]int{}
		seen := map[string]bool{}
		for _, m := range one[h] {
			if m.Half != h {
				t.Errorf("%s sample holds a %s method", h, m.Half)
			}
			if seen[m.Key] {
				t.Errorf("%s drawn twice", m.Key)
			}
			seen[m.Key] = true
			perLib[m.Library]++
			for _, k := range m.Kinds {
				kinds[k]++
			}
		}
		if perLib["a"] != 10 || perLib["b"] != 10 || perLib["c"] > 10 || perLib["c"] == 0 {
			t.Errorf("%s: per library %v, want a and b 10 each, c what it has", h, perLib)
		}
		for _, q := range Quotas {
			if kinds[q.Kind] < q.Of30 && q.Kind != KindNested {
				t.Errorf("%s: %d methods of kind %s, quota %d", h, kinds[q.Kind], q.Kind, q.Of30)
			}
		}
	}
	// A library added later leaves the others' halves alone (the half is the method's own).
	for _, m := range cands["a"] {
		if m.Half != HalfOf(m.Class, m.Signature) {
			t.Fatal("HalfOf is not a function of class and signature")
		}
	}
}

func TestHalfOfIsFixed(t *testing.T) {
	// Pinned: changing the rule moves methods between the halves, and the measured half would
	// no longer be one nobody developed against.
	for _, c := range []struct {
		class, sig string
		want       Half
	}{
		{"org.apache.commons.lang3.StringUtils", "public static boolean isEmpty(final CharSequence cs)", Holdout},
		{"org.apache.commons.csv.Lexer", "boolean isMetaChar(final int ch)", Dev},
		{"org.joda.time.LocalDate", "public int getYear()", Holdout},
	} {
		if got := HalfOf(c.class, c.sig); got != c.want {
			t.Errorf("HalfOf(%s, %s) = %s, want %s", c.class, c.sig, got, c.want)
		}
	}
	dev := 0
	for i := range 1000 {
		if HalfOf("C", fmt.Sprint(i)) == Dev {
			dev++
		}
	}
	if dev < 430 || dev > 570 {
		t.Errorf("%d of 1000 methods in dev: the split is not even", dev)
	}
}

func TestSmallestClass(t *testing.T) {
	m := func(file, order string) Method { return Method{File: file, Order: order} }
	all := []Method{m("Big", "1"), m("Big", "2"), m("Big", "3"), m("Small", "4"), m("Small", "5"), m("Mid", "6"), m("Mid", "7"), m("Mid", "8"), m("One", "9")}
	if f, n := smallestClass([]Method{m("Mid", "6")}, all, 3); f != "Mid" || n != 3 {
		t.Errorf("a sampled file that fits goes first: got %s (%d)", f, n)
	}
	if f, n := smallestClass([]Method{m("Big", "1")}, all, 2); f != "Small" || n != 2 {
		t.Errorf("else the library's smallest file of at least two methods: got %s (%d)", f, n)
	}
	if f, _ := smallestClass(nil, all, 1); f != "" {
		t.Errorf("no file fits: got %s", f)
	}
}
