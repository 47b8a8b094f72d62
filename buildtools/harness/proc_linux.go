package harness

import "syscall"

// workerProcAttr makes the kernel kill the worker when the controller dies, so no JVM is left
// behind even on SIGKILL (the worker also exits when its stdin closes).
func workerProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
}
