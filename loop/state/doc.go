// Package state owns the `.advertest/` folder at a module's root: what the server knows about
// each method it has worked on (its mutants and their verdicts, the generated suite, the
// tests that cover each surviving mutant's line, the history of its runs), one JSON file per
// method, each written atomically, one update of a method at a time (Store.Update), its history
// capped at MaxHistory runs; a corrupt file is moved aside with a warning (CorruptError); and
// verdicts.json, the module's verdicts of single mutants by stable id (the user's marks, the
// equivalence judges' evidence), with how they apply to a report (Verdicts.Apply). See
// docs/state.md. A restarted server reads it back to publish diagnostics
// again, and an on-save round starts from it. It knows nothing of LSP.
package state
