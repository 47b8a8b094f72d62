// Package jobs owns the server's background work, in its own types (no LSP): the job
// registry (one job per key at a time, a new one cancelling and replacing the old; at most N
// running, the others waiting in order; cancellation by id) and the warm projects (one
// buildtools.Project per module root, opened once and shared by the jobs, closed at the end),
// and what the jobs need of the build and the JVM: the module root of a file, opening a
// module's project with the settings (ProjectOpener), the generated suite's test file, and
// the job's T and M agents (offline, or the LLM's) from the settings. The handlers reach
// buildtools and the agents only through here.
package jobs
