package handlers

import (
	"context"
	"fmt"

	"go.lsp.dev/protocol"
	"go.uber.org/zap"

	"github.com/advertest/advertest-lsp/server"
)

// DidOpen starts tracking a document (and parses it when it is Java).
func (h *Handler) DidOpen(_ context.Context, params *protocol.DidOpenTextDocumentParams) error {
	item := params.TextDocument
	doc := h.session.Documents().Open(item.URI, string(item.LanguageID), item.Version, item.Text)
	h.logger.Debug("didOpen", zap.String("uri", string(item.URI)), zap.Int32("version", item.Version),
		zap.Bool("java", doc.IsJava()), zap.Int("bytes", len(item.Text)))
	if doc.IsJava() {
		h.restoreState(doc.URI(), doc.Path())
	}
	return nil
}

// DidChangeContent applies incremental (or full-text) changes; the server
// routes textDocument/didChange here. The error (a document that is not
// open, a range outside the text) is logged by the server: a notification
// has no reply.
func (h *Handler) DidChangeContent(_ context.Context, params *server.DidChangeParams) error {
	err := h.session.Documents().Change(params)
	if h.results.hasResults(params.TextDocument.URI) {
		h.results.publish(params.TextDocument.URI)
	}
	return err
}

// DidChange serves callers that hold protocol's type. That type cannot
// express a full-text change (its Range is a value), so every change is
// taken as ranged; the server itself uses DidChangeContent.
func (h *Handler) DidChange(ctx context.Context, params *protocol.DidChangeTextDocumentParams) error {
	changes := make([]server.ContentChange, len(params.ContentChanges))
	for i, c := range params.ContentChanges {
		r := c.Range
		changes[i] = server.ContentChange{Range: &r, RangeLength: c.RangeLength, Text: c.Text}
	}
	return h.DidChangeContent(ctx, &server.DidChangeParams{TextDocument: params.TextDocument, ContentChanges: changes})
}

// DidSave schedules the on-save rounds of the document's methods.
func (h *Handler) DidSave(_ context.Context, params *protocol.DidSaveTextDocumentParams) error {
	doc, ok := h.session.Documents().Get(params.TextDocument.URI)
	if !ok {
		return fmt.Errorf("didSave %s: %w", params.TextDocument.URI, server.ErrDocumentNotOpen)
	}
	h.logger.Debug("didSave", zap.String("uri", string(params.TextDocument.URI)))
	if doc.IsJava() {
		h.scheduleOnSave(doc.URI())
	}
	return nil
}

// DidClose stops tracking a document and clears its diagnostics.
func (h *Handler) DidClose(_ context.Context, params *protocol.DidCloseTextDocumentParams) error {
	err := h.session.Documents().Close(params.TextDocument.URI)
	h.results.clear(params.TextDocument.URI)
	return err
}
