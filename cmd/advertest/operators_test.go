package main

import (
	"strings"
	"testing"

	"github.com/advertest/advertest-lsp/loop/mutants"
)

func TestMutateListOperators(t *testing.T) {
	code, out, errOut := runCLI("mutate", "--list-operators")
	if code != exitOK || errOut != "" {
		t.Fatalf("status %d, stderr %q", code, errOut)
	}
	lines := strings.Split(out, "\n")
	if f := strings.Fields(lines[0]); len(f) != 3 || f[0] != "CODE" || f[1] != "GROUP" || f[2] != "DESCRIPTION" {
		t.Errorf("header %q", lines[0])
	}
	for i, op := range mutants.Operators() {
		row := lines[i+1]
		if f := strings.Fields(row); len(f) < 3 || f[0] != op.Code || f[1] != string(op.Group) || !strings.HasSuffix(row, op.Description) {
			t.Errorf("row %d is %q, want %s %s %s", i+1, row, op.Code, op.Group, op.Description)
		}
	}
	if !strings.Contains(out, "mutants.operators") {
		t.Errorf("the list does not say how to choose operators:\n%s", out)
	}
}

func TestMutateUsage(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"mutate"}, "missing TARGET"},
		{[]string{"mutate", "--list-operators", "A.java:3"}, "--list-operators takes no TARGET"},
		{[]string{"mutate", "A.java:1", "B.java:2"}, "cannot read A.java"},
	} {
		code, out, errOut := runCLI(tc.args...)
		if code != exitUsage || out != "" || !strings.Contains(errOut, tc.want) {
			t.Errorf("%q: status %d, stdout %q, stderr %q; want 2 and %q", tc.args, code, out, errOut, tc.want)
		}
	}
	if _, out, _ := runCLI("help", "mutate"); !strings.Contains(out, "--list-operators") {
		t.Errorf("mutate's help does not list --list-operators:\n%s", out)
	}
}
