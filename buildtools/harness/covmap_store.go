package harness

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/advertest/advertest-lsp/internal/filelock"
)

// The map's file: gzipped JSON in the cache folder, one per module. Writers take an exclusive
// lock on a file beside it (internal/filelock), read what is there, merge their records over it and
// rename a complete temporary file into place, so that a reader never sees half a map and two
// writers (the CLI and a server at once) lose neither's records.

// maxMapBytes bounds what is read back: a bigger file is taken as unreadable (rebuilt).
const maxMapBytes = 512 << 20

// refresh loads the file when the map has not been loaded, or when another process wrote it
// since. A missing file, an unreadable one, one of another tool version or format, or one whose
// global key differs starts an empty map, and why says which. Called with mu held.
func (m *coverageMap) refresh() {
	st, err := os.Stat(m.path)
	if m.loaded && err == nil && (fileStamp{size: st.Size(), mtime: st.ModTime()}) == m.stamp {
		return
	}
	if m.loaded && err != nil {
		return // removed since: what is in memory is written back at the next record
	}
	d, why := m.readFile()
	if d == nil {
		d = m.empty()
	}
	m.why = why
	m.data = d
	m.loaded = true
	if err == nil {
		m.stamp = fileStamp{size: st.Size(), mtime: st.ModTime()}
	}
}

func (m *coverageMap) empty() *mapData {
	return &mapData{Format: mapFormat, Tool: m.tool, Key: m.key, TestClasses: map[string]*mapTestClass{}, Tests: map[string]*mapTest{}, Tables: map[string][]MethodLines{}}
}

// readFile reads the map file: nil and why when it cannot be used.
func (m *coverageMap) readFile() (*mapData, string) {
	f, err := os.Open(m.path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, "no coverage map yet"
	}
	if err != nil {
		return nil, "the coverage map cannot be read: " + err.Error()
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		return nil, "the coverage map is unreadable: " + err.Error()
	}
	var d mapData
	if err := json.NewDecoder(io.LimitReader(zr, maxMapBytes)).Decode(&d); err != nil {
		return nil, "the coverage map is unreadable: " + err.Error()
	}
	switch {
	case d.Format != mapFormat:
		return nil, fmt.Sprintf("the coverage map has format %d, not %d", d.Format, mapFormat)
	case d.Tool != m.tool:
		return nil, "the coverage map is from another version of AdverTest"
	case d.Key != m.key:
		return nil, "the JDK, the class path, the resources or a setting changed since the coverage map was made"
	case d.Tests == nil || d.Tables == nil || d.TestClasses == nil:
		return nil, "the coverage map is unreadable: parts are missing"
	}
	return &d, ""
}

// save writes the new records: under the lock, over the file's (another writer's since we read
// it; ours in memory when the file cannot be used), into a temporary file renamed over the map.
// Called with mu held.
func (m *coverageMap) save(records *mapData) error {
	if err := os.MkdirAll(filepath.Dir(m.path), 0o755); err != nil {
		return fmt.Errorf("make the coverage map's folder: %w", err)
	}
	unlock, err := filelock.Lock(m.path + ".lock")
	if err != nil {
		return fmt.Errorf("lock the coverage map: %w", err)
	}
	defer unlock()
	if onDisk, _ := m.readFile(); onDisk != nil {
		m.data = onDisk
	}
	m.merge(records)
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	if err := json.NewEncoder(zw).Encode(m.data); err != nil {
		return fmt.Errorf("encode the coverage map: %w", err)
	}
	if err := zw.Close(); err != nil {
		return fmt.Errorf("compress the coverage map: %w", err)
	}
	tmp, err := os.CreateTemp(filepath.Dir(m.path), "map-*.tmp")
	if err != nil {
		return fmt.Errorf("write the coverage map: %w", err)
	}
	_, werr := tmp.Write(buf.Bytes())
	if cerr := tmp.Close(); werr == nil {
		werr = cerr
	}
	if werr == nil {
		werr = os.Rename(tmp.Name(), m.path)
	}
	if werr != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("write the coverage map: %w", werr)
	}
	if st, err := os.Stat(m.path); err == nil {
		m.stamp = fileStamp{size: st.Size(), mtime: st.ModTime()}
	}
	m.why = ""
	return nil
}
