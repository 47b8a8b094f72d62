//go:build !unix

package buildtools

import "os/exec"

// ownProcessGroup leaves cmd as it is: elsewhere the context kills the tool's own process.
func ownProcessGroup(*exec.Cmd) {}

// lowerPriority does nothing here: the work ahead of need runs at the usual priority.
func lowerPriority() {}
