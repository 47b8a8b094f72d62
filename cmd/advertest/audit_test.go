//go:build linux

package main

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/advertest/advertest-lsp/buildtools/buildtest"
	"github.com/advertest/advertest-lsp/buildtools/harness"
	"github.com/advertest/advertest-lsp/buildtools/sandbox"
	"github.com/advertest/advertest-lsp/internal/testenv"
	"github.com/advertest/advertest-lsp/loop/llm/llmtest"
	"github.com/advertest/advertest-lsp/loop/report"
	"github.com/advertest/advertest-lsp/server/lsptest"
)

// The sandbox audit's end-to-end tests (docs/sandbox.md): the real advertest binary, started by
// this process with descriptors 3 and 7 open on host files and 8 on a host folder (the
// worker's own pipes take the low numbers: 3 and 4 alone would prove nothing), with a fake
// java, javac and git first on PATH that record their environment and descriptors, and a cold
// cache that holds another project's classes, resources and model, plays
// testdata/hostile/SandboxAuditTest.java as the scripted LLM's tests: through `advertest run`
// and through `advertest lsp`. Inside, the tests check that the descriptors are unusable and
// that the cache shows only the worker's entries (they pass only then, and the suite keeps
// only passing tests), and one swaps its scratch folder for a link to the host folder before
// its worker times out. Outside, the host folder is watched with inotify: nothing may open,
// read or change anything in it. A project whose root is the home folder is refused, through
// both commands too.

// auditWorld is one audit run's world on the host.
type auditWorld struct {
	root    string // holds everything below; under /var/tmp, outside the sandbox's own /tmp
	project string // a copy of examples/maven-calculator, a git repository with clamp changed
	file    string // its PriceCalculator.java
	outside string // the host folder: secret.txt, fd3.txt and fd7.txt
	records string // what the fake tools record
	cache   string // XDG_CACHE_HOME: advertest's cache is its advertest folder
	mark    string
	secrets []string
	fdTexts map[string]string // fd3.txt, fd7.txt → their text
	env     []string          // advertest's environment
	leaked  []*os.File        // ExtraFiles: fd 3, (4, 5, 6 closed), 7, 8
}

func newAuditWorld(t *testing.T) *auditWorld {
	t.Helper()
	testenv.NeedsJVM(t)
	for _, tool := range []string{"mvn", "git"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s missing", tool)
		}
	}
	if a := sandbox.Probe(); !a.OK {
		t.Skipf("the audit runs only in the sandbox: %s", a.Reason)
	}
	java, javac, err := harness.FindJDK("")
	if err != nil {
		t.Skip(err)
	}
	realGit, _ := exec.LookPath("git")
	root, err := os.MkdirTemp("/var/tmp", "advertest-audit-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(root) })
	mark := strconv.FormatInt(time.Now().UnixNano()%1_000_000_000, 10)
	w := &auditWorld{root: root, project: filepath.Join(root, "calc"), outside: filepath.Join(root, "outside"),
		records: filepath.Join(root, "records"), cache: filepath.Join(root, "xdg-cache"), mark: mark}
	w.file = filepath.Join(w.project, "src", "main", "java", "org", "acme", "PriceCalculator.java")
	if err := buildtest.CopyProject(filepath.Join("..", "..", "examples", "maven-calculator"), w.project); err != nil {
		t.Fatal(err)
	}
	w.secrets = []string{"sk-audit-key-" + mark, "audit-canary-" + mark, "outside-secret-" + mark,
		"fd3-secret-" + mark, "fd7-secret-" + mark, "other-project-secret-" + mark}
	w.fdTexts = map[string]string{"fd3.txt": w.secrets[3] + "\n", "fd7.txt": w.secrets[4] + "\n"}
	other := filepath.Join(w.cache, "advertest", "classes", "0123other", "main")
	for path, text := range map[string]string{
		filepath.Join(w.outside, "secret.txt"):                            w.secrets[2],
		filepath.Join(w.outside, "fd3.txt"):                               w.fdTexts["fd3.txt"],
		filepath.Join(w.outside, "fd7.txt"):                               w.fdTexts["fd7.txt"],
		filepath.Join(other, "application.properties"):                    "db.password=" + w.secrets[5],
		filepath.Join(other, "org", "other", "Secret.class"):              w.secrets[5],
		filepath.Join(w.cache, "advertest", "projects", "0123other.json"): `{"root": "/srv/other", "note": "` + w.secrets[5] + `"}`,
	} {
		writeAuditFile(t, path, text, 0o644)
	}
	// The fake JDK and git: java runs the real one; javac and git record, then run the real one.
	bin := filepath.Join(root, "jdk", "bin")
	record := func(name, real string) string {
		return fmt.Sprintf("#!/bin/sh\n{ echo '--- env'; env; echo '--- fds'; for f in /proc/$$/fd/*; do readlink \"$f\"; done; } >> '%s'\nexec '%s' \"$@\"\n",
			filepath.Join(w.records, name+".txt"), real)
	}
	writeAuditFile(t, filepath.Join(bin, "java"), fmt.Sprintf("#!/bin/sh\nexec '%s' \"$@\"\n", java), 0o755)
	writeAuditFile(t, filepath.Join(bin, "javac"), record("javac", javac), 0o755)
	writeAuditFile(t, filepath.Join(bin, "git"), record("git", realGit), 0o755)
	release, err := os.ReadFile(filepath.Join(filepath.Dir(filepath.Dir(java)), "release"))
	if err == nil {
		writeAuditFile(t, filepath.Join(root, "jdk", "release"), string(release), 0o644)
	}
	if err := os.MkdirAll(w.records, 0o755); err != nil {
		t.Fatal(err)
	}
	// A repository whose last commit lacks a change to clamp, for --diff HEAD.
	for _, args := range [][]string{{"init", "-q"}, {"add", "."}, {"commit", "-q", "-m", "calc"}} {
		gitIn(t, w.project, args...)
	}
	src, err := os.ReadFile(w.file)
	if err != nil {
		t.Fatal(err)
	}
	writeAuditFile(t, w.file, strings.Replace(string(src), "        return value;\n", "        return value; // checked\n", 1), 0o644)

	for _, kv := range os.Environ() {
		name, _, _ := strings.Cut(kv, "=")
		switch name {
		case "JAVA_HOME", "XDG_CACHE_HOME", "PATH", "OPENAI_API_KEY":
			continue
		}
		w.env = append(w.env, kv)
	}
	w.env = append(w.env, "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"), "XDG_CACHE_HOME="+w.cache,
		"OPENAI_API_KEY="+w.secrets[0], "ADVERTEST_AUDIT_CANARY="+w.secrets[1])
	f3, err := os.OpenFile(filepath.Join(w.outside, "fd3.txt"), os.O_RDWR|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	f7, err := os.OpenFile(filepath.Join(w.outside, "fd7.txt"), os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	f8, err := os.Open(w.outside)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f3.Close(); f7.Close(); f8.Close() })
	w.leaked = []*os.File{f3, nil, nil, nil, f7, f8}
	return w
}

func writeAuditFile(t *testing.T, path, text string, mode os.FileMode) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), mode); err != nil {
		t.Fatal(err)
	}
}

// gitIn runs the real git in dir, without the user's configuration.
func gitIn(t *testing.T, dir string, args ...string) {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-C", dir, "-c", "user.name=t", "-c", "user.email=t@example.com", "-c", "commit.gpgsign=false"}, args...)...)
	cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git %q: %v\n%s", args, err, out)
	}
}

// source is the audit fixture with its placeholders filled in.
func (w *auditWorld) source(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "hostile", "SandboxAuditTest.java"))
	if err != nil {
		t.Fatal(err)
	}
	return strings.NewReplacer("@OUTSIDE@", w.outside, "@MARK@", w.mark).Replace(string(b))
}

// llm is a scripted LLM whose agent T answers its first request with the audit class; later
// requests get no class, agent M no mutants.
func (w *auditWorld) llm(t *testing.T) *llmtest.Server {
	t.Helper()
	class := strings.Replace(w.source(t), "package org.acme;\n", "", 1)
	var mu sync.Mutex
	answered := false
	return llmtest.Start(t, func(req *llmtest.Request, n int) llmtest.Response {
		if strings.Contains(req.Messages[0].Content, "mutation testing") || strings.Contains(req.Prompt(), `"mutants"`) {
			return llmtest.Reply("```json\n{\"mutants\": []}\n```", 100, 10)
		}
		mu.Lock()
		defer mu.Unlock()
		if answered || !strings.Contains(req.Last(), "cover every path") {
			return llmtest.Reply("No more tests.", 100, 10)
		}
		answered = true
		return llmtest.Reply("```java\n"+class+"```", 1000, 800)
	})
}

// command is the advertest binary with args in the world: its environment, the project as
// the working directory, the leaked descriptors.
func (w *auditWorld) command(t *testing.T, args ...string) *exec.Cmd {
	t.Helper()
	bin, err := buildBinary()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, args...)
	cmd.Env, cmd.Dir, cmd.ExtraFiles = w.env, w.project, w.leaked
	return cmd
}

// watch starts watching the host folder: every open, read, write, creation, removal or change
// of anything in it from now on is an event.
func (w *auditWorld) watch(t *testing.T) (events func() []string) {
	t.Helper()
	fd, err := syscall.InotifyInit1(syscall.IN_NONBLOCK | syscall.IN_CLOEXEC)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { syscall.Close(fd) })
	mask := uint32(syscall.IN_OPEN | syscall.IN_ACCESS | syscall.IN_MODIFY | syscall.IN_CREATE | syscall.IN_DELETE |
		syscall.IN_MOVED_TO | syscall.IN_MOVED_FROM | syscall.IN_ATTRIB)
	if _, err := syscall.InotifyAddWatch(fd, w.outside, mask); err != nil {
		t.Fatal(err)
	}
	return func() []string {
		var out []string
		buf := make([]byte, 64<<10)
		for {
			n, err := syscall.Read(fd, buf)
			if err != nil || n <= 0 {
				return out
			}
			for i := 0; i+syscall.SizeofInotifyEvent <= n; {
				m := binary.NativeEndian.Uint32(buf[i+4:])
				l := int(binary.NativeEndian.Uint32(buf[i+12:]))
				name := strings.TrimRight(string(buf[i+syscall.SizeofInotifyEvent:i+syscall.SizeofInotifyEvent+l]), "\x00")
				out = append(out, fmt.Sprintf("%q mask %#x", name, m))
				i += syscall.SizeofInotifyEvent + l
			}
		}
	}
}

// checkHost checks the host after a run: nothing in the host folder was opened, read, written
// or made (events), the files behind the leaked descriptors are as they were, no secret is in
// the outputs, and the fake javac (and git, where it ran) got no secret and no leaked
// descriptor.
func (w *auditWorld) checkHost(t *testing.T, events []string, wantGit bool, outputs ...[]byte) {
	t.Helper()
	if len(events) > 0 {
		t.Errorf("the host folder %s was touched during the run: %v", w.outside, events)
	}
	for name, text := range w.fdTexts {
		if b, err := os.ReadFile(filepath.Join(w.outside, name)); err != nil || string(b) != text {
			t.Errorf("%s behind a leaked descriptor: %q, %v", name, b, err)
		}
	}
	if left, _ := filepath.Glob(filepath.Join(w.outside, "*"+w.mark+"*")); len(left) != 0 {
		t.Errorf("files made in the host folder: %v", left)
	}
	for _, out := range outputs {
		for _, s := range w.secrets {
			if bytes.Contains(out, []byte(s)) {
				t.Errorf("the secret %q leaked into %.300s", s, out)
			}
		}
	}
	for _, tool := range []string{"javac", "git"} {
		b, err := os.ReadFile(filepath.Join(w.records, tool+".txt"))
		if err != nil {
			if tool == "javac" || wantGit {
				t.Errorf("the fake %s did not run: %v", tool, err)
			}
			continue
		}
		rec := string(b)
		for _, s := range w.secrets[:2] {
			if strings.Contains(rec, s) {
				t.Errorf("%s got the secret %q in its environment", tool, s)
			}
		}
		if strings.Contains(rec, w.outside) {
			t.Errorf("%s holds a descriptor of the host folder:\n%s", tool, rec[strings.Index(rec, "--- fds"):])
		}
		if !strings.Contains(rec, "\nPATH=") {
			t.Errorf("the record of %s has no environment:\n%s", tool, rec)
		}
	}
}

// auditPassed lists the audit tests that must pass inside (the suite keeps only those).
var auditPassed = []string{"clampsInside", "inheritedDescriptorsAreUnusable", "cacheShowsNoOtherProject"}

const linkTest = "swapsItsScratchForALinkAndStops"

// checkPassed checks in a report that the audit tests that check from inside passed there, and
// that the link test did not (its worker was stopped). The runs set suite.minimal off, so that
// the suite keeps every passing test (the audit's kill no mutant); it keeps the tests that fail
// on the original too, written disabled: passing is being in it and not failing.
func checkPassed(t *testing.T, rep *report.Report) {
	t.Helper()
	passed := map[string]bool{}
	for _, m := range rep.Tests.Methods {
		passed[m[strings.LastIndex(m, ".")+1:]] = !slices.Contains(rep.Tests.FailingOnOriginal, m)
	}
	for _, name := range auditPassed {
		if !passed[name] {
			t.Errorf("%s did not pass inside (the suite is %v; failing on the original: %v)", name, rep.Tests.Methods, rep.Tests.FailingOnOriginal)
		}
	}
	if passed[linkTest] {
		t.Errorf("%s passed: its worker was not stopped", linkTest)
	}
}

// checkTimedOut checks in the debug log that the link test's worker was killed on the timeout
// path (the controller then collects the scratch folder itself).
func checkTimedOut(t *testing.T, log string) {
	t.Helper()
	if !strings.Contains(log, "worker unresponsive past the test's budget; killing it") || !strings.Contains(log, linkTest) {
		t.Errorf("no sign of the link test's timeout in the log:\n%s", lastLines(log, 60))
	}
}

// TestSandboxAudit plays the audit in one world, first through `advertest lsp` on a cold cache
// (the fake javac compiles the worker there), then through `advertest run --diff HEAD` (the
// fake git finds clamp's change), then with the project's root as $HOME through both (the
// models and the worker are in the cache by then, so the refusals come at once).
func TestSandboxAudit(t *testing.T) {
	w := newAuditWorld(t)
	t.Run("lsp", func(t *testing.T) { auditThroughLSP(t, w) })
	t.Run("run", func(t *testing.T) { auditThroughRun(t, w) })
	t.Run("home", func(t *testing.T) { homeAsProjectRootIsRefused(t, w) })
}

// auditThroughRun plays the audit class through `advertest run --diff HEAD`.
func auditThroughRun(t *testing.T, w *auditWorld) {
	srv := w.llm(t)
	jsonPath := filepath.Join(w.root, "report.json")
	cmd := w.command(t, "run", w.file, "--method", "clamp", "--diff", "HEAD", "--rounds", "1", "--workers", "1", "--sandbox", "on",
		"--agents", "llm", "--llm-base-url", srv.URL, "--llm-model", "scripted", "--set", "suite.minimal=off", "--json", jsonPath, "--log-level", "debug")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	events := w.watch(t)
	if err := runWithin(cmd, 5*time.Minute); err != nil {
		t.Fatalf("advertest run: %v\n%s", err, lastLines(stderr.String(), 60))
	}
	touched := events()
	raw, err := os.ReadFile(jsonPath)
	if err != nil {
		t.Fatal(err)
	}
	// --diff makes the report one over many methods; clamp is its one method.
	var multi report.Multi
	if err := json.Unmarshal(raw, &multi); err != nil {
		t.Fatal(err)
	}
	if len(multi.Methods) != 1 || multi.Methods[0].Target.Method != "clamp" {
		t.Fatalf("--diff HEAD picked %d methods (failures %v), want clamp alone:\n%s", len(multi.Methods), multi.Failures, lastLines(stderr.String(), 40))
	}
	rep := multi.Methods[0]
	if rep.Sandbox == nil || rep.Sandbox.Kind != "bwrap" {
		t.Fatalf("report: sandbox %+v, want bwrap", rep.Sandbox)
	}
	checkPassed(t, &rep)
	checkTimedOut(t, stderr.String())
	var prompts []byte
	for _, r := range srv.Requests() {
		prompts = append(prompts, r.Prompt()...)
	}
	w.checkHost(t, touched, true, raw, stdout.Bytes(), stderr.Bytes(), prompts)
}

// auditThroughLSP plays the audit class through `advertest lsp`: generateTests on clamp.
func auditThroughLSP(t *testing.T, w *auditWorld) {
	srv := w.llm(t)
	logFile := filepath.Join(w.root, "lsp.log")
	events := w.watch(t)
	p := startLSPCommand(t, w.command(t, "lsp", "--log", logFile, "--log-level", "debug"))
	c := p.client
	end := w.lspJob(t, c, "advertest.generateTests", map[string]any{"agents": "llm", "rounds": 1, "sandbox": map[string]any{"mode": "on"},
		"llm": map[string]any{"baseURL": srv.URL, "model": "scripted"}, "suite": map[string]any{"minimal": "off"}})
	if _, _, err := c.WaitFrom(0, func(m lsptest.Message) bool { return m.Method == "workspace/applyEdit" }); err != nil {
		t.Fatalf("no test file edit (the job ended with %s): %v", end, err)
	}
	if err := c.Call("shutdown", nil, nil); err != nil {
		t.Fatalf("shutdown: %v", err)
	}
	c.Notify("exit", nil)
	if code := p.wait(t); code != 0 {
		t.Errorf("exit status %d; stderr:\n%s", code, p.stderr.String())
	}
	touched := events()
	// The job's report is in the method's state.
	states, _ := filepath.Glob(filepath.Join(w.project, ".advertest", "methods", "org.acme.PriceCalculator", "clamp*.json"))
	if len(states) != 1 {
		t.Fatalf("state files %v (the job ended with %s)", states, end)
	}
	var st struct{ Report report.Report }
	if b, err := os.ReadFile(states[0]); err != nil || json.Unmarshal(b, &st) != nil {
		t.Fatalf("the state %s: %v", states[0], err)
	}
	checkPassed(t, &st.Report)
	log, _ := os.ReadFile(logFile)
	checkTimedOut(t, string(log))
	var prompts []byte
	for _, r := range srv.Requests() {
		prompts = append(prompts, r.Prompt()...)
	}
	w.checkHost(t, touched, false, p.stdout.Bytes(), p.stderr.Bytes(), log, prompts)
}

// lspJob initializes the server with the project as its root, an editor's capabilities and
// the settings init, opens the project's PriceCalculator.java, runs command on clamp and
// returns the end of the job's work-done progress.
func (w *auditWorld) lspJob(t *testing.T, c *lsptest.Client, command string, init map[string]any) string {
	t.Helper()
	if err := c.Call("initialize", map[string]any{"processId": os.Getpid(), "rootUri": "file://" + w.project,
		"capabilities": map[string]any{"window": map[string]any{"workDoneProgress": true},
			"workspace": map[string]any{"applyEdit": true, "workspaceEdit": map[string]any{"documentChanges": true, "resourceOperations": []string{"create"}}}},
		"initializationOptions": init}, nil); err != nil {
		t.Fatalf("initialize: %v", err)
	}
	c.Notify("initialized", map[string]any{})
	b, err := os.ReadFile(w.file)
	if err != nil {
		t.Fatal(err)
	}
	line := -1
	for i, l := range strings.Split(string(b), "\n") {
		if strings.Contains(l, "public static int clamp(") {
			line = i
		}
	}
	c.Notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{
		"uri": "file://" + w.file, "languageId": "java", "version": 1, "text": string(b)}})
	var res struct{ Job string }
	if err := c.Call("workspace/executeCommand", map[string]any{"command": command,
		"arguments": []any{map[string]any{"uri": "file://" + w.file, "position": map[string]any{"line": line, "character": 24}}}}, &res); err != nil {
		t.Fatalf("%s: %v", command, err)
	}
	token := `"advertest/job/` + res.Job + `"`
	m, _, err := c.WaitFrom(0, func(m lsptest.Message) bool {
		return m.Method == "$/progress" && strings.Contains(string(m.Params), token) && strings.Contains(string(m.Params), `"kind":"end"`)
	})
	if err != nil {
		t.Fatalf("job %s did not end: %v", res.Job, err)
	}
	return string(m.Params)
}

// runWithin runs cmd, killing it after limit.
func runWithin(cmd *exec.Cmd, limit time.Duration) error {
	if err := cmd.Start(); err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(context.Background(), limit)
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
		_ = cmd.Process.Kill()
		<-done
		return fmt.Errorf("still running after %v", limit)
	}
}

// homeAsProjectRootIsRefused: a project whose root is the home folder ($HOME) is refused with
// a message that says so, through `advertest run` and `advertest lsp`, and nothing of it is
// shown in a sandbox.
func homeAsProjectRootIsRefused(t *testing.T, world *auditWorld) {
	w := *world
	w.env = append(append([]string(nil), world.env...), "HOME="+w.project)
	w.leaked = nil
	const want = "is the home folder"
	t.Run("run", func(t *testing.T) {
		cmd := w.command(t, "run", w.file, "--method", "clamp", "--rounds", "1", "--workers", "1", "--sandbox", "on", "--agents", "offline")
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		err := runWithin(cmd, 5*time.Minute)
		if err == nil || !strings.Contains(stderr.String(), "refusing to bind the folder "+w.project) || !strings.Contains(stderr.String(), want) {
			t.Errorf("advertest run with the project as the home: %v\n%s", err, lastLines(stderr.String(), 20))
		}
	})
	t.Run("lsp", func(t *testing.T) {
		p := startLSPCommand(t, w.command(t, "lsp"))
		c := p.client
		if end := w.lspJob(t, c, "advertest.analyzeMutants", map[string]any{"sandbox": map[string]any{"mode": "on"}}); !strings.Contains(end, "refusing to bind the folder "+w.project) || !strings.Contains(end, want) {
			t.Errorf("the job on the project as the home ended with %s", end)
		}
		c.Notify("exit", nil)
		p.wait(t)
	})
}
