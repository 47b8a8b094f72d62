// Package handlers implements the LSP methods of advertest (protocol.Server,
// plus server.Handler's DidChangeContent), one file per LSP area: handlers.go
// (the Handler of a session, its state and its end), lifecycle.go (initialize … exit, capabilities, progress cancel),
// configuration.go (initializationOptions, workspace/configuration,
// didChangeConfiguration, the sandbox decision at start), textsync.go (open,
// change, save, close), codeactions.go (the two method actions and the
// kill-mutant quick fix), commands.go (workspace/executeCommand and its
// arguments), killmutant.go (the quick fix's command), jobs.go (starting a
// job on a method snapshot and turning the application core's events into
// what the editor shows), onsave.go (restoring state on open, the debounced
// on-save rounds), progress.go ($/progress, or messages for clients without
// it), diagnostics.go (surviving mutants and possible bugs as diagnostics,
// carried across edits, one writer per document), verdicts.go (a method's
// result from its mutants, the tests related to a survivor, the user's
// verdicts: mark as equivalent, ignore and their undo), hover.go (a mutant as a
// diff with the tests that cover its line), edits.go (the test file as a
// workspace edit, with its own CreateFile type), unsupported.go (every other
// method answers MethodNotFound).
//
// Handlers are thin: find the document, call the core, translate its events.
// Commands only validate and schedule: a job runs on the session's background
// context through package jobs and is one call of the application core
// (package app: Analyze, Play, Kill), which opens the warm project, chooses
// the agents, runs the game and saves the state; its events become $/progress,
// publishDiagnostics, workspace/applyEdit and window/showMessage here. The
// user's files are never written: the test file reaches the disk through the
// editor.
//
// The job policy (jobs.go): one job of a method at a time. Generate and
// Analyze replace the method's jobs, running or waiting, and run once the
// running one has returned; an on-save round and a kill queue behind it (a
// newer on-save round replaces one not yet run) and read the method's state
// when they start. At most jobs.max jobs run at once, in order. A class's test
// file has one writer (edits.go): the jobs' edits of it come one at a time.
//
// Concurrency: a job's events (jobEvents) come from the job's goroutine and,
// Progress and Verdicts, from the engine's goroutines that evaluate the
// mutants, one call at a time and in order; progress and the diagnostics'
// writer never make them wait for the client.
//
// Transport, routing, parameter decoding, request cancellation and the open
// documents belong to package server; Java parsing to javaparse; settings to
// package settings. This package imports neither buildtools nor the agents,
// and only it converts to and from protocol types. See docs/architecture.md.
package handlers
