//go:build !linux

package harness

import (
	"fmt"
	"os"
	"path/filepath"
	"syscall"
)

// workerProcAttr: without Pdeathsig the worker relies on its request pipe closing when we die.
func workerProcAttr() *syscall.SysProcAttr { return nil }

// killGroup: the worker has no group of its own here; killing it is all there is.
func killGroup(pid int) {}

// openDirNoFollow opens the folder name, refusing a symbolic link (checked, then opened: this
// system has no O_NOFOLLOW in the syscall package).
func openDirNoFollow(name string) (*os.File, error) {
	if st, err := os.Lstat(name); err != nil || !st.IsDir() {
		return nil, fmt.Errorf("%s is not a folder", name)
	}
	return os.Open(name)
}

// openAtNoFollow opens the entry name of dir for reading, refusing a symbolic link.
func openAtNoFollow(dir *os.File, name string) (*os.File, error) {
	p := filepath.Join(dir.Name(), name)
	if st, err := os.Lstat(p); err != nil || !st.Mode().IsRegular() {
		return nil, fmt.Errorf("%s is not a regular file", p)
	}
	return os.Open(p)
}
