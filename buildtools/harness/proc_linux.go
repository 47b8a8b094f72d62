package harness

import (
	"os"
	"path/filepath"
	"syscall"
)

// workerProcAttr makes the kernel kill the worker when the controller dies, so no JVM is left
// behind even on SIGKILL (the worker also exits when its request pipe closes), and puts the
// worker at the head of its own process group, which killGroup ends with it.
func workerProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL, Setpgid: true}
}

// killGroup kills the process group led by pid.
func killGroup(pid int) { _ = syscall.Kill(-pid, syscall.SIGKILL) }

// openDirNoFollow opens the folder name, refusing a symbolic link in its place.
func openDirNoFollow(name string) (*os.File, error) {
	fd, err := syscall.Open(name, syscall.O_RDONLY|syscall.O_DIRECTORY|syscall.O_NOFOLLOW|syscall.O_CLOEXEC, 0)
	if err != nil {
		return nil, &os.PathError{Op: "open", Path: name, Err: err}
	}
	return os.NewFile(uintptr(fd), name), nil
}

// openAtNoFollow opens the entry name of the folder dir for reading, relative to dir's
// descriptor, refusing a symbolic link and without blocking on a named pipe.
func openAtNoFollow(dir *os.File, name string) (*os.File, error) {
	fd, err := syscall.Openat(int(dir.Fd()), name, syscall.O_RDONLY|syscall.O_NOFOLLOW|syscall.O_NONBLOCK|syscall.O_CLOEXEC, 0)
	if err != nil {
		return nil, &os.PathError{Op: "openat", Path: name, Err: err}
	}
	return os.NewFile(uintptr(fd), filepath.Join(dir.Name(), name)), nil
}
