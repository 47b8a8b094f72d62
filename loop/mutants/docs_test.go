package mutants

import (
	"os"
	"strings"
	"testing"

	"github.com/advertest/advertest-lsp/loop/mutants/opnames"
)

// markdownRow is the registry's row in docs/operators.md.
func markdownRow(op *Operator) string {
	types := make([]string, len(op.NodeTypes))
	for i, t := range op.NodeTypes {
		types[i] = "`" + t + "`"
	}
	return "| " + op.Code + " | " + string(op.Group) + " | " + strings.Join(types, ", ") + " | " +
		strings.ReplaceAll(op.Description, "|", `\|`) + " |"
}

// TestDocsListEveryOperator keeps docs/operators.md's table in step with the registry.
func TestDocsListEveryOperator(t *testing.T) {
	doc, err := os.ReadFile("../../docs/operators.md")
	if err != nil {
		t.Fatal(err)
	}
	// The rows after the header "| code | group | node types | description |" and its rule.
	var rows []string
	lines := strings.Split(string(doc), "\n")
	for i, line := range lines {
		if line != "| code | group | node types | description |" {
			continue
		}
		for _, row := range lines[min(i+2, len(lines)):] {
			if !strings.HasPrefix(row, "|") {
				break
			}
			rows = append(rows, row)
		}
		break
	}
	want := make([]string, len(registry))
	for i, op := range registry {
		want[i] = markdownRow(op)
	}
	if strings.Join(rows, "\n") != strings.Join(want, "\n") {
		t.Errorf("docs/operators.md's table is not the registry; the rows should be:\n%s", strings.Join(want, "\n"))
	}
}

// TestRegistryMatchesOpnames: the names settings/schema checks without tree-sitter
// (opnames.Records) are the registry's, in its order.
func TestRegistryMatchesOpnames(t *testing.T) {
	var got []string
	for _, op := range registry {
		got = append(got, op.Name())
	}
	var want []string
	for _, r := range opnames.Records {
		want = append(want, r.Name())
	}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("the registry's operators:\n%v\nopnames.Records:\n%v", got, want)
	}
}
