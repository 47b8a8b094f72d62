package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/advertest/advertest-lsp/buildtools/buildtest"
	"github.com/advertest/advertest-lsp/loop/report"
	"github.com/advertest/advertest-lsp/server/lsptest"
)

type published struct {
	URI         string `json:"uri"`
	Diagnostics []struct {
		Code    string `json:"code"`
		Message string `json:"message"`
	} `json:"diagnostics"`
}

// lspSession is `advertest lsp` on a module with the Java file open, offline.
func lspSession(t *testing.T, module, uri, text string) *lspProcess {
	t.Helper()
	p := startLSP(t)
	params := map[string]any{"processId": os.Getpid(), "rootUri": "file://" + module, "capabilities": map[string]any{},
		"initializationOptions": map[string]any{"agents": "offline", "workers": 2}}
	if err := p.client.Call("initialize", params, nil); err != nil {
		t.Fatalf("initialize: %v", err)
	}
	p.client.Notify("initialized", map[string]any{})
	p.client.Notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": uri, "languageId": "java", "version": 1, "text": text}})
	return p
}

// diagnosticsFrom waits for the first non-empty diagnostics of uri from message from on.
func (p *lspProcess) diagnosticsFrom(t *testing.T, from int, uri string) map[string]string {
	t.Helper()
	m, _, err := p.client.WaitFrom(from, func(m lsptest.Message) bool {
		var d published
		return m.Method == "textDocument/publishDiagnostics" && json.Unmarshal(m.Params, &d) == nil && d.URI == uri && len(d.Diagnostics) > 0
	})
	if err != nil {
		t.Fatalf("waiting for diagnostics: %v\n%s", err, p.stderr.String())
	}
	var d published
	_ = json.Unmarshal(m.Params, &d)
	out := map[string]string{}
	for _, x := range d.Diagnostics {
		out[x.Code] = x.Message
	}
	return out
}

func (p *lspProcess) stop(t *testing.T) {
	t.Helper()
	if err := p.client.Call("shutdown", nil, nil); err != nil {
		t.Fatalf("shutdown: %v", err)
	}
	p.client.Notify("exit", nil)
	if code := p.wait(t); code != 0 {
		t.Fatalf("exit status %d; stderr:\n%s", code, p.stderr.String())
	}
}

func mutateJSON(t *testing.T, args ...string) (*report.Report, string) {
	t.Helper()
	code, out, errOut := runCLI(append([]string{"mutate", "--json", "-", "--workers", "2"}, args...)...)
	if code != 0 {
		t.Fatalf("advertest mutate %q: status %d\n%s", args, code, errOut)
	}
	var rep report.Report
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("report: %v\n%s", err, out)
	}
	return &rep, errOut
}

// TestIgnoreFromTheCLIReachesTheServer: a mutant the server shows after an analysis is
// ignored with `advertest mutate --ignore` (the report has it ignored and out of the score); a
// restarted server does not show it; `--unignore` brings it back, in the report and in the
// restarted server. The CLI and the server share the verdicts in the module's .advertest/.
func TestIgnoreFromTheCLIReachesTheServer(t *testing.T) {
	if testing.Short() {
		t.Skip("runs Maven and JVMs")
	}
	if _, err := exec.LookPath("mvn"); err != nil {
		t.Skip("mvn missing")
	}
	module := buildtest.CopyExample(t, "maven-calculator")
	file := filepath.Join(module, "src", "main", "java", "org", "acme", "PriceCalculator.java")
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	uri := "file://" + file

	// The server analyses clamp and saves its state.
	p := lspSession(t, module, uri, string(data))
	from := len(p.client.FromServer())
	var res map[string]any
	if err := p.client.Call("workspace/executeCommand", map[string]any{"command": "advertest.analyzeMutants",
		"arguments": []any{map[string]any{"uri": uri, "position": map[string]any{"line": 28, "character": 10}}}}, &res); err != nil {
		t.Fatal(err)
	}
	if _, _, err := p.client.WaitFrom(from, func(m lsptest.Message) bool {
		return m.Method == "window/showMessage" && strings.Contains(string(m.Params), "mutants survive")
	}); err != nil {
		t.Fatalf("the analysis did not end: %v\n%s", err, p.stderr.String())
	}
	shown := p.diagnosticsFrom(t, from, uri)
	id := ""
	for code, msg := range shown {
		if strings.HasPrefix(msg, "`value > hi` → `value >= hi` survives") {
			id = code
		}
	}
	if id == "" {
		t.Fatalf("no diagnostic for `value > hi` → `value >= hi`: %v", shown)
	}
	p.stop(t)

	// advertest mutate --ignore ID: ignored in the report, left out of the score.
	rep, errOut := mutateJSON(t, file, "--method", "clamp", "--ignore", id, "--show-ignored")
	c := report.Counts(rep.Mutants)
	var ignored *report.Mutant
	for i := range rep.Mutants {
		if rep.Mutants[i].ID == id {
			ignored = &rep.Mutants[i]
		}
	}
	if ignored == nil || ignored.Status != report.Ignored || ignored.Equivalence != nil || c[report.Ignored] != 1 {
		t.Fatalf("after --ignore: %+v, counts %v", ignored, c)
	}
	if want := float64(c[report.Killed]) / float64(c[report.Killed]+c[report.Survived]); rep.MutationScore == nil || *rep.MutationScore != want {
		t.Errorf("score %v, want %v (the ignored mutant left out)", rep.MutationScore, want)
	}
	if want := float64(c[report.Killed]) / float64(c[report.Killed]+c[report.Survived]+1); rep.RawMutationScore == nil || *rep.RawMutationScore != want {
		t.Errorf("raw score %v, want %v", rep.RawMutationScore, want)
	}
	for _, want := range []string{id + " ignored", "ignored 1", "  ignored:\n", "--unignore " + id} {
		if !strings.Contains(errOut, want) {
			t.Errorf("stderr lacks %q:\n%s", want, errOut)
		}
	}

	// A restarted server does not show it.
	p = lspSession(t, module, uri, string(data))
	restored := p.diagnosticsFrom(t, 0, uri)
	if _, ok := restored[id]; ok || len(restored) != len(shown)-1 {
		t.Errorf("restored %d diagnostics (the ignored one: %v), want %d without it", len(restored), ok, len(shown)-1)
	}
	p.stop(t)

	// --unignore: a survivor again, shown again.
	rep, errOut = mutateJSON(t, file, "--method", "clamp", "--unignore", id)
	for _, m := range rep.Mutants {
		if m.ID == id && m.Status != report.Survived {
			t.Errorf("after --unignore: %s", m.Status)
		}
	}
	if !strings.Contains(errOut, id+" no longer ignored") {
		t.Errorf("stderr:\n%s", errOut)
	}
	p = lspSession(t, module, uri, string(data))
	if restored := p.diagnosticsFrom(t, 0, uri); restored[id] == "" {
		t.Errorf("after --unignore the server does not show %s: %v", id, restored)
	}
	p.stop(t)

	// An id that is none of the method's mutants is a usage error.
	if code, _, errOut := runCLI("mutate", file, "--method", "clamp", "--ignore", "mnope"); code != 2 || !strings.Contains(errOut, "no mutant mnope in `clamp`") {
		t.Errorf("--ignore mnope: status %d, %s", code, errOut)
	}
}
