// Package report defines the report JSON: the target method, its mutants with their verdicts,
// the scores and coverage, the generated suite, the per-round history and the LLM and timing
// figures (report.go, status.go). The CLI writes it with --json and the server keeps one per
// method under .advertest/.
//
// Beside the one-method report it owns what teams run on many methods: the report over many
// methods with its summary (multi.go), the deterministic shards of a method set and the merge of
// shard reports (shard.go, merge.go), and the exit status of a run with --fail-under (exit.go).
// The subpackages write the other formats: sarif (GitHub code scanning), mte (the
// mutation-testing-elements schema) and html (the self-contained page). docs/reports.md
// documents all of them. The package holds types and small functions only (and the atomic file
// write, ReplaceFile, see docs/state.md), so every other package can depend on it.
package report
