package buildtools

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"go.uber.org/zap"
)

// Staleness says why a module's classes need compiling; the zero value means they are current.
type Staleness struct {
	MissingOutput string // an output folder that does not exist
	Source        string // a source file whose class file is missing or older
}

// Stale reports whether the module's outputs are missing or a source is newer than its class.
func (s Staleness) Stale() bool { return s.MissingOutput != "" || s.Source != "" }

func (s Staleness) String() string {
	switch {
	case s.MissingOutput != "":
		return "missing " + s.MissingOutput
	case s.Source != "":
		return "changed " + s.Source
	}
	return "up to date"
}

// CheckCompiled compares the source roots with the output folders: every .java file (but
// package-info.java) must have its top-level class file, at least as new as the source.
func (m *Module) CheckCompiled() Staleness {
	check := func(roots []string, out string) Staleness {
		hasSources := false
		var found Staleness
		for _, root := range roots {
			_ = filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
				if found.Stale() {
					return fs.SkipAll
				}
				if err != nil {
					return nil // an unreadable entry: the build tool will say more
				}
				if d.IsDir() || !strings.HasSuffix(path, ".java") || d.Name() == "package-info.java" {
					return nil
				}
				hasSources = true
				rel, err := filepath.Rel(root, path)
				if err != nil {
					return nil
				}
				src, err := d.Info()
				if err != nil {
					return nil
				}
				cls, err := os.Stat(filepath.Join(out, strings.TrimSuffix(rel, ".java")+".class"))
				if err != nil || cls.ModTime().Before(src.ModTime()) {
					found.Source = path
				}
				return nil
			})
		}
		if hasSources && !fileExists(out) {
			return Staleness{MissingOutput: out}
		}
		return found
	}
	if s := check(m.MainSourceRoots, m.MainOutput); s.Stale() {
		return s
	}
	return check(m.TestSourceRoots, m.TestOutput)
}

// EnsureCompiled makes sure the module's main and test classes exist and are current: when an
// output folder is missing or a source is newer than its class, the build tool compiles the
// module (mvn test-compile, gradle testClasses), unless the output folders are missing or empty
// and the classes cache has the classes of the same model and files (a fresh copy of a project
// compiled before). A build that fails returns a *BuildError with the
// tool's own output.
func (m *Module) EnsureCompiled(ctx context.Context) error {
	m.compileMu.Lock()
	defer m.compileMu.Unlock()
	st := m.CheckCompiled()
	if !st.Stale() {
		return m.ensureOutputDirs()
	}
	l := m.loader
	if l == nil {
		l = NewLoader(m.opts)
	}
	start := time.Now()
	// A copy of a project compiled before gets its classes from the cache (classcache.go).
	cacheDir, classesKey := l.classesCacheDir(), ""
	if cacheDir != "" && m.classesCacheable() {
		key, err := m.classesKey()
		if err != nil {
			l.log.Debug("no classes cache for the module", zap.String("root", m.Root), zap.Error(err))
		} else {
			classesKey = key
		}
	}
	if classesKey != "" && m.restoreClasses(cacheDir, classesKey) {
		if !m.CheckCompiled().Stale() {
			l.log.Info("module classes restored from the cache", zap.String("root", m.Root),
				zap.String("reason", st.String()), zap.Duration("took", time.Since(start)))
			return m.ensureOutputDirs()
		}
		// Not current after all (a source dated in the future): the build tool compiles over it.
	}
	var err error
	switch m.BuildSystem {
	case Maven:
		err = m.mavenCompile(ctx, l)
	case Gradle:
		err = m.gradleCompile(ctx, l)
	default:
		err = fmt.Errorf("unknown build system %q", m.BuildSystem)
	}
	if err != nil {
		return fmt.Errorf("compile the module at %s (%s): %w", m.Root, st, err)
	}
	l.log.Info("module compiled", zap.String("root", m.Root), zap.String("reason", st.String()),
		zap.Duration("took", time.Since(start)))
	if err := m.ensureOutputDirs(); err != nil {
		return err
	}
	if classesKey != "" {
		if err := m.storeClasses(cacheDir, classesKey); err != nil {
			l.log.Warn("cannot write the classes cache", zap.String("dir", cacheDir), zap.Error(err))
		}
	}
	return nil
}

// ensureOutputDirs creates an output folder the build tool left out because its source set is
// empty (a module with no tests yet): the harness loads classes from both.
func (m *Module) ensureOutputDirs() error {
	for _, d := range m.ClassDirs() {
		if err := os.MkdirAll(d, 0o755); err != nil {
			return fmt.Errorf("create output folder: %w", err)
		}
	}
	return nil
}
