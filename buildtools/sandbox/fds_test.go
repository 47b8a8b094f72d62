//go:build linux

package sandbox

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// leak opens name and puts it at descriptor fd without close-on-exec, as a parent that leaks
// does (dup2 clears the flag); the test ends by closing it.
func leak(t *testing.T, name string, fd int) {
	t.Helper()
	leakOpen(t, name, os.O_RDONLY, fd)
}

func leakOpen(t *testing.T, name string, flag, fd int) {
	t.Helper()
	f, err := os.OpenFile(name, flag, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := fcntl(fd, syscall.F_GETFD, 0); err == nil {
		t.Fatalf("descriptor %d is in use already", fd)
	}
	if err := syscall.Dup3(int(f.Fd()), fd, 0); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { syscall.Close(fd) })
}

// inheritedBy says which of fds a child process (sh) finds open.
func inheritedBy(t *testing.T, fds ...string) string {
	t.Helper()
	script := ""
	for _, fd := range fds {
		script += "if [ -e /proc/self/fd/" + fd + " ]; then echo " + fd + " open; else echo " + fd + " closed; fi; "
	}
	out, err := exec.Command("sh", "-c", script).Output()
	if err != nil {
		t.Fatal(err)
	}
	return strings.Join(strings.Fields(string(out)), " ")
}

// TestSealDescriptors: descriptors a parent leaked (one to a file, one to a folder) reach a
// child until SealDescriptors marks them, then no longer; the process keeps them open.
func TestSealDescriptors(t *testing.T) {
	for _, walk := range []bool{false, true} {
		name := "close_range"
		if walk {
			name = "proc"
		}
		t.Run(name, func(t *testing.T) {
			leak(t, "/etc/hostname", 57)
			leak(t, t.TempDir(), 58)
			if got := inheritedBy(t, "57", "58"); got != "57 open 58 open" {
				t.Fatalf("before sealing a child sees %q: the check cannot see a leak", got)
			}
			var err error
			if walk {
				err = sealListed("/proc/self/fd")
			} else {
				err = SealDescriptors()
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := inheritedBy(t, "57", "58"); got != "57 closed 58 closed" {
				t.Errorf("after sealing a child sees %q", got)
			}
			for _, fd := range []int{0, 1, 2} {
				if flags, err := fcntl(fd, syscall.F_GETFD, 0); err == nil && flags&syscall.FD_CLOEXEC != 0 {
					t.Errorf("descriptor %d was marked close-on-exec", fd)
				}
			}
			if _, err := fcntl(57, syscall.F_GETFD, 0); err != nil {
				t.Errorf("descriptor 57 was closed in this process: %v", err)
			}
		})
	}
}

// TestLeakedDescriptorsStayOutside: a host file (read-write) and a host folder that this
// process holds without close-on-exec at descriptors 57 and 58 are not usable inside the
// sandbox: no write, no read, no file made through them. The control clears the flag again
// after Apply, as a process without the fix would have it: the same attempts then reach the
// host, so the check sees a leak.
func TestLeakedDescriptorsStayOutside(t *testing.T) {
	needBwrap(t)
	w := newWorld(t)
	hostFile := filepath.Join(w.outside, "host-file.txt")
	mustWrite(t, hostFile, "host file secret")
	mustWrite(t, filepath.Join(w.outside, "secret.txt"), "outside secret")
	leakOpen(t, hostFile, os.O_RDWR, 57)
	leak(t, w.outside, 58)
	ops := []string{"read=/proc/self/fd/57", "read=/proc/self/fd/58/secret.txt", "write=/proc/self/fd/58/planted", "fd=57"}
	for _, control := range []bool{false, true} {
		cmd := w.command(ops...)
		if err := w.spec(t, Policy{Mode: ModeOn}).Apply(cmd); err != nil {
			t.Fatal(err)
		}
		if control {
			for _, fd := range []int{57, 58} {
				if _, err := fcntl(fd, syscall.F_SETFD, 0); err != nil {
					t.Fatal(err)
				}
			}
		}
		r := runEscape(t, cmd)
		planted := fileExists(filepath.Join(w.outside, "planted"))
		b, _ := os.ReadFile(hostFile)
		if control {
			if r["read /proc/self/fd/57"] != "read host file secret" || !planted || string(b) != "hello through fd\n" {
				t.Fatalf("the control leaked nothing (%v, planted %v, host file %q): the check cannot see a leak", r, planted, b)
			}
			continue
		}
		for _, op := range []string{"read /proc/self/fd/57", "read /proc/self/fd/58/secret.txt", "write /proc/self/fd/58/planted", "fd 57"} {
			if !strings.HasPrefix(r[op], "denied ") {
				t.Errorf("%s inside: %q, want denied", op, r[op])
			}
		}
		if planted || string(b) != "host file secret" {
			t.Fatalf("through the leaked descriptors: planted %v, host file %q", planted, b)
		}
	}
}

func fcntl(fd, cmd, arg int) (int, error) {
	r, _, errno := syscall.Syscall(syscall.SYS_FCNTL, uintptr(fd), uintptr(cmd), uintptr(arg))
	if errno != 0 {
		return int(r), errno
	}
	return int(r), nil
}
