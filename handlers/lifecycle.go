package handlers

import (
	"context"

	"go.lsp.dev/protocol"
	"go.uber.org/zap"

	"github.com/advertest/advertest-lsp/server"
	"github.com/advertest/advertest-lsp/settings"
)

// Initialize records the workspace and the client's capabilities and
// announces what advertest serves.
func (h *Handler) Initialize(_ context.Context, params *protocol.InitializeParams) (*protocol.InitializeResult, error) {
	roots := folderPaths(params.WorkspaceFolders)
	if len(roots) == 0 {
		if p := server.URIPath(params.RootURI); p != "" {
			roots = append(roots, p)
		} else if params.RootPath != "" {
			roots = append(roots, params.RootPath)
		}
	}
	h.session.SetWorkspaceFolders(roots)
	h.mu.Lock()
	h.clientCapabilities = params.Capabilities
	h.initOptions = sectionOf(params.InitializationOptions)
	h.mu.Unlock()
	// Settings from initializationOptions apply at once (bad ones are reported after
	// initialized, with the client's configuration).
	s, _ := settings.Parse(baseSettings(h.opts), h.initOptions)
	h.mu.Lock()
	h.settings = s
	h.mu.Unlock()
	h.jobs.SetMax(s.JobsMax)

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
				// The saved text brings a document out of step back in step (textsync.go).
				Save: &protocol.SaveOptions{IncludeText: true},
			},
			CodeActionProvider: &protocol.CodeActionOptions{
				CodeActionKinds: []protocol.CodeActionKind{protocol.Refactor, protocol.QuickFix},
			},
			HoverProvider: true,
			ExecuteCommandProvider: &protocol.ExecuteCommandOptions{
				Commands: append([]string(nil), Commands...),
			},
		},
		ServerInfo: &protocol.ServerInfo{Name: ServerName, Version: h.version},
	}, nil
}

// Shutdown cancels the jobs and closes the projects, so that no worker JVM
// outlives the answer; the server then cancels the session's background
// context.
func (h *Handler) Shutdown(context.Context) error {
	h.logger.Info("shutdown")
	h.stopAll()
	return nil
}

// Exit is handled by the server (it ends the connection).
func (h *Handler) Exit(context.Context) error { return nil }

// SetTrace is accepted and ignored: logs go through zap, not $/logTrace.
func (h *Handler) SetTrace(context.Context, *protocol.SetTraceParams) error { return nil }

// LogTrace is a server-to-client notification; a client sending it is ignored.
func (h *Handler) LogTrace(context.Context, *protocol.LogTraceParams) error { return nil }

// WorkDoneProgressCancel cancels the job behind a progress token.
func (h *Handler) WorkDoneProgressCancel(_ context.Context, params *protocol.WorkDoneProgressCancelParams) error {
	h.progressMu.Lock()
	id, ok := h.progressJobs[params.Token.String()]
	h.progressMu.Unlock()
	if !ok || !h.jobs.Cancel(id) {
		h.logger.Debug("progress cancel for an unknown token", zap.Stringer("token", params.Token))
	}
	return nil
}

// DidChangeWorkspaceFolders keeps the workspace folders current.
func (h *Handler) DidChangeWorkspaceFolders(_ context.Context, params *protocol.DidChangeWorkspaceFoldersParams) error {
	h.session.ChangeWorkspaceFolders(folderPaths(params.Event.Added), folderPaths(params.Event.Removed))
	return nil
}

// folderPaths are the local paths of workspace folders (file: URIs only).
func folderPaths(folders []protocol.WorkspaceFolder) []string {
	var paths []string
	for _, f := range folders {
		if p := server.URIPath(protocol.DocumentURI(f.URI)); p != "" {
			paths = append(paths, p)
		}
	}
	return paths
}
