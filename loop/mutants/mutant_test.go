package mutants

import (
	"strings"
	"testing"
)

func TestApply(t *testing.T) {
	tests := []struct {
		name, src string
		m         Mutant
		want      string
		wantErr   string
	}{
		{"lf", "a\n  x < y;\nb\n", Mutant{Line: 2, Original: "  x < y;", Mutated: "  x <= y;"}, "a\n  x <= y;\nb\n", ""},
		{"crlf", "a\r\n  x < y;\r\nb\r\n", Mutant{Line: 2, Original: "  x < y;", Mutated: "  x <= y;"}, "a\r\n  x <= y;\r\nb\r\n", ""},
		{"lone cr", "a\r  x < y;\rb", Mutant{Line: 2, Original: "  x < y;", Mutated: "  x <= y;"}, "a\r  x <= y;\rb", ""},
		{"last line without terminator", "a\nx < y;", Mutant{Line: 2, Original: "x < y;", Mutated: "x > y;"}, "a\nx > y;", ""},
		{"first line", "x < y;\nb\n", Mutant{Line: 1, Original: "x < y;", Mutated: ""}, "\nb\n", ""},
		{"stale", "a\n  x < y;\n", Mutant{Line: 1, Original: "  x < y;", Mutated: "  x <= y;"}, "", "not the mutant's original"},
		{"out of range", "a\n", Mutant{Line: 5, Original: "a", Mutated: "b"}, "", "outside"},
		{"two lines", "a\n", Mutant{Line: 1, Original: "a", Mutated: "b\nc"}, "", "more than one line"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Apply([]byte(tt.src), tt.m)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err = %v, want one containing %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}

func TestRelocate(t *testing.T) {
	m := Mutant{ID: "m1", Line: 3, Original: "    x < y;", Mutated: "    x <= y;"}
	tests := []struct {
		name, src     string
		start, end    int
		ok            bool
		line          int
		orig, mutated string
	}{
		{"same place", "a\nb\n    x < y;\n", 1, 3, true, 3, "    x < y;", "    x <= y;"},
		{"shifted down", "a\nb\nc\nd\n    x < y;\n", 1, 5, true, 5, "    x < y;", "    x <= y;"},
		{"nearest of two", "    x < y;\nb\nc\n    x < y;\n", 1, 4, true, 4, "    x < y;", "    x <= y;"},
		{"exact text beats a re-indented nearer line", "a\nb\n\tx < y;\n\n\n    x < y;\n", 1, 6, true, 6, "    x < y;", "    x <= y;"},
		{"re-indented", "a\r\n\t\tx < y;\r\n", 1, 2, true, 2, "\t\tx < y;", "\t\tx <= y;"},
		{"outside the range", "    x < y;\nb\n", 2, 2, false, 0, "", ""},
		{"gone", "a\nx <= y;\n", 1, 2, false, 0, "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := Relocate([]byte(tt.src), m, tt.start, tt.end)
			if ok != tt.ok {
				t.Fatalf("ok = %v, want %v", ok, tt.ok)
			}
			if !ok {
				return
			}
			if got.Line != tt.line || got.Original != tt.orig || got.Mutated != tt.mutated || got.ID != m.ID {
				t.Errorf("got %+v, want line %d %q → %q", got, tt.line, tt.orig, tt.mutated)
			}
			if _, err := Apply([]byte(tt.src), got); err != nil {
				t.Errorf("relocated mutant does not apply: %v", err)
			}
		})
	}
}
