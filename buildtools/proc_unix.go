//go:build unix

package buildtools

import (
	"os/exec"
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
