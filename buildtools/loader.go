package buildtools

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"time"

	"go.uber.org/zap"
)

// Options configure how modules are loaded and compiled.
type Options struct {
	MavenArgs  []string // extra Maven arguments (the maven.args setting), before the goals
	GradleArgs []string // extra Gradle arguments, before the tasks
	Logger     *zap.Logger
	// CacheDir holds the on-disk model cache (CacheDir/projects/KEY.json). "" means
	// os.UserCacheDir()/advertest; "-" turns the disk cache off.
	CacheDir string
	// APIKeyEnv names the LLM's API key variable (the setting llm.apiKeyEnv; "" is
	// OPENAI_API_KEY), which Maven and Gradle never see.
	APIKeyEnv string
	// OnToolRun, when set, is called before every build tool run (tests count runs with it).
	OnToolRun func(tool string, args []string, dir string)
}

// cacheSchema changes whenever Module's cached form or its meaning changes.
const cacheSchema = "buildtools-module-v1"

// Loader loads modules and keeps them in memory and on disk, keyed on the content of their build
// files: a second load of an unchanged module runs no build tool. A Loader is safe for
// concurrent use; loads of one module are serialised.
type Loader struct {
	opts Options
	log  *zap.Logger

	mu sync.Mutex
	// modules holds the last model per module root, with the key it was loaded under.
	modules map[string]*Module
	// rootLocks serialise loads of one module root.
	rootLocks map[string]*sync.Mutex
}

// NewLoader returns a Loader with opts.
func NewLoader(opts Options) *Loader {
	log := opts.Logger
	if log == nil {
		log = zap.NewNop()
	}
	return &Loader{opts: opts, log: log, modules: map[string]*Module{}, rootLocks: map[string]*sync.Mutex{}}
}

// LoadModule loads the module that owns javaFile with a one-off Loader: the disk cache applies,
// the memory cache does not. Long-lived callers keep a Loader.
func LoadModule(ctx context.Context, javaFile string, opts Options) (*Module, error) {
	return NewLoader(opts).Load(ctx, javaFile)
}

// Load returns the model of the module that owns javaFile (see FindModuleRoot).
func (l *Loader) Load(ctx context.Context, javaFile string) (*Module, error) {
	root, bs, err := FindModuleRoot(javaFile)
	if err != nil {
		return nil, err
	}
	return l.LoadRoot(ctx, root, bs)
}

// LoadRoot returns the model of the module at root, built with bs.
func (l *Loader) LoadRoot(ctx context.Context, root string, bs BuildSystem) (*Module, error) {
	lock := l.rootLock(root)
	lock.Lock()
	defer lock.Unlock()

	files := l.buildFiles(root, bs)
	key, err := l.cacheKey(root, bs, files)
	if err != nil {
		return nil, err
	}
	anchor := buildAnchor(root, bs, files)
	movableKey, err := l.relocatableKey(anchor, root, bs, files)
	if err != nil {
		return nil, err
	}
	l.mu.Lock()
	cached := l.modules[root]
	l.mu.Unlock()
	if cached != nil && (cached.CacheKey == key || cached.CacheKey == movableKey) {
		return cached, nil
	}
	if m := l.readDiskCache(movableKey); m != nil && m.Relocatable && m.Anchor != "" {
		from, moveErr := m.Anchor, error(nil)
		if from != anchor {
			m, moveErr = m.relocated(from, anchor)
		}
		if moveErr == nil && m.Root == root && classpathExists(m) {
			l.log.Debug("module model from the disk cache", zap.String("root", root), zap.String("builtAt", from))
			return l.remember(m), nil
		}
	}
	if m := l.readDiskCache(key); m != nil {
		l.log.Debug("module model from the disk cache", zap.String("root", root))
		return l.remember(m), nil
	}

	start := time.Now()
	var m *Module
	switch bs {
	case Maven:
		m, err = l.loadMaven(ctx, root)
	case Gradle:
		m, err = l.loadGradle(ctx, root)
	default:
		err = fmt.Errorf("unknown build system %q", bs)
	}
	if err != nil {
		return nil, fmt.Errorf("load %s module at %s: %w", bs, root, err)
	}
	m.BuildFiles = files
	m.Anchor = anchor
	m.Relocatable = canRelocate(m, anchor)
	m.CacheKey = key
	if m.Relocatable {
		m.CacheKey = movableKey
	}
	m.JUnit = JUnitVersionOf(m.TestClasspath)
	m.MockitoVersion = MockitoVersionOf(m.TestClasspath)
	l.log.Info("module model loaded", zap.String("root", root), zap.String("build", string(bs)),
		zap.Int("classpath", len(m.TestClasspath)), zap.Int("junit", m.JUnit),
		zap.String("release", m.Release), zap.Duration("took", time.Since(start)))
	l.writeDiskCache(m)
	return l.remember(m), nil
}

// remember attaches the loader's options to m and keeps it as the module's current model.
func (l *Loader) remember(m *Module) *Module {
	m.opts = l.opts
	m.loader = l
	l.mu.Lock()
	l.modules[m.Root] = m
	l.mu.Unlock()
	return m
}

func (l *Loader) rootLock(root string) *sync.Mutex {
	l.mu.Lock()
	defer l.mu.Unlock()
	lk := l.rootLocks[root]
	if lk == nil {
		lk = &sync.Mutex{}
		l.rootLocks[root] = lk
	}
	return lk
}

func (l *Loader) buildFiles(root string, bs BuildSystem) []string {
	if bs == Gradle {
		return gradleBuildFiles(root)
	}
	return mavenBuildFiles(root)
}

// cacheKey hashes what decides a module's model: the root, the tool arguments and the build
// files' paths and content.
func (l *Loader) cacheKey(root string, bs BuildSystem, files []string) (string, error) {
	return l.buildKey(cacheSchema, func(p string) string { return p }, root, bs, files)
}

// relocatableKey hashes what decides a relocatable module's model: the tool arguments, the
// module's place in its build and the build files' places and content, all below the build's
// anchor (a file outside it, the user's settings.xml, by its own path).
func (l *Loader) relocatableKey(anchor, root string, bs BuildSystem, files []string) (string, error) {
	place := func(p string) string {
		if r, err := filepath.Rel(anchor, p); err == nil && isWithin(anchor, p) {
			return "anchor/" + filepath.ToSlash(r)
		}
		return p
	}
	key, err := l.buildKey(cacheSchema+" relocatable", place, root, bs, files)
	return "r" + key[:min(len(key), 31)], err
}

// buildKey hashes schema, the module's place, the build system, the tool arguments and each build
// file's place and content.
func (l *Loader) buildKey(schema string, place func(string) string, root string, bs BuildSystem, files []string) (string, error) {
	h := sha256.New()
	write := func(s string) { h.Write([]byte(s)); h.Write([]byte{0}) }
	write(schema)
	write(place(root))
	write(string(bs))
	for _, a := range l.opts.MavenArgs {
		write("maven-arg " + a)
	}
	for _, a := range l.opts.GradleArgs {
		write("gradle-arg " + a)
	}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			return "", fmt.Errorf("read build file: %w", err)
		}
		write(place(f))
		write(string(b))
	}
	return hex.EncodeToString(h.Sum(nil))[:32], nil
}

func (l *Loader) cacheDir() string {
	switch l.opts.CacheDir {
	case "-":
		return ""
	case "":
		d, err := os.UserCacheDir()
		if err != nil {
			return ""
		}
		return filepath.Join(d, "advertest", "projects")
	default:
		return filepath.Join(l.opts.CacheDir, "projects")
	}
}

// readDiskCache returns the cached model under key, or nil when there is none or a jar on its
// classpath has gone (a cleaned local repository).
func (l *Loader) readDiskCache(key string) *Module {
	dir := l.cacheDir()
	if dir == "" {
		return nil
	}
	b, err := os.ReadFile(filepath.Join(dir, key+".json"))
	if err != nil {
		return nil
	}
	var m Module
	if err := json.Unmarshal(b, &m); err != nil || m.CacheKey != key {
		return nil
	}
	if !classpathExists(&m) {
		return nil
	}
	return &m
}

// classpathExists reports whether every entry of m's test class path is there: a cached model
// whose jar has gone (a cleaned local repository) is loaded again.
func classpathExists(m *Module) bool {
	for _, p := range m.TestClasspath {
		if !fileExists(p) {
			return false
		}
	}
	return true
}

// writeDiskCache stores m atomically; a failure only costs the next start a build tool run.
func (l *Loader) writeDiskCache(m *Module) {
	dir := l.cacheDir()
	if dir == "" {
		return
	}
	b, err := json.MarshalIndent(m, "", "  ")
	if err == nil {
		err = os.MkdirAll(dir, 0o755)
	}
	if err == nil {
		var f *os.File
		f, err = os.CreateTemp(dir, m.CacheKey+".*.tmp")
		if err == nil {
			_, err = f.Write(b)
			if cerr := f.Close(); err == nil {
				err = cerr
			}
			if err == nil {
				err = os.Rename(f.Name(), filepath.Join(dir, m.CacheKey+".json"))
			}
			if err != nil {
				os.Remove(f.Name())
			}
		}
	}
	if err != nil {
		l.log.Warn("cannot write the module cache", zap.String("dir", dir), zap.Error(err))
	}
}

// noteRun reports a build tool run to the OnToolRun hook.
func (l *Loader) noteRun(r toolRun) {
	l.log.Debug("running build tool", zap.String("tool", r.tool), zap.Strings("args", r.args), zap.String("dir", r.dir))
	if l.opts.OnToolRun != nil {
		l.opts.OnToolRun(r.tool, r.args, r.dir)
	}
}
