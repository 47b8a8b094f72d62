// Package jobs is the server's registry of background jobs, in its own types (no LSP, no
// build): one job per key (a method) at a time, a new one cancelling and replacing the old
// (cause ErrReplaced); at most N running, the others waiting in order; cancellation by id.
// What a job does is the application core's (package app); the handlers start jobs here and
// report on them.
package jobs
