package harness

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"go.uber.org/zap"

	"github.com/advertest/advertest-lsp/buildtools/sandbox"
)

// needSandbox opens a pool in the default mode (auto) and skips the test where that leaves
// the workers uncontained (no bwrap on this machine).
func needSandbox(t *testing.T, cfg Config) *Pool {
	t.Helper()
	p := openPool(t, cfg)
	if !p.cfg.Sandbox.Contained() {
		t.Skipf("no sandbox here: %s", p.cfg.Sandbox.Reason)
	}
	return p
}

// TestCDSArchiveMapsInTheSandbox: the worker's class-data-sharing archive, made outside the
// sandbox, still maps inside it (it checks the class path's paths and modification times,
// which the read-only binds keep): the worker's main class comes from the archive.
func TestCDSArchiveMapsInTheSandbox(t *testing.T) {
	cfg := fx.j4.config()
	p := needSandbox(t, cfg)
	spec := *p.launch
	if spec.cds == nil || !fileExists(spec.cds.archive) {
		t.Skip("no CDS archive with this JDK")
	}
	// The class loading log is written from inside, into the worker's scratch folder.
	scratch := filepath.Join(p.scratch, "cds-check")
	logFile := filepath.Join(scratch, "class-load.log")
	// -Xshare:on fails the start rather than running without the archive.
	args := []string{"-Xlog:class+load=info:file=" + logFile}
	for _, a := range spec.argsNow() {
		if a == "-Xshare:auto" {
			a = "-Xshare:on"
		}
		args = append(args, a)
	}
	spec.args, spec.cds = args, nil // args hold the archive already
	w, err := startWorker(context.Background(), &spec, scratch, zap.NewNop())
	if err != nil {
		t.Fatalf("the worker does not start with -Xshare:on in the sandbox: %v", err)
	}
	b, err := os.ReadFile(logFile)
	w.kill()
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), "advertest.worker.Main source: shared objects file (top)") {
		i := strings.Index(string(b), "advertest.worker.Main")
		t.Errorf("the worker's main class was not loaded from the dynamic archive: %.200s", string(b[max(0, i):]))
	}
}

// TestAllowRead: a folder the workers could not see becomes readable once AllowRead names it,
// for the worker already running too (it is restarted before its next use).
func TestAllowRead(t *testing.T) {
	outside, err := os.MkdirTemp(filepath.Dir(fx.cache), "allow-read-")
	if err != nil {
		t.Fatal(err)
	}
	// fx.cache's parent holds the fixtures and is bound in part; a sibling folder is not.
	p := needSandbox(t, fx.j4.config())
	if err := os.WriteFile(filepath.Join(outside, "secret.txt"), []byte("seen"), 0o644); err != nil {
		t.Fatal(err)
	}
	test := Source{ClassName: "org.acme.ReadsTest", Text: `package org.acme;
public class ReadsTest {
    @org.junit.Test
    public void reads() throws Exception {
        System.out.print(new String(java.nio.file.Files.readAllBytes(java.nio.file.Paths.get(` + javaQuote(filepath.Join(outside, "secret.txt")) + `))));
    }
}
`}
	id := TestID{Class: "org.acme.ReadsTest", Method: "reads"}
	r := run(t, p, RunSpec{ExtraTests: []Source{test}, Tests: []TestID{id}})
	if tr := find(t, r, id.String()); tr.Outcome != Error || !strings.Contains(tr.Message, "NoSuchFileException") {
		t.Fatalf("before AllowRead: %s %q", tr.Outcome, tr.Message)
	}
	p.AllowRead(outside)
	r = run(t, p, RunSpec{ExtraTests: []Source{test}, Tests: []TestID{id}})
	if tr := find(t, r, id.String()); tr.Outcome != Passed || tr.Stdout != "seen" {
		t.Fatalf("after AllowRead: %s %q %q", tr.Outcome, tr.Message, tr.Stdout)
	}
	if p.AllowRead(outside); p.launch.readGen != 1 {
		t.Errorf("a path seen already restarted the workers again (generation %d)", p.launch.readGen)
	}
}

// TestDroppingTheAgentKeepsAllowRead: a worker that cannot start with the JaCoCo agent makes
// the pool drop the agent; a path AllowRead added while that worker was starting stays in the
// spec, and the spec's generation does not go back (it did when the retry stored the copy it
// had read before the start).
func TestDroppingTheAgentKeepsAllowRead(t *testing.T) {
	p := &Pool{launch: &launchSpec{args: []string{"-javaagent:/jacoco/agent.jar=output=none", "-cp", "/worker.jar"}}}
	p.cfg.Sandbox = sandbox.Status{Kind: sandbox.KindBwrap}
	dir := t.TempDir()
	p.AllowRead(dir) // while a worker starts
	p.dropAgent()    // its start failed with the agent, and succeeded without
	if p.launch.withoutAgent() != nil {
		t.Errorf("the agent is still in the spec: %v", p.launch.args)
	}
	if p.launch.readGen != 1 || !slices.Contains(p.launch.sandbox.ReadOnly, dir) {
		t.Errorf("the path AllowRead added is lost: generation %d, read-only %v", p.launch.readGen, p.launch.sandbox.ReadOnly)
	}
	if got := strings.Join(p.launch.args, " "); got != "-cp /worker.jar" {
		t.Errorf("args %q", got)
	}
}

// TestModeOffRunsBare: sandbox.mode off starts the workers without bwrap, with the
// allowlisted environment all the same.
func TestModeOffRunsBare(t *testing.T) {
	t.Setenv("ADVERTEST_CANARY_FOR_TEST", "canary")
	cfg := fx.j4.config()
	cfg.SandboxPolicy = sandbox.Policy{Mode: sandbox.ModeOff}
	p := openPool(t, cfg)
	if p.cfg.Sandbox.Contained() || p.cfg.Sandbox.Mode != sandbox.ModeOff {
		t.Fatalf("sandbox = %+v", p.cfg.Sandbox)
	}
	test := Source{ClassName: "org.acme.EnvTest", Text: `package org.acme;
public class EnvTest {
    @org.junit.Test
    public void env() {
        System.out.print(System.getenv("ADVERTEST_CANARY_FOR_TEST"));
    }
}
`}
	id := TestID{Class: "org.acme.EnvTest", Method: "env"}
	r := run(t, p, RunSpec{ExtraTests: []Source{test}, Tests: []TestID{id}})
	if tr := find(t, r, id.String()); tr.Outcome != Passed || tr.Stdout != "null" {
		t.Errorf("mode off: %s %q %q", tr.Outcome, tr.Message, tr.Stdout)
	}
	p.mu.Lock()
	for w := range p.workers {
		if filepath.Base(w.cmd.Path) == "bwrap" {
			t.Errorf("mode off runs %s", w.cmd.Path)
		}
	}
	p.mu.Unlock()
}

func javaQuote(s string) string {
	return `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(s) + `"`
}

// TestPrivateTmpIsEmptiedAfterEachTest: a test that fills the sandbox's /tmp and leaves a file
// there does not reach the next test, which finds /tmp empty and room in it; the worker's
// scratch folder (under the host's /tmp, bound in) keeps the first test's files; the host's
// /tmp sees nothing.
func TestPrivateTmpIsEmptiedAfterEachTest(t *testing.T) {
	p := needSandbox(t, fx.j4.config())
	mark := filepath.Base(t.TempDir())
	test := Source{ClassName: "org.acme.TmpTest", Text: `package org.acme;
import java.io.*;
import java.nio.file.*;
public class TmpTest {
    @org.junit.Test
    public void fills() throws Exception {
        Files.write(Paths.get(System.getProperty("advertest.scratch"), "kept.txt"), "kept".getBytes());
        Files.write(Paths.get("/tmp/left-` + mark + `"), "left".getBytes());
        byte[] chunk = new byte[1 << 20];
        try (OutputStream o = new FileOutputStream("/tmp/fill-` + mark + `")) {
            for (int i = 0; i < 320; i++) {
                o.write(chunk);
            }
            throw new AssertionError("/tmp took 320 MiB");
        } catch (IOException e) {
            System.out.print(e.getMessage());
        }
    }
    @org.junit.Test
    public void findsItEmpty() throws Exception {
        org.junit.Assert.assertFalse(new File("/tmp/left-` + mark + `").exists());
        File f = File.createTempFile("next", ".bin");
        Files.write(f.toPath(), new byte[1 << 20]);
    }
}
`}
	fills, next := TestID{Class: "org.acme.TmpTest", Method: "fills"}, TestID{Class: "org.acme.TmpTest", Method: "findsItEmpty"}
	r := run(t, p, RunSpec{ExtraTests: []Source{test}, Tests: []TestID{fills, next}})
	f := find(t, r, fills.String())
	if f.Outcome != Passed || !strings.Contains(f.Stdout, "No space left on device") || string(f.Files["kept.txt"]) != "kept" {
		t.Errorf("fills: %s %q stdout %q files %v", f.Outcome, f.Message, f.Stdout, f.Files)
	}
	if n := find(t, r, next.String()); n.Outcome != Passed {
		t.Errorf("the next test: %s %q", n.Outcome, n.Message)
	}
	for _, name := range []string{"left-", "fill-"} {
		if _, err := os.Stat(filepath.Join("/tmp", name+mark)); err == nil {
			os.Remove(filepath.Join("/tmp", name+mark))
			t.Errorf("the host's /tmp got %s%s", name, mark)
		}
	}
}

// TestCacheShowsOnlyTheWorkersEntries: a test that lists the cache folder from inside (found
// from the worker's jar on the class path) sees the worker's jar and the JaCoCo agent, and none
// of the other projects' compiled classes, resources or build models kept beside them.
func TestCacheShowsOnlyTheWorkersEntries(t *testing.T) {
	p := needSandbox(t, fx.j4.config())
	secret := "other-project-secret-" + filepath.Base(t.TempDir())
	planted := map[string]string{
		filepath.Join(fx.cache, "classes", "0123other", "main", "application.properties"):       "db.password=" + secret,
		filepath.Join(fx.cache, "classes", "0123other", "main", "org", "other", "Secret.class"): secret,
		filepath.Join(fx.cache, "projects", "0123other.json"):                                   `{"root": "/srv/other", "note": "` + secret + `"}`,
	}
	for f, text := range planted {
		if err := os.MkdirAll(filepath.Dir(f), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(f, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Cleanup(func() {
		os.RemoveAll(filepath.Join(fx.cache, "classes", "0123other"))
		os.Remove(filepath.Join(fx.cache, "projects", "0123other.json"))
	})
	test := Source{ClassName: "org.acme.CacheTest", Text: `package org.acme;
import java.nio.file.*;
import java.util.stream.*;
public class CacheTest {
    @org.junit.Test
    public void lists() throws Exception {
        Path jar = null;
        for (String e : System.getProperty("java.class.path").split(java.io.File.pathSeparator)) {
            if (e.endsWith("worker.jar")) {
                jar = Paths.get(e);
            }
        }
        Path cache = jar.getParent().getParent().getParent();
        try (Stream<Path> all = Files.walk(cache)) {
            for (Path p : all.collect(Collectors.toList())) {
                String text = Files.isRegularFile(p) && Files.size(p) < 4096 ? new String(Files.readAllBytes(p)) : "";
                System.out.println(cache.relativize(p) + " " + text.replace('\n', ' '));
            }
        }
    }
}
`}
	id := TestID{Class: "org.acme.CacheTest", Method: "lists"}
	r := run(t, p, RunSpec{ExtraTests: []Source{test}, Tests: []TestID{id}})
	tr := find(t, r, id.String())
	if tr.Outcome != Passed {
		t.Fatalf("%s: %s", tr.Outcome, tr.Message)
	}
	t.Logf("the cache from inside:\n%s", tr.Stdout)
	if !regexp.MustCompile(`(?m)^worker/[0-9a-f]+/worker\.jar `).MatchString(tr.Stdout) {
		t.Errorf("the listing lacks the worker's own jar: the check cannot see the cache")
	}
	for _, bad := range []string{"classes/", "projects/", secret} {
		if strings.Contains(tr.Stdout, bad) {
			t.Errorf("the cache from inside shows %q", bad)
		}
	}
}

// TestScratchLinkIsNotFollowed: a test that replaces its scratch folder with a link to a host
// folder and then stops its worker (SIGSTOP: the worker answers nothing, so the controller
// takes the timeout path and collects the folder itself) gets nothing of that host folder into
// its result, and the host folder is left as it was. The control first stops a worker whose
// test left a file in its real scratch folder: that file comes back, so the timeout path reads.
func TestScratchLinkIsNotFollowed(t *testing.T) {
	host, err := os.MkdirTemp(filepath.Dir(fx.cache), "host-folder-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(host) })
	if err := os.WriteFile(filepath.Join(host, "secret.txt"), []byte("host secret"), 0o644); err != nil {
		t.Fatal(err)
	}
	p := openPool(t, fx.j4.config())
	t.Logf("sandbox: %s", p.Sandbox())
	test := Source{ClassName: "org.acme.LinkTest", Text: `package org.acme;
import java.nio.file.*;
public class LinkTest {
    static void stop() throws Exception {
        new ProcessBuilder("kill", "-STOP", Long.toString(ProcessHandle.current().pid())).start().waitFor();
        Thread.sleep(60_000);
    }
    @org.junit.Test
    public void leavesAFile() throws Exception {
        Files.write(Paths.get(System.getProperty("advertest.scratch"), "own.txt"), "own".getBytes());
        stop();
    }
    @org.junit.Test
    public void linksAway() throws Exception {
        Path scratch = Paths.get(System.getProperty("advertest.scratch"));
        Files.delete(scratch);
        Files.createSymbolicLink(scratch, Paths.get(` + javaQuote(host) + `));
        stop();
    }
}
`}
	own, link := TestID{Class: "org.acme.LinkTest", Method: "leavesAFile"}, TestID{Class: "org.acme.LinkTest", Method: "linksAway"}
	budget := map[TestID]time.Duration{own: time.Second, link: time.Second}
	r := run(t, p, RunSpec{ExtraTests: []Source{test}, Tests: []TestID{own, link}, Timeouts: budget})
	if tr := find(t, r, own.String()); tr.Outcome != Timeout || string(tr.Files["own.txt"]) != "own" {
		t.Fatalf("the control: %s %q files %v: the timeout path read nothing", tr.Outcome, tr.Message, tr.Files)
	}
	tr := find(t, r, link.String())
	if tr.Outcome != Timeout || len(tr.Files) != 0 {
		t.Errorf("behind the link: %s %q files %v", tr.Outcome, tr.Message, tr.Files)
	}
	if b, err := os.ReadFile(filepath.Join(host, "secret.txt")); err != nil || string(b) != "host secret" {
		t.Errorf("the host folder after the run: %q, %v", b, err)
	}
}

// TestOpenRefusesTheHome: a pool whose read-only paths hold the home folder ($HOME here) does
// not open, with the sandbox's reason, before any worker starts.
func TestOpenRefusesTheHome(t *testing.T) {
	if a := sandbox.Probe(); !a.OK {
		t.Skipf("no sandbox here: %s", a.Reason)
	}
	home := t.TempDir()
	t.Setenv("HOME", home)
	cfg := fx.j4.config()
	cfg.ReadOnly = append(cfg.ReadOnly, home)
	p, err := Open(context.Background(), cfg)
	if err == nil {
		p.Close()
		t.Fatal("a pool that binds the home folder opened")
	}
	if !strings.Contains(err.Error(), "refusing to bind the folder "+home+" into the sandbox: it is the home folder") {
		t.Errorf("Open: %v", err)
	}
}
