//go:build !unix

package state

// lockFile is a no-op where the system has no flock: updates are serialised within the
// process only (two processes writing the verdicts at once may lose one update, never half a
// file).
func lockFile(string) (unlock func(), err error) { return func() {}, nil }
