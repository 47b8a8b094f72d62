package mutants

import (
	"bytes"
	"reflect"
	"strings"
	"testing"
)

func TestSelect(t *testing.T) {
	all := Selection{}.Names()
	var defaults, strongs []string
	for _, op := range Operators() {
		if op.Group == GroupDefault {
			defaults = append(defaults, op.Name())
		} else {
			strongs = append(strongs, op.Name())
		}
	}
	for _, tc := range []struct {
		names []string
		want  []string
	}{
		{[]string{"default"}, defaults},
		{[]string{"strong"}, strongs},
		{bothGroups, all},
		{[]string{"default", "BND"}, append(append([]string{}, defaults...), "BND/strong")},
		{[]string{"ROR", "AOR"}, []string{"ROR/default", "AOR/default", "ROR/strong", "AOR/strong"}},
		{[]string{"ROR/strong"}, []string{"ROR/strong"}},
		// Case and spaces do not matter; a code takes both its records; repeats are one.
		{[]string{" ror ", "Default", "MATH"}, append(append([]string{}, defaults...), "ROR/strong")},
	} {
		s, err := Select(tc.names)
		if err != nil {
			t.Errorf("Select(%q): %v", tc.names, err)
			continue
		}
		if got := s.Names(); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("Select(%q) = %q, want %q", tc.names, got, tc.want)
		}
	}
	if len(all) != len(registry) {
		t.Errorf("the zero Selection holds %d operators, the registry %d", len(all), len(registry))
	}
}

func TestSelectErrors(t *testing.T) {
	for _, tc := range []struct {
		names []string
		want  string
	}{
		{[]string{"default", "NEGATE_CONDITIONALS"}, `unknown mutation operator "NEGATE_CONDITIONALS"`},
		{[]string{"ROR/weak"}, `unknown mutation operator "ROR/weak"`},
		{[]string{""}, `unknown mutation operator ""`},
		{nil, "no mutation operator selected"},
	} {
		_, err := Select(tc.names)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Select(%q): %v, want an error with %q", tc.names, err, tc.want)
			continue
		}
		// The error lists what is valid.
		for _, valid := range []string{"default", "strong", "ROR", "AOR", "NEG", "LCR", "RET", "MATH", "VCR", "BND", "INC", "CDR", "ROR/strong"} {
			if !strings.Contains(err.Error(), valid) {
				t.Errorf("Select(%q): %q does not list %s", tc.names, err, valid)
			}
		}
	}
}

func TestSelectionHas(t *testing.T) {
	if s := MustSelect("strong"); s.Has(GroupDefault) || !s.Has(GroupStrong) {
		t.Errorf("strong: Has(default) %v, Has(strong) %v", s.Has(GroupDefault), s.Has(GroupStrong))
	}
	if s := (Selection{}); !s.Has(GroupDefault) || !s.Has(GroupStrong) {
		t.Error("the zero Selection lacks a group")
	}
}

// TestSelectionRestrictsGenerate: only the selected operators make mutants, and with the
// whole registry selected Generate is what it was without a selection.
func TestSelectionRestrictsGenerate(t *testing.T) {
	src := readCorpus(t)
	for _, method := range []string{"clamp", "mix", "greet", "describe", "weighted"} {
		for _, strong := range []bool{false, true} {
			whole := gen(t, src, method, Options{Strong: strong})
			if all := gen(t, src, method, Options{Strong: strong, Operators: MustSelect(bothGroups...)}); !reflect.DeepEqual(all, whole) {
				t.Errorf("%s strong=%v: every operator selected gives %q, no selection %q", method, strong, short(all), short(whole))
			}
			var want []Mutant
			for _, m := range whole {
				if m.Operator == "ROR" || m.Operator == "AOR" {
					want = append(want, m)
				}
			}
			if got := gen(t, src, method, Options{Strong: strong, Operators: MustSelect("ROR", "AOR")}); !reflect.DeepEqual(got, want) {
				t.Errorf("%s strong=%v: ROR, AOR gives %q, want %q", method, strong, short(got), short(want))
			}
		}
	}
}

func TestRegistry(t *testing.T) {
	names := map[string]bool{}
	for i, op := range registry {
		if names[op.Name()] {
			t.Errorf("%s registered twice", op.Name())
		}
		names[op.Name()] = true
		if op.Code == "" || strings.ToUpper(op.Code) != op.Code || op.Description == "" || len(op.NodeTypes) == 0 || op.mutate == nil {
			t.Errorf("incomplete record %+v", op)
		}
		if op.Group != GroupDefault && op.Group != GroupStrong {
			t.Errorf("%s: group %q", op.Code, op.Group)
		}
		if i > 0 && op.Group == GroupDefault && registry[i-1].Group == GroupStrong {
			t.Errorf("%s: the default group comes first", op.Name())
		}
		if strings.ContainsAny(op.Description, "\n\t") {
			t.Errorf("%s: the description is not one line", op.Name())
		}
	}
	// The codes the report and the tests know stay.
	for _, code := range []string{"ROR", "AOR", "NEG", "LCR", "BND", "INC", "RET", "MATH", "VCR", "CDR"} {
		if _, err := Select([]string{code}); err != nil {
			t.Errorf("code %s is gone: %v", code, err)
		}
	}
}

func TestWriteOperatorTable(t *testing.T) {
	var b bytes.Buffer
	if err := WriteOperatorTable(&b); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(b.String(), "\n")
	if !strings.HasPrefix(lines[0], "CODE") || !strings.Contains(lines[0], "GROUP") || !strings.Contains(lines[0], "DESCRIPTION") {
		t.Fatalf("header %q", lines[0])
	}
	for i, op := range registry {
		f := strings.Fields(lines[i+1])
		if len(f) < 3 || f[0] != op.Code || f[1] != string(op.Group) || !strings.Contains(lines[i+1], op.Description) {
			t.Errorf("row %d %q, want %s %s %s", i+1, lines[i+1], op.Code, op.Group, op.Description)
		}
	}
	if !strings.Contains(b.String(), "mutants.operators") {
		t.Errorf("the table does not say how to choose: %q", b.String())
	}
}

// bothGroups is the setting mutants.operators' default (the settings table's): every operator.
var bothGroups = []string{string(GroupDefault), string(GroupStrong)}
