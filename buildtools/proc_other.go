//go:build !unix

package buildtools

import "os/exec"

// ownProcessGroup leaves cmd as it is: elsewhere the context kills the tool's own process.
func ownProcessGroup(*exec.Cmd) {}
