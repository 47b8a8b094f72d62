package handlers

import (
	"context"
	"os"
	"sync"
	"time"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
	"go.uber.org/zap"

	"github.com/advertest/advertest-lsp/app"
	"github.com/advertest/advertest-lsp/jobs"
	"github.com/advertest/advertest-lsp/server"
	"github.com/advertest/advertest-lsp/settings"
)

// Command ids of workspace/executeCommand.
const (
	CommandGenerateTests  = "advertest.generateTests"
	CommandAnalyzeMutants = "advertest.analyzeMutants"
	CommandKillMutant     = "advertest.killMutant"
	CommandCancel         = "advertest.cancel"
	// The user's verdicts on a surviving mutant, and taking them off (handlers/verdicts.go).
	CommandMarkEquivalent = "advertest.markEquivalent"
	CommandIgnoreMutant   = "advertest.ignoreMutant"
	CommandUnignoreMutant = "advertest.unignoreMutant"
)

// Commands are the commands the server serves, as initialize announces them.
var Commands = []string{CommandGenerateTests, CommandAnalyzeMutants, CommandKillMutant, CommandCancel,
	CommandMarkEquivalent, CommandIgnoreMutant, CommandUnignoreMutant}

// ServerName is the name in initialize's serverInfo.
const ServerName = "advertest"

// Options configure a Handler.
type Options struct {
	// Version is reported in serverInfo.
	Version string
	// Getenv reads the environment for the settings' defaults (nil: os.Getenv).
	Getenv func(string) string
	// Settings, when set, are the settings under the client's (`advertest lsp --config/--set`;
	// nil: the defaults and the environment's).
	Settings *settings.Settings
	// CacheDir holds the compiled worker and project models ("": the user's cache folder).
	CacheDir string
}

// Handler serves the LSP methods of one connection.
type Handler struct {
	session *server.Session
	logger  *zap.Logger
	version string
	opts    Options

	jobs *jobs.Manager
	core *app.Core
	// uses runs the jobs' use cases: core (a test's own in the job-policy test).
	uses    useCases
	results *results

	// mu guards what initialize and workspace notifications tell us (the
	// workspace folders are the session's).
	mu sync.Mutex
	// clientCapabilities are initialize's capabilities.
	clientCapabilities protocol.ClientCapabilities
	// settings are the current settings; initOptions what initialize carried.
	settings    settings.Settings
	initOptions []byte
	// sandboxRefusal is the sandbox error last shown ("" before any).
	sandboxRefusal string

	// progressMu guards the progress tokens of running jobs.
	progressMu sync.Mutex
	// progressJobs maps a progress token (its String) to its job id.
	progressJobs map[string]string
	// pendingProgress holds the progress begun for a job while it waited for a slot.
	pendingProgress map[string]*progress

	// testFiles are the writers of the test files, by path (*testFileWriter).
	testFiles sync.Map

	// saveMu guards the pending on-save timers, by document.
	saveMu     sync.Mutex
	saveTimers map[protocol.DocumentURI]*time.Timer
}

var (
	_ protocol.Server = (*Handler)(nil)
	_ server.Handler  = (*Handler)(nil)
)

// New returns the handlers for a session.
func New(session *server.Session, opts Options) *Handler {
	if opts.Getenv == nil {
		opts.Getenv = os.Getenv
	}
	h := &Handler{
		session:         session,
		logger:          session.Logger(),
		version:         opts.Version,
		opts:            opts,
		settings:        baseSettings(opts),
		progressJobs:    map[string]string{},
		pendingProgress: map[string]*progress{},
		saveTimers:      map[protocol.DocumentURI]*time.Timer{},
	}
	h.results = newResults(h)
	h.jobs = jobs.NewManager(h.settings.JobsMax, session.Go)
	h.core = app.New(app.Options{Getenv: opts.Getenv, CacheDir: opts.CacheDir, Logger: h.logger, Background: session.Background(), Buffers: h.buffer, WarmCompilers: true})
	h.uses = h.core
	// When the session ends (shutdown, or the connection's end), the jobs stop and the
	// worker JVMs go; the server waits for this before Serve returns.
	session.Go("projects", func(ctx context.Context) {
		<-ctx.Done()
		h.stopAll()
	})
	return h
}

// baseSettings are the settings the client's are laid over.
func baseSettings(opts Options) settings.Settings {
	if opts.Settings != nil {
		return *opts.Settings
	}
	return settings.Default(opts.Getenv)
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

// Settings returns the current settings.
func (h *Handler) Settings() settings.Settings {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.settings
}

// buffer is the text of the file at path when it is open in the editor.
func (h *Handler) buffer(path string) ([]byte, bool) {
	doc, ok := h.session.Documents().Get(fileURI(path))
	if !ok {
		return nil, false
	}
	return doc.Text(), true
}

// workspaceRoots returns a copy of the workspace folders' paths.
func (h *Handler) workspaceRoots() []string { return h.session.WorkspaceFolders() }

// stopAll cancels every job, waits for them briefly, and closes the projects (their worker
// JVMs end).
func (h *Handler) stopAll() {
	h.saveMu.Lock()
	for uri, t := range h.saveTimers {
		t.Stop()
		delete(h.saveTimers, uri)
	}
	h.saveMu.Unlock()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	if err := h.jobs.CancelAll(ctx); err != nil {
		h.logger.Warn("jobs still running at shutdown", zap.Error(err))
	}
	closeCtx, cancelClose := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancelClose()
	if err := h.core.Close(closeCtx); err != nil {
		h.logger.Warn("closing the projects", zap.Error(err))
	}
}

// invalidParams is the error a client sees for a request it got wrong.
func invalidParams(format string, args ...any) error {
	return jsonrpc2.Errorf(jsonrpc2.InvalidParams, format, args...)
}
