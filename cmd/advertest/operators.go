package main

import (
	"fmt"

	"github.com/advertest/advertest-lsp/loop/mutants"
)

// listOperators is `advertest mutate --list-operators`: the registry of the rule-based
// mutation operators on stdout (see docs/operators.md).
func listOperators(e *env, args []string) int {
	if len(args) > 0 {
		fmt.Fprintf(e.stderr, "advertest mutate: --list-operators takes no TARGET, got %q\n", args[0])
		return exitUsage
	}
	if err := mutants.WriteOperatorTable(e.stdout); err != nil {
		fmt.Fprintf(e.stderr, "advertest mutate: %v\n", err)
		return exitFailure
	}
	return exitOK
}
