package handlers

import (
	"context"
	"errors"
	"fmt"
	"path"

	"go.lsp.dev/protocol"
	"go.uber.org/zap"

	"github.com/advertest/advertest-lsp/server"
)

// DidOpen starts tracking a document (and parses it when it is Java). A document that was out
// of step with the editor is back in step: its text is the editor's again.
func (h *Handler) DidOpen(ctx context.Context, params *protocol.DidOpenTextDocumentParams) error {
	item := params.TextDocument
	var was *server.OutOfStepError
	if prev, ok := h.session.Documents().Get(item.URI); ok {
		was = prev.OutOfStep()
	}
	doc := h.session.Documents().Open(item.URI, string(item.LanguageID), item.Version, item.Text)
	h.logger.Debug("didOpen", zap.String("uri", string(item.URI)), zap.Int32("version", item.Version),
		zap.Bool("java", doc.IsJava()), zap.Int("bytes", len(item.Text)))
	h.tellStep(ctx, item.URI, was, nil)
	if doc.IsJava() {
		h.restoreState(doc.URI(), doc.Path())
	}
	return nil
}

// DidChangeContent applies incremental (or full-text) changes, all of a notification's or
// none; the server routes textDocument/didChange here. The error (a document that is not
// open, a range outside the text) is logged by the server: a notification has no reply. A
// change that cannot be applied leaves the document out of step with the editor: the client
// is told once (window/showMessage), and jobs on the document are refused until a full-text
// change, a didOpen or a didSave with the text.
func (h *Handler) DidChangeContent(ctx context.Context, params *server.DidChangeParams) error {
	uri := params.TextDocument.URI
	var was *server.OutOfStepError
	if doc, ok := h.session.Documents().Get(uri); ok {
		was = doc.OutOfStep()
	}
	err := h.session.Documents().Change(params)
	var now *server.OutOfStepError
	errors.As(err, &now)
	h.tellStep(ctx, uri, was, now)
	if h.results.hasResults(uri) {
		h.results.publish(uri)
	}
	return err
}

// tellStep tells the client when a document falls out of step with the editor (was nil, now
// not) or comes back in step (was not nil, now nil); nothing while it stays either way.
func (h *Handler) tellStep(ctx context.Context, uri protocol.DocumentURI, was, now *server.OutOfStepError) {
	var typ protocol.MessageType
	var msg string
	switch {
	case was == nil && now != nil:
		h.logger.Warn("document out of step with the editor", zap.String("uri", string(uri)), zap.Error(now))
		typ, msg = protocol.MessageTypeWarning, "AdverTest: "+now.Error()
	case was != nil && now == nil:
		h.logger.Info("document back in step with the editor", zap.String("uri", string(uri)))
		typ, msg = protocol.MessageTypeInfo, fmt.Sprintf("AdverTest: %s is back in step with the editor", path.Base(string(uri)))
	default:
		return
	}
	if err := h.session.Client().ShowMessage(ctx, typ, msg); err != nil {
		h.logger.Debug("showMessage", zap.Error(err))
	}
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

// DidSave schedules the on-save rounds of the document's methods. The saved text (the server
// asks for it: includeText) replaces the server's, which brings a document that was out of step
// back in step.
func (h *Handler) DidSave(ctx context.Context, params *protocol.DidSaveTextDocumentParams) error {
	doc, ok := h.session.Documents().Get(params.TextDocument.URI)
	if !ok {
		return fmt.Errorf("didSave %s: %w", params.TextDocument.URI, server.ErrDocumentNotOpen)
	}
	h.logger.Debug("didSave", zap.String("uri", string(params.TextDocument.URI)), zap.Bool("text", params.Text != ""))
	// In step and the same text (every save of a client that sends it): nothing to re-parse.
	if was := doc.OutOfStep(); params.Text != "" && (was != nil || string(doc.Text()) != params.Text) {
		if err := h.session.Documents().Resync(doc.URI(), params.Text); err != nil {
			return err
		}
		h.tellStep(ctx, doc.URI(), was, nil)
	}
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
