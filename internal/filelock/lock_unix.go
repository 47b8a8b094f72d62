//go:build unix

package filelock

import (
	"fmt"
	"os"
	"syscall"
)

// Lock takes an exclusive flock on path (made if missing), waiting while another process holds
// it; unlock releases it and closes the file. A signal that interrupts the wait (EINTR) does
// not end it: the wait is taken up again.
func Lock(path string) (unlock func(), err error) {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return nil, fmt.Errorf("opening the lock file: %w", err)
	}
	for {
		err = syscall.Flock(int(f.Fd()), syscall.LOCK_EX)
		if err != syscall.EINTR {
			break
		}
	}
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("flock %s: %w", path, err)
	}
	return func() {
		_ = syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
		f.Close()
	}, nil
}
