package server

import (
	"context"
	"fmt"
	"runtime/debug"
	"sync"

	"go.uber.org/zap"
)

// Session is the state of one client connection that handlers share: the
// open documents, the way back to the client, and a context for background
// work that ends with the connection.
type Session struct {
	logger     *zap.Logger
	documents  *Documents
	client     Notifier
	background context.Context
	stop       context.CancelFunc

	// workMu orders work.Add against Close's work.Wait: after Close, Go
	// starts nothing.
	workMu sync.Mutex
	closed bool
	// work counts the goroutines started with Go, so that Serve returns only
	// after they have ended.
	work sync.WaitGroup

	// foldersMu guards the workspace folders.
	foldersMu sync.Mutex
	// folders are the workspace folders as clean local paths, in the client's
	// order (see workspace.go).
	folders []string
}

// NewSession returns a session whose background context derives from ctx.
// Serve makes one per connection; tests of handlers may make their own.
func NewSession(ctx context.Context, client Notifier, logger *zap.Logger) *Session {
	if logger == nil {
		logger = zap.NewNop()
	}
	background, stop := context.WithCancel(ctx)
	return &Session{
		logger:     logger,
		documents:  NewDocuments(logger),
		client:     client,
		background: background,
		stop:       stop,
	}
}

// Logger returns the session's logger.
func (s *Session) Logger() *zap.Logger { return s.logger }

// Documents returns the open documents.
func (s *Session) Documents() *Documents { return s.documents }

// Client returns the notifier for messages to the client.
func (s *Session) Client() Notifier { return s.client }

// Background returns the context for work that outlives a request: it is
// cancelled by shutdown and when the connection ends.
func (s *Session) Background() context.Context { return s.background }

// Go runs fn on its own goroutine with the background context. A panic in
// fn is logged, not fatal. Serve waits for these goroutines before it
// returns. After the session has closed, Go runs nothing and returns false.
func (s *Session) Go(name string, fn func(ctx context.Context)) bool {
	s.workMu.Lock()
	defer s.workMu.Unlock()
	if s.closed {
		s.logger.Debug("not starting background work: the session is closed", zap.String("work", name))
		return false
	}
	s.work.Add(1)
	go func() {
		defer s.work.Done()
		defer func() {
			if r := recover(); r != nil {
				s.logger.Error("background work panicked", zap.String("work", name),
					zap.String("panic", fmt.Sprint(r)), zap.ByteString("stack", debug.Stack()))
			}
		}()
		fn(s.background)
	}()
	return true
}

// Close cancels the background context and waits for the work started
// with Go.
func (s *Session) Close() {
	s.stop()
	s.workMu.Lock()
	s.closed = true
	s.workMu.Unlock()
	s.work.Wait()
}
