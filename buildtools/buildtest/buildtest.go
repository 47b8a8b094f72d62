package buildtest

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/advertest/advertest-lsp/buildtools"
	"github.com/advertest/advertest-lsp/internal/testenv"
)

// ExamplesDir is the repository's examples/ folder.
func ExamplesDir() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..", "examples")
}

// buildOutput are the folders a copy leaves out.
var buildOutput = map[string]bool{"target": true, "build": true, ".gradle": true, ".advertest": true}

// CopyProject copies a project's sources and build files from src to dst, leaving its build
// output (target/, build/, .gradle/, .advertest/) behind.
func CopyProject(src, dst string) error {
	return filepath.WalkDir(src, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(src, path)
		if err != nil {
			return err
		}
		if d.IsDir() {
			if rel != "." && buildOutput[d.Name()] {
				return filepath.SkipDir
			}
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), b, 0o644)
	})
}

// CopyExample copies the named example (maven-calculator, gradle-inventory) into a new
// temporary folder of t's and returns the copy's root.
func CopyExample(t testing.TB, name string) string {
	t.Helper()
	testenv.NeedsJVM(t)
	root := filepath.Join(t.TempDir(), name)
	if err := CopyProject(filepath.Join(ExamplesDir(), name), root); err != nil {
		t.Fatalf("copying example %s: %v", name, err)
	}
	return root
}

// Examples opens example projects once per test binary. The zero value is ready; call Close
// from TestMain after m.Run.
type Examples struct {
	mu   sync.Mutex
	dir  string
	open map[string]*opened
}

type opened struct {
	proj *buildtools.Project
	root string
	err  error
}

// Open returns the named example's project (copied, compiled, its pool started) and the copy's
// root, opening it on first use. Tests share it: they must not change its files. A machine
// without the example's build tool or a JDK skips the test.
func (e *Examples) Open(t testing.TB, name string) (*buildtools.Project, string) {
	t.Helper()
	testenv.NeedsJVM(t)
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.open == nil {
		e.open = map[string]*opened{}
	}
	o := e.open[name]
	if o == nil {
		o = e.openLocked(name)
		e.open[name] = o
	}
	if o.err != nil {
		var ee *exec.Error
		if errors.As(o.err, &ee) {
			t.Skipf("toolchain missing: %v", o.err)
		}
		t.Fatalf("opening example %s: %v", name, o.err)
	}
	return o.proj, o.root
}

func (e *Examples) openLocked(name string) *opened {
	tool := "mvn"
	if strings.HasPrefix(name, "gradle") {
		tool = "gradle"
	}
	for _, cmd := range []string{tool, "javac"} {
		if _, err := exec.LookPath(cmd); err != nil {
			return &opened{err: err}
		}
	}
	if e.dir == "" {
		dir, err := os.MkdirTemp("", "advertest-examples-")
		if err != nil {
			return &opened{err: err}
		}
		e.dir = dir
	}
	root := filepath.Join(e.dir, name)
	if err := CopyProject(filepath.Join(ExamplesDir(), name), root); err != nil {
		return &opened{err: err}
	}
	file, err := firstJavaFile(filepath.Join(root, "src", "main"))
	if err != nil {
		return &opened{err: err}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	proj, err := buildtools.OpenProject(ctx, buildtools.NewLoader(buildtools.Options{CacheDir: "-"}), file,
		buildtools.ProjectOptions{Workers: 2, CacheDir: filepath.Join(e.dir, "cache")})
	return &opened{proj: proj, root: root, err: err}
}

// CacheDir is a cache folder shared by the binary's tests (compiled worker and explorer).
func (e *Examples) CacheDir() string {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.dir == "" {
		dir, err := os.MkdirTemp("", "advertest-examples-")
		if err != nil {
			return ""
		}
		e.dir = dir
	}
	return filepath.Join(e.dir, "cache")
}

// Close stops the opened projects' workers and removes the copies.
func (e *Examples) Close() {
	e.mu.Lock()
	defer e.mu.Unlock()
	for _, o := range e.open {
		if o.proj != nil {
			o.proj.Close()
		}
	}
	if e.dir != "" {
		os.RemoveAll(e.dir)
	}
}

func firstJavaFile(dir string) (string, error) {
	var found string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if found == "" && !d.IsDir() && strings.HasSuffix(p, ".java") {
			found = p
		}
		return nil
	})
	if err == nil && found == "" {
		err = fmt.Errorf("no Java source under %s", dir)
	}
	return found, err
}
