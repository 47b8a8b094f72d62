package sandbox

import (
	"fmt"
	"math/rand"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// TestContainment runs one JVM in the sandbox that tries every escape that needs no interaction
// and checks, inside and on the host, that each is contained; the positive controls (the
// project is readable, the scratch folder writable, a named variable passed) show that the
// attempts would have seen a leak.
func TestContainment(t *testing.T) {
	needBwrap(t)
	w := newWorld(t)
	t.Setenv("OPENAI_API_KEY", "sk-secret-openai")
	t.Setenv("MY_LLM_KEY", "sk-secret-configured")
	t.Setenv("ADVERTEST_CANARY", "canary-value")
	t.Setenv("PASSED_ON", "passed-value")
	policy := Policy{Mode: ModeOn, APIKeyEnv: "MY_LLM_KEY", Env: []string{"PASSED_ON", "MY_LLM_KEY"}}

	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	var accepted atomic.Int32
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			accepted.Add(1)
			c.Close()
		}
	}()
	port := strconv.Itoa(ln.Addr().(*net.TCPAddr).Port)

	tmpName := fmt.Sprintf("/tmp/advertest-sandbox-planted-%d", rand.Int63())
	planted := []string{
		filepath.Join(w.project, "planted"),
		filepath.Join(w.classes, "Planted.class"),
		filepath.Join(w.home, "advertest-planted"),
		filepath.Join(w.homeDir, "planted"),
		filepath.Join(w.homeRepo, "planted"),
		filepath.Join(w.outside, "planted"),
		"/advertest-planted",
		"/etc/advertest-planted",
	}
	ops := []string{
		"env=OPENAI_API_KEY", "env=MY_LLM_KEY", "env=ADVERTEST_CANARY", "env=PASSED_ON", "env=PATH",
		"prop=user.home", "prop=user.dir",
		"read=" + w.readme, "read=" + w.sibling, "read=" + w.homeSecret,
		"list=" + w.home, "list=" + w.root,
		"class=Lib", "class=org.junit.Test",
		"write=scratch-file", "write=" + tmpName,
		"connect=" + port, "interfaces",
	}
	for _, p := range planted {
		ops = append(ops, "write="+p)
	}
	// As root, the sandbox's uid is the host's root: a writable /proc would let it set the
	// host's sysctls. Rewriting a value with itself changes nothing even where it works.
	sysctl := "/proc/sys/kernel/printk_ratelimit"
	if fileExists(sysctl) {
		ops = append(ops, "rewrite="+sysctl)
	}
	if fileExists("/etc/shadow") {
		ops = append(ops, "read=/etc/shadow")
	}
	cmd := w.command(ops...)
	if err := w.spec(t, policy).Apply(cmd); err != nil {
		t.Fatal(err)
	}
	if cmd.Path == "java" || filepath.Base(cmd.Path) != "bwrap" {
		t.Fatalf("Apply did not wrap the command in bwrap: %v", cmd.Args)
	}
	r := runEscape(t, cmd)
	expect := func(key, wantPrefix string) {
		t.Helper()
		got, ok := r[key]
		if !ok {
			t.Errorf("%s: no result (output: %v)", key, r)
			return
		}
		if !strings.HasPrefix(got, wantPrefix) {
			t.Errorf("%s: got %q, want %q…", key, got, wantPrefix)
		}
	}

	// The environment: an allowlist that never holds the API key, even when sandbox.env names it.
	expect("env OPENAI_API_KEY", "absent")
	expect("env MY_LLM_KEY", "absent")
	expect("env ADVERTEST_CANARY", "absent")
	expect("env PASSED_ON", "present passed-value")
	expect("env PATH", "present ")

	// The home is the passwd home, empty but for what was bound back; the scratch folder is the
	// working directory.
	expect("prop user.home", w.home)
	expect("prop user.dir", w.scratch)
	expect("list "+w.home, "list ["+filepath.Base(w.homeDir)+"]")
	expect("list "+w.root, "list [project, scratch]")

	// Reads: the project and the bound jars, nothing else.
	expect("read "+w.readme, "read project readme")
	expect("read "+w.sibling, "denied java.nio.file.NoSuchFileException")
	expect("read "+w.homeSecret, "denied java.nio.file.NoSuchFileException")
	expect("class Lib", "loaded")
	if fileExists("/usr/share/maven-repo/junit/junit/4.13.2/junit-4.13.2.jar") {
		expect("class org.junit.Test", "loaded")
	}
	if got, ok := r["read /etc/shadow"]; ok && strings.Contains(got, "root:") {
		t.Errorf("/etc/shadow is readable inside: %q", got)
	}

	if fileExists(sysctl) {
		expect("rewrite "+sysctl, "denied ")
	}

	// Writes: only the scratch folder and the private /tmp.
	expect("write scratch-file", "wrote")
	if b, err := os.ReadFile(filepath.Join(w.scratch, "scratch-file")); err != nil || string(b) != "planted" {
		t.Errorf("the scratch folder's write did not reach the host: %q, %v", b, err)
	}
	expect("write "+tmpName, "wrote")
	if fileExists(tmpName) {
		os.Remove(tmpName)
		t.Errorf("a write to the sandbox's /tmp reached the host's %s", tmpName)
	}
	for _, p := range planted {
		expect("write "+p, "denied ")
		if fileExists(p) {
			os.Remove(p)
			t.Errorf("%s was written on the host", p)
		}
	}

	// The network: only the sandbox's own loopback.
	expect("connect "+port, "denied java.net.ConnectException")
	expect("interfaces ", "interfaces [lo]")
	if n := accepted.Load(); n != 0 {
		t.Errorf("the host's listener accepted %d connections from the sandbox", n)
	}
}

// TestSpawnedProcessesEndWithTheSandbox: a process started inside (a long sleep) is gone from
// the host's process table once the sandbox's JVM exits, and once its bwrap is killed (what the
// harness does to a stuck worker).
func TestSpawnedProcessesEndWithTheSandbox(t *testing.T) {
	needBwrap(t)
	w := newWorld(t)
	for _, end := range []string{"exit", "kill"} {
		t.Run(end, func(t *testing.T) {
			token := fmt.Sprintf("1000.%d", rand.Int31())
			cmd := w.command("spawn="+token, "wait")
			if err := w.spec(t, Policy{Mode: ModeOn}).Apply(cmd); err != nil {
				t.Fatal(err)
			}
			stdin, err := cmd.StdinPipe()
			if err != nil {
				t.Fatal(err)
			}
			stdout, err := cmd.StdoutPipe()
			if err != nil {
				t.Fatal(err)
			}
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			defer func() { _ = cmd.Process.Kill(); _ = cmd.Wait() }()
			out := lines(stdout)
			select {
			case l := <-out:
				if l != "spawn "+token+": spawned" {
					t.Fatalf("the fixture said %q", l)
				}
			case <-time.After(60 * time.Second):
				t.Fatal("the fixture did not report its sleep within 60 s")
			}
			if !waitFor(30*time.Second, func() bool { return processWith(token) }) {
				t.Fatalf("sleep %s is not in the host's process table while the sandbox runs: the check cannot see it", token)
			}
			if end == "exit" {
				fmt.Fprintln(stdin, "go")
				stdin.Close()
				if err := cmd.Wait(); err != nil {
					t.Fatalf("the sandboxed JVM failed: %v", err)
				}
			} else {
				if err := cmd.Process.Kill(); err != nil {
					t.Fatal(err)
				}
				_ = cmd.Wait()
			}
			if !waitFor(30*time.Second, func() bool { return !processWith(token) }) {
				t.Fatalf("sleep %s outlived the sandbox (%s)", token, end)
			}
			if !waitFor(30*time.Second, func() bool { return !processWith("spawn=" + token) }) {
				t.Fatalf("the sandboxed JVM outlived its bwrap (%s)", end)
			}
		})
	}
}

// TestTmpIsBounded: filling /tmp (and /dev/shm) stops at the bound with "No space left on
// device", and the host's /tmp never sees the file.
func TestTmpIsBounded(t *testing.T) {
	needBwrap(t)
	if !Probe().features.size {
		t.Skip("this bwrap has no --size: the private /tmp is not bounded")
	}
	w := newWorld(t)
	const bound = 8 << 20
	name := fmt.Sprintf("advertest-sandbox-fill-%d", rand.Int63())
	cmd := w.command("fill=/tmp/"+name, "fill=/dev/shm/"+name, "write=after-fill")
	if err := w.spec(t, Policy{Mode: ModeOn, TmpSize: bound}).Apply(cmd); err != nil {
		t.Fatal(err)
	}
	r := runEscape(t, cmd)
	for _, dir := range []string{"/tmp", "/dev/shm"} {
		key := "fill " + dir + "/" + name
		got := r[key]
		f := strings.Fields(got)
		if len(f) < 2 || f[0] != "stopped" || !strings.Contains(got, "No space left on device") {
			t.Errorf("%s: got %q, want stopped … No space left on device", key, got)
			continue
		}
		n, _ := strconv.ParseInt(f[1], 10, 64)
		if n > bound {
			t.Errorf("%s wrote %d bytes, past the bound of %d", key, n, bound)
		}
		if fileExists(filepath.Join(dir, name)) {
			os.Remove(filepath.Join(dir, name))
			t.Errorf("the fill reached the host's %s", dir)
		}
	}
	if got := r["write after-fill"]; got != "wrote" {
		t.Errorf("the scratch folder after filling /tmp: %q", got)
	}
}

// TestExtraFilesPassThrough: a descriptor given as ExtraFiles[0] is fd 3 inside.
func TestExtraFilesPassThrough(t *testing.T) {
	needBwrap(t)
	w := newWorld(t)
	pr, pw, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer pr.Close()
	cmd := w.command("fd=3")
	cmd.ExtraFiles = []*os.File{pw}
	if err := w.spec(t, Policy{Mode: ModeOn}).Apply(cmd); err != nil {
		t.Fatal(err)
	}
	got := make(chan string, 1)
	go func() {
		b := make([]byte, 256)
		n, _ := pr.Read(b)
		got <- string(b[:n])
	}()
	var stdout, stderr strings.Builder
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	pw.Close()
	if err := cmd.Wait(); err != nil {
		t.Fatalf("%v\n%s%s", err, stdout.String(), stderr.String())
	}
	if r := results(stdout.String()); r["fd 3"] != "wrote" {
		t.Fatalf("writing to fd 3 inside: %q (stderr %s)", r["fd 3"], stderr.String())
	}
	select {
	case s := <-got:
		if s != "hello through fd\n" {
			t.Fatalf("read %q from the pipe behind fd 3", s)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("nothing came through fd 3")
	}
}

// TestCDSArchiveMapsInside: a dynamic class-data-sharing archive made outside maps inside, so
// the paths and modification times it checks are the host's (the harness's fast start).
func TestCDSArchiveMapsInside(t *testing.T) {
	needBwrap(t)
	w := newWorld(t)
	cache := filepath.Join(w.root, "cache")
	mustMkdir(t, cache)
	archive := filepath.Join(cache, "escape.jsa")
	jar := filepath.Join(w.project, "escape.jar") // an archive covers jars only, not class folders
	if err := writeJar(jar, filepath.Join(w.classes, "Escape.class"), "Escape.class"); err != nil {
		t.Fatal(err)
	}
	dump := exec.Command("java", "-XX:ArchiveClassesAtExit="+archive, "-cp", jar, "Escape", "prop=java.version")
	if out, err := dump.CombinedOutput(); err != nil || !fileExists(archive) {
		t.Fatalf("making a dynamic CDS archive outside: %v\n%s", err, out)
	}
	cmd := exec.Command("java", "-XX:SharedArchiveFile="+archive, "-Xlog:class+load=info", "-cp", jar, "Escape", "prop=java.version")
	spec := w.spec(t, Policy{Mode: ModeOn})
	spec.ReadOnly = append(spec.ReadOnly, cache)
	if err := spec.Apply(cmd); err != nil {
		t.Fatal(err)
	}
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if !strings.Contains(string(out), "Escape source: shared objects file (top)") {
		t.Fatalf("Escape was not loaded from the archive inside the sandbox:\n%s", lastLines(string(out), 30))
	}
}

func lastLines(s string, n int) string {
	l := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(l) > n {
		l = l[len(l)-n:]
	}
	return strings.Join(l, "\n")
}
