// Package llmtest is a scripted OpenAI-compatible chat server for tests. It listens on
// 127.0.0.1 only, records every request it receives (with the raw JSON, so that tests can
// assert on what was really sent, temperature included), and answers through a Handler, which
// usually routes by what the request asks, since concurrent requests arrive in any order.
package llmtest

import (
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"
)

// Request is one received chat completion request.
type Request struct {
	Raw map[string]json.RawMessage
	// Model, Messages, MaxTokens as decoded; Temperature is nil when the field was absent.
	Model       string
	Messages    []Message
	MaxTokens   int
	Temperature *float64
	// Authorized reports whether an Authorization header came (its value is not kept).
	Authorized bool
	// Bearer is the token the request carried, for tests that check the right key was sent.
	Bearer string
}

// Message is one chat message of a request.
type Message struct {
	Role    string `json:"role"`
	Content string `json:"content"`
}

// Prompt is every message's content, joined.
func (r *Request) Prompt() string {
	var b strings.Builder
	for _, m := range r.Messages {
		b.WriteString(m.Content)
		b.WriteString("\n")
	}
	return b.String()
}

// Last is the last message's content (the request-specific part).
func (r *Request) Last() string {
	if len(r.Messages) == 0 {
		return ""
	}
	return r.Messages[len(r.Messages)-1].Content
}

// Response is what the server answers: a status, headers and a raw body.
type Response struct {
	Status int
	Header map[string]string
	Body   string
}

// Reply is a 200 chat completion whose content is text, with finish reason "stop" and the
// given usage.
func Reply(text string, promptTokens, completionTokens int) Response {
	return completion(text, "stop", promptTokens, completionTokens)
}

// Truncated is a reply cut off by max_tokens (finish reason "length").
func Truncated(text string, promptTokens, completionTokens int) Response {
	return completion(text, "length", promptTokens, completionTokens)
}

func completion(text, finish string, promptTokens, completionTokens int) Response {
	body, _ := json.Marshal(map[string]any{
		"id": "chatcmpl-test", "object": "chat.completion", "created": 1, "model": "scripted",
		"choices": []any{map[string]any{
			"index": 0, "finish_reason": finish,
			"message": map[string]any{"role": "assistant", "content": text},
		}},
		"usage": map[string]any{"prompt_tokens": promptTokens, "completion_tokens": completionTokens,
			"total_tokens": promptTokens + completionTokens},
	})
	return Response{Status: 200, Body: string(body)}
}

// Status is an error answer with an OpenAI-style error body.
func Status(code int, header map[string]string) Response {
	return Response{Status: code, Header: header,
		Body: fmt.Sprintf(`{"error":{"message":"scripted %d","type":"server_error"}}`, code)}
}

// Handler answers a request; n is its index among all requests received (0-based).
type Handler func(r *Request, n int) Response

// Server is a running scripted server.
type Server struct {
	URL string // base URL, ending in /v1
	srv *http.Server
	ln  net.Listener

	mu       sync.Mutex
	requests []*Request
}

// Start starts a server on 127.0.0.1 that answers POST /v1/chat/completions through h; it is
// closed when the test ends.
func Start(t testing.TB, h Handler) *Server {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatalf("llmtest: listening on 127.0.0.1: %v", err)
	}
	s := &Server{URL: "http://" + ln.Addr().String() + "/v1", ln: ln}
	mux := http.NewServeMux()
	mux.HandleFunc("/v1/chat/completions", func(w http.ResponseWriter, hr *http.Request) {
		b, err := io.ReadAll(hr.Body)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		req := &Request{}
		if err := json.Unmarshal(b, &req.Raw); err != nil {
			http.Error(w, "request is not JSON", http.StatusBadRequest)
			return
		}
		var dec struct {
			Model       string    `json:"model"`
			Messages    []Message `json:"messages"`
			MaxTokens   int       `json:"max_tokens"`
			Temperature *float64  `json:"temperature"`
		}
		_ = json.Unmarshal(b, &dec)
		req.Model, req.Messages, req.MaxTokens, req.Temperature = dec.Model, dec.Messages, dec.MaxTokens, dec.Temperature
		if a := hr.Header.Get("Authorization"); a != "" {
			req.Authorized = true
			req.Bearer = strings.TrimPrefix(a, "Bearer ")
		}
		s.mu.Lock()
		n := len(s.requests)
		s.requests = append(s.requests, req)
		s.mu.Unlock()
		resp := h(req, n)
		for k, v := range resp.Header {
			w.Header().Set(k, v)
		}
		if resp.Status == 0 {
			resp.Status = 200
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(resp.Status)
		_, _ = io.WriteString(w, resp.Body)
	})
	s.srv = &http.Server{Handler: mux}
	go func() { _ = s.srv.Serve(ln) }()
	t.Cleanup(func() { _ = s.srv.Close() })
	return s
}

// Requests returns the requests received so far, in arrival order.
func (s *Server) Requests() []*Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]*Request(nil), s.requests...)
}
