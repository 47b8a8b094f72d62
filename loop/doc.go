// Package loop is the game of the AdverTest paper: Algorithm 2, where a test agent T and a
// mutant agent M co-evolve on one method, refereed by mutation testing (Algorithm 1, in
// loop/engine) and coverage. It also resolves the target method and runs the mutation analysis
// with a project's existing tests (Analyze). Subpackages: engine (the referee), mutants (the
// mutant type and the rule-based operators), report (the report JSON).
//
// It speaks in its own types; it knows nothing of LSP.
package loop
