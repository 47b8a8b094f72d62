package report

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// TestReplaceFileFlushesBeforeTheRename: the data reaches the disk before the rename makes
// it visible, and the folder after.
func TestReplaceFileFlushesBeforeTheRename(t *testing.T) {
	path := filepath.Join(t.TempDir(), "out.json")
	if err := os.WriteFile(path, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	var steps []string
	origFile, origDir := syncFile, syncDir
	t.Cleanup(func() { syncFile, syncDir = origFile, origDir })
	syncFile = func(f *os.File) error {
		if cur, _ := os.ReadFile(path); string(cur) != "old" {
			t.Errorf("the file was replaced before its data was flushed: %q", cur)
		}
		steps = append(steps, "file "+filepath.Base(f.Name()))
		return origFile(f)
	}
	syncDir = func(dir string) error {
		if cur, _ := os.ReadFile(path); string(cur) != "new" {
			t.Errorf("the folder was flushed before the rename: %q", cur)
		}
		steps = append(steps, "dir "+dir)
		return origDir(dir)
	}
	if err := WriteFileAtomic(path, []byte("new")); err != nil {
		t.Fatal(err)
	}
	if len(steps) != 2 || steps[0][:5] != "file " || steps[0] == "file out.json" || steps[1] != "dir "+filepath.Dir(path) {
		t.Fatalf("steps %q: want the temporary file flushed, then the folder", steps)
	}
	// A failing flush leaves the old file and no temporary one.
	syncFile = func(*os.File) error { return errors.New("disk on fire") }
	if err := WriteFileAtomic(path, []byte("newer")); err == nil {
		t.Fatal("no error from a failed flush")
	}
	assertOnly(t, path, "new")
}

// TestReplaceFileGuard: the guard sees what the file holds just before the rename, and its
// refusal leaves the file as it was.
func TestReplaceFileGuard(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sub", "T.java")
	var seen []string
	guard := func(current []byte, exists bool) error {
		seen = append(seen, string(current))
		if exists && !bytes.HasPrefix(current, []byte("// gen")) {
			return errors.New("not ours")
		}
		return nil
	}
	if err := ReplaceFile(path, []byte("// gen 1"), guard); err != nil {
		t.Fatal(err)
	}
	if err := ReplaceFile(path, []byte("// gen 2"), guard); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte("mine"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := ReplaceFile(path, []byte("// gen 3"), guard); err == nil || err.Error() != "not ours" {
		t.Fatalf("guard's refusal: %v", err)
	}
	assertOnly(t, path, "mine")
	if len(seen) != 3 || seen[0] != "" || seen[1] != "// gen 1" || seen[2] != "mine" {
		t.Errorf("guard saw %q", seen)
	}
}

// assertOnly checks that path holds want and that no temporary file is left beside it.
func assertOnly(t *testing.T, path, want string) {
	t.Helper()
	if got, _ := os.ReadFile(path); string(got) != want {
		t.Errorf("%s holds %q, want %q", path, got, want)
	}
	entries, _ := os.ReadDir(filepath.Dir(path))
	if len(entries) != 1 {
		t.Errorf("files beside %s: %v", filepath.Base(path), entries)
	}
}
