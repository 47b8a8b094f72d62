package buildtools

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"
)

// The compiled-classes cache keeps the output folders of the build tool's last compiles, keyed
// by the model and every file of the module, so that a fresh clone or copy of a project that
// AdverTest compiled before (or the same project after `mvn clean`) gets its classes back in
// milliseconds instead of a `mvn test-compile`. It restores into output folders that are missing
// or empty only, the way a build cache restores outputs: it never deletes or overwrites a class.
// See docs/architecture.md, "Caches".

const (
	classesCacheSchema = "buildtools-classes-v1"
	// classesCacheEntries is how many compiles the cache keeps (the oldest used goes first).
	classesCacheEntries = 8
	// classesKeyMaxFiles and classesKeyMaxBytes bound what the key hashes: a module bigger than
	// that is compiled by its build tool, as without the cache.
	classesKeyMaxFiles = 20_000
	classesKeyMaxBytes = 256 << 20
)

var errTooBigToKey = errors.New("module too big for the classes cache")

// classesCacheDir is where the compiled-classes cache lives; "" when the disk cache is off.
func (l *Loader) classesCacheDir() string {
	d := l.cacheDir()
	if d == "" {
		return ""
	}
	return filepath.Join(filepath.Dir(d), "classes")
}

// classesCacheable reports whether m's classes can be cached: a relocatable model (whose test
// class path holds no sibling module's output) whose output folders lie in the module.
func (m *Module) classesCacheable() bool {
	return m.Relocatable && m.ReactorRoot == "" && m.MainOutput != "" && m.TestOutput != "" &&
		isWithin(m.Root, m.MainOutput) && isWithin(m.Root, m.TestOutput) &&
		m.MainOutput != m.Root && m.TestOutput != m.Root
}

// classesKey hashes what decides the module's compiled classes: its model's key, the JDK and
// every file of the module but its build output, hidden folders (.git, .gradle, .advertest) and
// the folders of modules nested in it.
func (m *Module) classesKey() (string, error) {
	h := sha256.New()
	write := func(s string) { h.Write([]byte(s)); h.Write([]byte{0}) }
	write(classesCacheSchema)
	write(m.CacheKey)
	write(os.Getenv("JAVA_HOME"))
	outputs := []string{m.MainOutput, m.TestOutput}
	files, bytes := 0, int64(0)
	err := filepath.WalkDir(m.Root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if p == m.Root {
				return nil
			}
			if strings.HasPrefix(d.Name(), ".") {
				return filepath.SkipDir
			}
			for _, o := range outputs {
				if isWithin(p, o) {
					return filepath.SkipDir // the build folder (target, build) or an output itself
				}
			}
			for _, bf := range buildFileNames {
				if fileExists(filepath.Join(p, bf.name)) {
					return filepath.SkipDir // another module (with its own outputs), not this one's input
				}
			}
			return nil
		}
		if !d.Type().IsRegular() {
			return nil
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		files++
		bytes += info.Size()
		if files > classesKeyMaxFiles || bytes > classesKeyMaxBytes {
			return errTooBigToKey
		}
		rel, _ := filepath.Rel(m.Root, p)
		write(filepath.ToSlash(rel))
		f, err := os.Open(p)
		if err != nil {
			return err
		}
		defer f.Close()
		fh := sha256.New()
		if _, err := io.Copy(fh, f); err != nil {
			return err
		}
		write(hex.EncodeToString(fh.Sum(nil)))
		return nil
	})
	if err != nil {
		return "", fmt.Errorf("hash the module's files for the classes cache: %w", err)
	}
	return hex.EncodeToString(h.Sum(nil))[:32], nil
}

// restoreClasses copies the cached classes under key into the module's output folders when both
// are missing or empty; it reports whether it did. A failed copy removes what it wrote.
func (m *Module) restoreClasses(dir, key string) bool {
	entry := filepath.Join(dir, key)
	if !fileExists(filepath.Join(entry, "complete")) {
		return false
	}
	if hasFiles(m.MainOutput) || hasFiles(m.TestOutput) {
		return false
	}
	if err := copyTree(filepath.Join(entry, "main"), m.MainOutput); err != nil {
		os.RemoveAll(m.MainOutput)
		return false
	}
	if err := copyTree(filepath.Join(entry, "test"), m.TestOutput); err != nil {
		os.RemoveAll(m.MainOutput)
		os.RemoveAll(m.TestOutput)
		return false
	}
	now := time.Now()
	os.Chtimes(entry, now, now) // most recently used: evicted last
	return true
}

// storeClasses keeps a copy of the module's output folders under key (written aside, then
// renamed into place) and evicts the least recently used entries beyond classesCacheEntries.
func (m *Module) storeClasses(dir, key string) error {
	entry := filepath.Join(dir, key)
	if fileExists(filepath.Join(entry, "complete")) {
		return nil
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	tmp, err := os.MkdirTemp(dir, key+".*.tmp")
	if err != nil {
		return err
	}
	err = copyTree(m.MainOutput, filepath.Join(tmp, "main"))
	if err == nil {
		err = copyTree(m.TestOutput, filepath.Join(tmp, "test"))
	}
	if err == nil {
		err = os.WriteFile(filepath.Join(tmp, "complete"), nil, 0o644)
	}
	if err == nil {
		os.RemoveAll(entry) // an incomplete entry left by a crash
		err = os.Rename(tmp, entry)
	}
	if err != nil {
		os.RemoveAll(tmp)
		return err
	}
	evictClasses(dir)
	return nil
}

// evictClasses removes the least recently used entries beyond classesCacheEntries, and
// temporary folders older than an hour (left by a crash).
func evictClasses(dir string) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	type entry struct {
		path string
		used time.Time
	}
	var keep []entry
	for _, e := range ents {
		info, err := e.Info()
		if err != nil || !e.IsDir() {
			continue
		}
		p := filepath.Join(dir, e.Name())
		if strings.HasSuffix(e.Name(), ".tmp") {
			if time.Since(info.ModTime()) > time.Hour {
				os.RemoveAll(p)
			}
			continue
		}
		keep = append(keep, entry{p, info.ModTime()})
	}
	sort.Slice(keep, func(i, j int) bool { return keep[i].used.After(keep[j].used) })
	for _, e := range keep[min(len(keep), classesCacheEntries):] {
		os.RemoveAll(e.path)
	}
}

// hasFiles reports whether dir holds a file anywhere below it.
func hasFiles(dir string) bool {
	found := false
	filepath.WalkDir(dir, func(_ string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if !d.IsDir() {
			found = true
			return fs.SkipAll
		}
		return nil
	})
	return found
}

// copyTree copies the regular files under src to dst (created as needed); the copies are dated
// now, so that they read as newer than the sources they were compiled from.
func copyTree(src, dst string) error {
	return filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if p == src && errors.Is(err, fs.ErrNotExist) {
				return os.MkdirAll(dst, 0o755)
			}
			return err
		}
		rel, _ := filepath.Rel(src, p)
		target := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		if !d.Type().IsRegular() {
			return nil
		}
		in, err := os.Open(p)
		if err != nil {
			return err
		}
		defer in.Close()
		out, err := os.OpenFile(target, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
		if err != nil {
			return err
		}
		if _, err := io.Copy(out, in); err != nil {
			out.Close()
			return err
		}
		return out.Close()
	})
}
