package lsptest

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"go.lsp.dev/jsonrpc2"

	"github.com/advertest/advertest-lsp/server"
)

// Timeout bounds each wait of a test on the server.
const Timeout = 20 * time.Second

// Message is a message the server sent to the client (a notification or a
// call), with its params as raw JSON.
type Message struct {
	Method string
	Params json.RawMessage
}

// Client is the client end of one connection.
type Client struct {
	t      testing.TB
	conn   jsonrpc2.Conn
	stream *clientStream

	mu sync.Mutex
	// fromServer are the notifications and calls the server sent, in order.
	fromServer []Message
	// changed is closed and replaced whenever fromServer or the stream's
	// responses grow.
	changed chan struct{}
	// answer, when set, answers the server's calls (see Answer).
	answer func(Message) (any, bool)
}

// Answer sets how the client answers the server's calls: fn returns the
// result and true, or false for the default (null; workspace/applyEdit
// {"applied": true}). Notifications are recorded but not answered.
func (c *Client) Answer(fn func(Message) (result any, ok bool)) {
	c.mu.Lock()
	c.answer = fn
	c.mu.Unlock()
}

// Connect starts a client on rwc. The client answers the server's calls with
// null (workspace/applyEdit with {"applied": true}).
func Connect(t testing.TB, rwc io.ReadWriteCloser) *Client {
	c := &Client{t: t, changed: make(chan struct{})}
	c.stream = &clientStream{rwc: rwc, in: bufio.NewReader(rwc), responses: make(map[string]json.RawMessage), notify: c.notifyChanged}
	c.conn = jsonrpc2.NewConn(c.stream)
	c.conn.Go(context.Background(), func(ctx context.Context, reply jsonrpc2.Replier, req jsonrpc2.Request) error {
		c.mu.Lock()
		c.fromServer = append(c.fromServer, Message{Method: req.Method(), Params: append(json.RawMessage(nil), req.Params()...)})
		c.mu.Unlock()
		c.notifyChanged()
		c.mu.Lock()
		answer := c.answer
		c.mu.Unlock()
		if answer != nil {
			if result, ok := answer(Message{Method: req.Method(), Params: req.Params()}); ok {
				return reply(ctx, result, nil)
			}
		}
		if req.Method() == "workspace/applyEdit" {
			return reply(ctx, map[string]bool{"applied": true}, nil)
		}
		return reply(ctx, nil, nil)
	})
	t.Cleanup(func() { _ = c.conn.Close() })
	return c
}

// Start serves cfg on one end of a net.Pipe and connects a client to the
// other. The channel receives Serve's result.
func Start(t testing.TB, cfg server.Config) (*Client, <-chan error) {
	serverEnd, clientEnd := net.Pipe()
	done := make(chan error, 1)
	stopped := make(chan struct{})
	go func() {
		done <- server.Serve(context.Background(), serverEnd, cfg)
		close(stopped)
	}()
	c := Connect(t, clientEnd)
	t.Cleanup(func() {
		_ = clientEnd.Close()
		select {
		case <-stopped:
		case <-time.After(Timeout):
			t.Errorf("server did not stop within %v after the client closed", Timeout)
		}
	})
	return c, done
}

func (c *Client) notifyChanged() {
	c.mu.Lock()
	close(c.changed)
	c.changed = make(chan struct{})
	c.mu.Unlock()
}

// Call sends a request and decodes its result into result (which may be
// nil or a *json.RawMessage). The error is the server's *jsonrpc2.Error when
// it answered with one.
func (c *Client) Call(method string, params, result any) error {
	ctx, cancel := context.WithTimeout(context.Background(), Timeout)
	defer cancel()
	_, err := c.conn.Call(ctx, method, params, result)
	return err
}

// CallWith is Call with the caller's context.
func (c *Client) CallWith(ctx context.Context, method string, params, result any) (jsonrpc2.ID, error) {
	return c.conn.Call(ctx, method, params, result)
}

// Notify sends a notification; it fails the test if it cannot be written.
func (c *Client) Notify(method string, params any) {
	c.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), Timeout)
	defer cancel()
	if err := c.conn.Notify(ctx, method, params); err != nil {
		c.t.Fatalf("notify %s: %v", method, err)
	}
}

// WriteFrame writes body framed with a correct Content-Length header.
func (c *Client) WriteFrame(body string) {
	c.t.Helper()
	c.WriteBytes(fmt.Sprintf("Content-Length: %d\r\n\r\n%s", len(body), body))
}

// WriteBytes writes raw bytes to the server, unframed.
func (c *Client) WriteBytes(b string) {
	c.t.Helper()
	if err := c.stream.writeRaw([]byte(b)); err != nil {
		c.t.Fatalf("writing raw bytes: %v", err)
	}
}

// Response waits for the response whose id is rawID as JSON (`7`,
// `"abc"`, `4294967296`) and returns the whole response object.
func (c *Client) Response(rawID string) (json.RawMessage, error) {
	deadline := time.After(Timeout)
	for {
		c.mu.Lock()
		changed := c.changed
		c.mu.Unlock()
		if body, ok := c.stream.response(rawID); ok {
			return body, nil
		}
		select {
		case <-changed:
		case <-deadline:
			return nil, fmt.Errorf("no response with id %s within %v", rawID, Timeout)
		}
	}
}

// WaitFor waits until the server has sent a message that match accepts and
// returns it.
func (c *Client) WaitFor(match func(Message) bool) (Message, error) {
	deadline := time.After(Timeout)
	for {
		c.mu.Lock()
		changed := c.changed
		for _, m := range c.fromServer {
			if match(m) {
				c.mu.Unlock()
				return m, nil
			}
		}
		c.mu.Unlock()
		select {
		case <-changed:
		case <-deadline:
			return Message{}, fmt.Errorf("no matching message from the server within %v", Timeout)
		}
	}
}

// WaitFrom waits until the server has sent, at index from or later in
// FromServer's order, a message that match accepts; it returns it and its
// index. Tests use it to wait for something new.
func (c *Client) WaitFrom(from int, match func(Message) bool) (Message, int, error) {
	deadline := time.After(WaitTimeout)
	for {
		c.mu.Lock()
		changed := c.changed
		for i := from; i < len(c.fromServer); i++ {
			if match(c.fromServer[i]) {
				m := c.fromServer[i]
				c.mu.Unlock()
				return m, i, nil
			}
		}
		c.mu.Unlock()
		select {
		case <-changed:
		case <-deadline:
			return Message{}, 0, fmt.Errorf("no matching message from the server within %v", WaitTimeout)
		}
	}
}

// WaitTimeout bounds WaitFrom: long enough for a job on a real project.
const WaitTimeout = 2 * time.Minute

// FromServer returns the notifications and calls received so far.
func (c *Client) FromServer() []Message {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]Message(nil), c.fromServer...)
}

// Close closes the client's end of the connection.
func (c *Client) Close() error { return c.conn.Close() }

// Code returns the JSON-RPC error code of err, or 0 when err is not a
// *jsonrpc2.Error.
func Code(err error) jsonrpc2.Code {
	var wire *jsonrpc2.Error
	if errors.As(err, &wire) {
		return wire.Code
	}
	return 0
}

// clientStream frames messages like the LSP base protocol and records every
// response it reads by its raw id, including those jsonrpc2 cannot decode
// (they are recorded and skipped).
type clientStream struct {
	rwc    io.ReadWriteCloser
	in     *bufio.Reader
	notify func()

	writeMu sync.Mutex

	mu        sync.Mutex
	responses map[string]json.RawMessage
}

func (s *clientStream) response(rawID string) (json.RawMessage, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	body, ok := s.responses[rawID]
	return body, ok
}

func (s *clientStream) Read(ctx context.Context) (jsonrpc2.Message, int64, error) {
	for {
		body, err := readFrame(s.in)
		if err != nil {
			return nil, 0, err
		}
		var probe struct {
			ID     json.RawMessage `json:"id"`
			Method *string         `json:"method"`
		}
		if err := json.Unmarshal(body, &probe); err == nil && probe.Method == nil && probe.ID != nil {
			var compact bytes.Buffer
			_ = json.Compact(&compact, probe.ID)
			s.mu.Lock()
			s.responses[compact.String()] = body
			s.mu.Unlock()
			s.notify()
		}
		msg, err := jsonrpc2.DecodeMessage(body)
		if err != nil {
			continue // recorded above; the jsonrpc2 client cannot take it
		}
		return msg, int64(len(body)), nil
	}
}

func readFrame(in *bufio.Reader) ([]byte, error) {
	length := -1
	for {
		line, err := in.ReadString('\n')
		if err != nil {
			return nil, err
		}
		line = strings.TrimSpace(line)
		if line == "" {
			if length < 0 {
				return nil, errors.New("lsptest: header without Content-Length")
			}
			break
		}
		name, value, ok := strings.Cut(line, ":")
		if !ok {
			return nil, fmt.Errorf("lsptest: bad header line %q", line)
		}
		if strings.EqualFold(name, "Content-Length") {
			if length, err = strconv.Atoi(strings.TrimSpace(value)); err != nil {
				return nil, fmt.Errorf("lsptest: bad Content-Length %q", value)
			}
		}
	}
	body := make([]byte, length)
	_, err := io.ReadFull(in, body)
	return body, err
}

func (s *clientStream) Write(ctx context.Context, msg jsonrpc2.Message) (int64, error) {
	data, err := json.Marshal(msg)
	if err != nil {
		return 0, err
	}
	frame := fmt.Sprintf("Content-Length: %d\r\n\r\n%s", len(data), data)
	return int64(len(frame)), s.writeRaw([]byte(frame))
}

func (s *clientStream) writeRaw(b []byte) error {
	s.writeMu.Lock()
	defer s.writeMu.Unlock()
	_, err := s.rwc.Write(b)
	return err
}

func (s *clientStream) Close() error { return s.rwc.Close() }

// ReadFrames splits a byte stream into LSP frames and returns their bodies;
// it fails on anything that is not a frame.
func ReadFrames(data []byte) ([][]byte, error) {
	in := bufio.NewReader(bytes.NewReader(data))
	var bodies [][]byte
	for {
		if _, err := in.Peek(1); errors.Is(err, io.EOF) {
			return bodies, nil
		}
		body, err := readFrame(in)
		if err != nil {
			return bodies, fmt.Errorf("frame %d: %w", len(bodies)+1, err)
		}
		if !json.Valid(body) {
			return bodies, fmt.Errorf("frame %d: body is not JSON: %q", len(bodies)+1, body)
		}
		bodies = append(bodies, body)
	}
}
