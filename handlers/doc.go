// Package handlers implements the LSP methods of advertest (protocol.Server,
// plus server.Handler's DidChangeContent), one file per LSP area:
// lifecycle.go (initialize … exit, capabilities, progress cancel),
// configuration.go (initializationOptions, workspace/configuration,
// didChangeConfiguration, the sandbox decision at start), textsync.go (open,
// change, save, close), codeactions.go (the two method actions and the
// kill-mutant quick fix), commands.go (workspace/executeCommand and its
// arguments), killmutant.go (the quick fix's command), jobs.go (starting a
// job on a method snapshot and turning the application core's events into
// what the editor shows), onsave.go (restoring state on open, the debounced
// on-save rounds), progress.go ($/progress, or messages for clients without
// it), diagnostics.go (surviving mutants and possible bugs as diagnostics,
// carried across edits, one writer per document), hover.go (a mutant as a
// diff with the tests that cover its line), edits.go (the test file as a
// workspace edit, with its own CreateFile type), unsupported.go (every other
// method answers MethodNotFound).
//
// Handlers are thin: find the document, call the core, translate its events.
// Commands only validate and schedule: a job runs on the session's background
// context through package jobs (one job per method, at most jobs.max at once,
// in order) and is one call of the application core (package app: Analyze,
// Play, Kill), which opens the warm project, chooses the agents, runs the game
// and saves the state; its events become $/progress, publishDiagnostics,
// workspace/applyEdit and window/showMessage here. The user's files are never
// written: the test file reaches the disk through the editor.
//
// Transport, routing, parameter decoding, request cancellation and the open
// documents belong to package server; Java parsing to javaparse; settings to
// package settings. This package imports neither buildtools nor the agents,
// and only it converts to and from protocol types. See docs/architecture.md.
package handlers
