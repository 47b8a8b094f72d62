package harness

import (
	"os"
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

// openNoFollow opens name for reading without following a final symbolic link, and without
// blocking on a named pipe.
func openNoFollow(name string) (*os.File, error) {
	return os.OpenFile(name, os.O_RDONLY|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0)
}
