package sandbox

import "syscall"

// closeRangeTrap and closeRangeCloexec are close_range(2) (Linux 5.11 for the flag): the
// system call has one number on every architecture, which the syscall package does not name.
const (
	closeRangeTrap    = 436
	closeRangeCloexec = 1 << 2
)

// sealDescriptors marks fd 3 and up close-on-exec in one system call where the kernel has
// close_range with CLOSE_RANGE_CLOEXEC, else walks /proc/self/fd.
func sealDescriptors() error {
	if _, _, errno := syscall.Syscall(closeRangeTrap, 3, ^uintptr(0), closeRangeCloexec); errno == 0 {
		return nil
	}
	return sealListed("/proc/self/fd")
}
