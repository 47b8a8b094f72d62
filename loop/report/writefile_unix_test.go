//go:build unix

package report

import (
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// TestReplaceFileMode: a new file gets 0666 less the umask, as os.WriteFile gives (not
// os.CreateTemp's 0600); a replaced file keeps its mode.
func TestReplaceFileMode(t *testing.T) {
	dir := t.TempDir()
	old := syscall.Umask(0o022)
	t.Cleanup(func() { syscall.Umask(old) })
	mode := func(p string) fs.FileMode {
		t.Helper()
		info, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		return info.Mode().Perm()
	}
	fresh := filepath.Join(dir, "fresh.java")
	if err := WriteFileAtomic(fresh, []byte("x")); err != nil {
		t.Fatal(err)
	}
	if m := mode(fresh); m != 0o644 {
		t.Errorf("new file with umask 022: mode %o, want 644", m)
	}
	syscall.Umask(0o027)
	other := filepath.Join(dir, "other.java")
	if err := WriteFileAtomic(other, []byte("x")); err != nil {
		t.Fatal(err)
	}
	if m := mode(other); m != 0o640 {
		t.Errorf("new file with umask 027: mode %o, want 640", m)
	}
	if err := os.Chmod(fresh, 0o664); err != nil {
		t.Fatal(err)
	}
	if err := WriteFileAtomic(fresh, []byte("y")); err != nil {
		t.Fatal(err)
	}
	if m := mode(fresh); m != 0o664 {
		t.Errorf("replaced file: mode %o, want its 664 kept", m)
	}
}
