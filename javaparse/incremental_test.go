package javaparse

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// describeClass spells everything the index knows about a class except its
// javac counters (which only matter while indexing).
func describeClass(c *classInfo) string {
	if c == nil {
		return "<nil>"
	}
	return fmt.Sprintf("%s|%s|%q|%q|%q|%q|%v|%d-%d", strings.Join(c.path, "$"), c.kind, c.declaration,
		c.fields, c.ctors, c.methodSigs, c.recordParams, c.start, c.end)
}

// describeIndex spells an index: its methods with their classes, its classes
// in the order found, package, imports and syntax errors.
func describeIndex(ix *index) []string {
	out := describeMethods(ix.methods)
	for i := range ix.methods {
		out[i] += " in " + describeClass(ix.methodClass[i])
	}
	for _, c := range ix.classes {
		out = append(out, "class "+describeClass(c))
	}
	out = append(out, "package "+ix.pkg, fmt.Sprintf("imports %q", ix.imports), fmt.Sprintf("errors %v", ix.errors))
	return out
}

func describeMethod(m *Method) string {
	if m == nil {
		return "<nil>"
	}
	return describeMethods([]*Method{m})[0]
}

// freshIndex indexes f's current tree from scratch, without the previous
// version's records.
func freshIndex(f *File) *index {
	s := f.cur.Load()
	s.getIndex()
	s.treeMu.Lock()
	defer s.treeMu.Unlock()
	return buildIndex(s.tree, s.src, s.lineMap(), nil)
}

// snippets are what the differential test inserts: declarations that shift
// javac's numbering of anonymous and local classes, members, and the
// characters that break or join things.
var snippets = []string{
	"new Object() { void a() {} };", "new Runnable() { public void run() { new Object() {}; } }; ",
	"class L { void l() {} } ", "void q() {} ", "int f = new Object() { int g() { return 1; } }.g(); ",
	"record R(int a) { R { } } ", "enum E { A { void e(){} }, B; void d() {} } ", "interface I { default void d() {} } ",
	"static { new Object() {}; } ", "{ class K {} } ", "Gen1() { } ", "@Deprecated ", "/* new class */ ", "// x\n",
	"\"new Object() {}\"", "x", "1", ";", "{", "}", "(", ")", "\n", "\r", "\r\n", " ", "é", "𝄞",
}

// interestingOffsets are where edits most often change what the index finds:
// around the methods' ranges, names and bodies, and at the words that start
// declarations.
func interestingOffsets(src []byte, ms []*Method) []int {
	var out []int
	for _, m := range ms {
		out = append(out, m.StartByte-1, m.StartByte, m.NameStartByte, m.NameEndByte, m.EndByte-1, m.EndByte, m.EndByte+1)
		if m.BodyStartByte >= 0 {
			out = append(out, m.BodyStartByte, m.BodyStartByte+1)
		}
	}
	for _, w := range []string{"new ", "class ", "enum ", "record ", "interface ", "package ", "{", "}", "\n", "static "} {
		for i, n := 0, 0; n < 50; n++ {
			j := bytes.Index(src[i:], []byte(w))
			if j < 0 {
				break
			}
			out = append(out, i+j, i+j+len(w))
			i += j + 1
		}
	}
	return out
}

// memberSnippets may be inserted where a member starts, statementSnippets
// where a block's statements start: the text stays error-free.
var (
	memberSnippets = []string{
		"void q() {} ", "class L { void l() {} } ", "int f = new Object() { int g() { return 1; } }.g(); ",
		"static { new Object() {}; } ", "{ class K {} new Object() {}; } ", "record R(int a) { R { } } ",
		"enum E { A { void e(){} }, B; void d() {} } ", "interface I { default void d() {} } ", "@Deprecated ",
		"/* new class */ ", "// x\n", "\n", "\r\n",
	}
	statementSnippets = []string{
		"new Object() { void a() {} }; ", "new Runnable() { public void run() { new Object() {}; } }; ",
		"{ class K {} } ", "class L { void l() {} } ", "int f = 1; ", "\n", "\r", " ", "/* é 𝄞 */",
		"String s = \"new Object() {}\"; ",
	}
)

// safeEdit changes the text where it stays error-free (if it was): a member
// or statement inserted, a method renamed or removed.
func safeEdit(r *rand.Rand, ms []*Method) (Edit, bool) {
	if len(ms) == 0 {
		return Edit{}, false
	}
	m := ms[r.IntN(len(ms))]
	switch r.IntN(5) {
	case 0, 1:
		return Edit{StartByte: m.StartByte, OldEndByte: m.StartByte, NewText: []byte(memberSnippets[r.IntN(len(memberSnippets))])}, true
	case 2:
		if m.BodyStartByte >= 0 {
			at := m.BodyStartByte + 1
			return Edit{StartByte: at, OldEndByte: at, NewText: []byte(statementSnippets[r.IntN(len(statementSnippets))])}, true
		}
	case 3:
		return Edit{StartByte: m.NameEndByte, OldEndByte: m.NameEndByte, NewText: []byte("x")}, true
	}
	return Edit{StartByte: m.StartByte, OldEndByte: m.EndByte}, true
}

func differentialEdit(r *rand.Rand, src []byte, ms []*Method) Edit {
	if r.IntN(2) == 0 {
		if e, ok := safeEdit(r, ms); ok {
			return e
		}
	}
	off := r.IntN(len(src) + 1)
	switch r.IntN(4) {
	case 0, 1:
		if offs := interestingOffsets(src, ms); len(offs) > 0 {
			off = offs[r.IntN(len(offs))]
		}
	case 2:
		if len(ms) > 0 {
			if m := ms[r.IntN(len(ms))]; m.BodyStartByte >= 0 && m.EndByte > m.BodyStartByte+1 {
				off = m.BodyStartByte + 1 + r.IntN(m.EndByte-m.BodyStartByte-1)
			}
		}
	}
	off = max(0, min(off, len(src)))
	switch r.IntN(6) {
	case 0, 1:
		return Edit{StartByte: off, OldEndByte: off, NewText: []byte(snippets[r.IntN(len(snippets))])}
	case 2:
		return Edit{StartByte: off, OldEndByte: min(len(src), off+1)}
	case 3:
		return Edit{StartByte: off, OldEndByte: min(len(src), off+1+r.IntN(40))}
	case 4:
		return Edit{StartByte: off, OldEndByte: min(len(src), off+1), NewText: []byte(snippets[r.IntN(len(snippets))])}
	}
	return randomEdit(r, src)
}

// nestedGenerated is the generated file with all its classes nested in one
// top-level class, so that edits land in a type body of many members.
func nestedGenerated(lines int) []byte {
	body := string(generateJava(lines))
	body = body[strings.Index(body, "public class"):]
	body = strings.ReplaceAll(body, "public class Gen", "static class Gen")
	return []byte("package org.bench.nested;\n\nimport java.util.*;\nimport java.util.function.*;\n\npublic class All {\n" +
		body + "    void tail() { new Object() { }; }\n}\n")
}

// TestIncrementalIndexMatchesFresh applies random edit sequences and checks,
// after each, that the index built from the previous version's records is the
// one a walk of the same tree from scratch builds, and that Methods, MethodAt,
// MethodAtLine and Context answer as on a fresh Parse of the same text wherever
// tree-sitter built the same tree (always for error-free text; for broken text
// its error recovery may depend on the nodes it reused).
func TestIncrementalIndexMatchesFresh(t *testing.T) {
	type input struct {
		name  string
		src   []byte
		steps int
	}
	var inputs []input
	for _, name := range []string{"Calculator.java", "Shapes.java", "Types.java", "Unicode.java", "Crlf.java", "Broken.java", "Nesting.java"} {
		inputs = append(inputs, input{name, readCorpus(t, name), 150})
	}
	inputs = append(inputs, input{"generated-5000", generateJava(5000), 12}, input{"nested-1500", nestedGenerated(1500), 40})
	if testing.Short() {
		for i := range inputs {
			inputs[i].steps /= 5
		}
	}
	var checked, sameTree, reused, errorFree, errorFreeReused, lazyUsed int
	for seed, in := range inputs {
		r := rand.New(rand.NewPCG(uint64(seed), 7))
		f, err := Parse(in.src)
		if err != nil {
			t.Fatal(err)
		}
		prevMethods := f.Methods()
		var undo [][]Edit // the inverse of each step not undone yet
		wantUndo := false
		for step := range in.steps {
			src := f.Source()
			var edits []Edit
			if len(undo) > 0 && wantUndo {
				edits, undo = undo[len(undo)-1], undo[:len(undo)-1]
			} else {
				ms := f.Methods()
				cur := src
				var inverse []Edit
				for range 1 + r.IntN(2) {
					e := differentialEdit(r, cur, ms)
					ms = nil // their offsets are those of the text before e
					edits = append(edits, e)
					inverse = append([]Edit{{StartByte: e.StartByte, OldEndByte: e.StartByte + len(e.NewText),
						NewText: slices.Clone(cur[e.StartByte:e.OldEndByte])}}, inverse...)
					cur = slices.Concat(cur[:e.StartByte], e.NewText, cur[e.OldEndByte:])
				}
				undo = append(undo, inverse)
			}
			if err := f.ApplyEdits(edits...); err != nil {
				t.Fatalf("%s step %d: %v", in.name, step, err)
			}
			// Sometimes edit again before anything asks: the next index
			// then builds on an older version's records.
			if r.IntN(4) == 0 {
				wantUndo = r.IntN(2) == 0
				continue
			}
			checked++
			what := fmt.Sprintf("%s step %d (edits %s)", in.name, step, describeEdits(edits))
			s := f.cur.Load()
			// First the lookups that come before the index (lazy.go).
			text := f.Source()
			offs := interestingOffsets(text, prevMethods) // near enough
			for _, e := range edits {
				offs = append(offs, e.StartByte-1, e.StartByte, e.StartByte+len(e.NewText), e.StartByte+len(e.NewText)+1)
			}
			for range 100 {
				offs = append(offs, r.IntN(len(text)+3)-1)
			}
			lazyAt := make([]*Method, len(offs))
			for i, off := range offs {
				lazyAt[i] = f.MethodAt(off)
			}
			nlines := f.Lines().LineCount()
			lineNos := []int{-1, 0, 1, nlines, nlines + 1}
			for range 100 {
				lineNos = append(lineNos, 1+r.IntN(nlines))
			}
			lazyLine := make([]*Method, len(lineNos))
			for i, l := range lineNos {
				lazyLine[i] = f.MethodAtLine(l)
			}
			if s.index.Load() == nil && len(s.lazy) > 0 {
				lazyUsed++
			}
			inc := s.getIndex()
			if inc.replayed > 0 {
				reused++
			}
			// A broken text is mostly repaired by the next step, so that
			// most versions are error-free, as while typing.
			if len(inc.errors) > 0 {
				wantUndo = r.IntN(5) > 0
			} else {
				wantUndo = r.IntN(4) == 0
			}
			ref := freshIndex(f)
			if a, b := describeIndex(inc), describeIndex(ref); !slices.Equal(a, b) {
				t.Fatalf("%s: incremental index differs from a full walk of the same tree:\n%s", what, diffLines(a, b))
			}
			methods := f.Methods()
			prevMethods = methods
			for i, off := range offs {
				want := innermost(ref.methods, func(m *Method) bool { return m.StartByte <= off && off <= m.EndByte })
				checkLazy(t, fmt.Sprintf("%s: MethodAt(%d) before the index", what, off), lazyAt[i], want, methods)
			}
			for i, l := range lineNos {
				want := innermost(ref.methods, func(m *Method) bool { return m.StartLine <= l && l <= m.EndLine })
				checkLazy(t, fmt.Sprintf("%s: MethodAtLine(%d) before the index", what, l), lazyLine[i], want, methods)
			}
			fresh, err := Parse(text)
			if err != nil {
				t.Fatal(err)
			}
			if sexp(f) != sexp(fresh) {
				if len(fresh.SyntaxErrors()) == 0 {
					t.Fatalf("%s: error-free text, but the incremental tree differs from a fresh parse", what)
				}
				continue
			}
			sameTree++
			if len(inc.errors) == 0 {
				errorFree++
				if inc.replayed > 0 {
					errorFreeReused++
				}
			}
			compareFiles(t, what, f, fresh, r)
		}
	}
	t.Logf("%d versions checked, %d compared with a fresh parse, %d built on records; %d error-free, %d of them built on records; %d answered before the index",
		checked, sameTree, reused, errorFree, errorFreeReused, lazyUsed)
	if sameTree < checked/3 || reused < checked/4 || lazyUsed < errorFree/2 {
		t.Errorf("only %d of %d versions compared with a fresh parse, %d built on records", sameTree, checked, reused)
	}
}

// compareFiles checks that got answers every method question as want does.
func compareFiles(t *testing.T, what string, got, want *File, r *rand.Rand) {
	t.Helper()
	// want has no index yet: its lookups go the lazy way.
	src := got.Source()
	gm := got.Methods()
	offs := interestingOffsets(src, gm)
	if len(offs) > 600 {
		r.Shuffle(len(offs), func(i, j int) { offs[i], offs[j] = offs[j], offs[i] })
		offs = offs[:600]
	}
	for range 200 {
		offs = append(offs, r.IntN(len(src)+3)-1)
	}
	for _, off := range offs {
		if !sameExported(got.MethodAt(off), want.MethodAt(off)) {
			t.Fatalf("%s: MethodAt(%d):\n%s\n%s", what, off, describeMethod(got.MethodAt(off)), describeMethod(want.MethodAt(off)))
		}
	}
	lines := got.Lines().LineCount()
	for l := range lines + 2 {
		if l > 300 && r.IntN(10) > 0 {
			continue
		}
		if !sameExported(got.MethodAtLine(l), want.MethodAtLine(l)) {
			t.Fatalf("%s: MethodAtLine(%d):\n%s\n%s", what, l, describeMethod(got.MethodAtLine(l)), describeMethod(want.MethodAtLine(l)))
		}
	}
	wm := want.Methods()
	if a, b := describeMethods(gm), describeMethods(wm); !slices.Equal(a, b) {
		t.Fatalf("%s: Methods differ:\n%s", what, diffLines(a, b))
	}
	for i := range gm {
		if len(gm) > 60 && r.IntN(len(gm)/30) > 0 {
			continue // a sample of the big files' methods
		}
		if a, b := fmt.Sprintf("%+v", got.Context(gm[i])), fmt.Sprintf("%+v", want.Context(wm[i])); a != b {
			t.Fatalf("%s: Context(%s) differs:\n%s\n%s", what, gm[i].Name, a, b)
		}
	}
	// And now that want has an index, the same from both indexes.
	for _, off := range offs {
		if a, b := describeMethod(got.MethodAt(off)), describeMethod(want.MethodAt(off)); a != b {
			t.Fatalf("%s: MethodAt(%d) from the indexes:\n%s\n%s", what, off, a, b)
		}
	}
}

// sameExported says whether a and b are both nil or equal in every exported
// field.
func sameExported(a, b *Method) bool {
	if a == nil || b == nil {
		return a == b
	}
	return slices.Equal(describeMethods([]*Method{a}), describeMethods([]*Method{b}))
}

// checkLazy checks a Method the lazy path returned against the index's
// answer: equal fields, and the very Method the index then holds.
func checkLazy(t *testing.T, what string, got, want *Method, methods []*Method) {
	t.Helper()
	if !sameExported(got, want) {
		t.Fatalf("%s:\n%s\n%s", what, describeMethod(got), describeMethod(want))
	}
	if got != nil && !slices.Contains(methods, got) {
		t.Fatalf("%s: the Method handed out is not the one Methods() holds", what)
	}
}

// diffLines shows the first lines where a and b differ.
func diffLines(a, b []string) string {
	var out []string
	for i := 0; i < max(len(a), len(b)) && len(out) < 12; i++ {
		var x, y string
		if i < len(a) {
			x = a[i]
		}
		if i < len(b) {
			y = b[i]
		}
		if x != y {
			out = append(out, fmt.Sprintf("%d:\n  got  %s\n  want %s", i, x, y))
		}
	}
	return fmt.Sprintf("%d vs %d lines\n%s", len(a), len(b), strings.Join(out, "\n"))
}

func describeEdits(edits []Edit) string {
	var out []string
	for _, e := range edits {
		out = append(out, fmt.Sprintf("[%d,%d)→%q", e.StartByte, e.OldEndByte, e.NewText))
	}
	return strings.Join(out, " ")
}

// TestEditedLineMap checks the line map moved through random edits (many of
// them around \r, \n and \r\n) against one built from the text.
func TestEditedLineMap(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 11))
	pieces := []string{"\r", "\n", "\r\n", "\n\r", "a", "é", "𝄞", "\r\r", "\n\n", ""}
	for round := range 300 {
		var text []byte
		for range r.IntN(30) {
			text = append(text, pieces[r.IntN(len(pieces))]...)
		}
		m := NewLineMap(text)
		for step := range 20 {
			start := r.IntN(len(text) + 1)
			oldEnd := min(len(text), start+r.IntN(4))
			var ins []byte
			for range r.IntN(3) {
				ins = append(ins, pieces[r.IntN(len(pieces))]...)
			}
			next := slices.Concat(text[:start], ins, text[oldEnd:])
			got := m.edited(next, start, oldEnd, start+len(ins))
			want := NewLineMap(next)
			if !slices.Equal(got.starts, want.starts) || !slices.Equal(got.ends, want.ends) || !bytes.Equal(got.src, next) {
				t.Fatalf("round %d step %d: %q with [%d,%d)→%q: starts %v ends %v, want %v %v",
					round, step, text, start, oldEnd, ins, got.starts, got.ends, want.starts, want.ends)
			}
			text, m = next, got
		}
	}
	// Through File: the lines of an edited File are those of its text.
	f, _ := parseCorpus(t, "Crlf.java")
	f.Lines()
	for range 200 {
		src := f.Source()
		e := randomEdit(r, src)
		if err := f.ApplyEdits(e); err != nil {
			t.Fatal(err)
		}
		got, want := f.Lines(), NewLineMap(f.Source())
		if !slices.Equal(got.starts, want.starts) || !slices.Equal(got.ends, want.ends) {
			t.Fatalf("after %s: line map differs", describeEdits([]Edit{e}))
		}
	}
}

// oneClassJava is a file of about lines lines holding one class of ten-line
// methods, as most big Java files are (and as the server's benchmark has it).
func oneClassJava(lines int) []byte {
	var b strings.Builder
	b.WriteString("package org.acme.big;\n\nimport java.util.List;\n\npublic class Big {\n    private int count;\n\n")
	for i := 0; 7+10*(i+1)+1 <= lines; i++ {
		fmt.Fprintf(&b, "    /** Method %d. */\n    public int m%d(int a, int b) {\n        int s = a;\n", i, i)
		b.WriteString("        for (int k = 0; k < b; k++) {\n            s += k * 3 - 1;\n        }\n")
		b.WriteString("        if (s > 100) {\n            return s - 100;\n        }\n    }\n")
	}
	b.WriteString("}\n")
	return []byte(b.String())
}

// BenchmarkEditAndMethodAtOneClass5000 is a keystroke in a 5,000-line file of
// one class: the edit, the re-parse and MethodAt.
func BenchmarkEditAndMethodAtOneClass5000(b *testing.B) {
	src := oneClassJava(5000)
	f, err := Parse(src)
	if err != nil {
		b.Fatal(err)
	}
	f.Methods()
	off := bytes.Index(src, []byte("m250(")) + bytes.Index(src[bytes.Index(src, []byte("m250(")):], []byte("int s = a")) + len("int s = a")
	i := 0
	for b.Loop() {
		e := Edit{StartByte: off, OldEndByte: off, NewText: []byte("1")}
		if i%2 == 1 {
			e = Edit{StartByte: off, OldEndByte: off + 1}
		}
		i++
		if err := f.ApplyEdits(e); err != nil {
			b.Fatal(err)
		}
		if m := f.MethodAt(off); m == nil || m.Name != "m250" {
			b.Fatalf("MethodAt = %v", m)
		}
	}
}
