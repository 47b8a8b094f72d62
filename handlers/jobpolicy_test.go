package handlers

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"go.lsp.dev/protocol"

	"github.com/advertest/advertest-lsp/app"
	"github.com/advertest/advertest-lsp/loop"
	"github.com/advertest/advertest-lsp/loop/agent"
	"github.com/advertest/advertest-lsp/loop/report"
	"github.com/advertest/advertest-lsp/loop/state"
	"github.com/advertest/advertest-lsp/server"
	"github.com/advertest/advertest-lsp/settings"
)

// editorClient is a recordingClient that applies workspace edits as an editor does: to its own
// buffers at once, refusing an edit made at another version than the buffer's, and sends the
// new text back to the server (didOpen, didChange) a little later, after its answer.
type editorClient struct {
	*recordingClient
	docs *server.Documents

	mu      sync.Mutex
	buffers map[protocol.DocumentURI]*editorBuffer
	echoes  sync.WaitGroup
}

type editorBuffer struct {
	version int32
	text    string
}

func (c *editorClient) ApplyEdit(ctx context.Context, label string, edit any) (*protocol.ApplyWorkspaceEditResponse, error) {
	c.record("applyEdit", edit)
	we, ok := edit.(workspaceEdit)
	if !ok {
		return nil, fmt.Errorf("edit %T", edit)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, change := range we.DocumentChanges {
		tde, ok := change.(textDocumentEdit)
		if !ok {
			continue // the CreateFile: the text edit that follows fills the buffer
		}
		uri := tde.TextDocument.URI
		buf := c.buffers[uri]
		if buf != nil && (tde.TextDocument.Version == nil || *tde.TextDocument.Version != buf.version) {
			return &protocol.ApplyWorkspaceEditResponse{FailureReason: "the buffer is at another version"}, nil
		}
		if buf == nil {
			buf = &editorBuffer{}
			c.buffers[uri] = buf
		}
		buf.version++
		buf.text = tde.Edits[0].NewText // a whole-file edit
		version, text := buf.version, buf.text
		c.echoes.Add(1)
		go func() {
			defer c.echoes.Done()
			time.Sleep(20 * time.Millisecond)
			if version == 1 {
				c.docs.Open(uri, "java", version, text)
				return
			}
			if err := c.docs.Change(&server.DidChangeParams{
				TextDocument:   protocol.VersionedTextDocumentIdentifier{TextDocumentIdentifier: protocol.TextDocumentIdentifier{URI: uri}, Version: version},
				ContentChanges: []server.ContentChange{{Text: text}},
			}); err != nil {
				panic(err)
			}
		}()
	}
	return &protocol.ApplyWorkspaceEditResponse{Applied: true}, nil
}

// serialCore is a core whose use cases count how many run at once on each method and offer one
// new test each for the class's test file.
type serialCore struct {
	testFile string

	mu       sync.Mutex
	active   map[string]int
	overlaps []string
	// calls are the use cases in the order they started ("Play f(int)"); prev whether each had
	// an on-save state; suiteErrs what Suite answered.
	calls     []string
	prev      []bool
	suiteErrs []error
}

func (c *serialCore) work(ctx context.Context, useCase string, req app.Request, ev app.Events) (*app.Result, error) {
	q := req.Method.Query
	c.mu.Lock()
	c.active[q]++
	if c.active[q] > 1 {
		c.overlaps = append(c.overlaps, useCase+" "+q)
	}
	c.calls = append(c.calls, useCase+" "+q)
	c.prev = append(c.prev, req.Prev != nil)
	n := len(c.calls)
	c.mu.Unlock()
	defer func() {
		c.mu.Lock()
		c.active[q]--
		c.mu.Unlock()
	}()
	time.Sleep(30 * time.Millisecond) // the game: long enough for the jobs behind to try to start
	name := fmt.Sprintf("%s%d", strings.ToLower(useCase), n)
	suite := &loop.Suite{Package: "p", ClassName: "CAdverTest", JUnit: 5,
		Tests: []agent.Test{{Name: name, Source: fmt.Sprintf("@Test\nvoid %s() {\n    assertEquals(%d, C.f(%d));\n}\n", name, n, n)}}}
	err := ev.Suite(ctx, app.SuiteFile{Path: c.testFile, Text: suite.Source(), Writable: true, Tests: 1, For: name,
		Merge: func(current []byte) (string, error) { text, _, err := suite.Merge(current); return text, err }})
	c.mu.Lock()
	c.suiteErrs = append(c.suiteErrs, err)
	c.mu.Unlock()
	return &app.Result{}, ctx.Err()
}

func (c *serialCore) Analyze(ctx context.Context, req app.Request, ev app.Events) (*app.Result, error) {
	return c.work(ctx, "Analyze", req, ev)
}

func (c *serialCore) Play(ctx context.Context, req app.Request, ev app.Events) (*app.Result, error) {
	return c.work(ctx, "Play", req, ev)
}

func (c *serialCore) Kill(ctx context.Context, req app.Request, _ report.Mutant, ev app.Events) (*app.Result, error) {
	return c.work(ctx, "Kill", req, ev)
}

const policyJava = `package p;

public class C {
    static int f(int x) {
        return x > 0 ? 1 : 0;
    }

    static int g(int x) {
        return x < 0 ? -1 : 0;
    }
}
`

// TestOneJobPerMethodAndOneWriterPerTestFile starts a Generate, an on-save round and a kill
// together on one method, and a Generate on another method of the class: the method's three
// run one after the other, in that order, never two at once, and the four edits of the class's
// test file follow one another, each merged into the text the one before it left (the editor
// refuses an edit made on an older version), so the file ends with every job's test.
func TestOneJobPerMethodAndOneWriterPerTestFile(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join(dir, "src", "main", "java", "p", "C.java")
	testFile := filepath.Join(dir, "src", "test", "java", "p", "CAdverTest.java")
	for path, text := range map[string]string{filepath.Join(dir, "pom.xml"): "<project/>\n", src: policyJava} {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}

	client := &editorClient{recordingClient: newRecordingClient(), buffers: map[protocol.DocumentURI]*editorBuffer{}}
	session := server.NewSession(context.Background(), client, nil)
	client.docs = session.Documents()
	h := New(session, Options{Getenv: func(string) string { return "" }})
	h.clientCapabilities = protocol.ClientCapabilities{Workspace: &protocol.WorkspaceClientCapabilities{
		WorkspaceEdit: &protocol.WorkspaceClientCapabilitiesWorkspaceEdit{DocumentChanges: true, ResourceOperations: []string{"create"}}}}
	h.settings.OnSave = settings.OnSaveRound
	h.settings.JobsMax = 4
	h.jobs.SetMax(4)
	core := &serialCore{testFile: testFile, active: map[string]int{}}
	h.uses = core
	t.Cleanup(session.Close)

	uri := fileURI(src)
	doc := session.Documents().Open(uri, "java", 1, policyJava)
	at := func(name string) *methodSnapshot {
		t.Helper()
		snap, err := snapshotMethod(doc, strings.Index(policyJava, "static int "+name+"("), "", "")
		if err != nil {
			t.Fatal(err)
		}
		return snap
	}
	f, g := at("f"), at("g")
	// The saved state of f is of an older text: the save runs a round.
	saved := &state.Method{Kind: state.KindGenerate, Query: f.method.Query, MethodText: "static int f(int x) { return 0; }",
		Report: &report.Report{Target: report.Target{Class: f.method.Class, Method: "f"}}}
	restore := readStates
	readStates = func(string) (string, []*state.Method, error) { return dir, []*state.Method{saved}, nil }
	t.Cleanup(func() { readStates = restore })

	h.startMethodJob(state.KindGenerate, f)
	h.onSave(uri)
	h.startKill(f, report.Mutant{ID: "m1", Line: 5, Status: report.Survived})
	h.startMethodJob(state.KindGenerate, g)
	all := h.jobs.Jobs()
	if len(all) != 4 {
		t.Fatalf("%d jobs registered, want 4 (the on-save round among them)", len(all))
	}
	for _, j := range all {
		<-j.Done()
	}
	client.echoes.Wait()

	core.mu.Lock()
	defer core.mu.Unlock()
	if len(core.overlaps) > 0 {
		t.Errorf("use cases ran beside another job of their method: %v", core.overlaps)
	}
	var ofF []string
	for i, c := range core.calls {
		if strings.HasSuffix(c, f.method.Query) {
			ofF = append(ofF, fmt.Sprintf("%s prev=%v", strings.Fields(c)[0], core.prev[i]))
		}
	}
	if want := []string{"Play prev=false", "Play prev=true", "Kill prev=false"}; fmt.Sprint(ofF) != fmt.Sprint(want) {
		t.Errorf("f's use cases ran as %v, want %v (Generate, the on-save round, the kill)", ofF, want)
	}
	for _, err := range core.suiteErrs {
		if err != nil {
			t.Errorf("an edit of the test file failed: %v", err)
		}
	}
	final, ok := session.Documents().Get(fileURI(testFile))
	if !ok {
		t.Fatal("the test file never reached the server")
	}
	text := string(final.Text())
	for i, c := range core.calls {
		name := fmt.Sprintf("%s%d", strings.ToLower(strings.Fields(c)[0]), i+1)
		if n := strings.Count(text, "void "+name+"()"); n != 1 {
			t.Errorf("the test file holds %s %d times, want once:\n%s", name, n, text)
		}
	}
	if len(core.calls) != 4 {
		t.Errorf("%d use cases ran, want 4: %v", len(core.calls), core.calls)
	}
	// This client has no work-done progress: a job that waited says so, then says its start
	// in a message of its own (what a plain client's user, and TestPlainClientOnGradle, read).
	var waited, started bool
	for _, m := range client.messages("showMessage") {
		text := fmt.Sprint(m)
		waited = waited || strings.Contains(text, "waiting for another job to finish")
		started = started || strings.Contains(text, "on save: one more round of T and M (job ")
	}
	if !waited || !started {
		t.Errorf("messages %v: want the round's wait and then its start", client.messages("showMessage"))
	}
}
