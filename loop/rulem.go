package loop

import (
	"context"
	"sort"

	"github.com/advertest/advertest-lsp/loop/agent"
	"github.com/advertest/advertest-lsp/loop/mutants"
)

// RuleMutantAgent is the offline M: the registry's operators on the tree-sitter tree, in
// stages. Its first move is the default group on every line; each later move adds the strong
// group on the lines of the surviving mutants and on the uncovered lines, so that it attacks
// the suite's blind spots. It never proposes a mutant already in the pool.
//
// Operators (the setting mutants.operators, see docs/operators.md) restricts the operators
// it may use, and the staging applies within them: the first move plays the selected
// operators of the default group (all the selected ones when none is in the default group),
// later moves the whole selection. The zero value allows every operator.
type RuleMutantAgent struct {
	Operators mutants.Selection
}

var _ agent.MutantAgent = RuleMutantAgent{}

// InitialMutants is the selection's default group on the whole method.
func (a RuleMutantAgent) InitialMutants(_ context.Context, s *agent.Subject) ([]mutants.Mutant, error) {
	strong := !a.Operators.Has(mutants.GroupDefault)
	return mutants.Generate(s.Parsed, s.Method, mutants.Options{Strong: strong, Operators: a.Operators}), nil
}

// MoreMutants is the strong group, and the default group where it has not been played yet, on
// the survivors' lines and the uncovered lines. When the suite has no blind spot left (every
// mutant killed, every line covered) it plays the strong group on the whole method, so that M
// keeps testing the suite rather than passing.
func (a RuleMutantAgent) MoreMutants(_ context.Context, s *agent.Subject, fb agent.Feedback) ([]mutants.Mutant, error) {
	lineSet := map[int]bool{}
	for _, l := range fb.UncoveredLines {
		lineSet[l] = true
	}
	for _, m := range fb.Survivors {
		lineSet[m.Line] = true
	}
	lines := make([]int, 0, len(lineSet))
	for l := range lineSet {
		lines = append(lines, l)
	}
	sort.Ints(lines) // empty: the whole method
	known := map[string]bool{}
	for _, m := range fb.Known {
		known[m.ID] = true
	}
	var out []mutants.Mutant
	for _, strong := range []bool{false, true} {
		for _, m := range mutants.Generate(s.Parsed, s.Method, mutants.Options{Strong: strong, Lines: lines, Operators: a.Operators}) {
			if !known[m.ID] {
				known[m.ID] = true
				out = append(out, m)
			}
		}
	}
	return out, nil
}
