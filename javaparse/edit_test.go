package javaparse

import (
	"bytes"
	"math/rand/v2"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"

	sitter "github.com/smacker/go-tree-sitter"
)

func sexp(f *File) string {
	var s string
	f.WithTree(func(root *sitter.Node, _ []byte) { s = root.String() })
	return s
}

// describeMethods spells everything a Method carries except the class pointer.
func describeMethods(ms []*Method) []string {
	var out []string
	for _, m := range ms {
		c := *m
		c.class = nil
		out = append(out, strings.ReplaceAll(strings.TrimSpace(strings.Join([]string{
			c.BinaryClassName, c.TopLevelClass, c.Name, c.Kind.String(), c.Signature, c.ReturnType,
			strings.Join(c.Modifiers, " "), strings.Join(c.ClassPath, "$"),
			itoa(c.StartByte), itoa(c.EndByte), itoa(c.NameStartByte), itoa(c.NameEndByte), itoa(c.BodyStartByte),
			itoa(c.StartLine), itoa(c.EndLine),
		}, "|")), "\n", " "))
		for _, p := range c.Params {
			out[len(out)-1] += "|" + p.Type + " " + p.Name
		}
	}
	return out
}

func TestApplyEditsInsertMethod(t *testing.T) {
	f, src := parseCorpus(t, "Calculator.java")
	before := len(f.Methods())
	at := bytes.Index(src, []byte("    @Override"))
	added := []byte("    /** New. */\n    @Test\n    public int added(int q) {\n        return q;\n    }\n\n")
	if err := f.ApplyEdits(Edit{StartByte: at, OldEndByte: at, NewText: added}); err != nil {
		t.Fatal(err)
	}
	ms := f.FindMethods("added(int)")
	if len(ms) != 1 || len(f.Methods()) != before+1 {
		t.Fatalf("after insert: %v", methodIDs(f.Methods()))
	}
	m := ms[0]
	if m.StartLine != 61 || m.EndLine != 64 || m.Signature != "public int added(int q)" || m.StartByte != at+len("    /** New. */\n    ") {
		t.Errorf("inserted method = %+v", m)
	}
	if got := f.MethodAt(at + len(added) - 10); got != m {
		t.Errorf("MethodAt in the new method = %v", got)
	}
	// The method after it moved by the inserted lines.
	if c := f.FindMethods("compareTo")[0]; c.StartLine != 60+6 {
		t.Errorf("compareTo now starts at %d", c.StartLine)
	}
	if !bytes.Equal(f.Source(), append(append(slices.Clone(src[:at]), added...), src[at:]...)) {
		t.Error("Source() is not the edited text")
	}
	// Several edits at once apply in order, each against the previous result.
	if err := f.ApplyEdits(
		Edit{StartByte: 0, OldEndByte: 0, NewText: []byte("// one\n")},
		Edit{StartByte: 0, OldEndByte: len("// one\n"), NewText: []byte("// two\n// lines\n")},
	); err != nil {
		t.Fatal(err)
	}
	if got := f.FindMethods("added")[0].StartLine; got != 63 {
		t.Errorf("after two edits added starts at %d, want 63", got)
	}
	// An out-of-range edit changes nothing.
	text := f.Source()
	if err := f.ApplyEdits(Edit{StartByte: 0, OldEndByte: 1, NewText: []byte("x")}, Edit{StartByte: 5, OldEndByte: 1 << 30}); err == nil {
		t.Error("out-of-range edit gave no error")
	}
	if !bytes.Equal(f.Source(), text) {
		t.Error("a failed ApplyEdits changed the text")
	}
}

// fragments are what random edits insert: Java tokens, line breaks of every
// kind, and characters outside the BMP.
var fragments = []string{
	"{", "}", "(", ")", ";", "\n", "\r\n", "\r", " ", "class X ", "void m() { }", "int ",
	"new Object() { void a() {} }", "return 1;", "@A ", "\"𝄞\"", "é", "/*", "*/", "//", "enum E { A { void e(){} } }",
	"record R(int a) { R { } }", "interface I { default void d() {} }", "x", "=", "+", "<T>", "...",
}

func randomEdit(r *rand.Rand, src []byte) Edit {
	start := r.IntN(len(src) + 1)
	end := min(len(src), start+r.IntN(12))
	if r.IntN(3) == 0 {
		end = start
	}
	var text []byte
	for range r.IntN(3) {
		text = append(text, fragments[r.IntN(len(fragments))]...)
	}
	return Edit{StartByte: start, OldEndByte: end, NewText: text}
}

// TestIncrementalMatchesFullParse applies random edits and compares the
// incrementally re-parsed tree and methods with a fresh parse of the same text.
// Tree-sitter's error recovery may build a different tree for a broken text
// depending on which old nodes it reuses, so the trees must be equal only where
// the text parses without errors; a step that breaks the text is reverted four
// times out of five, which brings back the error-free text before it.
func TestIncrementalMatchesFullParse(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	compared := 0
	for _, name := range []string{"Calculator.java", "Shapes.java", "Types.java", "Unicode.java", "Crlf.java", "Broken.java", "Nesting.java"} {
		f, _ := parseCorpus(t, name)
		check := func(step int, what string, edits []Edit, want []byte) (broken bool) {
			t.Helper()
			if !bytes.Equal(f.Source(), want) {
				t.Fatalf("%s step %d (%s): Source() differs from the expected text", name, step, what)
			}
			fresh, err := Parse(want)
			if err != nil {
				t.Fatal(err)
			}
			// The walk that builds the index must agree with the query even
			// on broken text (its error subtrees go to the query).
			compareWithQuery(t, name+" step "+itoa(step)+" "+what, f)
			if len(fresh.SyntaxErrors()) > 0 {
				return true
			}
			compared++
			if a, b := sexp(f), sexp(fresh); a != b {
				t.Fatalf("%s step %d (%s): incremental tree differs from a fresh parse\nedits %+v\nincremental %s\nfresh       %s", name, step, what, edits, a, b)
			}
			if a, b := describeMethods(f.Methods()), describeMethods(fresh.Methods()); !slices.Equal(a, b) {
				t.Fatalf("%s step %d (%s): methods differ\n%s\n---\n%s", name, step, what, strings.Join(a, "\n"), strings.Join(b, "\n"))
			}
			return false
		}
		good := f.Source() // the last error-free text
		for step := range 60 {
			orig := f.Source()
			cur := orig
			var edits, inverse []Edit
			for range 1 + r.IntN(2) {
				e := randomEdit(r, cur)
				edits = append(edits, e)
				inverse = append([]Edit{{StartByte: e.StartByte, OldEndByte: e.StartByte + len(e.NewText),
					NewText: slices.Clone(cur[e.StartByte:e.OldEndByte])}}, inverse...)
				cur = slices.Concat(cur[:e.StartByte], e.NewText, cur[e.OldEndByte:])
			}
			if err := f.ApplyEdits(edits...); err != nil {
				t.Fatalf("%s step %d: %v", name, step, err)
			}
			broken := check(step, "edit", edits, cur)
			if broken && r.IntN(5) > 0 {
				if err := f.ApplyEdits(inverse...); err != nil {
					t.Fatalf("%s step %d: revert: %v", name, step, err)
				}
				broken = check(step, "revert", inverse, orig)
			}
			if broken && r.IntN(3) == 0 {
				whole := []Edit{{StartByte: 0, OldEndByte: len(f.Source()), NewText: good}}
				if err := f.ApplyEdits(whole...); err != nil {
					t.Fatal(err)
				}
				broken = check(step, "reset", whole, good)
			}
			if !broken {
				good = f.Source()
			}
		}
	}
	t.Logf("%d error-free steps compared", compared)
	if compared < 50 {
		t.Errorf("only %d error-free steps compared", compared)
	}
}

func TestCloneIsIndependent(t *testing.T) {
	f, src := parseCorpus(t, "Shapes.java")
	f.Methods() // the index is shared by the clone
	c := f.Clone()
	if err := c.ApplyEdits(Edit{StartByte: 0, OldEndByte: len(src), NewText: []byte("class Z { void z() {} }")}); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(f.Source(), src) || len(f.Methods()) != 18 {
		t.Errorf("editing the clone changed the original: %d methods", len(f.Methods()))
	}
	if got := methodIDs(c.Methods()); !slices.Equal(got, []string{"Z#z:1-1"}) {
		t.Errorf("clone methods = %v", got)
	}
	if err := f.ApplyEdits(Edit{StartByte: 0, OldEndByte: 0, NewText: []byte("\n")}); err != nil {
		t.Fatal(err)
	}
	if string(c.Source()) != "class Z { void z() {} }" {
		t.Error("editing the original changed the clone")
	}
}

// TestConcurrentUse runs readers, tree walks and edits at once; run it with
// -race to see the locking hold.
func TestConcurrentUse(t *testing.T) {
	f, src := parseCorpus(t, "Shapes.java")
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 50 {
				switch g {
				case 0:
					if err := f.ApplyEdits(Edit{StartByte: 0, OldEndByte: 0, NewText: []byte(" ")}); err != nil {
						t.Error(err)
						return
					}
				case 1:
					f.WithTree(func(root *sitter.Node, _ []byte) {
						_ = root.String()
						_ = f.Methods() // allowed inside WithTree
					})
				case 2:
					if m := f.MethodAt(i * len(src) / 50); m != nil {
						_ = f.Context(m)
					}
				case 3:
					c := f.Clone()
					_ = c.FindMethods("toString")
					_ = c.SyntaxErrors()
					_ = sexp(c)
				}
			}
		}()
	}
	wg.Wait()
	if got := len(f.Methods()); got != 18 {
		t.Errorf("%d methods after concurrent edits", got)
	}
}

// TestApplyEditsUnderGC re-parses while the collector runs all the time: the
// old tree must stay alive through each incremental parse (a finalizer that
// frees it mid-parse crashes the process).
func TestApplyEditsUnderGC(t *testing.T) {
	src := generateJava(2000)
	f, err := Parse(src)
	if err != nil {
		t.Fatal(err)
	}
	stop := make(chan struct{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		for {
			select {
			case <-stop:
				return
			default:
				runtime.GC()
			}
		}
	}()
	off := bytes.Index(src, []byte("total += ")) + len("total += ")
	for i := range 1000 {
		e := Edit{StartByte: off, OldEndByte: off, NewText: []byte("1")}
		if i%2 == 1 {
			e = Edit{StartByte: off, OldEndByte: off + 1}
		}
		if err := f.ApplyEdits(e); err != nil {
			t.Fatal(err)
		}
	}
	close(stop)
	<-done
	if !bytes.Equal(f.Source(), src) {
		t.Error("text changed after an even number of toggling edits")
	}
}
