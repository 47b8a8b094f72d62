package server_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"go.lsp.dev/jsonrpc2"

	"github.com/advertest/advertest-lsp/handlers"
	"github.com/advertest/advertest-lsp/server"
	"github.com/advertest/advertest-lsp/server/lsptest"
)

func fileURI(p string) string { return "file://" + filepath.ToSlash(p) }

// TestCommandsOutsideTheWorkspace: a command builds or runs nothing for a file that is
// neither inside a workspace folder nor open in the editor.
func TestCommandsOutsideTheWorkspace(t *testing.T) {
	tmp := t.TempDir()
	ws, outside := filepath.Join(tmp, "ws"), filepath.Join(tmp, "outside")
	for _, d := range []string{ws, outside} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(outside, filepath.Join(ws, "link")); err != nil {
		t.Fatal(err)
	}
	c, _ := lsptest.Start(t, server.Config{NewHandler: handlers.NewFunc(handlers.Options{})})
	if err := c.Call("initialize", map[string]any{"capabilities": map[string]any{},
		"workspaceFolders": []any{map[string]any{"uri": fileURI(ws), "name": "ws"}}}, nil); err != nil {
		t.Fatal(err)
	}
	c.Notify("initialized", map[string]any{})
	generate := func(uri string) error {
		return c.Call("workspace/executeCommand", map[string]any{"command": "advertest.generateTests",
			"arguments": []any{map[string]any{"uri": uri, "position": map[string]any{"line": 1, "character": 4}}}}, nil)
	}
	kill := func(uri string) error {
		return c.Call("workspace/executeCommand", map[string]any{"command": "advertest.killMutant",
			"arguments": []any{map[string]any{"uri": uri, "mutant": "m1"}}}, nil)
	}
	want := func(err error, text string) {
		t.Helper()
		if lsptest.Code(err) != jsonrpc2.InvalidParams || !strings.Contains(err.Error(), text) {
			t.Fatalf("got %v, want InvalidParams saying %q", err, text)
		}
	}
	const outsideMsg = "is outside the workspace folders and not open in the editor"
	outsideFile := fileURI(filepath.Join(outside, "A.java"))
	want(generate(outsideFile), outsideMsg)
	want(kill(outsideFile), outsideMsg)
	want(generate(fileURI(filepath.Join(ws, "link", "A.java"))), outsideMsg) // a link out of the folder
	want(generate(fileURI(filepath.Join(ws, "..", "outside", "A.java"))), outsideMsg)
	want(generate("untitled:Untitled-1"), outsideMsg)
	// Inside the folder, the check passes; the document must still be open.
	want(generate(fileURI(filepath.Join(ws, "A.java"))), "is not open")

	// Open in the editor, a file outside the folders passes the check.
	c.Notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{
		"uri": outsideFile, "languageId": "java", "version": 1, "text": "class A {\n    int f;\n}\n"}})
	want(generate(outsideFile), "no method or constructor at 1:4")
	c.Notify("textDocument/didClose", map[string]any{"textDocument": map[string]any{"uri": outsideFile}})
	want(generate(outsideFile), outsideMsg)

	// workspace/didChangeWorkspaceFolders moves the line.
	c.Notify("workspace/didChangeWorkspaceFolders", map[string]any{"event": map[string]any{
		"added":   []any{map[string]any{"uri": fileURI(outside), "name": "outside"}},
		"removed": []any{map[string]any{"uri": fileURI(ws), "name": "ws"}}}})
	want(generate(outsideFile), "is not open")
	want(generate(fileURI(filepath.Join(ws, "A.java"))), outsideMsg)
}
