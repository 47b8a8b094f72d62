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

// Change applies content changes in order and sets the version. When a
// change cannot be applied (a range outside the text), the document keeps the
// changes before it, its version is not updated, and the error says which.
func (s *Documents) Change(params *DidChangeParams) error {
	uri := params.TextDocument.URI
	doc, ok := s.Get(uri)
	if !ok {
		return fmt.Errorf("didChange %s: %w", uri, ErrDocumentNotOpen)
	}
	return doc.apply(params.TextDocument.Version, params.ContentChanges, s.logger)
}

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
	for i, c := range changes {
		if err := d.applyOne(c, logger); err != nil {
			return fmt.Errorf("didChange %s version %d: change %d of %d: %w", d.uri, version, i+1, len(changes), err)
		}
	}
	d.version = version
	return nil
}

func (d *Document) applyOne(c ContentChange, logger *zap.Logger) error {
	if c.Range == nil {
		d.setText([]byte(c.Text), logger)
		return nil
	}
	lines := d.lines
	if d.file != nil {
		lines = d.file.Lines()
	}
	start, err := offsetOf(lines, c.Range.Start)
	if err != nil {
		return fmt.Errorf("range start: %w", err)
	}
	end, err := offsetOf(lines, c.Range.End)
	if err != nil {
		return fmt.Errorf("range end: %w", err)
	}
	if end < start {
		return fmt.Errorf("range end %d:%d is before its start %d:%d",
			c.Range.End.Line, c.Range.End.Character, c.Range.Start.Line, c.Range.Start.Character)
	}
	if d.file != nil {
		if err := d.file.ApplyEdits(javaparse.Edit{StartByte: start, OldEndByte: end, NewText: []byte(c.Text)}); err != nil {
			return fmt.Errorf("applying edit to the parse: %w", err)
		}
		return nil
	}
	text := make([]byte, 0, len(d.text)-(end-start)+len(c.Text))
	text = append(text, d.text[:start]...)
	text = append(text, c.Text...)
	text = append(text, d.text[end:]...)
	d.text, d.lines = text, javaparse.NewLineMap(text)
	return nil
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
