package server_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"go.lsp.dev/jsonrpc2"

	"github.com/advertest/advertest-lsp/handlers"
	"github.com/advertest/advertest-lsp/server"
	"github.com/advertest/advertest-lsp/server/lsptest"
)

// bomb is a JSON value nested depth levels deep: arrays, or objects.
func bomb(depth int, objects bool) string {
	if objects {
		return strings.Repeat(`{"a":`, depth) + "1" + strings.Repeat("}", depth)
	}
	return strings.Repeat("[", depth) + strings.Repeat("]", depth)
}

// startPlain serves the real handlers over a pipe and initializes.
func startPlain(t *testing.T) *lsptest.Client {
	t.Helper()
	c, _ := lsptest.Start(t, server.Config{NewHandler: handlers.NewFunc(handlers.Options{})})
	if err := c.Call("initialize", map[string]any{"capabilities": map[string]any{}}, nil); err != nil {
		t.Fatal(err)
	}
	return c
}

// stillServes fails the test unless the server answers a normal request.
func stillServes(t *testing.T, c *lsptest.Client, after string) {
	t.Helper()
	err := c.Call("workspace/executeCommand", map[string]any{"command": "advertest.cancel", "arguments": []any{map[string]any{"job": "none"}}}, nil)
	if err != nil {
		t.Fatalf("after %s, a normal request failed: %v", after, err)
	}
}

// wantError waits for the response with id rawID and checks it is an error with code
// and a message containing text.
func wantError(t *testing.T, c *lsptest.Client, rawID string, code jsonrpc2.Code, text string) {
	t.Helper()
	body, err := c.Response(rawID)
	if err != nil {
		t.Fatal(err)
	}
	var resp struct {
		Error *jsonrpc2.Error `json:"error"`
	}
	if err := json.Unmarshal(body, &resp); err != nil || resp.Error == nil {
		t.Fatalf("response %s is not an error", body)
	}
	if resp.Error.Code != code || !strings.Contains(resp.Error.Message, text) {
		t.Fatalf("response %s: want code %d and a message with %q", body, code, text)
	}
}

// TestNestingBombs: a message nested two million levels deep would overflow the decoder's
// stack (fatal, not a panic). The server refuses it, answers a request among them with its
// id, and keeps serving.
func TestNestingBombs(t *testing.T) {
	const depth = 2_000_000
	c := startPlain(t)
	c.WriteFrame(bomb(depth, false))
	stillServes(t, c, "a bare array bomb")
	c.WriteFrame(bomb(depth, true))
	stillServes(t, c, "a bare object bomb")
	c.WriteFrame(`{"jsonrpc":"2.0","id":42,"method":"textDocument/hover","params":{"x":` + bomb(depth, false) + `}}`)
	wantError(t, c, "42", jsonrpc2.InvalidRequest, "levels deep; the limit is 512")
	// The id after the bomb is found too.
	c.WriteFrame(`{"jsonrpc":"2.0","method":"textDocument/hover","params":` + bomb(depth, true) + `,"id":"late"}`)
	wantError(t, c, `"late"`, jsonrpc2.InvalidRequest, "2000001 levels deep")
	// A notification is skipped without an answer.
	c.WriteFrame(`{"jsonrpc":"2.0","method":"textDocument/didOpen","params":` + bomb(depth, false) + `}`)
	stillServes(t, c, "a bomb inside a notification")
	// Just under the limit is decoded as usual (here: params of the wrong shape).
	c.WriteFrame(`{"jsonrpc":"2.0","id":43,"method":"textDocument/hover","params":` + bomb(510, false) + `}`)
	wantError(t, c, "43", jsonrpc2.InvalidParams, "")
}

// TestHugeContentLength: a frame announcing 1 GiB with a short body is answered (its id is
// in the body's first bytes) and skipped; the server does not wait for the gigabyte.
func TestHugeContentLength(t *testing.T) {
	c := startPlain(t)
	c.WriteBytes("Content-Length: 1073741824\r\n\r\n" + `{"jsonrpc":"2.0","id":41,"method":"textDocument/hover","params":{}}`)
	stillServes(t, c, "a 1 GiB Content-Length")
	wantError(t, c, "41", jsonrpc2.InvalidRequest, "1073741824 bytes is over the limit of 64 MiB")
	// Past int64, and with a notification's body: skipped, nothing answered.
	c.WriteBytes("Content-Length: 99999999999999999999999\r\nContent-Type: x\r\n\r\n" + `{"jsonrpc":"2.0","method":"initialized","params":{}}` + "\r\n")
	stillServes(t, c, "a Content-Length past int64")
	// A body a little over the limit streams past in pieces and is skipped.
	big := fmt.Sprintf(`{"jsonrpc":"2.0","id":44,"method":"textDocument/didOpen","params":{"text":"%s"}}`, strings.Repeat("x", 64<<20))
	c.WriteBytes(fmt.Sprintf("Content-Length: %d\r\n\r\n%s", len(big), big))
	wantError(t, c, "44", jsonrpc2.InvalidRequest, "over the limit")
	stillServes(t, c, "a real body over the limit")
}
