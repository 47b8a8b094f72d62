package state

import (
	"os"
	"path/filepath"
	"sync"
	"time"
)

// The index remembers, for each method file of a state folder, which source file its report
// is about, so that ForFile (a document opened in the editor) reads the states of that file
// only, not every method file of the module. A method file is read again when its size or
// modification time changed since it was indexed (another process wrote it, the user
// replaced it); the files this process saves are indexed as they are written.

// indexEntry is what the index knows of one method file.
type indexEntry struct {
	size    int64
	modTime time.Time
	// source is the file the method's report is about (Target.File).
	source string
}

// fileIndex is the index of one state folder's method files, by absolute path.
type fileIndex struct {
	// mu guards entries.
	mu      sync.Mutex
	entries map[string]indexEntry
}

// indexes holds one fileIndex per state folder of the process.
var indexes sync.Map // string (absolute state folder) → *fileIndex

func (s *Store) index() *fileIndex {
	dir, err := filepath.Abs(s.Dir())
	if err != nil {
		dir = s.Dir()
	}
	ix, _ := indexes.LoadOrStore(dir, &fileIndex{entries: map[string]indexEntry{}})
	return ix.(*fileIndex)
}

// source returns the indexed source file of a method file whose size and modification time
// are info's; ok is false when the file is not indexed as it is now.
func (ix *fileIndex) source(path string, info os.FileInfo) (string, bool) {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	e, ok := ix.entries[absPath(path)]
	if !ok || e.size != info.Size() || !e.modTime.Equal(info.ModTime()) {
		return "", false
	}
	return e.source, true
}

// record indexes path, whose method's report is about source, as it is on disk now; a file
// that cannot be read is forgotten.
func (ix *fileIndex) record(path, source string) {
	info, err := os.Stat(path)
	ix.mu.Lock()
	defer ix.mu.Unlock()
	if err != nil || !info.Mode().IsRegular() {
		delete(ix.entries, absPath(path))
		return
	}
	ix.entries[absPath(path)] = indexEntry{size: info.Size(), modTime: info.ModTime(), source: source}
}

// forget drops path from the index (a file moved aside or gone).
func (ix *fileIndex) forget(path string) {
	ix.mu.Lock()
	delete(ix.entries, absPath(path))
	ix.mu.Unlock()
}

func absPath(p string) string {
	if abs, err := filepath.Abs(p); err == nil {
		return abs
	}
	return p
}
