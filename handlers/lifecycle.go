package handlers

import (
	"context"

	"go.lsp.dev/protocol"
	"go.uber.org/zap"

	"github.com/advertest/advertest-lsp/server"
)

// Initialize records the workspace and the client's capabilities and
// announces what advertest serves.
func (h *Handler) Initialize(_ context.Context, params *protocol.InitializeParams) (*protocol.InitializeResult, error) {
	var roots []string
	for _, folder := range params.WorkspaceFolders {
		if p := server.URIPath(protocol.DocumentURI(folder.URI)); p != "" {
			roots = append(roots, p)
		}
	}
	if len(roots) == 0 {
		if p := server.URIPath(params.RootURI); p != "" {
			roots = append(roots, p)
		} else if params.RootPath != "" {
			roots = append(roots, params.RootPath)
		}
	}
	h.mu.Lock()
	h.roots = roots
	h.clientCapabilities = params.Capabilities
	h.mu.Unlock()

	client := ""
	if params.ClientInfo != nil {
		client = params.ClientInfo.Name + " " + params.ClientInfo.Version
	}
	h.logger.Info("initialize", zap.String("client", client), zap.Strings("roots", roots))

	return &protocol.InitializeResult{
		Capabilities: protocol.ServerCapabilities{
			TextDocumentSync: &protocol.TextDocumentSyncOptions{
				OpenClose: true,
				Change:    protocol.TextDocumentSyncKindIncremental,
				Save:      &protocol.SaveOptions{},
			},
			CodeActionProvider: &protocol.CodeActionOptions{
				CodeActionKinds: []protocol.CodeActionKind{protocol.Refactor, protocol.QuickFix},
			},
			ExecuteCommandProvider: &protocol.ExecuteCommandOptions{
				Commands: []string{CommandGenerateTests, CommandAnalyzeMutants},
			},
		},
		ServerInfo: &protocol.ServerInfo{Name: ServerName, Version: h.version},
	}, nil
}

// Initialized needs nothing yet.
func (h *Handler) Initialized(context.Context, *protocol.InitializedParams) error { return nil }

// Shutdown has nothing of its own to stop: the server cancels the session's
// background context when shutdown succeeds.
func (h *Handler) Shutdown(context.Context) error {
	h.logger.Info("shutdown")
	return nil
}

// Exit is handled by the server (it ends the connection).
func (h *Handler) Exit(context.Context) error { return nil }

// SetTrace is accepted and ignored: logs go through zap, not $/logTrace.
func (h *Handler) SetTrace(context.Context, *protocol.SetTraceParams) error { return nil }

// LogTrace is a server-to-client notification; a client sending it is ignored.
func (h *Handler) LogTrace(context.Context, *protocol.LogTraceParams) error { return nil }

// WorkDoneProgressCancel has nothing to cancel until commands start jobs.
func (h *Handler) WorkDoneProgressCancel(_ context.Context, params *protocol.WorkDoneProgressCancelParams) error {
	h.logger.Debug("progress cancel for an unknown token", zap.Stringer("token", params.Token))
	return nil
}

// DidChangeConfiguration is accepted; settings are a later feature.
func (h *Handler) DidChangeConfiguration(context.Context, *protocol.DidChangeConfigurationParams) error {
	return nil
}

// DidChangeWorkspaceFolders keeps the workspace roots current.
func (h *Handler) DidChangeWorkspaceFolders(_ context.Context, params *protocol.DidChangeWorkspaceFoldersParams) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	removed := make(map[string]bool)
	for _, f := range params.Event.Removed {
		removed[server.URIPath(protocol.DocumentURI(f.URI))] = true
	}
	var roots []string
	for _, r := range h.roots {
		if !removed[r] {
			roots = append(roots, r)
		}
	}
	for _, f := range params.Event.Added {
		if p := server.URIPath(protocol.DocumentURI(f.URI)); p != "" {
			roots = append(roots, p)
		}
	}
	h.roots = roots
	return nil
}
