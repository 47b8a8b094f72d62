package handlers_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/advertest/advertest-lsp/buildtools/buildtest"
	"github.com/advertest/advertest-lsp/server/lsptest"
)

// TestPlainClientOnGradle runs generateTests on the Gradle example (JUnit 4) for a client
// without work-done progress and without document changes that refuses the edit: messages
// stand in for the progress, the edit comes as `changes`, and the refusal leaves the suite in
// .advertest/ with a message saying so. A later save whose change breaks the generated tests
// shows a possible-bug diagnostic on the method. Settings come from initializationOptions and
// workspace/configuration, whose bad value is reported.
func TestPlainClientOnGradle(t *testing.T) {
	if testing.Short() {
		t.Skip("runs Gradle and JVMs")
	}
	module := buildtest.CopyExample(t, "gradle-inventory")
	srcPath := filepath.Join(module, "src", "main", "java", "org", "acme", "inventory", "Pricing.java")
	data, err := os.ReadFile(srcPath)
	if err != nil {
		t.Fatal(err)
	}
	text := string(data)
	uri := "file://" + srcPath
	caps := map[string]any{"workspace": map[string]any{"configuration": true, "applyEdit": true}}
	s := startSession(t, module, map[string]any{"agents": "offline", "rounds": 1, "onSaveDelayMs": 0}, caps)
	s.c.Answer(func(m lsptest.Message) (any, bool) {
		switch m.Method {
		case "workspace/configuration":
			return []any{map[string]any{"jobs": map[string]any{"max": "two"}}}, true
		case "workspace/applyEdit":
			return map[string]any{"applied": false, "failureReason": "the file is read-only"}, true
		}
		return nil, false
	})
	// The configuration is pulled after initialized; Answer was set after initialize, so the
	// pull may have been answered with null before it: ask again.
	s.c.Notify("workspace/didChangeConfiguration", map[string]any{"settings": nil})
	s.waitFrom(0, "the bad configuration value", func(m lsptest.Message) bool {
		return m.Method == "window/showMessage" && strings.Contains(messageText(m), "setting `jobs.max`: want an integer from 1 to 64, got \"two\"; using 2")
	})
	openDoc(s.c, uri, "java", text)
	from := s.mark()
	res := s.command("advertest.generateTests", map[string]any{"uri": uri, "position": map[string]any{"line": 10, "character": 8}})
	job := res["job"].(string)
	showMessage := func(m lsptest.Message, part string) bool {
		return m.Method == "window/showMessage" && strings.Contains(messageText(m), part)
	}
	s.waitFrom(from, "the start message", func(m lsptest.Message) bool {
		return showMessage(m, "AdverTest: `orderPrice`: generating adversarial tests (job "+job+")")
	})
	edit, _ := s.waitFrom(from, "the edit", func(m lsptest.Message) bool { return m.Method == "workspace/applyEdit" })
	var p applyEditParams
	if err := json.Unmarshal(edit.Params, &p); err != nil {
		t.Fatal(err)
	}
	wantURI := "file://" + filepath.Join(module, "src", "test", "java", "org", "acme", "inventory", "PricingAdverTest.java")
	if len(p.Edit.DocumentChanges) != 0 || len(p.Edit.Changes[wantURI]) != 1 {
		t.Fatalf("edit %s, want changes for %s", edit.Params, wantURI)
	}
	s.waitFrom(from, "the refusal's message", func(m lsptest.Message) bool {
		return showMessage(m, "the editor did not apply the edit: the file is read-only") && strings.Contains(messageText(m), ".advertest/")
	})
	end, _ := s.waitFrom(from, "the end message", func(m lsptest.Message) bool {
		return showMessage(m, "(job "+job+")") && strings.Contains(messageText(m), "score")
	})
	if !strings.Contains(messageText(end), "suite kept in .advertest/") {
		t.Errorf("end message %s", end.Params)
	}
	if _, err := os.Stat(strings.TrimPrefix(wantURI, "file://")); err == nil {
		t.Errorf("the server wrote the test file itself")
	}
	// The suite is in the state.
	matches, _ := filepath.Glob(filepath.Join(module, ".advertest", "methods", "org.acme.inventory.Pricing", "orderPrice*.json"))
	if len(matches) != 1 {
		t.Fatalf("state files %v", matches)
	}
	stateData, _ := os.ReadFile(matches[0])
	if !strings.Contains(string(stateData), "PricingAdverTest") {
		t.Errorf("the state has no suite")
	}

	// Change the 10% discount to 15%: the generated tests of the 10..99 range fail now.
	lines := strings.Split(text, "\n")
	const l = 18 // `            return gross * 90 / 100;`
	if strings.TrimSpace(lines[l]) != "return gross * 90 / 100;" {
		t.Fatalf("line %d is %q", l, lines[l])
	}
	change(s, uri, 2, l, 27, l, 29, "85")
	lines[l] = strings.Replace(lines[l], "90", "85", 1)
	if err := os.WriteFile(srcPath, []byte(strings.Join(lines, "\n")), 0o644); err != nil {
		t.Fatal(err)
	}
	from = s.mark()
	s.c.Notify("textDocument/didSave", map[string]any{"textDocument": map[string]any{"uri": uri}})
	ds := s.waitDiagnostics(from, uri, "a possible bug", func(ds []diagnostic) bool {
		for _, d := range ds {
			if d.Code == "possible-bug" {
				return true
			}
		}
		return false
	})
	for _, d := range ds {
		if d.Code == "possible-bug" {
			if d.Severity != 3 || d.Range.Start.Line != 9 || d.Range.Start.Character != 22 || d.Range.End.Character != 32 ||
				!strings.Contains(d.Message, "possible bug") || !strings.Contains(d.Message, "PricingAdverTest.") {
				t.Errorf("possible-bug diagnostic %+v", d)
			}
		}
	}

	// Switch on-save to a round (the configuration's bad rounds value confirms the switch has
	// been applied), then edit and save again.
	s.c.Answer(func(m lsptest.Message) (any, bool) {
		switch m.Method {
		case "workspace/configuration":
			return []any{map[string]any{"onSave": "round", "rounds": 0}}, true
		case "workspace/applyEdit":
			return map[string]any{"applied": false, "failureReason": "the file is read-only"}, true
		}
		return nil, false
	})
	from = s.mark()
	s.c.Notify("workspace/didChangeConfiguration", map[string]any{"settings": nil})
	s.waitFrom(from, "the switch to rounds", func(m lsptest.Message) bool {
		return showMessage(m, "setting `rounds`: want an integer from 1 to 99, got 0; using 1")
	})
	const l2 = 14 // `        if (quantity >= 100) {`
	change(s, uri, 3, l2, 12, l2, 27, "quantity > 99")
	lines[l2] = "        if (quantity > 99) {"
	if err := os.WriteFile(srcPath, []byte(strings.Join(lines, "\n")), 0o644); err != nil {
		t.Fatal(err)
	}
	from = s.mark()
	s.c.Notify("textDocument/didSave", map[string]any{"textDocument": map[string]any{"uri": uri}})
	start, _ := s.waitFrom(from, "the round's start", func(m lsptest.Message) bool {
		return showMessage(m, "AdverTest: `orderPrice`: on save: one more round of T and M (job ")
	})
	roundJob := messageText(start)
	roundJob = roundJob[strings.LastIndex(roundJob, "(job "):]
	roundEnd, _ := s.waitFrom(from, "the round's end", func(m lsptest.Message) bool {
		return showMessage(m, roundJob) && strings.Contains(messageText(m), "score")
	})
	if strings.Contains(messageText(roundEnd), "failed") {
		t.Errorf("round: %s", messageText(roundEnd))
	}
	st, _ := os.ReadFile(matches[0])
	if !strings.Contains(string(st), `"kind": "onSave:round"`) {
		t.Errorf("the history has no on-save round:\n%s", st)
	}
	s.shutdown()
}

// messageText is a window/showMessage's text.
func messageText(m lsptest.Message) string {
	var p struct {
		Message string `json:"message"`
	}
	_ = json.Unmarshal(m.Params, &p)
	return p.Message
}
