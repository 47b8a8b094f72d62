// Package jobs is the server's registry of background jobs, in its own types (no LSP, no
// build). Its policy, per key (a method): one job of a key runs at a time. A Replace job (a new
// Generate or Analyze) cancels every job of its key, running or waiting (cause ErrReplaced),
// and runs once the running one has returned; a Queue job (an on-save round, a kill) waits
// for the key's earlier jobs to end, and replaces the key's earlier job of the same Slot (a
// newer on-save round the older one). At most N jobs run at once; the others wait in arrival
// order, a job whose key is busy letting those behind it pass. Cancellation by id.
//
// Concurrency: every Manager method may be called from any goroutine; a job's function runs on
// a goroutine of its own (Spawn), and a job cancelled before it could run still has it called,
// with its context done, only to report its end.
//
// What a job does is the application core's (package app); the handlers start jobs here and
// report on them.
package jobs
