//go:build unix

package buildtools

import (
	"os/exec"
	"runtime"
	"syscall"
)

// ownProcessGroup makes cmd the leader of a process group of its own and makes the context's
// cancellation kill that whole group: Maven's and Gradle's scripts start JVMs (and Surefire
// forks more), and killing only the script would leave them running after the server or the
// CLI that started them is gone.
func ownProcessGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error {
		if cmd.Process == nil {
			return nil
		}
		return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	}
}

// lowerPriority locks the calling goroutine to its OS thread, for the rest of its life, and
// lowers that thread's priority by 10 nice steps (to 19 at most), which the processes it
// starts inherit: work made ahead of need (the worker's build while the build tool loads a
// model) then takes the CPU the build tool leaves idle rather than sharing it (see
// docs/architecture.md, Caches). The thread ends with the goroutine (it stays locked), so
// no other goroutine runs at the lower priority.
func lowerPriority() {
	runtime.LockOSThread()
	// On Linux PRIO_PROCESS with who 0 is the calling thread only, and the raw getpriority
	// answers 20 - nice.
	raw, err := syscall.Getpriority(syscall.PRIO_PROCESS, 0)
	if err != nil {
		return
	}
	_ = syscall.Setpriority(syscall.PRIO_PROCESS, 0, min(20-raw+10, 19))
}
