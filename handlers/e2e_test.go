package handlers_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
	"go.uber.org/zap/zaptest"

	"github.com/advertest/advertest-lsp/handlers"
	"github.com/advertest/advertest-lsp/server"
	"github.com/advertest/advertest-lsp/server/lsptest"
)

const calcJava = `package org.acme;

import java.util.List;

public class Calc {
    private int count = 0;

    public Calc(int start) {
        this.count = start;
    }

    public static int clamp(int x, int lo, int hi) {
        if (x < lo) {
            return lo;
        }
        return Math.min(x, hi);
    }

    static class Inner {
        int twice(int v) {
            return v * 2;
        }
    }
}
`

// Lines (0-based) of calcJava used below.
const (
	lineField      = 5  // private int count
	lineCtor       = 7  // public Calc(int start) {
	lineCtorBody   = 8  // this.count = start;
	lineClamp      = 11 // public static int clamp(int x, int lo, int hi) {
	lineClampIf    = 12 // if (x < lo) {
	lineInner      = 18 // static class Inner {
	lineInnerTwice = 20 // return v * 2;
	lineClassClose = 23 // }
)

func start(t *testing.T) (*lsptest.Client, <-chan error) {
	t.Helper()
	return lsptest.Start(t, server.Config{
		Logger:     zaptest.NewLogger(t),
		NewHandler: handlers.NewFunc(handlers.Options{Version: "1.2.3-test"}),
	})
}

// initialized starts a server and completes the handshake with rootDir as
// the workspace.
func initialized(t *testing.T, rootDir string) *lsptest.Client {
	t.Helper()
	c, _ := start(t)
	params := map[string]any{"processId": nil, "capabilities": map[string]any{}}
	if rootDir != "" {
		params["rootUri"] = "file://" + rootDir
	}
	if err := c.Call("initialize", params, nil); err != nil {
		t.Fatalf("initialize: %v", err)
	}
	c.Notify("initialized", map[string]any{})
	return c
}

func openDoc(c *lsptest.Client, uri, languageID, text string) {
	c.Notify("textDocument/didOpen", map[string]any{
		"textDocument": map[string]any{"uri": uri, "languageId": languageID, "version": 1, "text": text},
	})
}

func codeActionParams(uri string, line, char int, only ...string) map[string]any {
	ctx := map[string]any{"diagnostics": []any{}}
	if only != nil {
		ctx["only"] = only
	}
	pos := map[string]any{"line": line, "character": char}
	return map[string]any{
		"textDocument": map[string]any{"uri": uri},
		"range":        map[string]any{"start": pos, "end": pos},
		"context":      ctx,
	}
}

// codeActions asks for the actions at a position and returns the raw result
// and its decoded form.
func codeActions(t *testing.T, c *lsptest.Client, params map[string]any) (string, []protocol.CodeAction) {
	t.Helper()
	var raw json.RawMessage
	if err := c.Call("textDocument/codeAction", params, &raw); err != nil {
		t.Fatalf("codeAction: %v", err)
	}
	var actions []protocol.CodeAction
	if err := json.Unmarshal(raw, &actions); err != nil {
		t.Fatalf("decoding code actions %s: %v", raw, err)
	}
	return string(raw), actions
}

func titles(actions []protocol.CodeAction) []string {
	var out []string
	for _, a := range actions {
		out = append(out, a.Title)
	}
	return out
}

func wantMethodActions(t *testing.T, actions []protocol.CodeAction, name string) {
	t.Helper()
	want := []string{"Generate adversarial tests for `" + name + "`", "Analyze mutants in `" + name + "`"}
	if got := titles(actions); strings.Join(got, "|") != strings.Join(want, "|") {
		t.Fatalf("titles = %q, want %q", got, want)
	}
}

func TestHandshakeAndCapabilities(t *testing.T) {
	c, _ := start(t)
	var result struct {
		Capabilities struct {
			TextDocumentSync struct {
				OpenClose bool            `json:"openClose"`
				Change    int             `json:"change"`
				Save      json.RawMessage `json:"save"`
			} `json:"textDocumentSync"`
			CodeActionProvider struct {
				CodeActionKinds []string `json:"codeActionKinds"`
			} `json:"codeActionProvider"`
			ExecuteCommandProvider struct {
				Commands []string `json:"commands"`
			} `json:"executeCommandProvider"`
		} `json:"capabilities"`
		ServerInfo struct {
			Name    string `json:"name"`
			Version string `json:"version"`
		} `json:"serverInfo"`
	}
	if err := c.Call("initialize", map[string]any{"processId": 1, "rootUri": nil, "capabilities": map[string]any{}}, &result); err != nil {
		t.Fatalf("initialize: %v", err)
	}
	caps := result.Capabilities
	if !caps.TextDocumentSync.OpenClose || caps.TextDocumentSync.Change != 2 || string(caps.TextDocumentSync.Save) != `{"includeText":true}` {
		t.Errorf("textDocumentSync = %+v (save %s), want openClose, incremental (2), save with the text", caps.TextDocumentSync, caps.TextDocumentSync.Save)
	}
	if got := strings.Join(caps.CodeActionProvider.CodeActionKinds, ","); got != "refactor,quickfix" {
		t.Errorf("codeActionKinds = %s, want refactor,quickfix", got)
	}
	if got := strings.Join(caps.ExecuteCommandProvider.Commands, ","); got != "advertest.generateTests,advertest.analyzeMutants,advertest.killMutant,advertest.cancel,advertest.markEquivalent,advertest.ignoreMutant,advertest.unignoreMutant" {
		t.Errorf("commands = %s", got)
	}
	if result.ServerInfo.Name != "advertest" || result.ServerInfo.Version != "1.2.3-test" {
		t.Errorf("serverInfo = %+v", result.ServerInfo)
	}
	c.Notify("initialized", map[string]any{})

	err := c.Call("initialize", map[string]any{"capabilities": map[string]any{}}, nil)
	if lsptest.Code(err) != jsonrpc2.InvalidRequest {
		t.Errorf("second initialize: %v, want InvalidRequest", err)
	}
}

func TestRequestsBeforeInitialize(t *testing.T) {
	c, _ := start(t)
	err := c.Call("textDocument/codeAction", codeActionParams("file:///x/A.java", 0, 0), nil)
	if lsptest.Code(err) != jsonrpc2.ServerNotInitialized {
		t.Fatalf("codeAction before initialize: %v, want ServerNotInitialized (-32002)", err)
	}
	// Notifications before initialize are dropped, not applied.
	openDoc(c, "file:///x/A.java", "java", calcJava)
	if err := c.Call("initialize", map[string]any{"capabilities": map[string]any{}}, nil); err != nil {
		t.Fatalf("initialize after a refused request: %v", err)
	}
	if raw, _ := codeActions(t, c, codeActionParams("file:///x/A.java", lineClampIf, 8)); raw != "[]" {
		t.Errorf("a didOpen before initialize was applied: actions %s", raw)
	}
}

func TestDocumentSyncIncremental(t *testing.T) {
	c := initialized(t, "")
	uri := "file:///ws/src/org/acme/Calc.java"
	openDoc(c, uri, "java", calcJava)

	// Insert a new method before the class's closing brace.
	newMethod := "    int added(int a) {\n        return a + 1;\n    }\n"
	pos := map[string]any{"line": lineClassClose, "character": 0}
	c.Notify("textDocument/didChange", map[string]any{
		"textDocument":   map[string]any{"uri": uri, "version": 2},
		"contentChanges": []any{map[string]any{"range": map[string]any{"start": pos, "end": pos}, "text": newMethod}},
	})
	_, actions := codeActions(t, c, codeActionParams(uri, lineClassClose+1, 10))
	wantMethodActions(t, actions, "added")

	// Rename it with a second incremental change inside the line: "added" → "plusOne".
	c.Notify("textDocument/didChange", map[string]any{
		"textDocument": map[string]any{"uri": uri, "version": 3},
		"contentChanges": []any{map[string]any{
			"range": map[string]any{"start": map[string]any{"line": lineClassClose, "character": 8}, "end": map[string]any{"line": lineClassClose, "character": 13}},
			"text":  "plusOne",
		}},
	})
	_, actions = codeActions(t, c, codeActionParams(uri, lineClassClose, 6))
	wantMethodActions(t, actions, "plusOne")

	// UTF-16 columns: a string with a character outside the BMP (2 units) before the edit.
	emojiClass := "class E {\n    String s = \"\U0001F600\"; int m() { return 1; }\n}\n"
	c.Notify("textDocument/didChange", map[string]any{
		"textDocument":   map[string]any{"uri": uri, "version": 4},
		"contentChanges": []any{map[string]any{"text": emojiClass}}, // full text: no range
	})
	// `    String s = "😀"; int ` is 25 UTF-16 units; the method name starts at column 25.
	c.Notify("textDocument/didChange", map[string]any{
		"textDocument": map[string]any{"uri": uri, "version": 5},
		"contentChanges": []any{map[string]any{
			"range": map[string]any{"start": map[string]any{"line": 1, "character": 25}, "end": map[string]any{"line": 1, "character": 26}},
			"text":  "n",
		}},
	})
	_, actions = codeActions(t, c, codeActionParams(uri, 1, 30))
	wantMethodActions(t, actions, "n")

	c.Notify("textDocument/didSave", map[string]any{"textDocument": map[string]any{"uri": uri}})
	c.Notify("textDocument/didClose", map[string]any{"textDocument": map[string]any{"uri": uri}})
	if raw, _ := codeActions(t, c, codeActionParams(uri, 1, 30)); raw != "[]" {
		t.Errorf("actions after didClose = %s, want []", raw)
	}
}

// TestDidChangeWithABadRange: a didChange of three edits whose second range lies outside the
// text changes nothing (not even the first edit), the client is told that the document is out
// of step, and a job on it is refused with that message, also after a later change that would
// apply, until a didSave with the text brings it back in step; then the job starts.
func TestDidChangeWithABadRange(t *testing.T) {
	ws, srcDir := mavenShell(t)
	c := initialized(t, ws)
	uri := "file://" + filepath.Join(srcDir, "Calc.java")
	openDoc(c, uri, "java", calcJava)
	at := func(line, char int) map[string]any { return map[string]any{"line": line, "character": char} }
	edit := func(line, char, endLine, endChar int, text string) map[string]any {
		return map[string]any{"range": map[string]any{"start": at(line, char), "end": at(endLine, endChar)}, "text": text}
	}
	didChange := func(version int, changes ...any) {
		c.Notify("textDocument/didChange", map[string]any{
			"textDocument": map[string]any{"uri": uri, "version": version}, "contentChanges": changes})
	}
	analyze := func() error {
		return c.Call("workspace/executeCommand", map[string]any{"command": "advertest.analyzeMutants",
			"arguments": []any{map[string]any{"uri": uri, "position": at(lineClampIf, 8)}}}, nil)
	}
	from := len(c.FromServer())
	// A line before the class (every line moves down by one), a range past the end, a rename.
	didChange(2, edit(0, 0, 0, 0, "// first\n"), edit(99, 0, 99, 1, "x"), edit(lineClamp+1, 22, lineClamp+1, 27, "clip"))
	msg, _, err := c.WaitFrom(from, func(m lsptest.Message) bool { return m.Method == "window/showMessage" })
	if err != nil {
		t.Fatal(err)
	}
	var shown struct {
		Type    int    `json:"type"`
		Message string `json:"message"`
	}
	if err := json.Unmarshal(msg.Params, &shown); err != nil {
		t.Fatal(err)
	}
	if shown.Type != 2 || !strings.Contains(shown.Message, "Calc.java is out of step with the editor") || !strings.Contains(shown.Message, "change 2 of 3") {
		t.Errorf("the client was told %+v", shown)
	}
	// The text is the one opened: clamp where it was, no line before it.
	_, actions := codeActions(t, c, codeActionParams(uri, lineClamp, 22))
	wantMethodActions(t, actions, "clamp")
	err = analyze()
	if lsptest.Code(err) != jsonrpc2.InvalidParams || !strings.Contains(err.Error(), "out of step with the editor") {
		t.Fatalf("a job on the document out of step: %v, want InvalidParams saying it is out of step", err)
	}
	// A change that would apply is not applied to the wrong text: still refused, nothing told.
	didChange(3, edit(lineClamp, 22, lineClamp, 27, "clip"))
	_, actions = codeActions(t, c, codeActionParams(uri, lineClamp, 22))
	wantMethodActions(t, actions, "clamp")
	if err := analyze(); lsptest.Code(err) != jsonrpc2.InvalidParams || !strings.Contains(err.Error(), "out of step") {
		t.Fatalf("after a later change: %v", err)
	}
	// The save carries the editor's text: back in step, the client told, the job starts.
	from = len(c.FromServer())
	saved := strings.Replace(calcJava, "int clamp(", "int clip(", 1)
	c.Notify("textDocument/didSave", map[string]any{"textDocument": map[string]any{"uri": uri}, "text": saved})
	if _, _, err := c.WaitFrom(from, func(m lsptest.Message) bool {
		return m.Method == "window/showMessage" && strings.Contains(string(m.Params), "back in step")
	}); err != nil {
		t.Fatal(err)
	}
	_, actions = codeActions(t, c, codeActionParams(uri, lineClamp, 22))
	wantMethodActions(t, actions, "clip")
	if err := analyze(); err != nil {
		t.Fatalf("a job once back in step: %v", err)
	}
	told := 0
	for _, m := range c.FromServer() {
		if m.Method == "window/showMessage" && strings.Contains(string(m.Params), "is out of step") {
			told++
		}
	}
	if told != 1 {
		t.Errorf("the client was told %d times that the document is out of step, want once", told)
	}
}

func TestCodeActions(t *testing.T) {
	c := initialized(t, "")
	uri := "file:///ws/Calc.java"
	openDoc(c, uri, "java", calcJava)

	_, actions := codeActions(t, c, codeActionParams(uri, lineClampIf, 12))
	wantMethodActions(t, actions, "clamp")
	for i, a := range actions {
		if a.Kind != protocol.Refactor || a.Command == nil {
			t.Fatalf("action %d = %+v, want kind refactor with a command", i, a)
		}
		wantCmd := []string{"advertest.generateTests", "advertest.analyzeMutants"}[i]
		if a.Command.Command != wantCmd {
			t.Errorf("action %d command = %q, want %q", i, a.Command.Command, wantCmd)
		}
		arg, _ := json.Marshal(a.Command.Arguments)
		want := fmt.Sprintf(`[{"position":{"character":12,"line":%d},"uri":"%s"}]`, lineClampIf, uri)
		if string(arg) != want {
			t.Errorf("action %d arguments = %s, want %s", i, arg, want)
		}
	}

	_, actions = codeActions(t, c, codeActionParams(uri, lineCtorBody, 10))
	wantMethodActions(t, actions, "Calc")
	_, actions = codeActions(t, c, codeActionParams(uri, lineInnerTwice, 12))
	wantMethodActions(t, actions, "twice")
	_, actions = codeActions(t, c, codeActionParams(uri, lineClampIf, 12, "refactor"))
	wantMethodActions(t, actions, "clamp")
	// In the indentation before the first modifier: MethodAt's range starts at the modifier,
	// the method's lines hold the cursor.
	_, actions = codeActions(t, c, codeActionParams(uri, lineClamp, 2))
	wantMethodActions(t, actions, "clamp")
	_, actions = codeActions(t, c, codeActionParams(uri, lineCtor, 0))
	wantMethodActions(t, actions, "Calc")

	for name, params := range map[string]map[string]any{
		"outside any method":     codeActionParams(uri, lineField, 8),
		"indentation of a class": codeActionParams(uri, lineInner, 2),
		"indentation of a field": codeActionParams(uri, lineField, 2),
		"only quickfix":          codeActionParams(uri, lineClampIf, 12, "quickfix"),
		"only refactor.extract":  codeActionParams(uri, lineClampIf, 12, "refactor.extract"),
		"past the end":           codeActionParams(uri, 400, 0),
		"document not open":      codeActionParams("file:///ws/Other.java", 1, 1),
	} {
		if raw, _ := codeActions(t, c, params); raw != "[]" {
			t.Errorf("%s: actions = %s, want []", name, raw)
		}
	}

	textURI := "file:///ws/notes.txt"
	openDoc(c, textURI, "plaintext", calcJava)
	if raw, _ := codeActions(t, c, codeActionParams(textURI, lineClampIf, 12)); raw != "[]" {
		t.Errorf("non-Java document: actions = %s, want []", raw)
	}
}

// mavenShell makes a workspace holding a module calc with a pom.xml and an empty main source
// folder, and returns the workspace and calc's org/acme source folder.
func mavenShell(t *testing.T) (ws, srcDir string) {
	t.Helper()
	ws = t.TempDir()
	module := filepath.Join(ws, "calc")
	srcDir = filepath.Join(module, "src", "main", "java", "org", "acme")
	if err := os.MkdirAll(srcDir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(module, "pom.xml"), []byte("<project/>"), 0o644); err != nil {
		t.Fatal(err)
	}
	return ws, srcDir
}

func TestExecuteCommand(t *testing.T) {
	ws, srcDir := mavenShell(t)
	c := initialized(t, ws)
	uri := "file://" + filepath.Join(srcDir, "Calc.java") // never written: the editor's buffer is what counts
	openDoc(c, uri, "java", calcJava)
	looseURI := "file://" + filepath.Join(ws, "scratch", "Calc.java")
	openDoc(c, looseURI, "java", calcJava)
	openDoc(c, "file:///elsewhere/notes.txt", "plaintext", "hello")

	arg := func(uri string, line, char any) map[string]any {
		return map[string]any{"uri": uri, "position": map[string]any{"line": line, "character": char}}
	}
	for _, tc := range []struct {
		name, command string
		arg           any
		want          handlers.Target
	}{
		{"method in a Maven module", "advertest.generateTests", arg(uri, lineClampIf, 12), handlers.Target{
			File: "src/main/java/org/acme/Calc.java", Class: "org.acme.Calc", Method: "clamp",
			Signature: "public static int clamp(int x, int lo, int hi)", StartLine: 12, EndLine: 17}},
		{"nested class", "advertest.analyzeMutants", arg(uri, lineInnerTwice, 0), handlers.Target{
			File: "src/main/java/org/acme/Calc.java", Class: "org.acme.Calc$Inner", Method: "twice",
			Signature: "int twice(int v)", StartLine: 20, EndLine: 22}},
		{"indentation before the modifiers", "advertest.analyzeMutants", arg(uri, lineClamp, 2), handlers.Target{
			File: "src/main/java/org/acme/Calc.java", Class: "org.acme.Calc", Method: "clamp",
			Signature: "public static int clamp(int x, int lo, int hi)", StartLine: 12, EndLine: 17}},
	} {
		var got struct {
			Target handlers.Target `json:"target"`
			Job    *string         `json:"job"`
		}
		if err := c.Call("workspace/executeCommand", map[string]any{"command": tc.command, "arguments": []any{tc.arg}}, &got); err != nil {
			t.Errorf("%s: %v", tc.name, err)
			continue
		}
		if got.Target != tc.want {
			t.Errorf("%s: target = %+v\nwant %+v", tc.name, got.Target, tc.want)
		}
		if got.Job == nil || *got.Job == "" {
			t.Errorf("%s: no job id", tc.name)
		}
	}

	for _, tc := range []struct {
		name, command string
		args          []any
		wantInMessage string
	}{
		{"unknown command", "advertest.nope", []any{arg(uri, lineClampIf, 12)}, `unknown command "advertest.nope"`},
		{"no argument", "advertest.generateTests", nil, "missing argument"},
		{"two arguments", "advertest.generateTests", []any{arg(uri, 1, 1), arg(uri, 1, 1)}, "exactly one argument"},
		{"argument not an object", "advertest.generateTests", []any{"Calc.java:12"}, "must be an object"},
		{"no uri", "advertest.generateTests", []any{map[string]any{"position": map[string]any{"line": 1, "character": 1}}}, `no "uri"`},
		{"uri not a string", "advertest.generateTests", []any{map[string]any{"uri": 7, "position": map[string]any{"line": 1, "character": 1}}}, `"uri" must be a non-empty string`},
		{"no position", "advertest.generateTests", []any{map[string]any{"uri": uri}}, `no "position"`},
		{"position a string", "advertest.generateTests", []any{map[string]any{"uri": uri, "position": "12:3"}}, `"position" must be an object`},
		{"negative line", "advertest.generateTests", []any{arg(uri, -1, 0)}, `"position.line" must be a non-negative integer, got -1`},
		{"fractional character", "advertest.generateTests", []any{arg(uri, 1, 1.5)}, `"position.character" must be a non-negative integer, got 1.5`},
		{"missing character", "advertest.generateTests", []any{map[string]any{"uri": uri, "position": map[string]any{"line": 1}}}, `"position" has no "character"`},
		{"document not open", "advertest.generateTests", []any{arg("file://"+filepath.Join(ws, "Missing.java"), 1, 1)}, "is not open"},
		{"outside the workspace", "advertest.generateTests", []any{arg("file:///ws/Missing.java", 1, 1)}, "is outside the workspace folders and not open in the editor"},
		{"not Java", "advertest.generateTests", []any{arg("file:///elsewhere/notes.txt", 0, 1)}, "is not a Java file"},
		{"outside any method", "advertest.analyzeMutants", []any{arg(uri, lineField, 4)}, "no method or constructor at 5:4"},
		{"past the end", "advertest.analyzeMutants", []any{arg(uri, 999, 0)}, "outside the document"},
		{"no build file", "advertest.generateTests", []any{arg(looseURI, lineCtorBody, 3)}, "no pom.xml, build.gradle or build.gradle.kts above the file"},
		{"kill: no such mutant", "advertest.killMutant", []any{map[string]any{"uri": uri, "mutant": "m0"}}, `no surviving mutant "m0"`},
		{"kill: no mutant field", "advertest.killMutant", []any{map[string]any{"uri": uri}}, `no "mutant"`},
		{"cancel: no job field", "advertest.cancel", []any{map[string]any{}}, `no "job"`},
		{"ignore: no such mutant", "advertest.ignoreMutant", []any{map[string]any{"uri": uri, "mutant": "m0"}}, `no surviving mutant "m0"`},
		{"mark equivalent: no such mutant", "advertest.markEquivalent", []any{map[string]any{"uri": uri, "mutant": "m0"}}, `no surviving mutant "m0"`},
		{"unignore: no mutant field", "advertest.unignoreMutant", []any{map[string]any{"uri": uri}}, `no "mutant"`},
		{"unignore: not open", "advertest.unignoreMutant", []any{map[string]any{"uri": "file://" + filepath.Join(ws, "Missing.java"), "mutant": "m0"}}, "is not open"},
	} {
		params := map[string]any{"command": tc.command}
		if tc.args != nil {
			params["arguments"] = tc.args
		}
		err := c.Call("workspace/executeCommand", params, nil)
		if lsptest.Code(err) != jsonrpc2.InvalidParams || !strings.Contains(err.Error(), tc.wantInMessage) {
			t.Errorf("%s: error %v (code %d), want InvalidParams containing %q", tc.name, err, lsptest.Code(err), tc.wantInMessage)
		}
	}
}

// TestMalformedInputKeepsServing sends one bad message after another, each
// followed by a request that must still succeed.
func TestMalformedInputKeepsServing(t *testing.T) {
	c := initialized(t, "")
	uri := "file:///ws/Calc.java"
	openDoc(c, uri, "java", calcJava)
	stillServing := func(after string) {
		t.Helper()
		_, actions := codeActions(t, c, codeActionParams(uri, lineClampIf, 12))
		if len(actions) != 2 {
			t.Fatalf("after %s: %d actions, want 2", after, len(actions))
		}
	}
	wantErrorResponse := func(name, rawID string, code jsonrpc2.Code, inMessage string) {
		t.Helper()
		body, err := c.Response(rawID)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		var resp struct {
			Error *jsonrpc2.Error `json:"error"`
		}
		if err := json.Unmarshal(body, &resp); err != nil || resp.Error == nil {
			t.Fatalf("%s: response %s is not an error", name, body)
		}
		if resp.Error.Code != code || !strings.Contains(resp.Error.Message, inMessage) {
			t.Fatalf("%s: error %d %q, want %d containing %q", name, resp.Error.Code, resp.Error.Message, code, inMessage)
		}
		stillServing(name)
	}

	c.WriteFrame(`this is not JSON`)
	stillServing("a body that is not JSON")

	c.WriteFrame(`{"jsonrpc":"2.0","id":"broken-1","method":"textDocument/codeAction","params":{`)
	wantErrorResponse("truncated JSON with an id", `"broken-1"`, jsonrpc2.ParseError, "not valid JSON")

	c.WriteFrame(`{"jsonrpc":"2.0","id":4294967296,"method":"textDocument/codeAction","params":{}}`)
	wantErrorResponse("an id outside int32", `4294967296`, jsonrpc2.InvalidRequest, "32-bit integer")

	c.WriteFrame(`{"jsonrpc":"1.0","id":"old-1","method":"textDocument/codeAction","params":{}}`)
	wantErrorResponse(`"jsonrpc":"1.0"`, `"old-1"`, jsonrpc2.InvalidRequest, `"jsonrpc" version "1.0"`)

	c.WriteBytes("garbage that is not a header\r\n\r\n")
	c.WriteBytes("Content-Length: nope\r\n\r\n")
	stillServing("garbage between frames")

	// A Content-Length that is too long swallows the start of the next frame.
	next := `{"jsonrpc":"2.0","id":"after-long","method":"textDocument/codeAction","params":` + mustJSON(codeActionParams(uri, lineClampIf, 12)) + `}`
	short := `{"jsonrpc":"2.0","method":"$/noop"}`
	c.WriteBytes(fmt.Sprintf("Content-Length: %d\r\n\r\n%sContent-Length: %d\r\n\r\n%s", len(short)+30, short, len(next), next))
	if body, err := c.Response(`"after-long"`); err != nil || !strings.Contains(string(body), `"result":[{`) {
		t.Fatalf("frame after a too-long Content-Length: %s, %v", body, err)
	}
	stillServing("a too-long Content-Length")

	// A Content-Length that is too short leaves the rest of the body in
	// front of the next frame's header.
	truncated := `{"jsonrpc":"2.0","id":"short-1","method":"textDocument/codeAction","params":{}}`
	next = strings.Replace(next, "after-long", "after-short", 1)
	c.WriteBytes(fmt.Sprintf("Content-Length: %d\r\n\r\n%sContent-Length: %d\r\n\r\n%s", len(truncated)-20, truncated, len(next), next))
	if body, err := c.Response(`"after-short"`); err != nil || !strings.Contains(string(body), `"result":[{`) {
		t.Fatalf("frame after a too-short Content-Length: %s, %v", body, err)
	}
	wantErrorResponse("a too-short Content-Length", `"short-1"`, jsonrpc2.ParseError, "not valid JSON")

	err := c.Call("textDocument/inlayHint", map[string]any{}, nil)
	if lsptest.Code(err) != jsonrpc2.MethodNotFound || !strings.Contains(err.Error(), "textDocument/inlayHint") {
		t.Fatalf("unknown method: %v, want MethodNotFound naming it", err)
	}
	stillServing("an unknown method")

	c.Notify("advertest/unknownNotification", map[string]any{})
	stillServing("an unknown notification")

	params := codeActionParams(uri, 0, 0)
	params["range"] = map[string]any{"start": "12:3", "end": map[string]any{"line": 1, "character": 1}}
	err = c.Call("textDocument/codeAction", params, nil)
	if lsptest.Code(err) != jsonrpc2.InvalidParams || !strings.Contains(err.Error(), "range.start") {
		t.Fatalf("a string where a position is expected: %v, want InvalidParams naming range.start", err)
	}
	stillServing("a string where a position is expected")

	err = c.Call("textDocument/codeAction", codeActionParams(uri, -1, 0), nil)
	if lsptest.Code(err) != jsonrpc2.InvalidParams || !strings.Contains(err.Error(), ".line: want uint32, got number -1") {
		t.Fatalf("negative position: %v, want InvalidParams naming the line and -1", err)
	}
	stillServing("a negative position")

	err = c.Call("textDocument/codeAction", []any{1, 2}, nil)
	if lsptest.Code(err) != jsonrpc2.InvalidParams || !strings.Contains(err.Error(), "must be an object") {
		t.Fatalf("params an array: %v", err)
	}

	c.Notify("textDocument/didChange", map[string]any{
		"textDocument":   map[string]any{"uri": "file:///ws/NeverOpened.java", "version": 2},
		"contentChanges": []any{map[string]any{"text": "class X {}"}},
	})
	stillServing("a didChange for a document that is not open")

	c.Notify("textDocument/didChange", map[string]any{
		"textDocument":   map[string]any{"uri": uri, "version": 2},
		"contentChanges": []any{map[string]any{"range": map[string]any{"start": map[string]any{"line": 900, "character": 0}, "end": map[string]any{"line": 900, "character": 0}}, "text": "x"}},
	})
	stillServing("a didChange with a range outside the document")

	c.Notify("textDocument/didOpen", map[string]any{"textDocument": "not an object"})
	stillServing("a didOpen with bad params")
}

func mustJSON(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return string(b)
}

func TestShutdownThenExit(t *testing.T) {
	c, done := start(t)
	if err := c.Call("initialize", map[string]any{"capabilities": map[string]any{}}, nil); err != nil {
		t.Fatal(err)
	}
	id, err := c.CallWith(context.Background(), "shutdown", nil, nil)
	if err != nil {
		t.Fatalf("shutdown: %v", err)
	}
	if body, err := c.Response(fmt.Sprintf("%v", id)); err != nil || !strings.Contains(string(body), `"result":null`) {
		t.Fatalf("shutdown response %s, %v; want a null result", body, err)
	}
	err = c.Call("textDocument/codeAction", codeActionParams("file:///a.java", 0, 0), nil)
	if lsptest.Code(err) != jsonrpc2.InvalidRequest {
		t.Errorf("request after shutdown: %v, want InvalidRequest", err)
	}
	c.Notify("exit", nil)
	if err := <-done; err != nil {
		t.Fatalf("Serve after shutdown and exit = %v, want nil", err)
	}
}

func TestExitWithoutShutdown(t *testing.T) {
	c, done := start(t)
	if err := c.Call("initialize", map[string]any{"capabilities": map[string]any{}}, nil); err != nil {
		t.Fatal(err)
	}
	c.Notify("exit", nil)
	if err := <-done; err != server.ErrExitWithoutShutdown {
		t.Fatalf("Serve after exit alone = %v, want ErrExitWithoutShutdown", err)
	}
}

// TestInitializeRealClientShapes decodes initialize params shaped like a
// current VS Code's (written from the LSP 3.17 specification) and params
// whose capabilities do not fit protocol's types: both must initialize.
func TestInitializeRealClientShapes(t *testing.T) {
	vscode, err := os.ReadFile(filepath.Join("testdata", "initialize-vscode.json"))
	if err != nil {
		t.Fatal(err)
	}
	odd := `{"processId":null,"rootUri":"file:///w","capabilities":{"window":{"workDoneProgress":"yes"},"textDocument":{"rename":{"prepareSupport":{"x":1}}}}}`
	for name, params := range map[string]string{"vscode": string(vscode), "odd capabilities": odd} {
		c, _ := start(t)
		var result struct {
			ServerInfo struct{ Name string } `json:"serverInfo"`
		}
		if err := c.Call("initialize", json.RawMessage(params), &result); err != nil || result.ServerInfo.Name != "advertest" {
			t.Errorf("%s: initialize: %+v, %v", name, result, err)
		}
	}
}

// TestNotificationsApplyInOrder types a method name one character per
// didChange, with no waiting in between: the code action must see every
// change, applied in the order sent.
func TestNotificationsApplyInOrder(t *testing.T) {
	c := initialized(t, "")
	uri := "file:///ws/T.java"
	openDoc(c, uri, "java", "class T {\n    void x() {}\n}\n")
	name := "typedOneCharacterAtATime"
	for i, ch := range name {
		pos := map[string]any{"line": 1, "character": 10 + i} // after `    void x`
		c.Notify("textDocument/didChange", map[string]any{
			"textDocument":   map[string]any{"uri": uri, "version": i + 2},
			"contentChanges": []any{map[string]any{"range": map[string]any{"start": pos, "end": pos}, "text": string(ch)}},
		})
	}
	_, actions := codeActions(t, c, codeActionParams(uri, 1, 6))
	wantMethodActions(t, actions, "x"+name)
}
