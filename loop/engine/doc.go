// Package engine is the referee of the game: Algorithm 1 of the AdverTest paper. It runs a
// suite on the original class once with per-test coverage (the baseline), then evaluates each
// mutant by compiling its single-line change in memory and running only the tests that pass on
// the original and cover the mutated line, fastest first, stopping at the first one that fails
// (Δ = Fail(T,m) \ Fail(T,P)). Mutants of one method are spread over the worker pool.
//
// Each test's budget on a mutant is counted in steps (backward jumps and method entries of the
// class compiled in memory): Options.StepFactor × its steps on the original, which the baseline
// compiles the same way, + StepConstant, so an endless loop is a timeout within milliseconds
// whatever the machine's load; the wall-clock budget stays as the backstop.
//
// The rule mutants that fit go into one mutant schema (mutants.BuildSchema): compiled once
// (sites on lines javac rejects are dropped and the rest compiled again), kept by each worker,
// and each mutant's run activates its id in a fresh class loader. PrepareSchema, called just
// before RunBaseline, compiles it on the worker the baseline leaves idle (Options.Schema hands
// it to Evaluate), and the pool ships its bytes to the other workers (harness, "Shipped
// classes" in docs/worker-protocol.md). The others (LLM mutants,
// contexts a switch does not fit, dropped sites) are compiled one by one, so a mutant that does
// not compile alone is still uncompilable.
//
// Trivial compiler equivalence (tce.go): the worker digests the bytecode of the original, of
// each mutant compiled alone and of the schema with each mutant active (harness.Digest). A
// mutant with the original's digest is equivalent (by bytecode), one with an earlier mutant's
// digest a duplicate of it; neither runs a test (a run whose digest is known is skipped by the
// worker), and the verdicts are given in the order of the mutants, whichever run ends first.
//
// It speaks in buildtools/harness and loop/mutants types and produces report.Mutant verdicts; it
// knows nothing of LSP or LLMs.
package engine
