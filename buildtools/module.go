package buildtools

import (
	"archive/zip"
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync"
)

// BuildSystem names the build tool that owns a module.
type BuildSystem string

const (
	Maven  BuildSystem = "maven"
	Gradle BuildSystem = "gradle"
)

// ErrNoModule is returned when no build file is found above a Java file.
var ErrNoModule = errors.New("no pom.xml, build.gradle or build.gradle.kts above the file")

// Module is the project model of one Maven or Gradle module. Every path is absolute.
type Module struct {
	Root        string      // the folder holding the module's build file
	BuildSystem BuildSystem // Maven or Gradle
	// BuildFiles are the files whose content keys the cache: the module's build file, its
	// parents' and the build's settings files, .mvn/maven.config, gradle.properties.
	BuildFiles []string

	MainSourceRoots []string
	TestSourceRoots []string
	MainOutput      string // e.g. Root/target/classes, Root/build/classes/java/main
	TestOutput      string // e.g. Root/target/test-classes, Root/build/classes/java/test

	Release      string   // language level of the test compile: "11", "17"; "" when unknown
	CompilerArgs []string // extra javac flags from the build (compilerArgs, -parameters, --enable-preview)

	// TestClasspath is the test runtime classpath without the module's own output folders:
	// dependency jars (and, in multi-module builds, sibling modules' jars or class folders).
	TestClasspath []string

	JUnit          int    // 5 when JUnit Jupiter is on the test classpath, else 4 when JUnit 4 is, else 0
	MockitoVersion string // e.g. "2.23.0"; "" when Mockito is not on the test classpath

	// ReactorRoot is set for a Maven module that needs its reactor to build (it depends on
	// sibling modules): Maven then runs there with "-pl ReactorModule -am".
	ReactorRoot   string `json:",omitempty"`
	ReactorModule string `json:",omitempty"`

	// Anchor is the top folder of the build (buildAnchor), and Relocatable says whether the
	// model holds for a copy of the build at another place (canRelocate): it is then cached
	// under a key of the build files' content and their places below the anchor, not of the path.
	Anchor      string `json:",omitempty"`
	Relocatable bool   `json:",omitempty"`

	// CacheKey is the content hash the model was cached under.
	CacheKey string

	// opts are the options the module was loaded with (compile runs use the same tool arguments).
	opts   Options
	loader *Loader

	// compileMu serialises EnsureCompiled: one build tool compile per module at a time.
	compileMu sync.Mutex
}

// buildFileNames are the files that make a folder a module root, in order of preference when
// a folder has more than one.
var buildFileNames = []struct {
	name string
	bs   BuildSystem
}{
	{"pom.xml", Maven},
	{"build.gradle", Gradle},
	{"build.gradle.kts", Gradle},
}

// FindModuleRoot returns the folder of the nearest pom.xml, build.gradle or build.gradle.kts at or
// above javaFile's folder: in a multi-module build that is the module that owns the file. When a
// folder has both a pom.xml and a Gradle build file, Maven wins.
func FindModuleRoot(javaFile string) (root string, bs BuildSystem, err error) {
	abs, err := filepath.Abs(javaFile)
	if err != nil {
		return "", "", fmt.Errorf("find module of %s: %w", javaFile, err)
	}
	dir := abs
	if fi, err := os.Stat(abs); err != nil || !fi.IsDir() {
		dir = filepath.Dir(abs)
	}
	for {
		for _, bf := range buildFileNames {
			if fileExists(filepath.Join(dir, bf.name)) {
				return dir, bf.bs, nil
			}
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", "", fmt.Errorf("find module of %s: %w", javaFile, ErrNoModule)
		}
		dir = parent
	}
}

// SourceRoots returns the main source roots followed by the test source roots.
func (m *Module) SourceRoots() []string {
	return append(append([]string(nil), m.MainSourceRoots...), m.TestSourceRoots...)
}

// ClassDirs returns the main and the test output folders.
func (m *Module) ClassDirs() []string {
	return []string{m.MainOutput, m.TestOutput}
}

// SourceRootFor returns the source root (main or test) that holds file, and whether it is a
// test source root.
func (m *Module) SourceRootFor(file string) (root string, isTest bool, err error) {
	abs, err := filepath.Abs(file)
	if err != nil {
		return "", false, err
	}
	best, bestTest := "", false
	consider := func(roots []string, test bool) {
		for _, r := range roots {
			if isWithin(r, abs) && len(r) > len(best) {
				best, bestTest = r, test
			}
		}
	}
	consider(m.MainSourceRoots, false)
	consider(m.TestSourceRoots, true)
	if best == "" {
		return "", false, fmt.Errorf("%s is in none of the module's source roots (%s)", file,
			strings.Join(m.SourceRoots(), ", "))
	}
	return best, bestTest, nil
}

// IsTestFile reports whether file lies under one of the test source roots.
func (m *Module) IsTestFile(file string) bool {
	_, isTest, err := m.SourceRootFor(file)
	return err == nil && isTest
}

// TestSourceRoot returns the first test source root: where generated tests are written. When the
// build declares none, the conventional src/test/java is returned.
func (m *Module) TestSourceRoot() string {
	if len(m.TestSourceRoots) > 0 {
		return m.TestSourceRoots[0]
	}
	return filepath.Join(m.Root, "src", "test", "java")
}

// TestFileFor returns where the test class testSimpleName in package pkg ("" for the default
// package) lives under the first test source root.
func (m *Module) TestFileFor(pkg, testSimpleName string) string {
	dir := m.TestSourceRoot()
	if pkg != "" {
		dir = filepath.Join(dir, filepath.FromSlash(strings.ReplaceAll(pkg, ".", "/")))
	}
	return filepath.Join(dir, testSimpleName+".java")
}

// RelPath returns file relative to the module root, with forward slashes (the report's form).
func (m *Module) RelPath(file string) (string, error) {
	abs, err := filepath.Abs(file)
	if err != nil {
		return "", err
	}
	rel, err := filepath.Rel(m.Root, abs)
	if err != nil {
		return "", fmt.Errorf("path of %s relative to %s: %w", file, m.Root, err)
	}
	return filepath.ToSlash(rel), nil
}

var packageDecl = regexp.MustCompile(`(?m)^\s*package\s+([\w.]+)\s*;`)

// ClassNameForFile returns the binary name of the top-level class of javaFile, from its path
// below its source root ("src/main/java/org/acme/Calc.java" → "org.acme.Calc"). A file outside
// the source roots falls back to its package declaration.
func (m *Module) ClassNameForFile(javaFile string) (string, error) {
	if !strings.HasSuffix(javaFile, ".java") {
		return "", fmt.Errorf("class name of %s: not a .java file", javaFile)
	}
	simple := strings.TrimSuffix(filepath.Base(javaFile), ".java")
	root, _, err := m.SourceRootFor(javaFile)
	if err == nil {
		abs, _ := filepath.Abs(javaFile)
		rel, err := filepath.Rel(root, abs)
		if err == nil {
			rel = strings.TrimSuffix(filepath.ToSlash(rel), ".java")
			return strings.ReplaceAll(rel, "/", "."), nil
		}
	}
	src, rerr := os.ReadFile(javaFile)
	if rerr != nil {
		return "", fmt.Errorf("class name of %s: %w", javaFile, rerr)
	}
	if mm := packageDecl.FindSubmatch(src); mm != nil {
		return string(mm[1]) + "." + simple, nil
	}
	return simple, nil
}

// Packages returns the packages that hold .java files under the main source roots, sorted ("" is
// the default package).
func (m *Module) Packages() []string {
	seen := map[string]bool{}
	for _, root := range m.MainSourceRoots {
		_ = filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(path, ".java") {
				return nil
			}
			rel, err := filepath.Rel(root, filepath.Dir(path))
			if err != nil {
				return nil
			}
			pkg := ""
			if rel != "." {
				pkg = strings.ReplaceAll(filepath.ToSlash(rel), "/", ".")
			}
			seen[pkg] = true
			return nil
		})
	}
	out := make([]string, 0, len(seen))
	for p := range seen {
		out = append(out, p)
	}
	sort.Strings(out)
	return out
}

// CoverageIncludes returns JaCoCo includes= patterns for the module's own classes: one "pkg.*"
// per outermost package (a pattern covers its subpackages), and "Name" plus "Name$*" for classes
// of the default package.
func (m *Module) CoverageIncludes() []string {
	var out []string
	var kept []string
	for _, p := range m.Packages() {
		if p == "" {
			continue
		}
		covered := false
		for _, k := range kept {
			if strings.HasPrefix(p, k+".") {
				covered = true
				break
			}
		}
		if !covered {
			kept = append(kept, p)
			out = append(out, p+".*")
		}
	}
	for _, root := range m.MainSourceRoots {
		entries, _ := os.ReadDir(root)
		for _, e := range entries {
			if !e.IsDir() && strings.HasSuffix(e.Name(), ".java") {
				name := strings.TrimSuffix(e.Name(), ".java")
				out = append(out, name, name+"$*")
			}
		}
	}
	return out
}

// JUnitVersionOf returns 5 when JUnit Jupiter is among the jars, else 4 when JUnit 4 is, else 0.
func JUnitVersionOf(classpath []string) int {
	has4 := false
	for _, p := range classpath {
		base := strings.ToLower(filepath.Base(p))
		switch {
		case strings.HasPrefix(base, "junit-jupiter-api"), strings.HasPrefix(base, "junit-jupiter-5"),
			base == "junit-jupiter.jar":
			return 5
		case strings.HasPrefix(base, "junit-4"), strings.HasPrefix(base, "junit4"),
			base == "junit.jar", base == "junit-dep.jar":
			has4 = true
		}
		if strings.Contains(filepath.ToSlash(p), "/junit/junit/") {
			has4 = true
		}
	}
	if has4 {
		return 4
	}
	return 0
}

var versionInName = regexp.MustCompile(`^mockito-(?:core|all)-([\w.\-]+)\.jar$`)

// MockitoVersionOf returns the version of mockito-core among the jars, from the file name or, for
// names without a version (Debian's "mockito-core-debian.jar", "mockito-core.jar"), from the
// jar's manifest; "" when Mockito is absent.
func MockitoVersionOf(classpath []string) string {
	for _, p := range classpath {
		base := filepath.Base(p)
		if !strings.HasPrefix(base, "mockito-core") && !strings.HasPrefix(base, "mockito-all") {
			continue
		}
		if mm := versionInName.FindStringSubmatch(base); mm != nil && mm[1] != "debian" {
			return mm[1]
		}
		// Debian's unversioned names are links to the versioned jar.
		if real, err := filepath.EvalSymlinks(p); err == nil {
			if mm := versionInName.FindStringSubmatch(filepath.Base(real)); mm != nil && mm[1] != "debian" {
				return mm[1]
			}
		}
		if v := jarVersion(p); v != "" {
			return v
		}
		return "unknown"
	}
	return ""
}

// fileExists reports whether path names an existing regular file or folder.
func fileExists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

// isWithin reports whether path is dir or lies below it.
func isWithin(dir, path string) bool {
	rel, err := filepath.Rel(dir, path)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

// jarVersion reads a version from a jar's META-INF/maven/**/pom.properties or its manifest.
func jarVersion(jar string) string {
	zr, err := zip.OpenReader(jar)
	if err != nil {
		return ""
	}
	defer zr.Close()
	var manifestVer string
	for _, f := range zr.File {
		switch {
		case strings.HasPrefix(f.Name, "META-INF/maven/") && strings.HasSuffix(f.Name, "/pom.properties"):
			if b, err := readZipEntry(f); err == nil {
				for _, line := range strings.Split(string(b), "\n") {
					if v, ok := strings.CutPrefix(strings.TrimSpace(line), "version="); ok {
						return strings.TrimSpace(v)
					}
				}
			}
		case f.Name == "META-INF/MANIFEST.MF":
			if b, err := readZipEntry(f); err == nil {
				for _, attr := range []string{"Implementation-Version", "Bundle-Version"} {
					if v := readManifestAttr(b, attr); v != "" && v != "unspecified" {
						manifestVer = v
						break
					}
				}
			}
		}
	}
	return manifestVer
}

func readZipEntry(f *zip.File) ([]byte, error) {
	rc, err := f.Open()
	if err != nil {
		return nil, err
	}
	defer rc.Close()
	var buf bytes.Buffer
	_, err = buf.ReadFrom(rc)
	return buf.Bytes(), err
}

// readManifestAttr returns the value of a main-section manifest attribute.
func readManifestAttr(manifest []byte, name string) string {
	// Continuation lines start with one space; join them first.
	manifest = bytes.ReplaceAll(manifest, []byte("\r\n"), []byte("\n"))
	manifest = bytes.ReplaceAll(manifest, []byte("\n "), nil)
	sc := bufio.NewScanner(bytes.NewReader(manifest))
	for sc.Scan() {
		line := sc.Text()
		if line == "" {
			break // end of the main section
		}
		k, v, ok := strings.Cut(line, ":")
		if ok && strings.EqualFold(strings.TrimSpace(k), name) {
			return strings.TrimSpace(v)
		}
	}
	return ""
}
