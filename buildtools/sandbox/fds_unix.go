//go:build unix

package sandbox

import (
	"os"
	"strconv"
	"syscall"
)

// sealListed marks each descriptor above 2 named in dir (/proc/self/fd, /dev/fd)
// close-on-exec. The descriptor that reads dir is listed too; it is closed by then, which
// CloseOnExec ignores.
func sealListed(dir string) error {
	f, err := os.Open(dir)
	if err != nil {
		return err
	}
	names, err := f.Readdirnames(-1)
	f.Close()
	if err != nil {
		return err
	}
	for _, n := range names {
		if fd, err := strconv.Atoi(n); err == nil && fd > 2 {
			syscall.CloseOnExec(fd)
		}
	}
	return nil
}
