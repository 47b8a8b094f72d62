package javaparse

import (
	"hash/fnv"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// FuzzParse feeds arbitrary text through everything a File offers; nothing
// may panic, and the methods' ranges must fit the text.
func FuzzParse(f *testing.F) {
	entries, err := os.ReadDir(filepath.Join("testdata", "corpus"))
	if err != nil {
		f.Fatal(err)
	}
	for _, e := range entries {
		src, err := os.ReadFile(filepath.Join("testdata", "corpus", e.Name()))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(src)
	}
	for _, s := range []string{
		"", "{", "}", "class", "class A { void f() { new B() { void g() {} }; } }",
		"enum E { A { void a() {} }; }", "record R(int x) { R { } }", "class A { int f(int... x) [] { } }",
		"@interface A { int v() default 1; }", "class A { void f() { class L { void g() {} } } }",
		"class \xff\xfe { void \x00() {} }", "class A {\r\n void f() {\r }\n}", "package ;import ;class {",
		"interface I { default void d() { new Object() { }; } }", "class A { A() { this(new B(){}); } }",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		h := fnv.New64a()
		h.Write(data)
		r := rand.New(rand.NewPCG(h.Sum64(), uint64(len(data))))
		file, err := Parse(data)
		if err != nil {
			t.Fatal(err)
		}
		exercise(t, file, r)
		for range 3 {
			src := file.Source()
			if err := file.ApplyEdits(randomEdit(r, src), Edit{StartByte: 0, OldEndByte: 0, NewText: data[:r.IntN(len(data)+1)]}); err != nil {
				t.Fatal(err)
			}
			exercise(t, file, r)
		}
	})
}

func exercise(t *testing.T, f *File, r *rand.Rand) {
	src := f.Source()
	lines := f.Lines()
	// Lookups before the index is built go the lazy way; they must give
	// what the index gives, and the very Methods it then holds.
	var offs, lineNos []int
	var lazyAt, lazyLine []*Method
	for range 8 {
		off, l := r.IntN(len(src)+3)-1, r.IntN(lines.LineCount()+2)
		offs, lineNos = append(offs, off), append(lineNos, l)
		lazyAt, lazyLine = append(lazyAt, f.MethodAt(off)), append(lazyLine, f.MethodAtLine(l))
	}
	methods := f.Methods()
	for i := range offs {
		if got, want := lazyAt[i], f.MethodAt(offs[i]); got != want {
			t.Fatalf("MethodAt(%d) before the index %v, after %v", offs[i], got, want)
		}
		if got, want := lazyLine[i], f.MethodAtLine(lineNos[i]); got != want {
			t.Fatalf("MethodAtLine(%d) before the index %v, after %v", lineNos[i], got, want)
		}
	}
	// An index built on the previous version's records must be the one a
	// walk from scratch builds.
	if a, b := describeIndex(f.cur.Load().getIndex()), describeIndex(freshIndex(f)); !slices.Equal(a, b) {
		t.Fatalf("incremental index differs from a fresh walk on %q:\n%s", src, diffLines(a, b))
	}
	// The index's walk must find what the declaration query finds.
	if a, b := describeMethods(methods), describeMethods(indexByQuery(f).methods); !slices.Equal(a, b) {
		t.Fatalf("walk and query differ on %q:\n%s\n---\n%s", src, strings.Join(a, "\n"), strings.Join(b, "\n"))
	}
	for i, m := range methods {
		if m.StartByte < 0 || m.EndByte > len(src) || m.StartByte > m.EndByte ||
			m.NameStartByte < m.StartByte || m.NameEndByte > m.EndByte || m.StartLine > m.EndLine || m.StartLine < 1 {
			t.Fatalf("method %d out of shape: %+v (text %d bytes)", i, m, len(src))
		}
		if i > 0 && methods[i-1].StartByte > m.StartByte {
			t.Fatalf("methods out of order at %d", i)
		}
		if m.BodyStartByte >= 0 && (m.BodyStartByte < m.StartByte || m.BodyStartByte >= m.EndByte) {
			t.Fatalf("body outside the method: %+v", m)
		}
		_ = m.Text(src)
		if c := f.Context(m); c == nil || c.StartLine != m.StartLine {
			t.Fatalf("Context(%s) = %+v", m.Name, c)
		}
		_ = f.FindMethods(m.Name)
		_ = f.FindMethods(m.BinaryClassName + "." + m.Name + "(" + m.ReturnType + ", int..., List<Map<K,V>>)")
	}
	for range 8 {
		off := r.IntN(len(src)+3) - 1
		if m := f.MethodAt(off); m != nil && (off < m.StartByte || off > m.EndByte) {
			t.Fatalf("MethodAt(%d) = %s [%d,%d]", off, m.Name, m.StartByte, m.EndByte)
		}
		_ = f.MethodAtLine(r.IntN(lines.LineCount() + 2))
		l, c := lines.Position(off)
		o, err := lines.Offset(l, c)
		if err != nil || o > len(src) {
			t.Fatalf("Offset(Position(%d)) = %d, %v", off, o, err)
		}
		if l2, c2 := lines.Position(o); l2 != l || c2 != c {
			t.Fatalf("Position(Offset(%d,%d)) = %d,%d", l, c, l2, c2)
		}
		_ = lines.LineText(r.IntN(lines.LineCount()+2) - 1)
	}
	for _, e := range f.SyntaxErrors() {
		if e.Line < 1 || e.Column < 1 || e.Message == "" {
			t.Fatalf("bad syntax error %+v", e)
		}
	}
	_ = f.FindMethods("(")
	_ = f.FindMethods(")(<<,>")
	_ = f.FindMethods("a.b$c#d(int,,)")
	_ = f.Clone().Methods()
}
