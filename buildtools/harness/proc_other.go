//go:build !linux

package harness

import (
	"fmt"
	"os"
	"syscall"
)

// workerProcAttr: without Pdeathsig the worker relies on its request pipe closing when we die.
func workerProcAttr() *syscall.SysProcAttr { return nil }

// killGroup: the worker has no group of its own here; killing it is all there is.
func killGroup(pid int) {}

// openNoFollow opens name for reading, refusing a symbolic link.
func openNoFollow(name string) (*os.File, error) {
	if st, err := os.Lstat(name); err != nil || !st.Mode().IsRegular() {
		return nil, fmt.Errorf("%s is not a regular file", name)
	}
	return os.Open(name)
}
