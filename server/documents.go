package server

import (
	"errors"
	"fmt"
	"net/url"
	"path"
	"strings"
	"sync"

	"go.lsp.dev/protocol"
	"go.uber.org/zap"

	"github.com/advertest/advertest-lsp/javaparse"
)

// ErrDocumentNotOpen reports a request or notification for a document the
// client has not opened (or has closed).
var ErrDocumentNotOpen = errors.New("document is not open")

// ContentChange is one entry of textDocument/didChange's contentChanges. It
// exists because protocol.TextDocumentContentChangeEvent has a value Range, so
// a full-text change (no range) would decode as an insertion at 0:0.
type ContentChange struct {
	// Range is the replaced range, in UTF-16 code units; nil replaces the
	// whole text.
	Range       *protocol.Range `json:"range,omitempty"`
	RangeLength uint32          `json:"rangeLength,omitempty"`
	Text        string          `json:"text"`
}

// DidChangeParams is textDocument/didChange's params with ContentChange.
type DidChangeParams struct {
	TextDocument   protocol.VersionedTextDocumentIdentifier `json:"textDocument"`
	ContentChanges []ContentChange                          `json:"contentChanges"`
}

// Documents holds the client's open documents (the overlays: the editor's
// text, not the file on disk), keyed by URI.
type Documents struct {
	logger *zap.Logger

	mu   sync.Mutex
	docs map[protocol.DocumentURI]*Document
}

// NewDocuments returns an empty store. A nil logger logs nothing.
func NewDocuments(logger *zap.Logger) *Documents {
	if logger == nil {
		logger = zap.NewNop()
	}
	return &Documents{logger: logger, docs: make(map[protocol.DocumentURI]*Document)}
}

// Open adds (or replaces) a document. Java documents (language id "java", or
// a .java path) are parsed; a Java document that cannot be parsed is kept as
// plain text.
func (s *Documents) Open(uri protocol.DocumentURI, languageID string, version int32, text string) *Document {
	doc := &Document{
		uri:        uri,
		languageID: languageID,
		java:       languageID == "java" || strings.HasSuffix(strings.ToLower(string(uri)), ".java"),
		version:    version,
	}
	doc.setText([]byte(text), s.logger)
	s.mu.Lock()
	_, reopened := s.docs[uri]
	s.docs[uri] = doc
	s.mu.Unlock()
	if reopened {
		s.logger.Warn("didOpen for a document that is already open: replaced", zap.String("uri", string(uri)))
	}
	return doc
}

// Get returns the open document for uri.
func (s *Documents) Get(uri protocol.DocumentURI) (*Document, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	doc, ok := s.docs[uri]
	return doc, ok
}

// Change applies a didChange's content changes, all of them or none, and sets
// the version. When a change cannot be applied (a range outside the text), the
// document keeps its text and version and is out of step with the editor (see
// Document.OutOfStep) until a full-text change, a didOpen or a didSave with
// its text (Resync); the error says which change failed and is an
// *OutOfStepError. A ranged change to a document out of step is not applied
// (its positions are the editor's text's, which the server does not have):
// the error is the *OutOfStepError again.
func (s *Documents) Change(params *DidChangeParams) error {
	uri := params.TextDocument.URI
	doc, ok := s.Get(uri)
	if !ok {
		return fmt.Errorf("didChange %s: %w", uri, ErrDocumentNotOpen)
	}
	return doc.apply(params.TextDocument.Version, params.ContentChanges, s.logger)
}

// Resync replaces the text of an open document with the editor's (a didSave
// that carries it), which brings a document out of step back in step; the
// version stays.
func (s *Documents) Resync(uri protocol.DocumentURI, text string) error {
	doc, ok := s.Get(uri)
	if !ok {
		return fmt.Errorf("didSave %s: %w", uri, ErrDocumentNotOpen)
	}
	doc.mu.Lock()
	defer doc.mu.Unlock()
	doc.setText([]byte(text), s.logger)
	doc.outOfStep = nil
	return nil
}

// OutOfStepError says that the server's text of a document differs from the
// editor's: a didChange could not be applied. Err is why.
type OutOfStepError struct {
	URI     protocol.DocumentURI
	Version int32 // the version of the change that failed
	Err     error
}

func (e *OutOfStepError) Error() string {
	return fmt.Sprintf("the server's copy of %s is out of step with the editor (a change to version %d could not be applied: %v); "+
		"save the document, or close and reopen it, to bring it back in step", path.Base(string(e.URI)), e.Version, e.Err)
}

func (e *OutOfStepError) Unwrap() error { return e.Err }

// Close removes a document.
func (s *Documents) Close(uri protocol.DocumentURI) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.docs[uri]; !ok {
		return fmt.Errorf("didClose %s: %w", uri, ErrDocumentNotOpen)
	}
	delete(s.docs, uri)
	return nil
}

// URIs returns the URIs of the open documents (in no particular order).
func (s *Documents) URIs() []protocol.DocumentURI {
	s.mu.Lock()
	defer s.mu.Unlock()
	uris := make([]protocol.DocumentURI, 0, len(s.docs))
	for uri := range s.docs {
		uris = append(uris, uri)
	}
	return uris
}

// Document is one open document. A Java document keeps a tree-sitter parse
// (*javaparse.File) that each change updates incrementally.
type Document struct {
	uri        protocol.DocumentURI
	languageID string
	java       bool

	// mu guards the text state; javaparse.File is not safe for concurrent
	// edits and reads, and a change of several ranges must look atomic.
	mu      sync.Mutex
	version int32
	file    *javaparse.File    // Java documents that parsed; nil otherwise
	text    []byte             // documents without file
	lines   *javaparse.LineMap // for text
	// outOfStep is why the text differs from the editor's (nil: in step).
	outOfStep *OutOfStepError
}

// OutOfStep returns why the server's text differs from the editor's (a
// didChange that could not be applied), or nil while they agree. Work that
// builds or runs the project refuses such a document (Session.CheckDocument).
func (d *Document) OutOfStep() *OutOfStepError {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.outOfStep
}

// URI returns the document's URI.
func (d *Document) URI() protocol.DocumentURI { return d.uri }

// LanguageID returns the language id the client opened the document with.
func (d *Document) LanguageID() string { return d.languageID }

// IsJava reports whether the document is Java source (by language id or
// extension), whether or not it parsed.
func (d *Document) IsJava() bool { return d.java }

// Version returns the version of the last applied change.
func (d *Document) Version() int32 {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.version
}

// Text returns a copy of the current text.
func (d *Document) Text() []byte {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.file != nil {
		return d.file.Source()
	}
	return append([]byte(nil), d.text...)
}

// WithFile runs fn with the current parse and version while holding the
// document's lock (so fn must be quick and must not keep f). It returns false,
// without calling fn, for a document without a parse.
func (d *Document) WithFile(fn func(f *javaparse.File, version int32)) bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.file == nil {
		return false
	}
	fn(d.file, d.version)
	return true
}

// Snapshot returns an independent copy of the parse and its version, for
// background work that must not see later edits. It returns nil for a
// document without a parse.
func (d *Document) Snapshot() (*javaparse.File, int32) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.file == nil {
		return nil, d.version
	}
	return d.file.Clone(), d.version
}

// Path returns the local file path of a file: URI, or "" for other schemes.
func (d *Document) Path() string { return URIPath(d.uri) }

// URIPath returns the local path of a file: URI, or "" when uri is not one.
func URIPath(uri protocol.DocumentURI) string {
	u, err := url.Parse(string(uri))
	if err != nil || u.Scheme != "file" {
		return ""
	}
	return path.Clean(u.Path)
}

// setText replaces the whole text; d.mu must be held or d not yet shared.
func (d *Document) setText(text []byte, logger *zap.Logger) {
	if d.java {
		f, err := javaparse.Parse(text)
		if err == nil {
			d.file, d.text, d.lines = f, nil, nil
			return
		}
		logger.Warn("parsing Java document failed; kept as plain text", zap.String("uri", string(d.uri)), zap.Error(err))
	}
	d.file, d.text, d.lines = nil, text, javaparse.NewLineMap(text)
}

func (d *Document) apply(version int32, changes []ContentChange, logger *zap.Logger) error {
	d.mu.Lock()
	defer d.mu.Unlock()
	if version <= d.version {
		logger.Warn("didChange version does not increase", zap.String("uri", string(d.uri)),
			zap.Int32("have", d.version), zap.Int32("got", version))
	}
	edit, err := d.plan(changes)
	if err == nil && d.outOfStep != nil && !edit.full {
		return d.outOfStep
	}
	if err != nil {
		d.outOfStep = &OutOfStepError{URI: d.uri, Version: version, Err: err}
		return d.outOfStep
	}
	d.commit(edit, logger)
	d.outOfStep = nil
	d.version = version
	return nil
}

// plannedEdit is a didChange turned into one edit of the document: a new whole
// text (full: a change without a range was among them, or text), or byte edits
// of the current text in order.
type plannedEdit struct {
	full  bool
	text  []byte
	edits []javaparse.Edit
}

// plan checks every change against the text the changes before it leave and
// returns them as one edit; it changes nothing, so that a bad change leaves
// the document as it was. d.mu must be held.
func (d *Document) plan(changes []ContentChange) (plannedEdit, error) {
	var p plannedEdit
	lines := d.lines
	if d.file != nil {
		lines = d.file.Lines()
	}
	var text []byte // the text after the changes so far, once needed (have)
	have := false
	current := func() []byte {
		if !have {
			if d.file != nil {
				text = d.file.Source()
			} else {
				text = d.text
			}
			have = true
		}
		return text
	}
	for i, c := range changes {
		if c.Range == nil {
			p = plannedEdit{full: true}
			text, lines, have = []byte(c.Text), nil, true
			if i < len(changes)-1 {
				lines = javaparse.NewLineMap(text)
			}
			continue
		}
		start, end, err := rangeOffsets(lines, c.Range)
		if err != nil {
			return plannedEdit{}, fmt.Errorf("change %d of %d: %w", i+1, len(changes), err)
		}
		p.edits = append(p.edits, javaparse.Edit{StartByte: start, OldEndByte: end, NewText: []byte(c.Text)})
		if i == len(changes)-1 && !p.full {
			break // the last edit: no text after it is needed to check anything
		}
		old := current()
		next := make([]byte, 0, len(old)-(end-start)+len(c.Text))
		next = append(next, old[:start]...)
		next = append(next, c.Text...)
		next = append(next, old[end:]...)
		text, lines, have = next, nil, true
		if i < len(changes)-1 {
			lines = javaparse.NewLineMap(text)
		}
	}
	if p.full {
		p.text, p.edits = text, nil
	}
	return p, nil
}

// commit applies a planned edit. d.mu must be held.
func (d *Document) commit(p plannedEdit, logger *zap.Logger) {
	if p.full {
		d.setText(p.text, logger)
		return
	}
	if len(p.edits) == 0 {
		return
	}
	if d.file != nil {
		// Checked by plan; ApplyEdits applies all of them or none.
		if err := d.file.ApplyEdits(p.edits...); err != nil {
			logger.Error("applying checked edits to the parse failed; re-parsing", zap.String("uri", string(d.uri)), zap.Error(err))
			d.setText(d.file.Source(), logger)
		}
		return
	}
	text := d.text
	for _, e := range p.edits {
		next := make([]byte, 0, len(text)-(e.OldEndByte-e.StartByte)+len(e.NewText))
		next = append(next, text[:e.StartByte]...)
		next = append(next, e.NewText...)
		next = append(next, text[e.OldEndByte:]...)
		text = next
	}
	d.text, d.lines = text, javaparse.NewLineMap(text)
}

// rangeOffsets turns a change's range into byte offsets of the text lines
// maps.
func rangeOffsets(lines *javaparse.LineMap, r *protocol.Range) (start, end int, err error) {
	if start, err = offsetOf(lines, r.Start); err != nil {
		return 0, 0, fmt.Errorf("range start: %w", err)
	}
	if end, err = offsetOf(lines, r.End); err != nil {
		return 0, 0, fmt.Errorf("range end: %w", err)
	}
	if end < start {
		return 0, 0, fmt.Errorf("range end %d:%d is before its start %d:%d", r.End.Line, r.End.Character, r.Start.Line, r.Start.Character)
	}
	return start, end, nil
}

func offsetOf(lines *javaparse.LineMap, pos protocol.Position) (int, error) {
	off, err := lines.Offset(int(pos.Line), int(pos.Character))
	if err != nil {
		return 0, fmt.Errorf("position %d:%d: %w", pos.Line, pos.Character, err)
	}
	return off, nil
}

// Offset converts an LSP position (UTF-16 columns) to a byte offset in the
// current text.
func (d *Document) Offset(pos protocol.Position) (int, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	lines := d.lines
	if d.file != nil {
		lines = d.file.Lines()
	}
	return offsetOf(lines, pos)
}
