package sandbox

import (
	"archive/zip"
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/advertest/advertest-lsp/internal/testenv"
)

// The tests run the hostile fixture testdata/Escape.java inside the real bwrap. Their world
// lives outside /tmp (under /var/tmp when it exists), so that "a sibling folder of the project"
// is on the host's own disk, not in the /tmp the sandbox replaces anyway.

var (
	compileOnce sync.Once
	compiled    string // folder with Escape.class and lib.jar (a class Lib), outside any test's world
	compileErr  error
)

func TestMain(m *testing.M) {
	code := m.Run()
	if compiled != "" {
		os.RemoveAll(compiled)
	}
	os.Exit(code)
}

// needBwrap skips the test where there is no bwrap, saying so, and fails it where bwrap is
// installed but cannot start a sandbox: that is a machine the sandbox must work on.
func needBwrap(t testing.TB) Availability {
	t.Helper()
	a := Probe()
	if a.OK {
		return a
	}
	if _, err := exec.LookPath("bwrap"); err != nil || runtime.GOOS != "linux" {
		t.Skipf("the containment tests need the real bwrap: %s", a.Reason)
	}
	t.Fatalf("bwrap is installed but cannot start the sandbox: %s", a.Reason)
	return a
}

func needJava(t testing.TB) {
	t.Helper()
	testenv.NeedsJVM(t)
	for _, tool := range []string{"java", "javac"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s is not on PATH", tool)
		}
	}
}

// escapeClasses compiles the fixture once per test binary.
func escapeClasses(t testing.TB) string {
	t.Helper()
	needJava(t)
	compileOnce.Do(func() {
		dir, err := os.MkdirTemp("", "advertest-sandbox-classes-")
		if err != nil {
			compileErr = err
			return
		}
		compiled = dir
		src, err := filepath.Abs("testdata/Escape.java")
		if err != nil {
			compileErr = err
			return
		}
		lib := filepath.Join(dir, "libsrc", "Lib.java")
		if err := os.MkdirAll(filepath.Dir(lib), 0o755); err != nil {
			compileErr = err
			return
		}
		if err := os.WriteFile(lib, []byte("public class Lib { public static int one() { return 1; } }\n"), 0o644); err != nil {
			compileErr = err
			return
		}
		out, err := exec.Command("javac", "-d", filepath.Join(dir, "classes"), src).CombinedOutput()
		if err != nil {
			compileErr = fmt.Errorf("javac Escape: %v\n%s", err, out)
			return
		}
		out, err = exec.Command("javac", "-d", filepath.Join(dir, "libclasses"), lib).CombinedOutput()
		if err != nil {
			compileErr = fmt.Errorf("javac Lib: %v\n%s", err, out)
			return
		}
		compileErr = writeJar(filepath.Join(dir, "lib.jar"), filepath.Join(dir, "libclasses", "Lib.class"), "Lib.class")
	})
	if compileErr != nil {
		t.Fatal(compileErr)
	}
	return compiled
}

func writeJar(jar, classFile, name string) error {
	b, err := os.ReadFile(classFile)
	if err != nil {
		return err
	}
	f, err := os.Create(jar)
	if err != nil {
		return err
	}
	zw := zip.NewWriter(f)
	w, err := zw.Create(name)
	if err == nil {
		_, err = w.Write(b)
	}
	if cerr := zw.Close(); err == nil {
		err = cerr
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// world is a project on the host with neighbours the sandbox must hide.
type world struct {
	root       string // holds everything below
	project    string // the project root, bound read-only
	classes    string // project/target/classes: holds Escape.class
	readme     string // a file of the project
	sibling    string // sibling/secret.txt: next to the project, not bound
	outside    string // a folder next to the project, not bound
	scratch    string // the worker's writable folder
	home       string // the passwd home
	homeDir    string // a folder in the real home that the test made
	homeRepo   string // homeDir/repo: holds lib.jar, bound read-only like ~/.m2/repository
	homeSecret string // homeDir/secret.txt: in the real home, not bound
}

func newWorld(t *testing.T) *world {
	t.Helper()
	classes := escapeClasses(t)
	base := ""
	if fi, err := os.Stat("/var/tmp"); err == nil && fi.IsDir() {
		base = "/var/tmp"
	}
	root, err := os.MkdirTemp(base, "advertest-sandbox-world-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(root) })
	w := &world{root: root, project: filepath.Join(root, "project"), outside: filepath.Join(root, "outside"),
		scratch: filepath.Join(root, "scratch")}
	w.classes = filepath.Join(w.project, "target", "classes")
	w.readme = filepath.Join(w.project, "README")
	w.sibling = filepath.Join(root, "sibling", "secret.txt")
	mustMkdir(t, w.classes, w.outside, filepath.Dir(w.sibling))
	mustWrite(t, w.readme, "project readme")
	mustWrite(t, w.sibling, "sibling secret")
	copyFile(t, filepath.Join(classes, "classes", "Escape.class"), filepath.Join(w.classes, "Escape.class"))

	w.home = passwdHome()
	if w.home == "" {
		t.Skip("no passwd home for this user")
	}
	w.homeDir, err = os.MkdirTemp(w.home, ".advertest-sandbox-test-")
	if err != nil {
		t.Skipf("cannot make a folder in the home %s: %v", w.home, err)
	}
	t.Cleanup(func() { os.RemoveAll(w.homeDir) })
	w.homeRepo = filepath.Join(w.homeDir, "repo")
	w.homeSecret = filepath.Join(w.homeDir, "secret.txt")
	mustMkdir(t, w.homeRepo)
	mustWrite(t, w.homeSecret, "home secret")
	copyFile(t, filepath.Join(classes, "lib.jar"), filepath.Join(w.homeRepo, "lib.jar"))
	return w
}

// spec is the sandbox a worker of this world gets.
func (w *world) spec(t *testing.T, p Policy) Spec {
	t.Helper()
	st, err := p.Decide(nil)
	if err != nil {
		t.Fatal(err)
	}
	return Spec{Status: st, Policy: p, ReadOnly: []string{w.project, w.homeRepo}, Scratch: w.scratch}
}

// command is java running Escape with ops, class path the project's classes, the home repo's
// jar and a jar of Debian's Maven repository (a symlink into /usr/share/java).
func (w *world) command(ops ...string) *exec.Cmd {
	cp := []string{w.classes, filepath.Join(w.homeRepo, "lib.jar")}
	if jar := "/usr/share/maven-repo/junit/junit/4.13.2/junit-4.13.2.jar"; fileExists(jar) {
		cp = append(cp, jar)
	}
	return exec.Command("java", append([]string{"-cp", strings.Join(cp, ":"), "Escape"}, ops...)...)
}

// results parses Escape's output: "OP ARG" → result.
func results(out string) map[string]string {
	r := map[string]string{}
	for _, line := range strings.Split(out, "\n") {
		if k, v, ok := strings.Cut(line, ": "); ok {
			r[k] = v
		}
	}
	return r
}

// run starts cmd, which Apply has wrapped, and returns its results.
func runEscape(t *testing.T, cmd *exec.Cmd) map[string]string {
	t.Helper()
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("%v: %v\nstdout:\n%s\nstderr:\n%s", cmd.Args, err, stdout.String(), stderr.String())
	}
	return results(stdout.String())
}

// processWith reports whether a process on the host has token among its arguments.
func processWith(token string) bool {
	procs, _ := filepath.Glob("/proc/[0-9]*/cmdline")
	for _, p := range procs {
		b, err := os.ReadFile(p)
		if err != nil {
			continue
		}
		for _, arg := range bytes.Split(b, []byte{0}) {
			if string(arg) == token {
				return true
			}
		}
	}
	return false
}

// waitFor polls cond until it holds or limit passes.
func waitFor(limit time.Duration, cond func() bool) bool {
	deadline := time.Now().Add(limit)
	for {
		if cond() {
			return true
		}
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// lines reads r line by line into a channel (closed at EOF).
func lines(r io.Reader) <-chan string {
	ch := make(chan string, 16)
	go func() {
		defer close(ch)
		sc := bufio.NewScanner(r)
		for sc.Scan() {
			ch <- sc.Text()
		}
	}()
	return ch
}

func mustMkdir(t *testing.T, dirs ...string) {
	t.Helper()
	for _, d := range dirs {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
}

func mustWrite(t *testing.T, path, text string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

func copyFile(t *testing.T, from, to string) {
	t.Helper()
	b, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	mustWrite(t, to, string(b))
}

func fileExists(p string) bool {
	_, err := os.Lstat(p)
	return err == nil
}
