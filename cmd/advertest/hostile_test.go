package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/advertest/advertest-lsp/buildtools/buildtest"
	"github.com/advertest/advertest-lsp/buildtools/sandbox"
	"github.com/advertest/advertest-lsp/internal/testenv"
	"github.com/advertest/advertest-lsp/loop/llm/llmtest"
	"github.com/advertest/advertest-lsp/loop/report"
)

// The hostile end-to-end tests play testdata/hostile/SandboxEscapeTest.java — honest tests of
// PriceCalculator.clamp beside tests that read the API key, a canary variable and a file
// outside the project, write outside the project, into the home, the project and /tmp, connect
// to a listener on the host's loopback, leave sleepers and a blocked thread, fill /tmp and
// forge protocol lines — once as the LLM's tests and once as the project's own tests, through
// `advertest run` with sandbox.mode on, and check the host afterwards. They never run without
// the sandbox: where it cannot start they skip (the sandbox's own tests in buildtools/sandbox
// fail on a machine with bwrap that cannot start it).

// hostileWorld is what one hostile run is checked against.
type hostileWorld struct {
	project string // the copy of examples/maven-calculator the run plays on
	outside string // a folder beside the project, on the host's disk
	mark    string // makes every file the hostile tests plant unique
	sleep   string // the sleepers' argument
	canary  string // the canary variable's name; its value and the API key's are secrets
	secrets []string
	port    int

	mu    sync.Mutex
	conns int
	got   []byte // what reached the listener
}

func newHostileWorld(t *testing.T) *hostileWorld {
	t.Helper()
	testenv.NeedsJVM(t)
	if _, err := exec.LookPath("mvn"); err != nil {
		t.Skip("mvn missing")
	}
	if a := sandbox.Probe(); !a.OK {
		t.Skipf("the hostile tests run only in the sandbox: %s", a.Reason)
	}
	// The world lives outside /tmp, which the sandbox replaces anyway: under /var/tmp.
	base := ""
	if fi, err := os.Stat("/var/tmp"); err == nil && fi.IsDir() {
		base = "/var/tmp"
	}
	root, err := os.MkdirTemp(base, "advertest-hostile-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(root) })
	mark := strconv.FormatInt(time.Now().UnixNano()%1_000_000_000, 10)
	w := &hostileWorld{project: filepath.Join(root, "calc"), outside: filepath.Join(root, "outside"), mark: mark,
		sleep: "9" + mark[len(mark)-6:], canary: "ADVERTEST_HOSTILE_CANARY"}
	if err := buildtest.CopyProject(filepath.Join("..", "..", "examples", "maven-calculator"), w.project); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(w.outside, 0o755); err != nil {
		t.Fatal(err)
	}
	w.secrets = []string{"sk-hostile-key-" + mark, "canary-value-" + mark, "outside-secret-" + mark}
	t.Setenv("OPENAI_API_KEY", w.secrets[0])
	t.Setenv(w.canary, w.secrets[1])
	if err := os.WriteFile(filepath.Join(w.outside, "secret.txt"), []byte(w.secrets[2]), 0o644); err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	w.port = ln.Addr().(*net.TCPAddr).Port
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			w.mu.Lock()
			w.conns++
			w.mu.Unlock()
			b, _ := io.ReadAll(io.LimitReader(c, 1<<16))
			c.Close()
			w.mu.Lock()
			w.got = append(w.got, b...)
			w.mu.Unlock()
		}
	}()
	t.Cleanup(func() {
		// Should the sandbox fail, leave nothing behind on the host.
		for _, p := range w.planted() {
			os.Remove(p)
		}
		os.Remove("/tmp/fill-" + mark)
	})
	return w
}

// source is the fixture with its placeholders filled in: with the hostile tests or without.
func (w *hostileWorld) source(t *testing.T, hostile bool) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "hostile", "SandboxEscapeTest.java"))
	if err != nil {
		t.Fatal(err)
	}
	src := string(b)
	if !hostile {
		i, j := strings.Index(src, "    // HOSTILE BEGIN"), strings.Index(src, "    // HOSTILE END\n")
		src = src[:i] + src[j+len("    // HOSTILE END\n"):]
	}
	return strings.NewReplacer("@CANARY@", w.canary, "@OUTSIDE@", w.outside, "@MARK@", w.mark, "@SLEEP@", w.sleep,
		"@PROJECT@", w.project, "@PORT@", strconv.Itoa(w.port)).Replace(src)
}

// planted are the host paths the hostile tests try to write.
func (w *hostileWorld) planted() []string {
	out := []string{filepath.Join(w.outside, "loot-"+w.mark+".txt"), filepath.Join(w.outside, "planted-"+w.mark+".txt"),
		filepath.Join(w.project, "src", "main", "java", "org", "acme", "Planted"+w.mark+".java"),
		filepath.Join(w.project, "target", "classes", "org", "acme", "Planted"+w.mark+".class"),
		"/tmp/planted-" + w.mark + ".txt", "/tmp/fill-" + w.mark}
	homes := []string{os.Getenv("HOME")}
	if u, err := user.Current(); err == nil {
		homes = append(homes, u.HomeDir)
	}
	for _, h := range homes {
		if h != "" {
			out = append(out, filepath.Join(h, "planted-"+w.mark+".txt"))
		}
	}
	return out
}

// run runs `advertest run` on clamp in the sandbox and returns the report, its JSON and the
// run's debug log.
func (w *hostileWorld) run(t *testing.T, args ...string) (*report.Report, []byte, string) {
	t.Helper()
	jsonPath := filepath.Join(filepath.Dir(w.project), "report.json")
	file := filepath.Join(w.project, "src", "main", "java", "org", "acme", "PriceCalculator.java")
	all := append([]string{"run", file, "--method", "clamp", "--rounds", "1", "--workers", "1", "--sandbox", "on", "--json", jsonPath,
		"--log-level", "debug"}, args...)
	code, _, errOut := runCLI(all...)
	if code != 0 {
		t.Fatalf("advertest %s: status %d:\n%s", strings.Join(all, " "), code, errOut)
	}
	b, err := os.ReadFile(jsonPath)
	if err != nil {
		t.Fatal(err)
	}
	var rep report.Report
	if err := json.Unmarshal(b, &rep); err != nil {
		t.Fatal(err)
	}
	if rep.Sandbox == nil || rep.Sandbox.Kind != "bwrap" {
		t.Fatalf("report: sandbox %+v, want bwrap", rep.Sandbox)
	}
	return &rep, b, errOut
}

// checkRan checks in the run's debug log that the hostile tests ran: the forger broke the
// protocol (and was rerun alone) and the sleepers were killed after their test.
func checkRan(t *testing.T, log string) {
	t.Helper()
	if !regexp.MustCompile(`a test broke the worker protocol.*forgesProtocolLines`).MatchString(log) {
		t.Errorf("no sign of the forger in the log:\n%s", lastLines(log, 40))
	}
	if !regexp.MustCompile(`test clean-up.*spawnsSleepers.*"processesKilled": [1-9]`).MatchString(log) {
		t.Errorf("no sign of the sleepers in the log:\n%s", lastLines(log, 40))
	}
}

func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	return strings.Join(lines[max(0, len(lines)-n):], "\n")
}

// checkContained checks the host after a run: nothing reached the listener, nothing was
// written outside the sandbox, no process is left, and no secret is in what the run wrote.
func (w *hostileWorld) checkContained(t *testing.T, outputs ...[]byte) {
	t.Helper()
	w.mu.Lock()
	if w.conns != 0 {
		t.Errorf("the hostile tests reached the host's loopback: %d connections, %q", w.conns, w.got)
	}
	w.mu.Unlock()
	for _, p := range w.planted() {
		if _, err := os.Lstat(p); err == nil {
			t.Errorf("a hostile test wrote %s", p)
		}
	}
	for _, out := range outputs {
		for _, s := range w.secrets {
			if bytes.Contains(out, []byte(s)) {
				t.Errorf("the secret %q leaked into %.300s", s, out)
			}
		}
	}
	// The sleepers end with the sandbox's PID namespace, when the run closes its workers; one
	// reparented to init is reaped a moment later: wait for the condition.
	deadline := time.Now().Add(30 * time.Second)
	for {
		left := sleepers(w.sleep)
		if len(left) == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Errorf("processes left after the run: %v", left)
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// sleepers lists the live processes whose command line is "sleep arg".
func sleepers(arg string) []string {
	dirs, _ := filepath.Glob("/proc/[0-9]*")
	var out []string
	for _, d := range dirs {
		b, err := os.ReadFile(filepath.Join(d, "cmdline"))
		if err != nil || len(b) == 0 {
			continue
		}
		args := strings.Split(string(bytes.TrimRight(b, "\x00")), "\x00")
		if len(args) == 2 && filepath.Base(args[0]) == "sleep" && args[1] == arg {
			out = append(out, filepath.Base(d))
		}
	}
	return out
}

// verdicts maps each mutant (line and mutated text) to its status.
func verdicts(rep *report.Report) map[string]report.Status {
	m := map[string]report.Status{}
	for _, mu := range rep.Mutants {
		m[fmt.Sprintf("%d %s", mu.Line, strings.TrimSpace(mu.Mutated))] = mu.Status
	}
	return m
}

// honestTests are the fixture's honest tests.
var honestTests = []string{"clampsAbove", "clampsBelow", "keepsInside", "keepsTheBounds", "rejectsAnEmptyRange", "writesATempFile"}

// TestHostileLLMTestsAreContained: the scripted LLM answers agent T with the hostile class. Its
// tests run in the sandbox beside the honest ones; nothing escapes, and the run's verdicts are
// those of the honest tests alone.
func TestHostileLLMTestsAreContained(t *testing.T) {
	w := newHostileWorld(t)
	hostile, honest := w.source(t, true), w.source(t, false)
	var mu sync.Mutex
	var reply string // what agent T's first request gets; later ones get no class
	answered := false
	srv := llmtest.Start(t, func(req *llmtest.Request, n int) llmtest.Response {
		if strings.Contains(req.Messages[0].Content, "mutation testing") {
			return llmtest.Reply("```json\n{\"mutants\": []}\n```", 100, 10)
		}
		mu.Lock()
		defer mu.Unlock()
		if answered {
			return llmtest.Reply("No more tests.", 100, 10)
		}
		answered = true
		return llmtest.Reply("```java\n"+strings.Replace(reply, "package org.acme;\n", "", 1)+"```", 1000, 800)
	})
	// suite.minimal off: the honest tests must all be in the suite, though a minimal suite
	// (the LLM agents' default) would keep only those that kill a mutant no other kills.
	play := func() (*report.Report, []byte, string) {
		return w.run(t, "--agents", "llm", "--llm-base-url", srv.URL, "--llm-model", "scripted", "--set", "suite.minimal=off")
	}
	reply = hostile
	rep, raw, log := play()
	var prompts []byte
	for _, r := range srv.Requests() {
		prompts = append(prompts, r.Prompt()...)
	}
	w.checkContained(t, raw, prompts, []byte(log))
	checkRan(t, log)
	for _, name := range honestTests {
		if !strings.Contains(strings.Join(rep.Tests.Methods, " "), name) {
			t.Errorf("the honest test %s is not in the suite %v", name, rep.Tests.Methods)
		}
	}
	// The same game with the honest tests alone (a fresh copy of the project: the first run
	// wrote its test file into this one) gives the same verdicts.
	if err := os.RemoveAll(w.project); err != nil {
		t.Fatal(err)
	}
	if err := buildtest.CopyProject(filepath.Join("..", "..", "examples", "maven-calculator"), w.project); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	reply, answered = honest, false
	mu.Unlock()
	control, _, _ := play()
	if got, want := fmt.Sprint(verdicts(rep)), fmt.Sprint(verdicts(control)); got != want {
		t.Errorf("verdicts beside the hostile tests:\n%s\nwith the honest tests alone:\n%s", got, want)
	}
	t.Logf("verdicts: %v", verdicts(rep))
}

// TestHostileProjectTestsAreContained: the same hostile tests as the project's own test class,
// on the offline path.
func TestHostileProjectTestsAreContained(t *testing.T) {
	w := newHostileWorld(t)
	testFile := filepath.Join(w.project, "src", "test", "java", "org", "acme", "SandboxEscapeTest.java")
	write := func(src string) {
		if err := os.WriteFile(testFile, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(w.source(t, true))
	rep, raw, log := w.run(t, "--agents", "offline")
	w.checkContained(t, raw, []byte(log))
	checkRan(t, log)
	// The control: a fresh copy whose test class has the honest tests only.
	if err := os.RemoveAll(w.project); err != nil {
		t.Fatal(err)
	}
	if err := buildtest.CopyProject(filepath.Join("..", "..", "examples", "maven-calculator"), w.project); err != nil {
		t.Fatal(err)
	}
	write(w.source(t, false))
	control, _, _ := w.run(t, "--agents", "offline")
	if got, want := fmt.Sprint(verdicts(rep)), fmt.Sprint(verdicts(control)); got != want {
		t.Errorf("verdicts beside the hostile tests:\n%s\nwith the honest tests alone:\n%s", got, want)
	}
	t.Logf("verdicts: %v", verdicts(rep))
}
