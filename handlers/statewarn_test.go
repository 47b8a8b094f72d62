package handlers_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/advertest/advertest-lsp/loop/state"
	"github.com/advertest/advertest-lsp/server/lsptest"
)

// TestCorruptStateIsShown: opening a file whose method state is corrupt moves the state file
// aside and tells the user.
func TestCorruptStateIsShown(t *testing.T) {
	ws := t.TempDir()
	module := filepath.Join(ws, "calc")
	src := filepath.Join(module, "src", "main", "java", "org", "acme", "Calc.java")
	if err := os.MkdirAll(filepath.Dir(src), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(module, "pom.xml"), []byte("<project/>"), 0o644); err != nil {
		t.Fatal(err)
	}
	bad := state.Open(module).Path("org.acme.Calc", "clamp(int,int,int)")
	if err := os.MkdirAll(filepath.Dir(bad), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(bad, []byte(`{"schema": 1, "report": {`), 0o644); err != nil {
		t.Fatal(err)
	}
	c := initialized(t, ws)
	openDoc(c, "file://"+src, "java", calcJava)
	msg, err := c.WaitFor(func(m lsptest.Message) bool { return m.Method == "window/showMessage" })
	if err != nil {
		t.Fatal(err)
	}
	var params struct {
		Message string `json:"message"`
		Type    int    `json:"type"`
	}
	if err := json.Unmarshal(msg.Params, &params); err != nil {
		t.Fatal(err)
	}
	if params.Type != 2 || !strings.Contains(params.Message, "was corrupt") || !strings.Contains(params.Message, filepath.Base(bad)+".corrupt") {
		t.Errorf("showMessage %+v: want a warning naming the file moved aside", params)
	}
	if _, err := os.Stat(bad + ".corrupt"); err != nil {
		t.Errorf("the corrupt state was not moved aside: %v", err)
	}
}
