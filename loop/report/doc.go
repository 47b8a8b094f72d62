// Package report defines the report JSON of DESIGN's contract: the target method, its mutants
// with their verdicts, the scores and coverage, the generated suite, the per-round history and
// the LLM and timing figures. The CLI writes it with --json and the server keeps one per method
// under .advertest/. It holds types and their small helpers only (and the atomic file write,
// ReplaceFile, see docs/state.md), so every other package can depend on it.
package report
