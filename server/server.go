package server

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"runtime/debug"
	"sync"
	"sync/atomic"
	"time"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
	"go.uber.org/zap"
)

// ErrExitWithoutShutdown is Serve's result when the client sent exit without
// a shutdown first; the process should end with status 1.
var ErrExitWithoutShutdown = errors.New("exit received without a prior shutdown")

// ErrClosedWithoutExit is Serve's result when the connection ended before a
// shutdown; the process should end with status 1.
var ErrClosedWithoutExit = errors.New("connection closed without shutdown and exit")

// Config says how to serve one connection.
type Config struct {
	// Logger receives the server's logs; nil logs nothing. Never stdout.
	Logger *zap.Logger
	// NewHandler builds the LSP methods for the connection's session.
	NewHandler func(*Session) Handler
}

// lifecycle is where a connection is in initialize … shutdown.
type lifecycle int

const (
	lifecycleNew          lifecycle = iota // before initialize
	lifecycleInitializing                  // initialize is being handled
	lifecycleRunning                       // initialize answered
	lifecycleShutdown                      // shutdown answered; only exit is accepted
)

// connection is the handler chain of one client connection.
type connection struct {
	logger  *zap.Logger
	conn    jsonrpc2.Conn
	session *Session
	handler Handler
	routes  map[string]route

	// ctx is cancelled when the connection ends (exit, end of input, or the
	// caller's context).
	ctx context.Context

	// notifications carries client notifications, in arrival order, to the
	// one goroutine that handles them (runNotifications).
	notifications chan queuedNotification
	// lastNotification is closed once every notification received so far has
	// been handled; a request waits on it, so that it sees the documents as
	// the client does. Only the read loop (handle) uses it.
	lastNotification <-chan struct{}

	// tasksMu orders tasks.Add against the final tasks.Wait: once stopping
	// is set, no new task starts.
	tasksMu  sync.Mutex
	stopping bool
	// tasks counts the request goroutines and runNotifications.
	tasks sync.WaitGroup

	inflightMu sync.Mutex
	inflight   map[jsonrpc2.ID]*inflightCall

	stateMu sync.Mutex
	state   lifecycle

	exitOnce sync.Once
	exited   chan struct{} // closed when exit has been handled
}

type queuedNotification struct {
	req  *jsonrpc2.Notification
	done chan struct{}
}

type inflightCall struct {
	cancel    context.CancelFunc
	cancelled atomic.Bool
}

// Serve speaks LSP over rwc until the client sends exit, the input ends, or
// ctx is cancelled. It returns nil after shutdown and exit,
// ErrExitWithoutShutdown after exit alone, an error wrapping
// ErrClosedWithoutExit when the input ended before shutdown, and ctx's error
// when ctx ended first. It waits for the requests in flight and the
// session's background work, which it cancels, before it returns.
func Serve(ctx context.Context, rwc io.ReadWriteCloser, cfg Config) error {
	logger := cfg.Logger
	if logger == nil {
		logger = zap.NewNop()
	}
	if cfg.NewHandler == nil {
		return errors.New("server.Serve: Config.NewHandler is nil")
	}
	connCtx, cancelConn := context.WithCancel(ctx)
	defer cancelConn()

	conn := jsonrpc2.NewConn(NewStream(rwc, logger))
	session := NewSession(connCtx, connNotifier{conn: conn}, logger)
	closed := make(chan struct{})
	close(closed)
	c := &connection{
		logger:           logger,
		conn:             conn,
		session:          session,
		ctx:              connCtx,
		notifications:    make(chan queuedNotification, 1024),
		lastNotification: closed,
		inflight:         make(map[jsonrpc2.ID]*inflightCall),
		exited:           make(chan struct{}),
	}
	c.handler = cfg.NewHandler(session)
	c.routes = routesFor(c.handler, logger)

	c.tasks.Add(1)
	go c.runNotifications()
	conn.Go(connCtx, c.handle)

	var result error
	select {
	case <-c.exited:
		if c.lifecycle() == lifecycleShutdown {
			logger.Info("exit after shutdown")
		} else {
			logger.Warn("exit without shutdown")
			result = ErrExitWithoutShutdown
		}
	case <-conn.Done():
		if c.lifecycle() == lifecycleShutdown {
			logger.Info("connection closed after shutdown")
		} else {
			result = fmt.Errorf("%w: %v", ErrClosedWithoutExit, conn.Err())
			logger.Warn("connection closed", zap.Error(result))
		}
	case <-ctx.Done():
		result = ctx.Err()
	}
	// Closing may not unblock a read of os.Stdin; the read loop is then left
	// to the process's end, which follows.
	c.tasksMu.Lock()
	c.stopping = true
	c.tasksMu.Unlock()
	_ = conn.Close()
	cancelConn()
	// Everything in flight has been cancelled; a reply stuck on a client that
	// no longer reads must not keep the process from exiting, so the wait is
	// bounded.
	stopped := make(chan struct{})
	go func() {
		c.tasks.Wait()
		session.Close()
		close(stopped)
	}()
	select {
	case <-stopped:
	case <-time.After(stopGrace):
		logger.Warn("requests or background work still running after the connection ended", zap.Duration("waited", stopGrace))
	}
	return result
}

// stopGrace bounds how long Serve waits for cancelled work when it ends.
const stopGrace = 5 * time.Second

// stdio joins a reader and a writer (stdin and stdout) into one
// io.ReadWriteCloser; Close closes whichever of them is an io.Closer.
type stdio struct {
	in  io.Reader
	out io.Writer
}

func (s stdio) Read(p []byte) (int, error)  { return s.in.Read(p) }
func (s stdio) Write(p []byte) (int, error) { return s.out.Write(p) }

func (s stdio) Close() error {
	var errs []error
	for _, v := range []any{s.in, s.out} {
		if c, ok := v.(io.Closer); ok {
			errs = append(errs, c.Close())
		}
	}
	return errors.Join(errs...)
}

// Stdio returns a ReadWriteCloser over in and out, e.g. os.Stdin and
// os.Stdout.
func Stdio(in io.Reader, out io.Writer) io.ReadWriteCloser { return stdio{in: in, out: out} }

func (c *connection) lifecycle() lifecycle {
	c.stateMu.Lock()
	defer c.stateMu.Unlock()
	return c.state
}

// handle is the jsonrpc2.Handler. The Conn calls it from its read loop, one
// message at a time, so it must not block: calls get their own goroutine,
// notifications go to the ordered queue, and $/cancelRequest is applied at
// once. It never returns an error, which would close the connection.
func (c *connection) handle(_ context.Context, reply jsonrpc2.Replier, req jsonrpc2.Request) error {
	switch req := req.(type) {
	case *jsonrpc2.Call:
		c.startCall(reply, req)
	case *jsonrpc2.Notification:
		if req.Method() == protocol.MethodCancelRequest {
			c.cancelRequest(req.Params())
			return nil
		}
		done := make(chan struct{})
		select {
		case c.notifications <- queuedNotification{req: req, done: done}:
			c.lastNotification = done
		case <-c.ctx.Done():
		}
	}
	return nil
}

func (c *connection) startCall(reply jsonrpc2.Replier, req *jsonrpc2.Call) {
	c.tasksMu.Lock()
	defer c.tasksMu.Unlock()
	if c.stopping {
		return // the connection is ending: nobody would read the reply
	}
	c.tasks.Add(1)

	ctx, cancel := context.WithCancel(c.ctx)
	ic := &inflightCall{cancel: cancel}
	id := req.ID()
	c.inflightMu.Lock()
	if _, dup := c.inflight[id]; dup {
		c.logger.Warn("request id reused while the first is in flight", zap.Stringer("id", idString(id)))
	}
	c.inflight[id] = ic
	c.inflightMu.Unlock()

	barrier := c.lastNotification
	go func() {
		defer c.tasks.Done()
		defer cancel()
		start := time.Now()
		result, err := c.runCall(ctx, barrier, req)
		if err != nil && ic.cancelled.Load() && ctx.Err() != nil {
			err = jsonrpc2.NewError(protocol.CodeRequestCancelled, fmt.Sprintf("%s: request cancelled", req.Method()))
		}
		wireErr := toWireError(req.Method(), err)

		c.inflightMu.Lock()
		if c.inflight[id] == ic {
			delete(c.inflight, id)
		}
		c.inflightMu.Unlock()

		fields := []zap.Field{zap.String("method", req.Method()), zap.Stringer("id", idString(id)), zap.Duration("took", time.Since(start))}
		var replyErr error
		if wireErr != nil {
			c.logger.Debug("request failed", append(fields, zap.Int32("code", int32(wireErr.Code)), zap.String("error", wireErr.Message))...)
			replyErr = reply(context.WithoutCancel(ctx), nil, wireErr)
		} else {
			c.logger.Debug("request", fields...)
			replyErr = reply(context.WithoutCancel(ctx), result, nil)
		}
		if replyErr != nil {
			c.logger.Debug("could not send reply", append(fields, zap.Error(replyErr))...)
		}
	}()
}

// runCall waits until the notifications received before the call have been
// handled, applies the lifecycle rules, and dispatches through the table.
func (c *connection) runCall(ctx context.Context, barrier <-chan struct{}, req *jsonrpc2.Call) (any, error) {
	select {
	case <-barrier:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	method := req.Method()
	if err := c.admitCall(method); err != nil {
		return nil, err
	}
	r, ok := c.routes[method]
	var (
		result any
		err    error
	)
	if !ok || r.notification {
		err = jsonrpc2.Errorf(jsonrpc2.MethodNotFound, "method not found: %q is not supported by advertest", method)
	} else {
		result, err = c.invoke(ctx, method, r, req.Params())
	}
	c.callDone(method, err)
	return result, err
}

// admitCall enforces the lifecycle: nothing but initialize before
// initialize, nothing but exit after shutdown.
func (c *connection) admitCall(method string) error {
	c.stateMu.Lock()
	defer c.stateMu.Unlock()
	switch {
	case method == protocol.MethodInitialize && c.state == lifecycleNew:
		c.state = lifecycleInitializing
		return nil
	case method == protocol.MethodInitialize:
		return jsonrpc2.Errorf(jsonrpc2.InvalidRequest, "initialize: the server is already initialized")
	case c.state == lifecycleNew || c.state == lifecycleInitializing:
		return jsonrpc2.Errorf(jsonrpc2.ServerNotInitialized, "%s: server not initialized: send initialize first", method)
	case c.state == lifecycleShutdown:
		return jsonrpc2.Errorf(jsonrpc2.InvalidRequest, "%s: the server is shut down: only exit is accepted", method)
	}
	return nil
}

func (c *connection) callDone(method string, err error) {
	c.stateMu.Lock()
	defer c.stateMu.Unlock()
	switch method {
	case protocol.MethodInitialize:
		if c.state != lifecycleInitializing {
			return
		}
		if err != nil {
			c.state = lifecycleNew
		} else {
			c.state = lifecycleRunning
		}
	case protocol.MethodShutdown:
		if c.state == lifecycleRunning {
			c.state = lifecycleShutdown
			// Shutdown ends background work; the connection stays for exit.
			c.session.stop()
		}
	}
}

// invoke calls a route, turning a panic into an InternalError.
func (c *connection) invoke(ctx context.Context, method string, r route, params json.RawMessage) (result any, err error) {
	defer func() {
		if p := recover(); p != nil {
			c.logger.Error("handler panicked", zap.String("method", method),
				zap.String("panic", fmt.Sprint(p)), zap.ByteString("stack", debug.Stack()))
			result, err = nil, jsonrpc2.Errorf(jsonrpc2.InternalError, "%s: internal error: %v", method, p)
		}
	}()
	return r.invoke(ctx, params)
}

// runNotifications handles notifications one at a time, in order.
func (c *connection) runNotifications() {
	defer c.tasks.Done()
	for {
		select {
		case n := <-c.notifications:
			c.runNotification(n.req)
			close(n.done)
		case <-c.ctx.Done():
			return
		}
	}
}

func (c *connection) runNotification(req *jsonrpc2.Notification) {
	method := req.Method()
	if method == protocol.MethodExit {
		if _, err := c.invoke(c.ctx, method, c.routes[method], req.Params()); err != nil {
			c.logger.Warn("exit handler failed", zap.Error(err))
		}
		c.exitOnce.Do(func() { close(c.exited) })
		return
	}
	switch c.lifecycle() {
	case lifecycleNew, lifecycleInitializing:
		c.logger.Debug("dropping notification before initialize", zap.String("method", method))
		return
	case lifecycleShutdown:
		c.logger.Debug("dropping notification after shutdown", zap.String("method", method))
		return
	}
	r, ok := c.routes[method]
	if !ok || !r.notification {
		level := zap.WarnLevel
		if len(method) > 2 && method[:2] == "$/" {
			level = zap.DebugLevel // $/ notifications may be ignored
		}
		c.logger.Check(level, "dropping unsupported notification").Write(zap.String("method", method))
		return
	}
	start := time.Now()
	if _, err := c.invoke(c.ctx, method, r, req.Params()); err != nil {
		c.logger.Warn("notification failed", zap.String("method", method), zap.Error(err))
		return
	}
	c.logger.Debug("notification", zap.String("method", method), zap.Duration("took", time.Since(start)))
}

// cancelRequest applies $/cancelRequest. The id is decoded here because
// protocol.CancelParams gives numbers as float64, which never match the
// int32 ids of jsonrpc2.
func (c *connection) cancelRequest(raw json.RawMessage) {
	var params struct {
		ID json.RawMessage `json:"id"`
	}
	if err := json.Unmarshal(raw, &params); err != nil || len(params.ID) == 0 {
		c.logger.Warn("ignoring malformed $/cancelRequest", zap.ByteString("params", raw))
		return
	}
	id, ok := parseID(params.ID)
	if !ok {
		c.logger.Warn("ignoring $/cancelRequest with an id that is neither a string nor a 32-bit integer", zap.ByteString("id", params.ID))
		return
	}
	c.inflightMu.Lock()
	ic := c.inflight[id]
	c.inflightMu.Unlock()
	if ic == nil {
		c.logger.Debug("$/cancelRequest for a request not in flight", zap.Stringer("id", idString(id)))
		return
	}
	ic.cancelled.Store(true)
	ic.cancel()
	c.logger.Debug("cancelled request", zap.Stringer("id", idString(id)))
}

func parseID(raw json.RawMessage) (jsonrpc2.ID, bool) {
	var s string
	if err := json.Unmarshal(raw, &s); err == nil {
		return jsonrpc2.NewStringID(s), true
	}
	var f float64
	if err := json.Unmarshal(raw, &f); err == nil && f == math.Trunc(f) && f >= math.MinInt32 && f <= math.MaxInt32 {
		return jsonrpc2.NewNumberID(int32(f)), true
	}
	return jsonrpc2.ID{}, false
}

// toWireError turns a handler's error into the error the client sees: a
// *jsonrpc2.Error keeps its code (only those reach the wire with one);
// anything else becomes an InternalError with the error's text.
func toWireError(method string, err error) *jsonrpc2.Error {
	if err == nil {
		return nil
	}
	var wire *jsonrpc2.Error
	if errors.As(err, &wire) && wire != nil {
		return wire
	}
	if errors.Is(err, context.Canceled) {
		return jsonrpc2.NewError(protocol.CodeRequestCancelled, fmt.Sprintf("%s: %v", method, err))
	}
	return jsonrpc2.NewError(jsonrpc2.InternalError, fmt.Sprintf("%s: %v", method, err))
}

// idString formats a request id for logs (jsonrpc2.ID has no exported
// fields, so zap.Any would log {}).
func idString(id jsonrpc2.ID) fmt.Stringer { return idStringer{id} }

type idStringer struct{ id jsonrpc2.ID }

func (s idStringer) String() string { return fmt.Sprintf("%q", s.id) }
