// Package jobs owns the server's background work, in its own types (no LSP): the job
// registry (one job per key at a time, a new one cancelling and replacing the old; at most N
// running, the others waiting in order; cancellation by id) and the warm projects (one
// buildtools.Project per module root, opened once and shared by the jobs, closed at the end).
package jobs
