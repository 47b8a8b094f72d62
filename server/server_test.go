package server_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
	"go.uber.org/zap/zaptest"

	"github.com/advertest/advertest-lsp/handlers"
	"github.com/advertest/advertest-lsp/server"
	"github.com/advertest/advertest-lsp/server/lsptest"
)

// blockingHandler is the real handlers with two test hooks: a code action for
// a URI containing "block" waits until its request is cancelled, and the
// command "test.panic" panics.
type blockingHandler struct {
	*handlers.Handler
	Session *server.Session
	blocked chan string // receives the URI of each blocked code action
}

func (h *blockingHandler) CodeAction(ctx context.Context, params *protocol.CodeActionParams) ([]protocol.CodeAction, error) {
	if uri := string(params.TextDocument.URI); strings.Contains(uri, "block") {
		h.blocked <- uri
		<-ctx.Done()
		return nil, ctx.Err()
	}
	return h.Handler.CodeAction(ctx, params)
}

func (h *blockingHandler) ExecuteCommand(ctx context.Context, params *protocol.ExecuteCommandParams) (any, error) {
	switch params.Command {
	case "test.panic":
		panic("test panic")
	case "test.notify":
		// Everything the notifier offers, from inside a request.
		client := h.Session.Client()
		if err := client.PublishDiagnostics(ctx, "file:///a.java", 3, nil); err != nil {
			return nil, err
		}
		if err := client.ShowMessage(ctx, protocol.MessageTypeWarning, "careful"); err != nil {
			return nil, err
		}
		token := *protocol.NewProgressToken("tok-1")
		if err := client.CreateProgress(ctx, token); err != nil {
			return nil, err
		}
		if err := client.Progress(ctx, token, &protocol.WorkDoneProgressEnd{Kind: "end", Message: "done"}); err != nil {
			return nil, err
		}
		return client.ApplyEdit(ctx, "create test", map[string]any{"documentChanges": []any{map[string]any{"kind": "create", "uri": "file:///T.java"}}})
	}
	return h.Handler.ExecuteCommand(ctx, params)
}

func startBlocking(t *testing.T) (*lsptest.Client, *blockingHandler) {
	t.Helper()
	var h *blockingHandler
	var once sync.Once
	c, _ := lsptest.Start(t, server.Config{
		Logger: zaptest.NewLogger(t),
		NewHandler: func(s *server.Session) server.Handler {
			once.Do(func() {
				h = &blockingHandler{Handler: handlers.New(s, handlers.Options{}), Session: s, blocked: make(chan string, 4)}
			})
			return h
		},
	})
	if err := c.Call("initialize", map[string]any{"capabilities": map[string]any{}}, nil); err != nil {
		t.Fatal(err)
	}
	return c, h
}

func codeActionFrame(id, uri string) string {
	pos := `{"line":0,"character":0}`
	return fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"method":"textDocument/codeAction","params":{"textDocument":{"uri":%q},"range":{"start":%s,"end":%s},"context":{"diagnostics":[]}}}`, id, uri, pos, pos)
}

func errorCode(t *testing.T, body json.RawMessage) jsonrpc2.Code {
	t.Helper()
	var resp struct {
		Error *jsonrpc2.Error `json:"error"`
	}
	if err := json.Unmarshal(body, &resp); err != nil || resp.Error == nil {
		t.Fatalf("response %s is not an error", body)
	}
	return resp.Error.Code
}

// TestCancelRequest cancels by numeric and by string id. A numeric id is the
// case protocol's own CancelHandler misses (float64 against int32).
func TestCancelRequest(t *testing.T) {
	c, h := startBlocking(t)
	for _, id := range []string{`77`, `"seventy-eight"`} {
		c.WriteFrame(codeActionFrame(id, "file:///block.java"))
		select {
		case <-h.blocked:
		case <-time.After(lsptest.Timeout):
			t.Fatalf("id %s: the blocking code action never started", id)
		}
		// While it is blocked, other requests are answered: requests do not
		// wait for each other.
		if err := c.Call("textDocument/codeAction", json.RawMessage(`{"textDocument":{"uri":"file:///free.java"},"range":{"start":{"line":0,"character":0},"end":{"line":0,"character":0}},"context":{}}`), nil); err != nil {
			t.Fatalf("a request while another is blocked: %v", err)
		}
		c.WriteFrame(fmt.Sprintf(`{"jsonrpc":"2.0","method":"$/cancelRequest","params":{"id":%s}}`, id))
		body, err := c.Response(id)
		if err != nil {
			t.Fatalf("id %s: %v", id, err)
		}
		if code := errorCode(t, body); code != protocol.CodeRequestCancelled {
			t.Fatalf("id %s: cancelled request answered %s, want RequestCancelled (-32800)", id, body)
		}
	}
}

func TestPanicInHandlerIsInternalError(t *testing.T) {
	c, _ := startBlocking(t)
	err := c.Call("workspace/executeCommand", map[string]any{"command": "test.panic"}, nil)
	if lsptest.Code(err) != jsonrpc2.InternalError || !strings.Contains(err.Error(), "test panic") {
		t.Fatalf("panicking handler: %v, want InternalError", err)
	}
	err = c.Call("workspace/executeCommand", map[string]any{"command": "advertest.nope"}, nil)
	if lsptest.Code(err) != jsonrpc2.InvalidParams {
		t.Fatalf("request after a panic: %v, want the handler's InvalidParams", err)
	}
}

func TestServeEndsWhenInputEnds(t *testing.T) {
	c, done := lsptest.Start(t, server.Config{NewHandler: handlers.NewFunc(handlers.Options{})})
	if err := c.Call("initialize", map[string]any{"capabilities": map[string]any{}}, nil); err != nil {
		t.Fatal(err)
	}
	_ = c.Close()
	if err := <-done; err == nil || !strings.Contains(err.Error(), server.ErrClosedWithoutExit.Error()) {
		t.Fatalf("Serve after the input ended = %v, want ErrClosedWithoutExit", err)
	}
}

func TestNotifier(t *testing.T) {
	c, _ := startBlocking(t)
	var result protocol.ApplyWorkspaceEditResponse
	if err := c.Call("workspace/executeCommand", map[string]any{"command": "test.notify"}, &result); err != nil {
		t.Fatalf("notifier calls: %v", err)
	}
	if !result.Applied {
		t.Errorf("applyEdit result = %+v, want the client's applied: true", result)
	}
	var got []string
	for _, m := range c.FromServer() {
		got = append(got, m.Method+" "+string(m.Params))
	}
	want := []string{
		`textDocument/publishDiagnostics {"uri":"file:///a.java","version":3,"diagnostics":[]}`,
		`window/showMessage {"message":"careful","type":2}`,
		`window/workDoneProgress/create {"token":"tok-1"}`,
		`$/progress {"token":"tok-1","value":{"kind":"end","message":"done"}}`,
		`workspace/applyEdit {"label":"create test","edit":{"documentChanges":[{"kind":"create","uri":"file:///T.java"}]}}`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("client received:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
