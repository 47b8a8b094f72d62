package handlers

import (
	"sync"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
	"go.uber.org/zap"

	"github.com/advertest/advertest-lsp/server"
)

// Command ids of workspace/executeCommand.
const (
	CommandGenerateTests  = "advertest.generateTests"
	CommandAnalyzeMutants = "advertest.analyzeMutants"
)

// ServerName is the name in initialize's serverInfo.
const ServerName = "advertest"

// Options configure a Handler.
type Options struct {
	// Version is reported in serverInfo.
	Version string
}

// Handler serves the LSP methods of one connection.
type Handler struct {
	session *server.Session
	logger  *zap.Logger
	version string

	// mu guards what initialize and workspace notifications tell us.
	mu sync.Mutex
	// roots are the workspace folders as local paths, outermost first as the
	// client listed them.
	roots []string
	// clientCapabilities are initialize's capabilities, for later features
	// (progress, configuration) to consult.
	clientCapabilities protocol.ClientCapabilities
}

var (
	_ protocol.Server = (*Handler)(nil)
	_ server.Handler  = (*Handler)(nil)
)

// New returns the handlers for a session.
func New(session *server.Session, opts Options) *Handler {
	return &Handler{session: session, logger: session.Logger(), version: opts.Version}
}

// NewFunc adapts New to server.Config.NewHandler.
func NewFunc(opts Options) func(*server.Session) server.Handler {
	return func(s *server.Session) server.Handler { return New(s, opts) }
}

// ClientCapabilities returns the capabilities the client sent with
// initialize.
func (h *Handler) ClientCapabilities() protocol.ClientCapabilities {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.clientCapabilities
}

// workspaceRoots returns a copy of the workspace folders' paths.
func (h *Handler) workspaceRoots() []string {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]string(nil), h.roots...)
}

// invalidParams is the error a client sees for a request it got wrong.
func invalidParams(format string, args ...any) error {
	return jsonrpc2.Errorf(jsonrpc2.InvalidParams, format, args...)
}
