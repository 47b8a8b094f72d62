//go:build unix

package filelock

import (
	"errors"
	"io/fs"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestLockExcludesAnotherProcess: while this process holds the lock, flock(1) in another
// process cannot take it; once released, it can.
func TestLockExcludesAnotherProcess(t *testing.T) {
	if _, err := exec.LookPath("flock"); err != nil {
		t.Skip("flock(1) is not installed")
	}
	path := filepath.Join(t.TempDir(), "map.lock")
	unlock, err := Lock(path)
	if err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command("flock", "--nonblock", "--exclusive", path, "true").CombinedOutput()
	if err == nil {
		t.Fatalf("another process took the lock while it was held (%s)", out)
	}
	unlock()
	if out, err := exec.Command("flock", "--nonblock", "--exclusive", path, "true").CombinedOutput(); err != nil {
		t.Fatalf("the lock was not released: %v %s", err, out)
	}
}

// TestLockWaitsForTheHolder: a second Lock in this process (a file description of its own, as
// another process would have) waits until the first is released.
func TestLockWaitsForTheHolder(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state.lock")
	unlock, err := Lock(path)
	if err != nil {
		t.Fatal(err)
	}
	got := make(chan struct{})
	go func() {
		u, err := Lock(path)
		if err != nil {
			t.Error(err)
		} else {
			u()
		}
		close(got)
	}()
	select {
	case <-got:
		t.Fatal("the second Lock did not wait for the first")
	case <-time.After(200 * time.Millisecond):
	}
	unlock()
	select {
	case <-got:
	case <-time.After(10 * time.Second):
		t.Fatal("the second Lock still waits after the release")
	}
}

// TestLockMissingFolder: a lock in a folder that does not exist is an error that names it.
func TestLockMissingFolder(t *testing.T) {
	_, err := Lock(filepath.Join(t.TempDir(), "gone", "x.lock"))
	if err == nil || !strings.Contains(err.Error(), "lock file") || !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("err = %v", err)
	}
}
