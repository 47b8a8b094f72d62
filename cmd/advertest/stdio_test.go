package main

import (
	"bytes"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/advertest/advertest-lsp/server/lsptest"
)

// buildBinary builds the real advertest binary once per test binary run.
var buildBinary = sync.OnceValues(func() (string, error) {
	dir, err := os.MkdirTemp("", "advertest-bin-")
	if err != nil {
		return "", err
	}
	bin := filepath.Join(dir, "advertest")
	out, err := exec.Command("go", "build", "-o", bin, "-ldflags", "-X main.version=9.9.9-test", ".").CombinedOutput()
	if err != nil {
		return "", errors.New("go build: " + err.Error() + "\n" + string(out))
	}
	return bin, nil
})

func TestMain(m *testing.M) {
	code := m.Run()
	if bin, err := buildBinary(); err == nil {
		os.RemoveAll(filepath.Dir(bin))
	}
	os.Exit(code)
}

// lspProcess is `advertest lsp` with a client on its stdin/stdout.
type lspProcess struct {
	cmd    *exec.Cmd
	client *lsptest.Client
	stdout bytes.Buffer // everything the process wrote to stdout
	stderr bytes.Buffer
	copied chan struct{} // closed when stdout has been read to its end
}

type pipeRWC struct {
	io.Reader
	io.WriteCloser
}

func startLSP(t *testing.T, args ...string) *lspProcess {
	t.Helper()
	bin, err := buildBinary()
	if err != nil {
		t.Fatal(err)
	}
	return startLSPCommand(t, exec.Command(bin, append([]string{"lsp"}, args...)...))
}

// startLSPCommand starts cmd, an `advertest lsp` command (its environment, working directory
// and extra files set as the test needs), with a client on its stdin and stdout.
func startLSPCommand(t *testing.T, cmd *exec.Cmd) *lspProcess {
	t.Helper()
	p := &lspProcess{cmd: cmd, copied: make(chan struct{})}
	p.cmd.Stderr = &p.stderr
	stdin, err := p.cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := p.cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := p.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = p.cmd.Process.Kill() })
	toClient, fromTee := io.Pipe()
	go func() {
		defer close(p.copied)
		_, _ = io.Copy(io.MultiWriter(&p.stdout, fromTee), stdout)
		_ = fromTee.Close()
	}()
	p.client = lsptest.Connect(t, pipeRWC{Reader: toClient, WriteCloser: stdin})
	return p
}

// wait returns the exit status, waiting at most lsptest.Timeout.
func (p *lspProcess) wait(t *testing.T) int {
	t.Helper()
	select {
	case <-p.copied:
	case <-time.After(lsptest.Timeout):
		t.Fatalf("advertest lsp did not end within %v", lsptest.Timeout)
	}
	err := p.cmd.Wait()
	var exitErr *exec.ExitError
	switch {
	case err == nil:
		return 0
	case errors.As(err, &exitErr):
		return exitErr.ExitCode()
	default:
		t.Fatalf("waiting for advertest lsp: %v", err)
		return -1
	}
}

func initialize(t *testing.T, c *lsptest.Client) {
	t.Helper()
	var result struct {
		ServerInfo struct{ Name, Version string } `json:"serverInfo"`
	}
	if err := c.Call("initialize", map[string]any{"processId": os.Getpid(), "capabilities": map[string]any{}}, &result); err != nil {
		t.Fatalf("initialize: %v", err)
	}
	if result.ServerInfo.Name != "advertest" || result.ServerInfo.Version != "9.9.9-test" {
		t.Errorf("serverInfo = %+v, want advertest 9.9.9-test (the -ldflags version)", result.ServerInfo)
	}
	c.Notify("initialized", map[string]any{})
}

func TestBinaryShutdownExitStatus0(t *testing.T) {
	logFile := filepath.Join(t.TempDir(), "lsp.log")
	p := startLSP(t, "--stdio", "--log", logFile, "--log-level", "debug")
	c := p.client
	initialize(t, c)
	c.Notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{
		"uri": "file:///w/A.java", "languageId": "java", "version": 1, "text": "class A {\n  void m() {}\n}\n"}})
	c.WriteFrame("not json") // malformed input must not reach stdout as anything but a frame
	pos := map[string]any{"line": 1, "character": 4}
	var actions []map[string]any
	if err := c.Call("textDocument/codeAction", map[string]any{
		"textDocument": map[string]any{"uri": "file:///w/A.java"},
		"range":        map[string]any{"start": pos, "end": pos}, "context": map[string]any{"diagnostics": []any{}},
	}, &actions); err != nil || len(actions) != 2 {
		t.Fatalf("codeAction over stdio: %v, %v", actions, err)
	}
	if err := c.Call("shutdown", nil, nil); err != nil {
		t.Fatalf("shutdown: %v", err)
	}
	c.Notify("exit", nil)
	if code := p.wait(t); code != 0 {
		t.Fatalf("exit status after shutdown and exit = %d, want 0; stderr:\n%s", code, p.stderr.String())
	}
	frames, err := lsptest.ReadFrames(p.stdout.Bytes())
	if err != nil {
		t.Fatalf("stdout holds something other than LSP frames: %v\n%q", err, p.stdout.String())
	}
	if len(frames) != 3 { // initialize, codeAction, shutdown
		t.Errorf("stdout has %d frames, want 3 replies:\n%s", len(frames), p.stdout.String())
	}
	if p.stderr.Len() != 0 {
		t.Errorf("stderr is not empty although --log was given:\n%s", p.stderr.String())
	}
	log, err := os.ReadFile(logFile)
	if err != nil || !strings.Contains(string(log), "DEBUG") || !strings.Contains(string(log), "not valid JSON") {
		t.Errorf("log file lacks the debug log: %v\n%s", err, log)
	}
}

func TestBinaryExitWithoutShutdownStatus1(t *testing.T) {
	p := startLSP(t)
	initialize(t, p.client)
	p.client.Notify("exit", nil)
	if code := p.wait(t); code != 1 {
		t.Fatalf("exit status after exit alone = %d, want 1", code)
	}
	if _, err := lsptest.ReadFrames(p.stdout.Bytes()); err != nil {
		t.Fatalf("stdout holds something other than LSP frames: %v", err)
	}
	if !strings.Contains(p.stderr.String(), "exit without shutdown") {
		t.Errorf("stderr (default level warn) does not explain status 1:\n%s", p.stderr.String())
	}
}

// TestBinaryInitialSettings: `advertest lsp --config FILE --set NAME=VALUE` gives the
// settings that the client's are laid over: a bad client value keeps the command line's.
func TestBinaryInitialSettings(t *testing.T) {
	cfg := filepath.Join(t.TempDir(), "lsp.json")
	if err := os.WriteFile(cfg, []byte(`{"onSave": "off", "rounds": 7}`), 0o644); err != nil {
		t.Fatal(err)
	}
	p := startLSP(t, "--config", cfg, "--set", "rounds=3")
	c := p.client
	if err := c.Call("initialize", map[string]any{"processId": os.Getpid(), "capabilities": map[string]any{},
		"initializationOptions": map[string]any{"rounds": "x", "onSave": 5}}, nil); err != nil {
		t.Fatalf("initialize: %v", err)
	}
	c.Notify("initialized", map[string]any{})
	msg, err := c.WaitFor(func(m lsptest.Message) bool { return m.Method == "window/showMessage" })
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"setting `rounds`: want an integer from 1 to 99, got \\\"x\\\"; using 3", "setting `onSave`: want one of analyze, round, off, got 5; using \\\"off\\\""} {
		if !strings.Contains(string(msg.Params), want) {
			t.Errorf("message %s lacks %s", msg.Params, want)
		}
	}
	if err := c.Call("shutdown", nil, nil); err != nil {
		t.Fatalf("shutdown: %v", err)
	}
	c.Notify("exit", nil)
	if code := p.wait(t); code != 0 {
		t.Errorf("exit status %d; stderr:\n%s", code, p.stderr.String())
	}
}
