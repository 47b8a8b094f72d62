package harness

import (
	"archive/zip"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"github.com/advertest/advertest-lsp/buildtools/sandbox"
)

// JavaBuild says what BuildJava compiles: Java code kept in the binary (the worker, the offline
// agent's explorer), compiled with the user's javac on first use.
type JavaBuild struct {
	// Name names the build's cache folder (CacheDir/<Name>/<hash>/) and, with Jar, the jar.
	Name string
	// Sources holds the .java files, by package path from Root ("advertest/worker/Main.java");
	// every .java file under Root is compiled.
	Sources fs.FS
	// Root is the folder of Sources where the package tree starts ("" or "." for its root).
	Root string
	// Classpath is what the sources compile against (jars or class folders).
	Classpath []string
	// Javac is the compiler to run ("" → FindJDK("")).
	Javac string
	// Release is javac's --release ("" → 11: the oldest JDK the harness supports).
	Release string
	// Jar packs the classes as <Name>.jar (a class-data-sharing archive covers only jars).
	Jar bool
	// CacheDir is the cache's root.
	CacheDir string
	// Env is javac's environment (nil: sandbox.Policy{}.ToolEnv of this process's): the
	// workers' allowlist, never the API key variable.
	Env []string
}

// BuildJava compiles b.Sources into CacheDir/<Name>/<hash>/ unless it is there already, and
// returns the class folder (or the jar, with Jar) and whether it compiled now. The hash covers
// the sources' names and bytes, the release, the class path's entries (path, size, time) and the
// javac used, so a change to any of them gives a new build. The build happens in a temporary
// folder renamed into place: processes racing on one cache all get a complete build, and a
// crashed build leaves nothing half-written behind.
func BuildJava(ctx context.Context, b JavaBuild) (string, bool, error) {
	if b.Name == "" || strings.ContainsAny(b.Name, `/\`) {
		return "", false, fmt.Errorf("harness: build name %q must be one non-empty path element", b.Name)
	}
	if b.CacheDir == "" {
		return "", false, fmt.Errorf("harness: build %s: no cache folder", b.Name)
	}
	if b.Release == "" {
		b.Release = "11"
	}
	if b.Javac == "" {
		_, javac, err := FindJDK("")
		if err != nil {
			return "", false, err
		}
		b.Javac = javac
	}
	if b.Root != "" && b.Root != "." && b.Sources != nil {
		sub, err := fs.Sub(b.Sources, b.Root)
		if err != nil {
			return "", false, fmt.Errorf("harness: build %s: %w", b.Name, err)
		}
		b.Sources, b.Root = sub, ""
	}
	files, err := javaFiles(b.Sources)
	if err != nil {
		return "", false, fmt.Errorf("harness: build %s: list the sources: %w", b.Name, err)
	}
	if len(files) == 0 {
		return "", false, fmt.Errorf("harness: build %s: no .java files in its sources", b.Name)
	}
	hash, err := b.hash(files)
	if err != nil {
		return "", false, fmt.Errorf("harness: build %s: hash the sources: %w", b.Name, err)
	}
	final := filepath.Join(b.CacheDir, b.Name, hash)
	out := b.output(final)
	if fileExists(filepath.Join(final, "ok")) {
		return out, false, nil
	}
	if err := os.MkdirAll(filepath.Dir(final), 0o755); err != nil {
		return "", false, fmt.Errorf("harness: build %s: create the cache folder: %w", b.Name, err)
	}
	tmp, err := os.MkdirTemp(filepath.Dir(final), "build-")
	if err != nil {
		return "", false, fmt.Errorf("harness: build %s: create a build folder: %w", b.Name, err)
	}
	defer os.RemoveAll(tmp)
	if err := b.compile(ctx, files, tmp); err != nil {
		return "", false, err
	}
	if err := os.WriteFile(filepath.Join(tmp, "ok"), []byte(hash+"\n"), 0o644); err != nil {
		return "", false, fmt.Errorf("harness: build %s: mark the build complete: %w", b.Name, err)
	}
	if err := os.Rename(tmp, final); err != nil {
		if fileExists(filepath.Join(final, "ok")) {
			return out, false, nil // another process installed the same build first
		}
		return "", false, fmt.Errorf("harness: build %s: install the build: %w", b.Name, err)
	}
	return out, true, nil
}

func (b JavaBuild) output(dir string) string {
	if b.Jar {
		return filepath.Join(dir, b.Name+".jar")
	}
	return filepath.Join(dir, "classes")
}

// javaFiles lists the .java files of src, sorted.
func javaFiles(src fs.FS) ([]string, error) {
	if src == nil {
		return nil, errors.New("no sources")
	}
	var files []string
	err := fs.WalkDir(src, ".", func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".java") {
			files = append(files, p)
		}
		return err
	})
	sort.Strings(files)
	return files, err
}

// hash is the build's cache key.
func (b JavaBuild) hash(files []string) (string, error) {
	h := sha256.New()
	fmt.Fprintf(h, "advertest-javabuild-v2\nname %s\nrelease %s\njar %v\n", b.Name, b.Release, b.Jar)
	for _, f := range append([]string{b.Javac}, b.Classpath...) {
		if st, err := os.Stat(f); err == nil {
			fmt.Fprintf(h, "dep %s %d %d\n", f, st.Size(), st.ModTime().UnixNano())
		} else {
			fmt.Fprintf(h, "dep %s missing\n", f)
		}
	}
	for _, f := range files {
		data, err := fs.ReadFile(b.Sources, f)
		if err != nil {
			return "", err
		}
		fmt.Fprintf(h, "src %s %d\n", f, len(data))
		h.Write(data)
	}
	return hex.EncodeToString(h.Sum(nil))[:16], nil
}

// compile writes the sources under tmp/src, compiles them into tmp/classes and, with Jar, packs
// them into tmp/<Name>.jar (and drops the class folder).
func (b JavaBuild) compile(ctx context.Context, files []string, tmp string) error {
	srcDir, classes := filepath.Join(tmp, "src"), filepath.Join(tmp, "classes")
	var paths []string
	for _, f := range files {
		data, err := fs.ReadFile(b.Sources, f)
		if err != nil {
			return fmt.Errorf("harness: build %s: read %s: %w", b.Name, f, err)
		}
		dst := filepath.Join(srcDir, filepath.FromSlash(path.Clean(f)))
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			return fmt.Errorf("harness: build %s: write the sources: %w", b.Name, err)
		}
		if err := os.WriteFile(dst, data, 0o644); err != nil {
			return fmt.Errorf("harness: build %s: write the sources: %w", b.Name, err)
		}
		paths = append(paths, dst)
	}
	args := []string{"--release", b.Release, "-nowarn", "-encoding", "UTF-8", "-d", classes}
	if len(b.Classpath) > 0 {
		args = append(args, "-cp", strings.Join(b.Classpath, string(os.PathListSeparator)))
	}
	cmd := exec.CommandContext(ctx, b.Javac, append(args, paths...)...)
	cmd.Env = b.Env
	if cmd.Env == nil {
		cmd.Env = sandbox.Policy{}.ToolEnv(os.Environ())
	}
	var msg bytes.Buffer
	cmd.Stdout, cmd.Stderr = &msg, &msg
	err := sandbox.SealDescriptors()
	if err == nil {
		err = cmd.Run()
	}
	if err != nil {
		if ctx.Err() != nil {
			return fmt.Errorf("harness: build %s: %w", b.Name, ctx.Err())
		}
		return fmt.Errorf("harness: build %s: %s failed: %w\n%s", b.Name, b.Javac, err, strings.TrimSpace(msg.String()))
	}
	if err := os.RemoveAll(srcDir); err != nil {
		return fmt.Errorf("harness: build %s: clean up: %w", b.Name, err)
	}
	if !b.Jar {
		return nil
	}
	if err := packJar(classes, filepath.Join(tmp, b.Name+".jar")); err != nil {
		return fmt.Errorf("harness: build %s: pack the jar: %w", b.Name, err)
	}
	if err := os.RemoveAll(classes); err != nil {
		return fmt.Errorf("harness: build %s: clean up: %w", b.Name, err)
	}
	return nil
}

// packJar writes the files under dir into a jar (a zip with a manifest), in a stable order.
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
		err = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			rel, err := filepath.Rel(dir, p)
			if err != nil {
				return err
			}
			data, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			w, err := zw.Create(filepath.ToSlash(rel))
			if err != nil {
				return err
			}
			_, err = w.Write(data)
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

// FindJDK returns the java and javac of javaHome, else $JAVA_HOME's, else those of the `java` on
// PATH.
func FindJDK(javaHome string) (java, javac string, err error) {
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
