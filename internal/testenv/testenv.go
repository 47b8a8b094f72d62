package testenv

import (
	"flag"
	"testing"
)

// NeedsJVM skips the test under -short. A test calls it (or its package's helper that opens a
// project or runs javac does) before it starts a JVM, Maven, Gradle or javac: `make test-race`
// runs with -short, since under the race detector those tests take many minutes and their other
// side runs in the JVM, out of the detector's sight (its reproducers run in full beside).
func NeedsJVM(t testing.TB) {
	t.Helper()
	if testing.Short() {
		t.Skip("starts the JVM: not with -short (make test-race)")
	}
}

// JVMSkipped reports whether the tests run with -short, for a TestMain whose fixtures need the
// JDK (every test of its package starts a JVM): it ends there, with m.Run not called. It parses
// the test flags if they are not yet.
func JVMSkipped() bool {
	if !flag.Parsed() {
		flag.Parse()
	}
	return testing.Short()
}
