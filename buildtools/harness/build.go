package harness

import (
	"archive/zip"
	"bytes"
	"context"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"

	"go.uber.org/zap"
)

// workerSources is the worker's Java code, compiled with the user's JDK on first use.
//
//go:embed java
var workerSources embed.FS

// workerHeap bounds the worker's heap so an unbounded allocation ends as an OutOfMemoryError fast.
const workerHeap = "-Xmx512m"

// prepare finds the JDK and jars, builds (or reuses) the worker classes and says how to start it.
// built reports whether the worker was compiled now.
func prepare(ctx context.Context, cfg Config) (spec *launchSpec, built bool, err error) {
	java, javac, err := findJDK(cfg.JavaHome)
	if err != nil {
		return nil, false, err
	}
	cacheDir := cfg.CacheDir
	if cacheDir == "" {
		base, err := os.UserCacheDir()
		if err != nil {
			return nil, false, fmt.Errorf("harness: no cache folder: %w", err)
		}
		cacheDir = filepath.Join(base, "advertest")
	}
	support, err := supportJars()
	if err != nil {
		return nil, false, err
	}
	workerJar, built, err := buildWorker(ctx, javac, support, cacheDir, cfg.Logger)
	if err != nil {
		return nil, false, err
	}
	cp := strings.Join(append([]string{workerJar}, support...), string(os.PathListSeparator))
	base := []string{workerHeap, "-XX:+UseSerialGC", "-XX:-UsePerfData", "-Xshare:auto", "-Djava.awt.headless=true"}
	args := append([]string(nil), base...)
	var cds *cdsSpec
	if major := jdkMajor(java); major >= 13 {
		cds = &cdsSpec{archive: cdsArchivePath(workerJar, java), args: append(append([]string(nil), base...), "-cp", cp, "advertest.worker.Main")}
	}
	includes := cfg.CoverageIncludes
	if len(includes) == 0 {
		includes = deriveIncludes(cfg.ProjectClassDirs)
	}
	if len(includes) > 0 {
		agent, err := jacocoAgent(cfg.JacocoAgentJar, cacheDir)
		if err != nil {
			cfg.Logger.Warn("harness: no JaCoCo agent; coverage is off", zap.Error(err))
		} else {
			args = append(args, "-javaagent:"+agent+"=output=none,includes="+strings.Join(includes, ":"))
		}
	}
	args = append(args, "-cp", cp, "advertest.worker.Main")
	return &launchSpec{
		java: java,
		args: args,
		cds:  cds,
		init: map[string]any{
			"libraryClasspath": nonNil(cfg.LibraryClasspath),
			"projectClassDirs": nonNil(cfg.ProjectClassDirs),
			"release":          cfg.Release,
			"compilerArgs":     nonNil(cfg.CompilerArgs),
		},
	}, built, nil
}

// findJDK returns the java and javac of javaHome, else $JAVA_HOME, else the `java` on PATH.
func findJDK(javaHome string) (java, javac string, err error) {
	if javaHome == "" {
		javaHome = os.Getenv("JAVA_HOME")
	}
	if javaHome == "" {
		onPath, err := exec.LookPath("java")
		if err != nil {
			return "", "", fmt.Errorf("harness: no JDK: JAVA_HOME is not set and java is not on PATH: %w", err)
		}
		real, err := filepath.EvalSymlinks(onPath)
		if err != nil {
			return "", "", fmt.Errorf("harness: resolve %s: %w", onPath, err)
		}
		javaHome = filepath.Dir(filepath.Dir(real))
	}
	java = filepath.Join(javaHome, "bin", "java")
	javac = filepath.Join(javaHome, "bin", "javac")
	for _, f := range []string{java, javac} {
		if _, err := os.Stat(f); err != nil {
			return "", "", fmt.Errorf("harness: %s is not a JDK (need java and javac): %w", javaHome, err)
		}
	}
	return java, javac, nil
}

// supportJars finds JaCoCo core and ASM, which the worker loads in its own class loader.
func supportJars() ([]string, error) {
	wanted := []struct{ debian, maven string }{
		{"org.jacoco.core.jar", "org/jacoco/org.jacoco.core/*/org.jacoco.core-*.jar"},
		{"asm.jar", "org/ow2/asm/asm/*/asm-*.jar"},
		{"asm-commons.jar", "org/ow2/asm/asm-commons/*/asm-commons-*.jar"},
		{"asm-tree.jar", "org/ow2/asm/asm-tree/*/asm-tree-*.jar"},
	}
	var out []string
	for _, w := range wanted {
		f := findJar(w.debian, w.maven)
		if f == "" {
			return nil, fmt.Errorf("harness: %s not found (looked in /usr/share/java and the local Maven repositories)", w.debian)
		}
		out = append(out, f)
	}
	return out, nil
}

func mavenRepos() []string {
	repos := []string{"/usr/share/maven-repo"}
	if home, err := os.UserHomeDir(); err == nil {
		repos = append([]string{filepath.Join(home, ".m2", "repository")}, repos...)
	}
	return repos
}

// findJar looks for a Debian jar, then the newest matching one in a local Maven repository.
func findJar(debian, mavenGlob string) string {
	if f := filepath.Join("/usr/share/java", debian); fileExists(f) {
		return f
	}
	for _, repo := range mavenRepos() {
		matches, _ := filepath.Glob(filepath.Join(repo, mavenGlob))
		var jars []string
		for _, m := range matches {
			if !strings.HasSuffix(m, "-sources.jar") && !strings.HasSuffix(m, "-javadoc.jar") {
				jars = append(jars, m)
			}
		}
		if len(jars) > 0 {
			sort.Strings(jars)
			return jars[len(jars)-1]
		}
	}
	return ""
}

func fileExists(f string) bool {
	_, err := os.Stat(f)
	return err == nil
}

// workerHash is the content hash of the embedded sources: the cache key of the compiled worker.
func workerHash() (string, error) {
	h := sha256.New()
	h.Write([]byte("advertest-worker-v1\n"))
	err := fs.WalkDir(workerSources, "java", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := workerSources.ReadFile(path)
		if err != nil {
			return err
		}
		fmt.Fprintf(h, "%s %d\n", path, len(b))
		h.Write(b)
		return nil
	})
	if err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil))[:16], nil
}

// buildWorker compiles the embedded sources with javac --release 11 and packs them as
// cacheDir/worker/<hash>/worker.jar (a jar, so a class-data-sharing archive can cover it), unless
// it is there already. The build happens in a temporary folder renamed into place, so racing
// processes are safe.
func buildWorker(ctx context.Context, javac string, classpath []string, cacheDir string, log *zap.Logger) (string, bool, error) {
	hash, err := workerHash()
	if err != nil {
		return "", false, fmt.Errorf("harness: hash worker sources: %w", err)
	}
	final := filepath.Join(cacheDir, "worker", hash)
	jar := filepath.Join(final, "worker.jar")
	if fileExists(filepath.Join(final, "ok")) {
		return jar, false, nil
	}
	if err := os.MkdirAll(filepath.Dir(final), 0o755); err != nil {
		return "", false, fmt.Errorf("harness: create cache: %w", err)
	}
	tmp, err := os.MkdirTemp(filepath.Dir(final), "build-")
	if err != nil {
		return "", false, fmt.Errorf("harness: create build folder: %w", err)
	}
	defer os.RemoveAll(tmp)
	var files []string
	err = fs.WalkDir(workerSources, "java", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := workerSources.ReadFile(path)
		if err != nil {
			return err
		}
		dst := filepath.Join(tmp, "src", filepath.FromSlash(path))
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			return err
		}
		files = append(files, dst)
		return os.WriteFile(dst, b, 0o644)
	})
	if err != nil {
		return "", false, fmt.Errorf("harness: write worker sources: %w", err)
	}
	args := append([]string{"--release", "11", "-nowarn", "-encoding", "UTF-8", "-d", filepath.Join(tmp, "classes"),
		"-cp", strings.Join(classpath, string(os.PathListSeparator))}, files...)
	cmd := exec.CommandContext(ctx, javac, args...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		return "", false, fmt.Errorf("harness: compile the worker with %s: %w\n%s", javac, err, out.String())
	}
	if err := packJar(filepath.Join(tmp, "classes"), filepath.Join(tmp, "worker.jar")); err != nil {
		return "", false, fmt.Errorf("harness: pack the worker: %w", err)
	}
	if err := os.WriteFile(filepath.Join(tmp, "ok"), []byte(hash+"\n"), 0o644); err != nil {
		return "", false, fmt.Errorf("harness: mark worker build: %w", err)
	}
	for _, d := range []string{"src", "classes"} {
		if err := os.RemoveAll(filepath.Join(tmp, d)); err != nil {
			return "", false, fmt.Errorf("harness: clean worker build: %w", err)
		}
	}
	if err := os.Rename(tmp, final); err != nil {
		if fileExists(filepath.Join(final, "ok")) {
			return jar, false, nil // another process won the race
		}
		return "", false, fmt.Errorf("harness: install worker build: %w", err)
	}
	log.Info("harness: compiled the worker", zap.String("dir", final))
	return jar, true, nil
}

// packJar writes the files under dir into a jar (a zip with a manifest).
func packJar(dir, jar string) error {
	f, err := os.Create(jar)
	if err != nil {
		return err
	}
	zw := zip.NewWriter(f)
	mf, err := zw.Create("META-INF/MANIFEST.MF")
	if err == nil {
		_, err = mf.Write([]byte("Manifest-Version: 1.0\r\nCreated-By: advertest\r\n\r\n"))
	}
	if err == nil {
		err = filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			rel, err := filepath.Rel(dir, path)
			if err != nil {
				return err
			}
			b, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			w, err := zw.Create(filepath.ToSlash(rel))
			if err != nil {
				return err
			}
			_, err = w.Write(b)
			return err
		})
	}
	if cerr := zw.Close(); err == nil {
		err = cerr
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// jacocoAgent returns a jacocoagent.jar: the configured one, or one extracted from Debian's
// org.jacoco.agent.jar (or a Maven repository's) into the cache. Never org.jacoco.agent.rt.jar on
// the class path: it shadows the agent.
func jacocoAgent(configured, cacheDir string) (string, error) {
	src := configured
	if src == "" {
		src = findJar("org.jacoco.agent.jar", "org/jacoco/org.jacoco.agent/*/org.jacoco.agent-*[0-9].jar")
	}
	if src == "" {
		src = findJar("org.jacoco.agent-runtime.jar", "org/jacoco/org.jacoco.agent/*/org.jacoco.agent-*-runtime.jar")
	}
	if src == "" {
		return "", errors.New("harness: no JaCoCo agent found (set JacocoAgentJar)")
	}
	zr, err := zip.OpenReader(src)
	if err != nil {
		return "", fmt.Errorf("harness: open %s: %w", src, err)
	}
	defer zr.Close()
	var inner *zip.File
	for _, f := range zr.File {
		if f.Name == "jacocoagent.jar" {
			inner = f
		}
	}
	if inner == nil {
		return src, nil // already the agent itself
	}
	sum := sha256.Sum256([]byte(fmt.Sprintf("%s %d %d", src, inner.CRC32, inner.UncompressedSize64)))
	dst := filepath.Join(cacheDir, "jacoco", hex.EncodeToString(sum[:8]), "jacocoagent.jar")
	if fileExists(dst) {
		return dst, nil
	}
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return "", fmt.Errorf("harness: create agent folder: %w", err)
	}
	rc, err := inner.Open()
	if err != nil {
		return "", fmt.Errorf("harness: read jacocoagent.jar in %s: %w", src, err)
	}
	defer rc.Close()
	tmp, err := os.CreateTemp(filepath.Dir(dst), "agent-*.jar")
	if err != nil {
		return "", fmt.Errorf("harness: extract agent: %w", err)
	}
	defer os.Remove(tmp.Name())
	if _, err := io.Copy(tmp, rc); err != nil {
		tmp.Close()
		return "", fmt.Errorf("harness: extract agent: %w", err)
	}
	if err := tmp.Close(); err != nil {
		return "", fmt.Errorf("harness: extract agent: %w", err)
	}
	if err := os.Rename(tmp.Name(), dst); err != nil {
		return "", fmt.Errorf("harness: install agent: %w", err)
	}
	return dst, nil
}

// deriveIncludes makes JaCoCo includes= patterns from the packages that hold class files in the
// class folders ("org.acme.*", which also covers org.acme.util), and the default package's
// classes by name. Never a bare top-level "org.*": that would instrument JUnit and ASM too.
func deriveIncludes(dirs []string) []string {
	pkgs := map[string]bool{}
	for _, d := range dirs {
		_ = filepath.WalkDir(d, func(path string, e fs.DirEntry, err error) error {
			if err != nil || e.IsDir() || !strings.HasSuffix(path, ".class") {
				return nil
			}
			rel, err := filepath.Rel(d, filepath.Dir(path))
			if err != nil {
				return nil
			}
			if rel == "." {
				name := strings.TrimSuffix(e.Name(), ".class")
				if i := strings.IndexByte(name, '$'); i >= 0 {
					name = name[:i]
				}
				pkgs["/"+name] = true // a default-package class
				return nil
			}
			pkgs[strings.ReplaceAll(filepath.ToSlash(rel), "/", ".")] = true
			return nil
		})
	}
	names := make([]string, 0, len(pkgs))
	for p := range pkgs {
		names = append(names, p)
	}
	sort.Strings(names)
	var out []string
	for _, p := range names {
		if cls, ok := strings.CutPrefix(p, "/"); ok {
			out = append(out, cls, cls+"$*")
			continue
		}
		if n := len(out); n > 0 && strings.HasPrefix(p, strings.TrimSuffix(out[n-1], "*")) {
			continue // a subpackage of the previous one
		}
		out = append(out, p+".*")
	}
	return out
}

// junitVersion is 5 when Jupiter's API is on the class path, else 4.
func junitVersion(classpath []string) int {
	if onClasspath(classpath, "org/junit/jupiter/api/Test.class") {
		return 5
	}
	return 4
}

// withPlatformLauncher adds the JUnit Platform launcher when Jupiter is there without it (Maven
// and Gradle test class paths usually lack it: surefire brings its own).
func withPlatformLauncher(classpath []string) []string {
	if !onClasspath(classpath, "org/junit/jupiter/api/Test.class") ||
		onClasspath(classpath, "org/junit/platform/launcher/core/LauncherFactory.class") {
		return classpath
	}
	if f := findJar("junit-platform-launcher.jar", "org/junit/platform/junit-platform-launcher/*/junit-platform-launcher-*.jar"); f != "" {
		return append(append([]string(nil), classpath...), f)
	}
	return classpath
}

func onClasspath(classpath []string, entry string) bool {
	for _, p := range classpath {
		st, err := os.Stat(p)
		if err != nil {
			continue
		}
		if st.IsDir() {
			if fileExists(filepath.Join(p, filepath.FromSlash(entry))) {
				return true
			}
			continue
		}
		zr, err := zip.OpenReader(p)
		if err != nil {
			continue
		}
		found := false
		for _, f := range zr.File {
			if f.Name == entry {
				found = true
				break
			}
		}
		zr.Close()
		if found {
			return true
		}
	}
	return false
}
