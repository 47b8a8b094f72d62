package handlers_test

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"
	"go.uber.org/zap/zaptest"
	"go.uber.org/zap/zaptest/observer"

	"github.com/advertest/advertest-lsp/buildtools/buildtest"
	"github.com/advertest/advertest-lsp/handlers"
	"github.com/advertest/advertest-lsp/loop"
	"github.com/advertest/advertest-lsp/loop/report"
	"github.com/advertest/advertest-lsp/server"
	"github.com/advertest/advertest-lsp/server/lsptest"
)

// editorCaps are the capabilities of an editor with work-done progress, versioned document
// changes with file creation, and workspace/configuration.
func editorCaps() map[string]any {
	return map[string]any{
		"window": map[string]any{"workDoneProgress": true},
		"workspace": map[string]any{
			"applyEdit":     true,
			"configuration": true,
			"workspaceEdit": map[string]any{"documentChanges": true, "resourceOperations": []string{"create"}},
		},
	}
}

// session is one scripted editor on one server.
type session struct {
	t      testing.TB
	c      *lsptest.Client
	done   <-chan error
	module string
}

func startSession(t testing.TB, module string, initOptions map[string]any, caps map[string]any) *session {
	t.Helper()
	logger := zap.NewNop()
	if testing.Verbose() {
		logger = zaptest.NewLogger(t, zaptest.Level(zap.InfoLevel))
	}
	return startSessionWith(t, logger, module, initOptions, caps)
}

func startSessionWith(t testing.TB, logger *zap.Logger, module string, initOptions map[string]any, caps map[string]any) *session {
	t.Helper()
	c, done := lsptest.Start(t, server.Config{Logger: logger, NewHandler: handlers.NewFunc(handlers.Options{CacheDir: filepath.Join(os.TempDir(), "advertest-handlers-test-cache")})})
	params := map[string]any{"processId": nil, "rootUri": "file://" + module, "capabilities": caps, "initializationOptions": initOptions}
	if err := c.Call("initialize", params, nil); err != nil {
		t.Fatalf("initialize: %v", err)
	}
	c.Notify("initialized", map[string]any{})
	return &session{t: t, c: c, done: done, module: module}
}

func (s *session) mark() int { return len(s.c.FromServer()) }

func (s *session) waitFrom(from int, what string, match func(lsptest.Message) bool) (lsptest.Message, int) {
	s.t.Helper()
	m, i, err := s.c.WaitFrom(from, match)
	if err != nil {
		s.t.Fatalf("waiting for %s: %v", what, err)
	}
	return m, i
}

type progressValue struct {
	Kind        string `json:"kind"`
	Title       string `json:"title"`
	Message     string `json:"message"`
	Percentage  *int   `json:"percentage"`
	Cancellable bool   `json:"cancellable"`
}

type progressParams struct {
	Token json.RawMessage `json:"token"`
	Value progressValue   `json:"value"`
}

func progressOf(m lsptest.Message) (token string, v progressValue, ok bool) {
	if m.Method != "$/progress" {
		return "", v, false
	}
	var p progressParams
	if json.Unmarshal(m.Params, &p) != nil {
		return "", v, false
	}
	_ = json.Unmarshal(p.Token, &token)
	return token, p.Value, true
}

// waitEnd waits for the end of the job's progress and returns it, with every progress
// value of the job.
func (s *session) waitEnd(from int, job string) (progressValue, []progressValue) {
	s.t.Helper()
	token := "advertest/job/" + job
	end, _ := s.waitFrom(from, "the end of job "+job, func(m lsptest.Message) bool {
		tok, v, ok := progressOf(m)
		return ok && tok == token && v.Kind == "end"
	})
	_, v, _ := progressOf(end)
	var all []progressValue
	for _, m := range s.c.FromServer()[from:] {
		if tok, pv, ok := progressOf(m); ok && tok == token {
			all = append(all, pv)
		}
	}
	return v, all
}

type diagnostic struct {
	Range struct {
		Start struct{ Line, Character int } `json:"start"`
		End   struct{ Line, Character int } `json:"end"`
	} `json:"range"`
	Severity int    `json:"severity"`
	Code     string `json:"code"`
	Source   string `json:"source"`
	Message  string `json:"message"`
}

type publishParams struct {
	URI         string       `json:"uri"`
	Diagnostics []diagnostic `json:"diagnostics"`
}

// lastDiagnostics returns the last diagnostics published for uri from index from on.
func (s *session) waitDiagnostics(from int, uri, what string, accept func([]diagnostic) bool) []diagnostic {
	s.t.Helper()
	m, _ := s.waitFrom(from, what, func(m lsptest.Message) bool {
		if m.Method != "textDocument/publishDiagnostics" {
			return false
		}
		var p publishParams
		return json.Unmarshal(m.Params, &p) == nil && p.URI == uri && accept(p.Diagnostics)
	})
	var p publishParams
	_ = json.Unmarshal(m.Params, &p)
	return p.Diagnostics
}

// latestDiagnostics is the last set published for uri so far.
func (s *session) latestDiagnostics(uri string) []diagnostic {
	var last []diagnostic
	for _, m := range s.c.FromServer() {
		var p publishParams
		if m.Method == "textDocument/publishDiagnostics" && json.Unmarshal(m.Params, &p) == nil && p.URI == uri {
			last = p.Diagnostics
		}
	}
	return last
}

// diagnosticsOf waits from the message index from for the document's diagnostics to be n, and
// returns them. The server publishes a job's diagnostics from its own writer goroutine, so
// they may reach the client just after the job's progress end.
func (s *session) diagnosticsOf(uri string, from, n int) []diagnostic {
	s.t.Helper()
	var got []diagnostic
	_, _, err := s.c.WaitFrom(from, func(m lsptest.Message) bool {
		var p publishParams
		if m.Method != "textDocument/publishDiagnostics" || json.Unmarshal(m.Params, &p) != nil || p.URI != uri {
			return false
		}
		got = p.Diagnostics
		return len(p.Diagnostics) == n
	})
	if err != nil {
		s.t.Fatalf("%d diagnostics, want %d: %+v (%v)", len(s.latestDiagnostics(uri)), n, s.latestDiagnostics(uri), err)
	}
	return got
}

func withMessage(ds []diagnostic, part string) *diagnostic {
	for i := range ds {
		if strings.Contains(ds[i].Message, part) {
			return &ds[i]
		}
	}
	return nil
}

func (s *session) command(name string, arg any) map[string]any {
	s.t.Helper()
	var out map[string]any
	if err := s.c.Call("workspace/executeCommand", map[string]any{"command": name, "arguments": []any{arg}}, &out); err != nil {
		s.t.Fatalf("%s: %v", name, err)
	}
	return out
}

func (s *session) shutdown() {
	s.t.Helper()
	if err := s.c.Call("shutdown", nil, nil); err != nil {
		s.t.Fatalf("shutdown: %v", err)
	}
	s.c.Notify("exit", nil)
	if err := <-s.done; err != nil {
		s.t.Fatalf("Serve after shutdown and exit: %v", err)
	}
}

// processesMentioning lists the running processes whose command line mentions dir.
func processesMentioning(dir string) []string {
	var out []string
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		data, err := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		if err != nil || len(data) == 0 {
			continue
		}
		cmd := strings.ReplaceAll(string(data), "\x00", " ")
		if strings.Contains(cmd, dir) {
			out = append(out, e.Name()+": "+cmd[:min(len(cmd), 120)])
		}
	}
	return out
}

// applyEditParams is workspace/applyEdit as the server sends it.
type applyEditParams struct {
	Label string `json:"label"`
	Edit  struct {
		Changes         map[string][]json.RawMessage `json:"changes"`
		DocumentChanges []json.RawMessage            `json:"documentChanges"`
	} `json:"edit"`
}

// textOfEdit returns the created file's URI and the text of its (single, whole-file) edit.
func textOfEdit(t *testing.T, m lsptest.Message) (create bool, uri, text string) {
	t.Helper()
	var p applyEditParams
	if err := json.Unmarshal(m.Params, &p); err != nil {
		t.Fatal(err)
	}
	for _, raw := range p.Edit.DocumentChanges {
		var op struct {
			Kind         string `json:"kind"`
			URI          string `json:"uri"`
			TextDocument struct {
				URI     string `json:"uri"`
				Version *int   `json:"version"`
			} `json:"textDocument"`
			Edits []struct {
				NewText string `json:"newText"`
			} `json:"edits"`
		}
		if err := json.Unmarshal(raw, &op); err != nil {
			t.Fatal(err)
		}
		if op.Kind == "create" {
			create, uri = true, op.URI
			continue
		}
		if len(op.Edits) != 1 {
			t.Fatalf("a text document edit with %d edits", len(op.Edits))
		}
		if uri != "" && op.TextDocument.URI != uri {
			t.Fatalf("created %s but edited %s", uri, op.TextDocument.URI)
		}
		uri, text = op.TextDocument.URI, op.Edits[0].NewText
	}
	return create, uri, text
}

// runJUnit compiles the test file against the module's classes and runs it with the JUnit
// console launcher; it fails the test unless every test passes.
func runJUnit(t *testing.T, module, testFile, class string) string {
	t.Helper()
	launcher := "/usr/share/java/junit-platform-console-standalone.jar"
	out := t.TempDir()
	classes := filepath.Join(module, "target", "classes")
	cmd := exec.Command("javac", "-d", out, "-cp", classes+":"+launcher, testFile)
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("the generated test file does not compile: %v\n%s", err, b)
	}
	cmd = exec.Command("java", "-jar", launcher, "-cp", classes+":"+out, "--select-class", class, "--disable-banner", "--details=summary")
	b, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("the generated tests do not pass: %v\n%s", err, b)
	}
	return string(b)
}

func change(s *session, uri string, version int, line, char, endLine, endChar int, text string) {
	s.c.Notify("textDocument/didChange", map[string]any{
		"textDocument": map[string]any{"uri": uri, "version": version},
		"contentChanges": []any{map[string]any{"range": map[string]any{
			"start": map[string]any{"line": line, "character": char},
			"end":   map[string]any{"line": endLine, "character": endChar}}, "text": text}},
	})
}

// TestEditorFlow drives the real server through an editor's whole session on a copy of the
// Maven example: analysis, hover, the quick fix, generation with an edit during the run, the
// workspace edit (whose file compiles and passes), cancellation both ways, a save that runs an
// on-save analysis, shutdown without a JVM left, and a restart that brings the diagnostics
// back.
func TestEditorFlow(t *testing.T) {
	if testing.Short() {
		t.Skip("runs Maven and JVMs")
	}
	module := buildtest.CopyExample(t, "maven-calculator")
	srcPath := filepath.Join(module, "src", "main", "java", "org", "acme", "PriceCalculator.java")
	data, err := os.ReadFile(srcPath)
	if err != nil {
		t.Fatal(err)
	}
	text := string(data)
	uri := "file://" + srcPath
	// The editors log the server's stderr as errors: at the default level (warn) a whole
	// session says nothing.
	core, logs := observer.New(zapcore.WarnLevel)
	s := startSessionWith(t, zap.New(core), module, map[string]any{"agents": "offline", "rounds": 1, "workers": 2, "onSaveDelayMs": 20, "onSave": "sometimes"}, editorCaps())
	defer func() {
		for _, e := range logs.All() {
			t.Errorf("logged at %s: %s %v", e.Level, e.Message, e.ContextMap())
		}
	}()
	from := 0
	// A bad setting is named in a message; the others apply.
	s.waitFrom(from, "a message about the bad setting", func(m lsptest.Message) bool {
		return m.Method == "window/showMessage" && strings.Contains(string(m.Params), "setting `onSave`: want one of analyze, round, off")
	})
	openDoc(s.c, uri, "java", text)

	// clamp is lines 25-36 (1-based); its `if (value > hi) {` is line 32.
	const clampLine = 28 // 0-based, `if (value < lo) {`
	_, actions := codeActions(t, s.c, codeActionParams(uri, clampLine, 12))
	wantMethodActions(t, actions, "clamp")

	var (
		jobID    string
		killTest string // the quick fix's test method
	)
	t.Run("analyzeMutants", func(t *testing.T) {
		from = s.mark()
		res := s.command("advertest.analyzeMutants", map[string]any{"uri": uri, "position": map[string]any{"line": clampLine, "character": 12}})
		jobID, _ = res["job"].(string)
		target, _ := res["target"].(map[string]any)
		if jobID == "" || target["method"] != "clamp" || target["file"] != "src/main/java/org/acme/PriceCalculator.java" {
			t.Fatalf("reply %v", res)
		}
		end, all := s.waitEnd(from, jobID)
		if all[0].Kind != "begin" || all[0].Title != "AdverTest: `clamp`" || !all[0].Cancellable {
			t.Errorf("progress begin %+v", all[0])
		}
		reports := 0
		for _, v := range all {
			if v.Kind == "report" && v.Percentage != nil && strings.Contains(v.Message, "mutants") {
				reports++
			}
		}
		if reports == 0 {
			t.Errorf("no progress report with a percentage and counts: %+v", all)
		}
		// The weak suite leaves 15 of clamp's 38 mutants alive (score 60.5%); under a heavy load
		// a survivor's test may overrun its budget and turn into a timeout, which is no
		// survivor: the diagnostics must match the count the job reports either way.
		var survivors, total int
		if _, err := fmt.Sscanf(survivorCount(end.Message), "%d of %d", &survivors, &total); err != nil || total != 38 || survivors < 14 || survivors > 15 {
			t.Errorf("progress end %q", end.Message)
		}
		ds := s.diagnosticsOf(uri, from, survivors)
		d := withMessage(ds, "`value > hi` → `value >= hi`")
		if d == nil {
			t.Fatalf("no diagnostic for `value > hi` → `value >= hi`: %+v", ds)
		}
		if d.Message != "`value > hi` → `value >= hi` survives: no test tells them apart" || d.Severity != 2 || d.Source != "advertest" ||
			!strings.HasPrefix(d.Code, "m") || d.Range.Start.Line != 31 || d.Range.Start.Character != 8 || d.Range.End.Line != 31 || d.Range.End.Character != 25 {
			t.Errorf("diagnostic %+v", *d)
		}
		// The state is on disk.
		if matches, _ := filepath.Glob(filepath.Join(module, ".advertest", "methods", "org.acme.PriceCalculator", "clamp*.json")); len(matches) != 1 {
			t.Errorf("state files %v", matches)
		}
	})

	t.Run("hover", func(t *testing.T) {
		var hover struct {
			Contents struct{ Kind, Value string } `json:"contents"`
		}
		if err := s.c.Call("textDocument/hover", map[string]any{"textDocument": map[string]any{"uri": uri}, "position": map[string]any{"line": 31, "character": 14}}, &hover); err != nil {
			t.Fatal(err)
		}
		v := hover.Contents.Value
		if hover.Contents.Kind != "markdown" || !strings.Contains(v, "```diff\n- if (value > hi) {\n+ if (value >= hi) {\n```") ||
			!strings.Contains(v, "`org.acme.PriceCalculatorTest.clampKeepsAValueInside`") {
			t.Errorf("hover:\n%s", v)
		}
		var none json.RawMessage
		if err := s.c.Call("textDocument/hover", map[string]any{"textDocument": map[string]any{"uri": uri}, "position": map[string]any{"line": 12, "character": 4}}, &none); err != nil || (len(none) != 0 && string(none) != "null") {
			t.Errorf("hover off the mutants: %s, %v", none, err)
		}
	})

	// The user marks `value < lo` → `value <= lo` equivalent (it is: at value == lo both
	// return lo): its diagnostic goes, and stays gone through the on-save analysis and a restart.
	var markedID string
	t.Run("mark as equivalent", func(t *testing.T) {
		d := withMessage(s.latestDiagnostics(uri), "`value < lo` → `value <= lo`")
		if d == nil {
			t.Fatalf("no diagnostic for `value <= lo`: %+v", s.latestDiagnostics(uri))
		}
		markedID = d.Code
		params := codeActionParams(uri, d.Range.Start.Line, d.Range.Start.Character, "quickfix")
		params["context"].(map[string]any)["diagnostics"] = []any{d}
		_, actions := codeActions(t, s.c, params)
		if len(actions) != 3 || actions[1].Title != "Mark as equivalent" {
			t.Fatalf("quick fixes %+v", actions)
		}
		from = s.mark()
		arg, _ := json.Marshal(actions[1].Command.Arguments[0])
		var argObj map[string]any
		_ = json.Unmarshal(arg, &argObj)
		if res := s.command(actions[1].Command.Command, argObj); res["status"] != "ignored" {
			t.Errorf("markEquivalent answered %v", res)
		}
		s.waitDiagnostics(from, uri, "the diagnostics without the marked mutant", func(ds []diagnostic) bool {
			for _, d := range ds {
				if d.Code == markedID {
					return false
				}
			}
			return true
		})
	})

	t.Run("quickfix", func(t *testing.T) {
		ds := s.latestDiagnostics(uri)
		d := withMessage(ds, "`return hi;` → `return 0;`")
		if d == nil {
			t.Fatalf("no diagnostic for `return hi;`: %+v", ds)
		}
		params := codeActionParams(uri, d.Range.Start.Line, d.Range.Start.Character, "quickfix")
		params["context"].(map[string]any)["diagnostics"] = []any{d}
		_, actions := codeActions(t, s.c, params)
		if len(actions) != 3 || actions[0].Title != "Generate a test that kills this mutant" || actions[0].Kind != "quickfix" || actions[0].Command.Command != "advertest.killMutant" ||
			actions[1].Title != "Mark as equivalent" || actions[1].Command.Command != "advertest.markEquivalent" ||
			actions[2].Title != "Ignore this mutant" || actions[2].Command.Command != "advertest.ignoreMutant" || actions[2].Kind != "quickfix" {
			t.Fatalf("quick fixes %+v", actions)
		}
		// The editor has the generated test file open, unsaved, as after an earlier edit that
		// created it (the file exists, empty, and its buffer holds the text).
		testPath := filepath.Join(module, "src", "test", "java", "org", "acme", "PriceCalculatorAdverTest.java")
		testURI := "file://" + testPath
		if err := os.MkdirAll(filepath.Dir(testPath), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(testPath, nil, 0o644); err != nil {
			t.Fatal(err)
		}
		openDoc(s.c, testURI, "java", loop.Marker+"\npackage org.acme;\n\nclass PriceCalculatorAdverTest {\n}\n")
		from = s.mark()
		arg, _ := json.Marshal(actions[0].Command.Arguments[0])
		var argObj map[string]any
		_ = json.Unmarshal(arg, &argObj)
		res := s.command("advertest.killMutant", argObj)
		job, _ := res["job"].(string)
		// While the job runs, the user types in the test file.
		s.waitFrom(from, "the kill job's progress", func(m lsptest.Message) bool {
			tok, v, ok := progressOf(m)
			return ok && tok == "advertest/job/"+job && v.Kind == "begin"
		})
		change(s, testURI, 2, 3, 0, 3, 0, "// the user's unsaved note\n")
		end, _ := s.waitEnd(from, job)
		if !strings.Contains(end.Message, "killed by") {
			t.Fatalf("kill job ended %q", end.Message)
		}
		edit, _ := s.waitFrom(from, "the quick fix's edit", func(m lsptest.Message) bool { return m.Method == "workspace/applyEdit" })
		create, editURI, newText := textOfEdit(t, edit)
		// The test is merged into the buffer as it is now, unsaved note and all, at its version.
		if create || editURI != testURI || !strings.HasPrefix(newText, "// Generated by AdverTest") ||
			!strings.Contains(newText, "// the user's unsaved note") || !strings.Contains(string(edit.Params), `"version":2`) {
			t.Errorf("quick fix edit: create %v, %s:\n%s\n%s", create, editURI, newText, edit.Params)
		}
		if withMessage(s.latestDiagnostics(uri), "`return hi;` → `return 0;`") != nil {
			t.Errorf("the killed mutant's diagnostic is still there")
		}
		// As an editor does: the buffer takes the edit, unsaved.
		s.c.Notify("textDocument/didChange", map[string]any{
			"textDocument":   map[string]any{"uri": testURI, "version": 3},
			"contentChanges": []any{map[string]any{"text": newText}},
		})
		killTest = newText[strings.Index(newText, "void ")+5:]
		killTest = killTest[:strings.Index(killTest, "(")]
	})

	t.Run("generateTests with an edit during the run", func(t *testing.T) {
		from = s.mark()
		res := s.command("advertest.generateTests", map[string]any{"uri": uri, "position": map[string]any{"line": clampLine, "character": 12}})
		job, _ := res["job"].(string)
		// The user adds a line at the top while the job runs: the diagnostics follow.
		change(s, uri, 2, 0, 0, 0, 0, "// reviewed\n")
		text = "// reviewed\n" + text
		end, _ := s.waitEnd(from, job)
		if !strings.Contains(end.Message, "tests") {
			t.Fatalf("generate ended %q", end.Message)
		}
		ds := s.latestDiagnostics(uri)
		lines := strings.Split(text, "\n")
		for _, d := range ds {
			if d.Code == "possible-bug" {
				continue
			}
			code := strings.TrimSpace(lines[d.Range.Start.Line])
			before := d.Message[1:strings.Index(d.Message, "` →")]
			if !strings.Contains(code, before) {
				t.Errorf("diagnostic %q on line %d %q", d.Message, d.Range.Start.Line, code)
			}
		}
		edit, _ := s.waitFrom(from, "the suite's edit", func(m lsptest.Message) bool { return m.Method == "workspace/applyEdit" })
		create, editURI, newText := textOfEdit(t, edit)
		// The test file is open with unsaved changes: the edit is made against its buffer, at
		// its version, and keeps the quick fix's test.
		if create || !strings.Contains(string(edit.Params), `"version":3`) || killTest == "" || !strings.Contains(newText, "void "+killTest+"(") {
			t.Errorf("edit of the open test file (create %v, quick-fix test %q):\n%s", create, killTest, edit.Params)
		}
		// The editor saves the new file; it compiles and its tests pass.
		testPath := strings.TrimPrefix(editURI, "file://")
		if err := os.WriteFile(testPath, []byte(newText), 0o644); err != nil {
			t.Fatal(err)
		}
		out := runJUnit(t, module, testPath, "org.acme.PriceCalculatorAdverTest")
		if !strings.Contains(out, "tests successful") {
			t.Errorf("JUnit:\n%s", out)
		}
	})

	t.Run("cancel", func(t *testing.T) {
		// A new run on the same method replaces the old one …
		from = s.mark()
		total := map[string]any{"uri": uri, "position": map[string]any{"line": 66, "character": 8}}
		first := s.command("advertest.analyzeMutants", total)["job"].(string)
		res := s.command("advertest.analyzeMutants", total)
		job := res["job"].(string)
		if end, _ := s.waitEnd(from, first); end.Message != "canceled: replaced by a newer run" {
			t.Errorf("end of the replaced job: %q", end.Message)
		}
		// … which is cancelled from its progress …
		s.waitFrom(from, "a progress report", func(m lsptest.Message) bool {
			tok, v, ok := progressOf(m)
			return ok && tok == "advertest/job/"+job && v.Kind == "report"
		})
		s.c.Notify("window/workDoneProgress/cancel", map[string]any{"token": "advertest/job/" + job})
		if end, _ := s.waitEnd(from, job); end.Message != "canceled" {
			t.Errorf("end after a progress cancel: %q", end.Message)
		}
		// … and with advertest.cancel.
		from = s.mark()
		res = s.command("advertest.analyzeMutants", map[string]any{"uri": uri, "position": map[string]any{"line": 73, "character": 8}})
		job = res["job"].(string)
		s.waitFrom(from, "a progress begin", func(m lsptest.Message) bool {
			tok, v, ok := progressOf(m)
			return ok && tok == "advertest/job/"+job && v.Kind == "begin"
		})
		if got := s.command("advertest.cancel", map[string]any{"job": job}); got["cancelled"] != true {
			t.Errorf("cancel reply %v", got)
		}
		if end, _ := s.waitEnd(from, job); end.Message != "canceled" {
			t.Errorf("end after advertest.cancel: %q", end.Message)
		}
		if got := s.command("advertest.cancel", map[string]any{"job": job}); got["cancelled"] != false {
			t.Errorf("cancelling an ended job: %v", got)
		}
	})

	t.Run("save runs an on-save analysis", func(t *testing.T) {
		lines := strings.Split(text, "\n")
		l := -1
		for i, line := range lines {
			if strings.TrimSpace(line) == "if (value > hi) {" {
				l = i
			}
		}
		if l < 0 {
			t.Fatal("no `if (value > hi) {` line")
		}
		from = s.mark()
		change(s, uri, 3, l, 12, l, 22, "hi < value")
		lines[l] = "        if (hi < value) {"
		text = strings.Join(lines, "\n")
		// Edited, the line's mutants are withdrawn at once.
		s.waitDiagnostics(from, uri, "the withdrawal", func(ds []diagnostic) bool { return withMessage(ds, "`value > hi`") == nil })
		if err := os.WriteFile(srcPath, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		s.c.Notify("textDocument/didSave", map[string]any{"textDocument": map[string]any{"uri": uri}})
		begin, _ := s.waitFrom(from, "the on-save job", func(m lsptest.Message) bool {
			_, v, ok := progressOf(m)
			return ok && v.Kind == "begin" && strings.HasPrefix(v.Message, "on save")
		})
		var p progressParams
		_ = json.Unmarshal(begin.Params, &p)
		var token string
		_ = json.Unmarshal(p.Token, &token)
		end, _ := s.waitEnd(from, strings.TrimPrefix(token, "advertest/job/"))
		if !strings.Contains(end.Message, "score") {
			t.Fatalf("on-save job ended %q", end.Message)
		}
		ds := s.latestDiagnostics(uri)
		if withMessage(ds, "`hi < value` → `hi <= value`") == nil {
			t.Errorf("no diagnostic for the new line's mutant: %+v", ds)
		}
	})

	s.shutdown()
	if left := processesMentioning(module); len(left) > 0 {
		t.Errorf("processes left after shutdown:\n%s", strings.Join(left, "\n"))
	}

	t.Run("restart brings the diagnostics back", func(t *testing.T) {
		s2 := startSession(t, module, map[string]any{"agents": "offline"}, editorCaps())
		from := s2.mark()
		openDoc(s2.c, uri, "java", text)
		ds := s2.waitDiagnostics(from, uri, "the restored diagnostics", func(ds []diagnostic) bool { return len(ds) > 0 })
		if withMessage(ds, "`hi < value` → `hi <= value`") == nil {
			t.Errorf("restored diagnostics %+v", ds)
		}
		// The mutant marked equivalent stays hidden, and out of the saved score.
		var saved struct {
			Report report.Report `json:"report"`
		}
		files, _ := filepath.Glob(filepath.Join(module, ".advertest", "methods", "org.acme.PriceCalculator", "clamp*.json"))
		if len(files) == 1 {
			data, _ := os.ReadFile(files[0])
			_ = json.Unmarshal(data, &saved)
		}
		c := report.Counts(saved.Report.Mutants)
		for _, d := range ds {
			if d.Code == markedID {
				t.Errorf("the mutant marked equivalent is shown again after a restart: %+v", d)
			}
		}
		if c[report.Ignored] != 1 || saved.Report.MutationScore == nil ||
			*saved.Report.MutationScore != float64(c[report.Killed])/float64(c[report.Killed]+c[report.Survived]) {
			t.Errorf("saved state: %v, score %v; want one ignored, left out of the score", c, saved.Report.MutationScore)
		}
		// Deleting the method clears its diagnostics.
		lines := strings.Split(text, "\n")
		first, last := -1, -1
		for i, l := range lines {
			if strings.Contains(l, "public static int clamp(") {
				first = i
			}
			if first >= 0 && last < 0 && l == "    }" {
				last = i
			}
		}
		from = s2.mark()
		change(s2, uri, 2, first, 0, last+1, 0, "")
		s2.waitDiagnostics(from, uri, "no diagnostics once clamp is deleted", func(ds []diagnostic) bool { return len(ds) == 0 })
		s2.shutdown()
	})
	_ = fmt.Sprint
}

// survivorCount picks "N of M" out of a progress end such as "score 62% · 9 of 24 mutants survive".
func survivorCount(msg string) string {
	i := strings.Index(msg, " mutants survive")
	if i < 0 {
		return msg
	}
	j := strings.LastIndex(msg[:i], "·")
	if j < 0 {
		return strings.TrimSpace(msg[:i])
	}
	return strings.TrimSpace(msg[j+len("·") : i])
}
