package javaparse

import (
	"fmt"
	"strings"
	"testing"
)

// generateJava writes a compilation unit of about lines lines: top-level
// classes with fields, constructors, methods with loops and lambdas, nested
// and anonymous classes.
func generateJava(lines int) []byte {
	var b strings.Builder
	b.WriteString("package org.bench;\n\nimport java.util.*;\nimport java.util.function.*;\n\n")
	for c := 0; strings.Count(b.String(), "\n") < lines; c++ {
		fmt.Fprintf(&b, "public class Gen%d {\n    private int state%d = %d;\n    private final List<String> names = new ArrayList<>();\n\n", c, c, c)
		fmt.Fprintf(&b, "    public Gen%d(int s) {\n        this.state%d = s;\n    }\n\n", c, c)
		for m := 0; m < 8; m++ {
			fmt.Fprintf(&b, "    /** Method %d of class %d. */\n    @SuppressWarnings(\"unused\")\n", m, c)
			fmt.Fprintf(&b, "    public int compute%d(int x, int y, List<Integer> values) {\n", m)
			b.WriteString("        int total = 0;\n")
			b.WriteString("        for (int i = 0; i < values.size(); i++) {\n")
			b.WriteString("            if (values.get(i) > x && values.get(i) < y) {\n")
			b.WriteString("                total += values.get(i) * 2 - 1;\n")
			b.WriteString("            } else {\n                total -= Math.max(x, y);\n            }\n        }\n")
			b.WriteString("        Function<Integer, Integer> f = v -> v + total;\n")
			b.WriteString("        Runnable r = new Runnable() {\n            @Override\n            public void run() {\n                names.add(\"ran\");\n            }\n        };\n")
			b.WriteString("        r.run();\n        return f.apply(total);\n    }\n\n")
		}
		fmt.Fprintf(&b, "    static class Helper%d {\n        static String name(int i) {\n            return \"h\" + i;\n        }\n    }\n}\n\n", c)
	}
	return []byte(b.String())
}

func BenchmarkParse5000(b *testing.B) {
	src := generateJava(5000)
	b.SetBytes(int64(len(src)))
	for b.Loop() {
		if _, err := Parse(src); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkParseAndIndex5000 is a full parse plus the first Methods call
// (the declaration index).
func BenchmarkParseAndIndex5000(b *testing.B) {
	src := generateJava(5000)
	for b.Loop() {
		f, err := Parse(src)
		if err != nil {
			b.Fatal(err)
		}
		_ = f.Methods()
	}
}

func BenchmarkMethodAt5000(b *testing.B) {
	src := generateJava(5000)
	f, err := Parse(src)
	if err != nil {
		b.Fatal(err)
	}
	off := strings.Index(string(src), "names.add") + len(src)/2
	f.MethodAt(0)
	for b.Loop() {
		if f.MethodAt(off) == nil {
			b.Fatal("no method")
		}
	}
}

// BenchmarkEditAndMethodAt5000 is what a keystroke costs: a one-character
// edit, the incremental re-parse, a new declaration index and MethodAt.
func BenchmarkEditAndMethodAt5000(b *testing.B) {
	src := generateJava(5000)
	f, err := Parse(src)
	if err != nil {
		b.Fatal(err)
	}
	off := strings.LastIndex(string(src[:len(src)/2]), "total += ") + len("total += ")
	i := 0
	for b.Loop() {
		// Alternate inserting and deleting a digit so the text stays valid
		// and the same size.
		e := Edit{StartByte: off, OldEndByte: off, NewText: []byte("1")}
		if i%2 == 1 {
			e = Edit{StartByte: off, OldEndByte: off + 1}
		}
		i++
		if err := f.ApplyEdits(e); err != nil {
			b.Fatal(err)
		}
		if f.MethodAt(off) == nil {
			b.Fatal("no method")
		}
	}
}

// BenchmarkEdit5000 is the edit and re-parse alone (what didChange costs
// before anything asks for methods).
func BenchmarkEdit5000(b *testing.B) {
	src := generateJava(5000)
	f, err := Parse(src)
	if err != nil {
		b.Fatal(err)
	}
	off := strings.LastIndex(string(src[:len(src)/2]), "total += ") + len("total += ")
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
	}
}

func TestGeneratedJavaParses(t *testing.T) {
	f, err := Parse(generateJava(5000))
	if err != nil {
		t.Fatal(err)
	}
	if errs := f.SyntaxErrors(); len(errs) != 0 {
		t.Fatalf("generated file has errors: %v", errs[:min(3, len(errs))])
	}
	if n := len(f.Methods()); n < 400 {
		t.Errorf("%d methods", n)
	}
}
