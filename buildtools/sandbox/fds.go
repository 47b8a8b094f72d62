package sandbox

import "fmt"

// SealDescriptors marks every descriptor of this process above 2 close-on-exec, so that no
// child (bwrap and the worker JVM inside it, Maven, Gradle, javac, git) inherits one that this
// process did not pass on purpose. A descriptor inherited without close-on-exec (a shell's
// `exec 8<dir`, a CI script's lock, a jobserver pipe, an editor's leaked handle) would otherwise
// stay open through every exec, and inside the sandbox /proc/self/fd/N reopens what it names:
// a host file to read or append to, a host folder to walk out of. os/exec still passes what a
// command names (Stdin, Stdout, Stderr, ExtraFiles): it duplicates those into place in the
// child, which clears the flag on the copy only.
//
// advertest calls it at start-up and the starters of those tools call it again right before
// each start (a descriptor that appeared since, from cgo or a library, is caught there). It is
// safe from any goroutine. See docs/sandbox.md, "Descriptors".
func SealDescriptors() error {
	if err := sealDescriptors(); err != nil {
		return fmt.Errorf("sandbox: marking inherited descriptors close-on-exec: %w", err)
	}
	return nil
}
