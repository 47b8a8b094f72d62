package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"
)

// ServerRun is *Analyze mutants* in one `advertest lsp` over a pipe, as an editor drives it: a
// sampled method, then a method of another class once the first job ended (the coverage map
// complete), on a fresh copy of the suite layout (no map yet).
type ServerRun struct {
	Targets []string `json:"targets"`
	// FirstSeconds and SecondSeconds are each job's time from the command to its progress end;
	// FirstVerdictsSeconds is when the first job's first verdicts came (diagnostics with a
	// survivor, or its progress saying so; else its end).
	FirstSeconds         float64 `json:"firstSeconds"`
	FirstVerdictsSeconds float64 `json:"firstVerdictsSeconds"`
	SecondSeconds        float64 `json:"secondSeconds"`
	// Ends are the jobs' progress end messages (their summaries).
	Ends  []string `json:"ends"`
	Error string   `json:"error,omitempty"`
}

// serverRun measures the two jobs on a fresh copy in dir.
func (r *mutateRunner) serverRun(ctx context.Context, dir string, first, second Method) *ServerRun {
	run := &ServerRun{Targets: []string{first.Target(), second.Target()}}
	root := filepath.Join(dir, "project")
	if err := freshCopy(*r.lay.Suite, root); err != nil {
		run.Error = err.Error()
		return run
	}
	ctx, cancel := context.WithTimeout(ctx, r.timeout)
	defer cancel()
	c, err := startLSP(ctx, r.advertest, root, filepath.Join(dir, "lsp.log"))
	if err != nil {
		run.Error = err.Error()
		return run
	}
	defer c.close()
	for i, m := range []Method{first, second} {
		secs, diag, end, err := c.analyze(ctx, filepath.Join(root, m.File), m.Line)
		if err != nil {
			run.Error = fmt.Sprintf("%s: %v", m.Target(), err)
			return run
		}
		run.Ends = append(run.Ends, end)
		if i == 0 {
			run.FirstSeconds, run.FirstVerdictsSeconds = secs, diag
		} else {
			run.SecondSeconds = secs
		}
	}
	return run
}

// lspClient speaks JSON-RPC with Content-Length framing to one `advertest lsp`; it answers the
// server's requests (work-done progress creation, applyEdit) with an empty success.
type lspClient struct {
	cmd    *exec.Cmd
	in     io.WriteCloser
	mu     sync.Mutex // one writer
	nextID int
	// msgs receives every message the server sends, from the reader goroutine.
	msgs chan map[string]json.RawMessage
}

func startLSP(ctx context.Context, bin, root, logPath string) (*lspClient, error) {
	log, err := os.Create(logPath)
	if err != nil {
		return nil, err
	}
	cmd := exec.CommandContext(ctx, bin, "lsp")
	cmd.Dir = root
	cmd.Stderr = log
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("starting advertest lsp: %w", err)
	}
	c := &lspClient{cmd: cmd, in: in, msgs: make(chan map[string]json.RawMessage, 1024)}
	go c.read(bufio.NewReader(out))
	uri := "file://" + root
	init := map[string]any{"processId": os.Getpid(), "rootUri": uri,
		"workspaceFolders": []map[string]any{{"uri": uri, "name": filepath.Base(root)}},
		"capabilities":     map[string]any{"window": map[string]any{"workDoneProgress": true}, "workspace": map[string]any{"applyEdit": true}}}
	if _, err := c.call(ctx, "initialize", init); err != nil {
		c.close()
		return nil, fmt.Errorf("initialize: %w", err)
	}
	if err := c.notify("initialized", map[string]any{}); err != nil {
		c.close()
		return nil, err
	}
	return c, nil
}

func (c *lspClient) read(r *bufio.Reader) {
	defer close(c.msgs)
	for {
		n := -1
		for {
			line, err := r.ReadString('\n')
			if err != nil {
				return
			}
			line = strings.TrimSpace(line)
			if line == "" {
				break
			}
			if v, ok := strings.CutPrefix(line, "Content-Length: "); ok {
				n, _ = strconv.Atoi(v)
			}
		}
		if n < 0 {
			return
		}
		body := make([]byte, n)
		if _, err := io.ReadFull(r, body); err != nil {
			return
		}
		var m map[string]json.RawMessage
		if json.Unmarshal(body, &m) == nil {
			c.msgs <- m
		}
	}
}

func (c *lspClient) send(m map[string]any) error {
	b, err := json.Marshal(m)
	if err != nil {
		return err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	_, err = fmt.Fprintf(c.in, "Content-Length: %d\r\n\r\n%s", len(b), b)
	return err
}

func (c *lspClient) notify(method string, params any) error {
	return c.send(map[string]any{"jsonrpc": "2.0", "method": method, "params": params})
}

// call sends a request and waits for its answer, answering the server's requests meanwhile.
func (c *lspClient) call(ctx context.Context, method string, params any) (json.RawMessage, error) {
	c.nextID++
	id := c.nextID
	if err := c.send(map[string]any{"jsonrpc": "2.0", "id": id, "method": method, "params": params}); err != nil {
		return nil, err
	}
	for {
		m, err := c.next(ctx)
		if err != nil {
			return nil, err
		}
		if _, isRequest := m["method"]; isRequest {
			continue
		}
		if string(m["id"]) == strconv.Itoa(id) {
			if e, ok := m["error"]; ok {
				return nil, fmt.Errorf("%s: %s", method, e)
			}
			return m["result"], nil
		}
	}
}

// next is the server's next message; a request of the server is answered first.
func (c *lspClient) next(ctx context.Context) (map[string]json.RawMessage, error) {
	select {
	case <-ctx.Done():
		return nil, ctx.Err()
	case m, ok := <-c.msgs:
		if !ok {
			return nil, fmt.Errorf("the server closed its output")
		}
		if id, ok := m["id"]; ok && m["method"] != nil {
			var result any
			if string(m["method"]) == `"workspace/applyEdit"` {
				result = map[string]any{"applied": false}
			}
			if err := c.send(map[string]any{"jsonrpc": "2.0", "id": id, "result": result}); err != nil {
				return nil, err
			}
		}
		return m, nil
	}
}

// analyze opens file and runs advertest.analyzeMutants on the method at its 1-based line,
// waiting for the job's progress end: the seconds to it, the seconds to its first verdicts (the
// first diagnostics with a survivor or the progress line that says so, else the end) and the
// end's message.
func (c *lspClient) analyze(ctx context.Context, file string, line int) (float64, float64, string, error) {
	text, err := os.ReadFile(file)
	if err != nil {
		return 0, 0, "", err
	}
	uri := "file://" + file
	if err := c.notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": uri, "languageId": "java", "version": 1, "text": string(text)}}); err != nil {
		return 0, 0, "", err
	}
	lines := strings.Split(string(text), "\n")
	char := 0
	if line-1 < len(lines) {
		char = len(lines[line-1]) - len(strings.TrimLeft(lines[line-1], " \t"))
	}
	start := time.Now()
	res, err := c.call(ctx, "workspace/executeCommand", map[string]any{"command": "advertest.analyzeMutants",
		"arguments": []any{map[string]any{"uri": uri, "position": map[string]any{"line": line - 1, "character": char}}}})
	if err != nil {
		return 0, 0, "", err
	}
	var job struct{ Job string }
	if err := json.Unmarshal(res, &job); err != nil || job.Job == "" {
		return 0, 0, "", fmt.Errorf("analyzeMutants answered %s", res)
	}
	token := `"advertest/job/` + job.Job + `"`
	var diag float64
	for {
		m, err := c.next(ctx)
		if err != nil {
			return 0, 0, "", err
		}
		switch string(m["method"]) {
		case `"textDocument/publishDiagnostics"`:
			// The first verdicts: the first diagnostics with a surviving mutant (an empty
			// list is what opening the document published).
			var p struct {
				URI         string
				Diagnostics []json.RawMessage
			}
			if json.Unmarshal(m["params"], &p) == nil && p.URI == uri && len(p.Diagnostics) > 0 && diag == 0 {
				diag = time.Since(start).Seconds()
			}
		case `"$/progress"`:
			var p struct {
				Token json.RawMessage
				Value struct{ Kind, Message string }
			}
			if json.Unmarshal(m["params"], &p) != nil || string(p.Token) != token {
				break
			}
			if p.Value.Kind == "report" && strings.Contains(p.Value.Message, "first verdicts") && diag == 0 {
				diag = time.Since(start).Seconds()
			}
			if p.Value.Kind == "end" {
				if diag == 0 {
					diag = time.Since(start).Seconds() // the verdicts came with the end
				}
				return time.Since(start).Seconds(), diag, p.Value.Message, nil
			}
		}
	}
}

func (c *lspClient) close() {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	_, _ = c.call(ctx, "shutdown", nil)
	_ = c.notify("exit", nil)
	c.in.Close()
	done := make(chan struct{})
	go func() { c.cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(30 * time.Second):
		c.cmd.Process.Kill()
		<-done
	}
}
