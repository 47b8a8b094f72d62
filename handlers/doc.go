// Package handlers implements the LSP methods of advertest (protocol.Server,
// plus server.Handler's DidChangeContent), one file per LSP area:
// lifecycle.go (initialize … exit, capabilities, progress cancel),
// configuration.go (initializationOptions, workspace/configuration,
// didChangeConfiguration), textsync.go (open, change, save, close),
// codeactions.go (the two method actions and the kill-mutant quick fix),
// commands.go (workspace/executeCommand and its arguments), jobs.go (the
// bodies of the generateTests and analyzeMutants jobs), killmutant.go (the
// quick fix's job), onsave.go (restoring state on open, the debounced on-save
// rounds), progress.go ($/progress, or messages for clients without it),
// diagnostics.go (surviving mutants and possible bugs as diagnostics, carried
// across edits), hover.go (a mutant as a diff with the tests that cover its
// line), edits.go (the test file as a workspace edit, with its own CreateFile
// type), unsupported.go (every other method answers MethodNotFound).
//
// Commands only validate and schedule: a job runs on the session's
// background context through package jobs (one job per method, at most
// jobs.max at once, in order), works on a snapshot of the document, reports
// through loop's events, and ends with the diagnostics, the state in
// .advertest/ (loop/state) and, for generateTests, a workspace/applyEdit.
// The warm projects (Maven/Gradle model and worker JVMs) are kept per module
// root and closed at shutdown. The user's files are never written: the test
// file reaches the disk through the editor.
//
// Handlers are thin where they can be: transport, routing, parameter
// decoding, request cancellation and the open documents belong to package
// server; Java parsing to javaparse; the game to loop; settings to package
// settings; the build and the JVM (module roots, opening the warm projects,
// the generated suite's test file, the offline and LLM agents) to package
// jobs, so that this package imports neither buildtools nor the agents. Only
// this package converts to and from protocol types.
package handlers
