package javaparse

import (
	"strings"
	"testing"
	"unicode/utf16"
	"unicode/utf8"
)

func TestLineMapBreaks(t *testing.T) {
	tests := []struct {
		name  string
		src   string
		lines []string
	}{
		{"empty", "", []string{""}},
		{"lf", "a\nbc\n", []string{"a", "bc", ""}},
		{"crlf", "a\r\nbc\r\nd", []string{"a", "bc", "d"}},
		{"lone cr", "a\rb\r\rc", []string{"a", "b", "", "c"}},
		{"mixed", "a\r\n\n\rb\n\r", []string{"a", "", "", "b", "", ""}},
		{"cr at end", "x\r", []string{"x", ""}},
	}
	for _, tt := range tests {
		m := NewLineMap([]byte(tt.src))
		if m.LineCount() != len(tt.lines) {
			t.Errorf("%s: LineCount = %d, want %d", tt.name, m.LineCount(), len(tt.lines))
			continue
		}
		for i, want := range tt.lines {
			if got := m.LineText(i + 1); got != want {
				t.Errorf("%s: LineText(%d) = %q, want %q", tt.name, i+1, got, want)
			}
		}
		if m.LineText(0) != "" || m.LineText(len(tt.lines)+1) != "" {
			t.Errorf("%s: LineText out of range is not empty", tt.name)
		}
	}
}

func TestLineMapUTF16(t *testing.T) {
	// 𝄞 is U+1D11E: 4 bytes in UTF-8, 2 UTF-16 units. é is 2 bytes, 1 unit.
	src := "aé𝄞b\r\n𝄞𝄞\rend"
	m := NewLineMap([]byte(src))
	tests := []struct {
		line, col, offset int
	}{
		{0, 0, 0},
		{0, 1, 1},  // before é
		{0, 2, 3},  // before 𝄞
		{0, 4, 7},  // after 𝄞
		{0, 5, 8},  // end of line 0 (before \r\n)
		{1, 0, 10}, // after \r\n
		{1, 2, 14},
		{1, 4, 18}, // end of line 1 (before \r)
		{2, 0, 19},
		{2, 3, 22},
	}
	for _, tt := range tests {
		off, err := m.Offset(tt.line, tt.col)
		if err != nil || off != tt.offset {
			t.Errorf("Offset(%d,%d) = %d, %v; want %d", tt.line, tt.col, off, err, tt.offset)
		}
		l, c := m.Position(tt.offset)
		if l != tt.line || c != tt.col {
			t.Errorf("Position(%d) = %d,%d; want %d,%d", tt.offset, l, c, tt.line, tt.col)
		}
	}
	// A column inside the surrogate pair maps to the start of the character.
	if off, _ := m.Offset(0, 3); off != 3 {
		t.Errorf("Offset inside a surrogate pair = %d, want 3", off)
	}
	// Past the end of the line clamps to the line's end.
	if off, err := m.Offset(0, 99); err != nil || off != 8 {
		t.Errorf("Offset(0,99) = %d, %v; want 8", off, err)
	}
	if off, err := m.Offset(2, 99); err != nil || off != len(src) {
		t.Errorf("Offset(2,99) = %d, %v; want %d", off, err, len(src))
	}
	// A line past the end is an error, except (LineCount, 0).
	if _, err := m.Offset(4, 0); err == nil {
		t.Error("Offset(4,0) gave no error")
	}
	if _, err := m.Offset(3, 1); err == nil {
		t.Error("Offset(3,1) gave no error")
	}
	if off, err := m.Offset(3, 0); err != nil || off != len(src) {
		t.Errorf("Offset(LineCount,0) = %d, %v", off, err)
	}
	if _, err := m.Offset(-1, 0); err == nil {
		t.Error("Offset(-1,0) gave no error")
	}
	// Offsets inside a character or a \r\n pair, and outside the text.
	if l, c := m.Position(2); l != 0 || c != 1 {
		t.Errorf("Position inside é = %d,%d", l, c)
	}
	if l, c := m.Position(9); l != 0 || c != 5 {
		t.Errorf("Position between \\r and \\n = %d,%d", l, c)
	}
	if l, c := m.Position(-5); l != 0 || c != 0 {
		t.Errorf("Position(-5) = %d,%d", l, c)
	}
	if l, c := m.Position(1000); l != 2 || c != 3 {
		t.Errorf("Position(1000) = %d,%d", l, c)
	}
	if m.Line(19) != 3 || m.Column(21) != 3 || m.LineStart(2) != 10 || m.LineEnd(2) != 18 {
		t.Errorf("Line/Column/LineStart/LineEnd wrong: %d %d %d %d", m.Line(19), m.Column(21), m.LineStart(2), m.LineEnd(2))
	}
}

// TestLineMapAgainstUTF16 checks every offset of a mixed text against an
// independent computation with unicode/utf16.
func TestLineMapAgainstUTF16(t *testing.T) {
	src := "class Ü {\r\n  String s = \"𝄞é\";\r  int x;\n}\n😀\r\n"
	m := NewLineMap([]byte(src))
	line, lineStart := 0, 0
	for off := 0; off <= len(src); {
		wantCol := len(utf16.Encode([]rune(src[lineStart:off])))
		l, c := m.Position(off)
		if l != line || c != wantCol {
			t.Fatalf("Position(%d) = %d,%d; want %d,%d", off, l, c, line, wantCol)
		}
		if got, err := m.Offset(l, c); err != nil || got != off {
			t.Fatalf("Offset(%d,%d) = %d, %v; want %d", l, c, got, err, off)
		}
		if off == len(src) {
			break
		}
		switch src[off] {
		case '\r':
			if strings.HasPrefix(src[off:], "\r\n") {
				off++
			}
			off++
			line++
			lineStart = off
		case '\n':
			off++
			line++
			lineStart = off
		default:
			_, size := utf8.DecodeRuneInString(src[off:])
			off += size
		}
	}
}

func TestFileLinesCRLF(t *testing.T) {
	f, src := parseCorpus(t, "Crlf.java")
	if !strings.Contains(string(src), "\r\n") {
		t.Fatal("Crlf.java lost its CRLF line breaks (check testdata/.gitattributes)")
	}
	lines := f.Lines()
	if lines.LineCount() != 13 || lines.LineText(9) != "    public int second(int b) {" {
		t.Errorf("LineCount %d, line 9 %q", lines.LineCount(), lines.LineText(9))
	}
	m := f.FindMethods("second")[0]
	if l, c := lines.Position(m.StartByte); l != 7 || c != 4 {
		t.Errorf("second starts at %d:%d, want 7:4", l, c)
	}
	off, err := lines.Offset(9, 8)
	if err != nil || f.MethodAt(off) != m {
		t.Errorf("MethodAt(Offset(9,8)) is not second")
	}
	// The same file with lone \r line breaks has the same lines and methods.
	cr, err := Parse([]byte(strings.ReplaceAll(string(src), "\r\n", "\r")))
	if err != nil {
		t.Fatal(err)
	}
	if got := methodIDs(cr.Methods()); len(got) != 2 || got[1] != "org.acme.crlf.Crlf#second:8-11" {
		t.Errorf("lone-CR methods = %v", got)
	}
}
