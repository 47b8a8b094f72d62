// Package loop is the game of the AdverTest paper: Algorithm 2, where a test agent T and a
// mutant agent M co-evolve on one method, refereed by mutation testing (Algorithm 1, in
// loop/engine) and coverage. Besides the game (Run) it runs the mutation analysis with a
// project's existing tests (Analyze, AnalyzeSuite), one targeted T turn against one mutant
// (KillMutant) and one more T and M exchange after an edit (Round); it resolves the target
// method, builds the generated suite and merges it into a test file, and holds the rule-based M.
//
// It works behind ports: the module as a Project (the engine's runner, the module's test
// classes and test file; *buildtools.Project is the product's), the players as loop/agent
// interfaces (the offline ones of loop/offline, the LLM's of loop/llm). It imports neither
// those players nor buildtools, speaks in its own types and knows nothing of LSP; its unit
// tests play the game with fakes, without a JVM. Subpackages: agent (the players'
// interfaces), engine (the referee), mutants (the mutant type and the operators), report (the
// report JSON), state (.advertest/), offline and llm (the players). See docs/architecture.md.
package loop
