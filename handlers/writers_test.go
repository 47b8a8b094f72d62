package handlers

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"go.lsp.dev/protocol"

	"github.com/advertest/advertest-lsp/app"
	"github.com/advertest/advertest-lsp/jobs"
	"github.com/advertest/advertest-lsp/loop"
	"github.com/advertest/advertest-lsp/loop/agent"
	"github.com/advertest/advertest-lsp/loop/report"
	"github.com/advertest/advertest-lsp/loop/state"
	"github.com/advertest/advertest-lsp/server"
)

// The tests in this file drive the handlers without a connection: a recording client stands in
// for the editor, and can hold the server's writes to show that nothing waits for them.

// recordingClient is a server.Notifier that records what is sent; a hold, while set, makes the
// matching sends wait for its release.
type recordingClient struct {
	mu    sync.Mutex
	sent  []sentMessage
	holds map[string]chan struct{} // by method
	// inFlight counts the sends in progress, by method; maxInFlight the most at once.
	inFlight, maxInFlight map[string]int
	// applied answers workspace/applyEdit.
	applied bool
}

type sentMessage struct {
	method string
	value  any
}

func newRecordingClient() *recordingClient {
	return &recordingClient{holds: map[string]chan struct{}{}, inFlight: map[string]int{}, maxInFlight: map[string]int{}, applied: true}
}

// hold makes the sends of method wait until the returned release is called.
func (c *recordingClient) hold(method string) (release func()) {
	ch := make(chan struct{})
	c.mu.Lock()
	c.holds[method] = ch
	c.mu.Unlock()
	var once sync.Once
	return func() {
		once.Do(func() {
			c.mu.Lock()
			delete(c.holds, method)
			c.mu.Unlock()
			close(ch)
		})
	}
}

func (c *recordingClient) record(method string, value any) {
	c.mu.Lock()
	hold := c.holds[method]
	c.inFlight[method]++
	c.maxInFlight[method] = max(c.maxInFlight[method], c.inFlight[method])
	c.mu.Unlock()
	if hold != nil {
		<-hold
	}
	c.mu.Lock()
	c.inFlight[method]--
	c.sent = append(c.sent, sentMessage{method, value})
	c.mu.Unlock()
}

func (c *recordingClient) messages(method string) []any {
	c.mu.Lock()
	defer c.mu.Unlock()
	var out []any
	for _, m := range c.sent {
		if m.method == method {
			out = append(out, m.value)
		}
	}
	return out
}

func (c *recordingClient) PublishDiagnostics(_ context.Context, _ protocol.DocumentURI, _ int32, diags []protocol.Diagnostic) error {
	c.record("publishDiagnostics", diags)
	return nil
}
func (c *recordingClient) ShowMessage(_ context.Context, _ protocol.MessageType, msg string) error {
	c.record("showMessage", msg)
	return nil
}
func (c *recordingClient) LogMessage(context.Context, protocol.MessageType, string) error { return nil }
func (c *recordingClient) CreateProgress(context.Context, protocol.ProgressToken) error   { return nil }
func (c *recordingClient) Progress(_ context.Context, _ protocol.ProgressToken, value any) error {
	c.record("progress", value)
	return nil
}
func (c *recordingClient) ApplyEdit(_ context.Context, _ string, edit any) (*protocol.ApplyWorkspaceEditResponse, error) {
	c.record("applyEdit", edit)
	return &protocol.ApplyWorkspaceEditResponse{Applied: c.applied}, nil
}
func (c *recordingClient) Configuration(context.Context, []protocol.ConfigurationItem) ([]json.RawMessage, error) {
	return nil, nil
}

// newTestHandler is a handler on a session with a recording client and the given client
// capabilities.
func newTestHandler(t *testing.T, caps protocol.ClientCapabilities) (*Handler, *recordingClient) {
	t.Helper()
	client := newRecordingClient()
	session := server.NewSession(context.Background(), client, nil)
	h := New(session, Options{Getenv: func(string) string { return "" }})
	h.clientCapabilities = caps
	t.Cleanup(session.Close)
	return h, client
}

// waitFor waits for cond, failing after a generous limit: what it waits for runs on other
// goroutines.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(30 * time.Second); !cond(); time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("gave up waiting: %s", what)
		}
	}
}

const writersJava = `package p;

public class C {
    static int f(int x) {
        if (x > 0) {
            return 1;
        }
        return 0;
    }
}
`

func survivorOn(line int, text string) report.Mutant {
	original := strings.Split(writersJava, "\n")[line-1]
	return report.Mutant{ID: fmt.Sprintf("m%d", line), Line: line, Original: original, Mutated: original + " // " + text, Status: report.Survived, Description: text}
}

// TestDiagnosticsAreSentInOrder: while the client holds the first set, a newer one is due;
// the document's one writer sends it after, never before, the older one, and never two at once.
func TestDiagnosticsAreSentInOrder(t *testing.T) {
	h, client := newTestHandler(t, protocol.ClientCapabilities{})
	uri := protocol.DocumentURI("file:///w/src/p/C.java")
	h.session.Documents().Open(uri, "java", 1, writersJava)
	show := func(ms ...report.Mutant) {
		h.results.set(&methodResult{key: "k", uri: uri, class: "p.C", query: "f(int)", name: "f", survivors: ms})
		h.results.publish(uri)
	}
	release := client.hold("publishDiagnostics")
	show(survivorOn(5, "older"))
	waitFor(t, "the first set to be on its way", func() bool {
		client.mu.Lock()
		defer client.mu.Unlock()
		return client.inFlight["publishDiagnostics"] == 1
	})
	show(survivorOn(6, "newer"))
	release()
	waitFor(t, "the newer set", func() bool { return len(client.messages("publishDiagnostics")) == 2 })
	sets := client.messages("publishDiagnostics")
	first, last := sets[0].([]protocol.Diagnostic), sets[1].([]protocol.Diagnostic)
	if len(first) != 1 || !strings.Contains(first[0].Message, "older") || len(last) != 1 || !strings.Contains(last[0].Message, "newer") {
		t.Errorf("sets in the order %v then %v; want the older first, the newer last", first, last)
	}
	if n := client.maxInFlight["publishDiagnostics"]; n != 1 {
		t.Errorf("%d sets of one document were sent at once", n)
	}
}

// TestProgressNeverWaitsForTheClient: reports made while the client does not read return at
// once (the engine's goroutines make them); once it reads again it gets the latest, and the
// end comes last.
func TestProgressNeverWaitsForTheClient(t *testing.T) {
	caps := protocol.ClientCapabilities{Window: &protocol.WindowClientCapabilities{WorkDoneProgress: true}}
	h, client := newTestHandler(t, caps)
	job := h.jobs.Start(jobs.Spec{Key: "key", Kind: "test"}, nil, func(*jobs.Job) {})
	<-job.Done()
	p := h.beginProgress(context.Background(), job, "AdverTest: `f`", "starting", true)
	release := client.hold("progress")
	reported := make(chan struct{})
	go func() {
		defer close(reported)
		for i := 1; i <= 50; i++ {
			p.event(loop.Event{Phase: loop.PhaseEvaluate, Done: i, Total: 50, Mutants: 50})
		}
	}()
	waitFor(t, "the reports to return while the client holds the first one", func() bool {
		select {
		case <-reported:
			return true
		default:
			return false
		}
	})
	release()
	p.end("done", nil)
	values := client.messages("progress")
	if len(values) < 3 {
		t.Fatalf("progress %v: want the begin, reports and the end", values)
	}
	last, end := values[len(values)-2].(map[string]any), values[len(values)-1].(map[string]any)
	if end["kind"] != "end" || last["kind"] != "report" || !strings.Contains(last["message"].(string), "evaluating 50/50") {
		t.Errorf("the last report %v and the end %v: want the latest report, then the end", last, end)
	}
	if len(values) > 10 {
		t.Errorf("%d progress messages: the reports made while the client held were not dropped", len(values))
	}
}

// TestTestFileEditKeepsUnsavedText: offered tests are merged into the open test file's text as
// it is when the edit is made, so the user's unsaved changes made while the job ran survive.
func TestTestFileEditKeepsUnsavedText(t *testing.T) {
	caps := protocol.ClientCapabilities{Workspace: &protocol.WorkspaceClientCapabilities{
		WorkspaceEdit: &protocol.WorkspaceClientCapabilitiesWorkspaceEdit{DocumentChanges: true}}}
	h, client := newTestHandler(t, caps)
	path := filepath.Join(t.TempDir(), "CAdverTest.java")
	atStart := loop.Marker + "\npackage p;\n\nclass CAdverTest {\n}\n"
	suite := &loop.Suite{Package: "p", ClassName: "CAdverTest", JUnit: 5, Tests: []agent.Test{{Name: "kills", Source: "@Test\nvoid kills() {}\n"}}}
	fileText, _, err := suite.Merge([]byte(atStart))
	if err != nil {
		t.Fatal(err)
	}
	// The user edits the buffer while the job runs.
	unsaved := strings.Replace(atStart, "class CAdverTest {\n", "class CAdverTest {\n    // the user's unsaved note\n", 1)
	h.session.Documents().Open(fileURI(path), "java", 7, unsaved)
	err = h.applyTestFile(context.Background(), app.SuiteFile{Path: path, Text: fileText, Writable: true, Tests: 1, For: "a test that kills m1",
		Merge: func(current []byte) (string, error) { text, _, err := suite.Merge(current); return text, err }})
	if err != nil {
		t.Fatal(err)
	}
	edits := client.messages("applyEdit")
	if len(edits) != 1 {
		t.Fatalf("%d edits", len(edits))
	}
	we := edits[0].(workspaceEdit)
	tde := we.DocumentChanges[0].(textDocumentEdit)
	text := tde.Edits[0].NewText
	if *tde.TextDocument.Version != 7 || !strings.Contains(text, "// the user's unsaved note") || !strings.Contains(text, "void kills()") {
		t.Errorf("edit at version %d:\n%s\nwant the unsaved note and the new test", *tde.TextDocument.Version, text)
	}
}

// TestDidOpenDoesNotWaitForTheState: didOpen returns while the method states are still being
// read, and their diagnostics follow.
func TestDidOpenDoesNotWaitForTheState(t *testing.T) {
	h, client := newTestHandler(t, protocol.ClientCapabilities{})
	dir := t.TempDir()
	src := filepath.Join(dir, "src", "p", "C.java")
	if err := os.MkdirAll(filepath.Dir(src), 0o755); err != nil {
		t.Fatal(err)
	}
	entered, proceed := make(chan struct{}), make(chan struct{})
	readStates = func(path string) (string, []*state.Method, error) {
		close(entered)
		<-proceed
		m := survivorOn(5, "restored")
		return dir, []*state.Method{{Query: "f(int)", Report: &report.Report{Target: report.Target{Class: "p.C", Method: "f"}, Mutants: []report.Mutant{m}}}}, nil
	}
	t.Cleanup(func() { readStates = app.States })
	opened := make(chan error)
	go func() {
		opened <- h.DidOpen(context.Background(), &protocol.DidOpenTextDocumentParams{TextDocument: protocol.TextDocumentItem{
			URI: fileURI(src), LanguageID: "java", Version: 1, Text: writersJava}})
	}()
	<-entered
	select {
	case err := <-opened:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(30 * time.Second):
		close(proceed)
		t.Fatal("didOpen waited for the state to be read")
	}
	close(proceed)
	waitFor(t, "the restored diagnostics", func() bool { return len(client.messages("publishDiagnostics")) == 1 })
	if ds := client.messages("publishDiagnostics")[0].([]protocol.Diagnostic); len(ds) != 1 || !strings.Contains(ds[0].Message, "restored") {
		t.Errorf("restored diagnostics %v", ds)
	}
}
