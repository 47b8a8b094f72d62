package handlers

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"time"

	"go.lsp.dev/protocol"
	"go.uber.org/zap"

	"github.com/advertest/advertest-lsp/app"
	"github.com/advertest/advertest-lsp/javaparse"
	"github.com/advertest/advertest-lsp/loop"
)

// The workspace edit types: protocol.WorkspaceEdit cannot carry a CreateFile operation (see
// docs/architecture.md, "Traps of the pinned libraries"), so workspace/applyEdit sends these.
type (
	workspaceEdit struct {
		Changes         map[protocol.DocumentURI][]protocol.TextEdit `json:"changes,omitempty"`
		DocumentChanges []any                                        `json:"documentChanges,omitempty"`
	}
	textDocumentEdit struct {
		TextDocument versionedDocument   `json:"textDocument"`
		Edits        []protocol.TextEdit `json:"edits"`
	}
	// versionedDocument is an OptionalVersionedTextDocumentIdentifier: a null version means
	// the file as it is on disk.
	versionedDocument struct {
		URI     protocol.DocumentURI `json:"uri"`
		Version *int32               `json:"version"`
	}
	createFile struct {
		Kind    string               `json:"kind"` // "create"
		URI     protocol.DocumentURI `json:"uri"`
		Options *createFileOptions   `json:"options,omitempty"`
	}
	createFileOptions struct {
		Overwrite      bool `json:"overwrite,omitempty"`
		IgnoreIfExists bool `json:"ignoreIfExists,omitempty"`
	}
)

// fileURI is the file: URI of an absolute path.
func fileURI(path string) protocol.DocumentURI {
	u := url.URL{Scheme: "file", Path: filepath.ToSlash(path)}
	return protocol.DocumentURI(u.String())
}

// fullRange is the range of the whole text.
func fullRange(text []byte) protocol.Range {
	lines := javaparse.NewLineMap(text)
	l, c := lines.Position(len(text))
	return protocol.Range{End: protocol.Position{Line: uint32(l), Character: uint32(c)}}
}

// testFileWriter is the one writer of a test file (one per class): jobs on the class's methods
// write it in turn, each merging into what the one before it wrote.
type testFileWriter struct {
	mu sync.Mutex
	// sent is the text of the last edit the editor applied, until the server has seen it come
	// back ("" then): the next writer waits for it before it reads the file.
	sent string
}

// echoWait bounds how long a writer waits for the editor to show the last edit of a test file
// (its didOpen or didChange) before it reads the file.
const echoWait = 2 * time.Second

// lockTestFile takes the test file's writer; the function it returns lets it go.
func (h *Handler) lockTestFile(path string) (w *testFileWriter, unlock func()) {
	v, _ := h.testFiles.LoadOrStore(path, new(testFileWriter))
	w = v.(*testFileWriter)
	w.mu.Lock()
	return w, w.mu.Unlock
}

// awaitEcho waits, up to echoWait, until the test file's text as the server sees it (the open
// document, else the disk) is text: the editor sends an applied edit back as a didOpen or a
// didChange, after its answer to workspace/applyEdit, and the next edit must merge into it
// (and be made at its version).
func (h *Handler) awaitEcho(ctx context.Context, path string, text string) {
	uri := fileURI(path)
	for deadline := time.Now().Add(echoWait); time.Now().Before(deadline) && ctx.Err() == nil; time.Sleep(5 * time.Millisecond) {
		if doc, ok := h.session.Documents().Get(uri); ok {
			if string(doc.Text()) == text {
				return
			}
		} else if data, err := os.ReadFile(path); err == nil && string(data) == text {
			return
		}
	}
	h.logger.Debug("the editor did not show the test file's last edit in time", zap.String("path", path))
}

// applyTestFile sends offered tests as a workspace edit of their test file: documentChanges
// (CreateFile when the file is new, then a TextDocumentEdit) when the client supports them,
// else changes. The tests are merged into the file's text as it is now: an open buffer's, at
// its current version, with its unsaved changes, else the file on disk. A file without the
// marker is never edited. It returns why the edit was not made.
//
// Jobs call it from their goroutines: one writer per test file at a time (lockTestFile), so
// that two jobs' reads, merges and edits of a file never interleave, and a writer first waits
// for the editor to show the edit made before it.
func (h *Handler) applyTestFile(ctx context.Context, f app.SuiteFile) error {
	w, unlock := h.lockTestFile(f.Path)
	defer unlock()
	if w.sent != "" {
		h.awaitEcho(ctx, f.Path, w.sent)
	}
	text, err := h.editTestFile(ctx, f)
	if err == nil && text != "" {
		w.sent = text
	}
	return err
}

// editTestFile is applyTestFile under the file's writer; it returns the file's new text ("" when
// no edit was made).
func (h *Handler) editTestFile(ctx context.Context, f app.SuiteFile) (string, error) {
	uri := fileURI(f.Path)
	var (
		edits   []any
		version *int32
		isNew   bool
		old     []byte
	)
	if doc, ok := h.session.Documents().Get(uri); ok {
		old = doc.Text()
		if !loop.HasMarker(old) {
			return "", fmt.Errorf("%s is open and was not generated by AdverTest: it is left alone", filepath.Base(f.Path))
		}
		v := doc.Version()
		version = &v
	} else {
		data, err := os.ReadFile(f.Path)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			isNew = true
		case err != nil:
			return "", fmt.Errorf("reading %s: %w", f.Path, err)
		case !f.Writable || !loop.HasMarker(data):
			return "", fmt.Errorf("%s exists and was not generated by AdverTest: it is left alone", filepath.Base(f.Path))
		default:
			old = data
		}
	}
	text := f.Text
	if !isNew && f.Merge != nil {
		merged, err := f.Merge(old)
		if err != nil {
			return "", err
		}
		text = merged
	}
	if !isNew && string(old) == text {
		return "", nil // nothing new
	}
	edit := protocol.TextEdit{Range: fullRange(old), NewText: text}
	caps := h.ClientCapabilities()
	documentChanges, canCreate := false, false
	if caps.Workspace != nil && caps.Workspace.WorkspaceEdit != nil {
		documentChanges = caps.Workspace.WorkspaceEdit.DocumentChanges
		canCreate = slices.Contains(caps.Workspace.WorkspaceEdit.ResourceOperations, "create")
	}
	var we workspaceEdit
	if documentChanges && (!isNew || canCreate) {
		if isNew {
			edits = append(edits, createFile{Kind: "create", URI: uri, Options: &createFileOptions{IgnoreIfExists: true}})
		}
		edits = append(edits, textDocumentEdit{TextDocument: versionedDocument{URI: uri, Version: version}, Edits: []protocol.TextEdit{edit}})
		we.DocumentChanges = edits
	} else {
		we.Changes = map[protocol.DocumentURI][]protocol.TextEdit{uri: {edit}}
	}
	resp, err := h.session.Client().ApplyEdit(ctx, "AdverTest: "+f.For, we)
	if err != nil {
		return "", fmt.Errorf("the editor did not take the edit: %w", err)
	}
	if !resp.Applied {
		reason := resp.FailureReason
		if reason == "" {
			reason = "refused"
		}
		return "", fmt.Errorf("the editor did not apply the edit: %s", reason)
	}
	return text, nil
}
