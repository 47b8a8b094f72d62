package harness

import (
	"archive/zip"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
)

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

// findJar looks for a Debian jar, then the newest matching one in a local Maven repository
// (newest by version, compared number by number: 0.8.10 is newer than 0.8.9).
func findJar(debian, mavenGlob string) string {
	if f := filepath.Join("/usr/share/java", debian); fileExists(f) {
		return f
	}
	for _, repo := range mavenRepos() {
		matches, _ := filepath.Glob(filepath.Join(repo, mavenGlob))
		if f := newestJar(matches); f != "" {
			return f
		}
	}
	return ""
}

// newestJar picks the jar with the highest version among paths of a Maven repository
// (<repo>/<group>/<artifact>/<version>/<artifact>-<version>.jar), leaving out sources and
// javadoc jars; "" when none is left.
func newestJar(paths []string) string {
	var jars []string
	for _, m := range paths {
		if !strings.HasSuffix(m, "-sources.jar") && !strings.HasSuffix(m, "-javadoc.jar") {
			jars = append(jars, m)
		}
	}
	if len(jars) == 0 {
		return ""
	}
	sort.SliceStable(jars, func(i, j int) bool {
		vi, vj := filepath.Base(filepath.Dir(jars[i])), filepath.Base(filepath.Dir(jars[j]))
		if vi == vj {
			return jars[i] < jars[j]
		}
		return versionLess(vi, vj)
	})
	return jars[len(jars)-1]
}

// versionLess orders Maven-style versions: their parts (split at '.' and '-') compare as numbers
// when both are numbers (0.8.9 before 0.8.10), a number is newer than a qualifier (1.0-M1 before
// 1.0.1), a version with one more number is newer (1.0 before 1.0.1) and one with one more
// qualifier older (1.0-SNAPSHOT before 1.0); qualifiers compare as text.
func versionLess(a, b string) bool {
	split := func(r rune) bool { return r == '.' || r == '-' }
	pa, pb := strings.FieldsFunc(a, split), strings.FieldsFunc(b, split)
	for i := 0; i < len(pa) || i < len(pb); i++ {
		if i >= len(pa) || i >= len(pb) {
			longer, aShorter := pb, true
			if i >= len(pb) {
				longer, aShorter = pa, false
			}
			_, err := strconv.ParseUint(longer[i], 10, 64)
			numberNext := err == nil
			return aShorter == numberNext
		}
		na, errA := strconv.ParseUint(pa[i], 10, 64)
		nb, errB := strconv.ParseUint(pb[i], 10, 64)
		switch {
		case errA == nil && errB == nil:
			if na != nb {
				return na < nb
			}
		case errA == nil:
			return false // a number is newer than a qualifier
		case errB == nil:
			return true
		case pa[i] != pb[i]:
			return pa[i] < pb[i]
		}
	}
	return false
}

func fileExists(f string) bool {
	_, err := os.Stat(f)
	return err == nil
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
