// Package app is AdverTest's application core: the use cases that the command line
// (cmd/advertest) and the language server (handlers) share, in their own types (no LSP).
//
//   - Open a method's project warm (Projects: one buildtools.Project per module root and
//     settings, leased to the work that uses it, closed when its last lease ends after the
//     settings that key it changed, and at Close).
//   - Choose the agents from the settings (ChooseAgents: offline, or the LLM's, gated by the
//     sandbox: agents auto plays offline, with a warning saying why, where the LLM is not
//     usable or LLM-written code could not run in a sandbox).
//   - Analyze a method (Core.Analyze: mutation analysis with the project's tests, or an
//     on-save re-evaluation from the saved state), play the game on it (Core.Play: Algorithm
//     2, or one more T and M exchange on save), kill one mutant (Core.Kill: a targeted T turn).
//   - Find the methods of a run's targets (Core.Resolve: files, folders in the modules' main
//     sources, several targets, the methods a git diff changed) and run a use case on many
//     methods (Core.AnalyzeMany, Core.PlayMany: files in parallel, a file's methods in turn,
//     each class's suite carried from one method's game to the next).
//   - Save what was learned in .advertest/ (loop/state) and read it back (States), with the
//     module's verdicts of single mutants brought to every report: the user's marks
//     (SetUserVerdict, shared by the CLI and the server) and the judges' evidence of earlier
//     runs (recorded by Play).
//
// A use case reports through Events: progress, verdicts, the suite to write and warnings. The
// server turns them into $/progress, diagnostics and workspace/applyEdit; the CLI prints them.
//
// One Core serves one process's work: the CLI makes one per run, the server one per session.
// It decides the sandbox once per policy (the probe runs once per process), keeps the LLM
// budget account (one per session, made anew when the budget settings change) and the warm
// projects. See docs/architecture.md.
package app
