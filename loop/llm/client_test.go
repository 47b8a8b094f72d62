package llm

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"
	"go.uber.org/zap/zaptest/observer"

	"github.com/advertest/advertest-lsp/loop/llm/llmtest"
)

const testKey = "sk-test-SECRET-4242"

func testEnv(name string) string {
	if name == "ADVERTEST_TEST_KEY" {
		return testKey
	}
	return ""
}

func newTestClient(t *testing.T, url string, mutate func(*Config)) (*Client, *observer.ObservedLogs) {
	t.Helper()
	core, logs := observer.New(zapcore.DebugLevel)
	cfg := DefaultConfig(func(string) string { return "" })
	cfg.BaseURL, cfg.Model, cfg.APIKeyEnv = url, "scripted-model", "ADVERTEST_TEST_KEY"
	cfg.Pricing = Pricing{InputPerMTok: 1, OutputPerMTok: 2}
	if mutate != nil {
		mutate(&cfg)
	}
	c, err := NewClient(cfg, ClientOptions{Logger: zap.New(core), Getenv: testEnv, BaseBackoff: time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	return c, logs
}

func assertNoKeyInLogs(t *testing.T, logs *observer.ObservedLogs) {
	t.Helper()
	for _, e := range logs.All() {
		line := e.Message
		for k, v := range e.ContextMap() {
			line += " " + k + "=" + fmt.Sprint(v)
		}
		if strings.Contains(line, testKey) || strings.Contains(line, "SECRET") {
			t.Errorf("the API key is in a log entry: %s", line)
		}
	}
}

func TestChatSendsTemperatureZeroAndCounts(t *testing.T) {
	srv := llmtest.Start(t, func(r *llmtest.Request, n int) llmtest.Response {
		return llmtest.Reply("hello", 100, 20)
	})
	c, logs := newTestClient(t, srv.URL, nil)
	r, err := c.Chat(context.Background(), "T.initial", []Message{{Role: "system", Content: "sys"}, {Role: "user", Content: "hi"}})
	if err != nil || r.Text != "hello" {
		t.Fatalf("Chat = %+v, %v", r, err)
	}
	reqs := srv.Requests()
	if len(reqs) != 1 {
		t.Fatalf("%d requests", len(reqs))
	}
	if reqs[0].Temperature == nil || *reqs[0].Temperature != 0 {
		t.Errorf("temperature not sent as 0: raw %s", reqs[0].Raw["temperature"])
	}
	if reqs[0].Bearer != testKey || reqs[0].Model != "scripted-model" || reqs[0].MaxTokens != 4096 {
		t.Errorf("request: bearer ok %v, model %q, max_tokens %d", reqs[0].Bearer == testKey, reqs[0].Model, reqs[0].MaxTokens)
	}
	u := c.Usage()
	if u.Requests != 1 || u.PromptTokens != 100 || u.CompletionTokens != 20 || u.CostUSD != (100*1+20*2)/1e6 {
		t.Errorf("usage %+v", u)
	}
	assertNoKeyInLogs(t, logs)
}

func TestChatRetries(t *testing.T) {
	// A 429 with Retry-After, a 500, a 200 whose body is not JSON, then the answer.
	srv := llmtest.Start(t, func(r *llmtest.Request, n int) llmtest.Response {
		switch n {
		case 0:
			return llmtest.Status(429, map[string]string{"Retry-After": "1"})
		case 1:
			return llmtest.Status(500, nil)
		case 2:
			return llmtest.Response{Status: 200, Body: "<html>Bad gateway</html>"}
		}
		return llmtest.Reply("ok", 10, 5)
	})
	c, logs := newTestClient(t, srv.URL, nil)
	r, err := c.Chat(context.Background(), "M.initial", []Message{{Role: "user", Content: "x"}})
	if err != nil || r.Text != "ok" {
		t.Fatalf("Chat = %+v, %v", r, err)
	}
	if got := len(srv.Requests()); got != 4 || c.Attempts() != 4 || c.Usage().Requests != 1 {
		t.Errorf("server saw %d requests, client made %d attempts, counted %d requests; want 4, 4, 1", got, c.Attempts(), c.Usage().Requests)
	}
	for _, r := range srv.Requests() {
		if r.Temperature == nil || *r.Temperature != 0 {
			t.Errorf("a retried request lacks temperature 0")
		}
	}
	retries := logs.FilterMessage("retrying the LLM request").All()
	if len(retries) != 3 {
		t.Fatalf("%d retries logged, want 3", len(retries))
	}
	if w := retries[0].ContextMap()["wait"]; w != time.Second {
		t.Errorf("the 429's wait was %v, want Retry-After's 1s", w)
	}
	assertNoKeyInLogs(t, logs)
}

func TestChatGivesUpAndCancels(t *testing.T) {
	srv := llmtest.Start(t, func(r *llmtest.Request, n int) llmtest.Response { return llmtest.Status(503, nil) })
	c, logs := newTestClient(t, srv.URL, func(c *Config) { c.MaxRetries = 2 })
	if _, err := c.Chat(context.Background(), "T.repair", []Message{{Role: "user", Content: "x"}}); err == nil {
		t.Fatal("no error after the retries")
	}
	if n := len(srv.Requests()); n != 3 {
		t.Errorf("%d attempts, want 3 (1 + MaxRetries)", n)
	}
	// A 400 is not retried.
	bad := llmtest.Start(t, func(r *llmtest.Request, n int) llmtest.Response { return llmtest.Status(400, nil) })
	c2, _ := newTestClient(t, bad.URL, nil)
	if _, err := c2.Chat(context.Background(), "x", []Message{{Role: "user", Content: "x"}}); err == nil || len(bad.Requests()) != 1 {
		t.Errorf("400: err %v after %d attempts", err, len(bad.Requests()))
	}
	// Cancellation ends a request that waits for a slow server.
	release := make(chan struct{})
	defer close(release)
	arrived := make(chan struct{}, 1)
	slow := llmtest.Start(t, func(r *llmtest.Request, n int) llmtest.Response {
		arrived <- struct{}{}
		<-release
		return llmtest.Reply("late", 1, 1)
	})
	c3, _ := newTestClient(t, slow.URL, nil)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		_, err := c3.Chat(ctx, "x", []Message{{Role: "user", Content: "x"}})
		done <- err
	}()
	<-arrived
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled Chat returned %v", err)
	}
	assertNoKeyInLogs(t, logs)
}

func TestChatConcurrencyLimit(t *testing.T) {
	var mu sync.Mutex
	inFlight, peak := 0, 0
	release := make(chan struct{})
	arrived := make(chan struct{}, 10)
	srv := llmtest.Start(t, func(r *llmtest.Request, n int) llmtest.Response {
		mu.Lock()
		inFlight++
		peak = max(peak, inFlight)
		mu.Unlock()
		arrived <- struct{}{}
		<-release
		mu.Lock()
		inFlight--
		mu.Unlock()
		return llmtest.Reply("ok", 1, 1)
	})
	c, _ := newTestClient(t, srv.URL, func(c *Config) { c.MaxConcurrency = 2 })
	var wg sync.WaitGroup
	for i := 0; i < 5; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, _ = c.Chat(context.Background(), "x", []Message{{Role: "user", Content: "x"}})
		}()
	}
	<-arrived
	<-arrived
	// Two are in; the others wait on the client's semaphore. Let them all through.
	close(release)
	wg.Wait()
	if peak != 2 {
		t.Errorf("peak concurrency %d, want 2", peak)
	}
}

func TestBudgetAndConfigured(t *testing.T) {
	srv := llmtest.Start(t, func(r *llmtest.Request, n int) llmtest.Response { return llmtest.Reply("ok", 600, 500) })
	// A reply's worst case is 1 + 100 tokens: the first fits; after its 1100 no reply does.
	c, _ := newTestClient(t, srv.URL, func(c *Config) { c.Budget.MaxTokens, c.MaxReplyTokens = 1000, 100 })
	if _, err := c.Chat(context.Background(), "x", []Message{{Role: "user", Content: "x"}}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Chat(context.Background(), "x", []Message{{Role: "user", Content: "x"}}); !errors.Is(err, ErrBudget) {
		t.Errorf("second request past the budget: %v", err)
	}
	if len(srv.Requests()) != 1 || !errors.Is(c.Budget(), ErrBudget) {
		t.Errorf("the budget did not stop the requests")
	}
	env := func(m map[string]string) func(string) string { return func(k string) string { return m[k] } }
	for _, tc := range []struct {
		env  map[string]string
		want bool
	}{
		{map[string]string{}, false},
		{map[string]string{"ADVERTEST_MODEL": "m"}, false},
		{map[string]string{"ADVERTEST_MODEL": "m", "OPENAI_API_KEY": "k"}, true},
		{map[string]string{"ADVERTEST_MODEL": "m", "OPENAI_BASE_URL": "http://127.0.0.1:9/v1"}, true},
		{map[string]string{"ADVERTEST_MODEL": "m", "OPENAI_BASE_URL": "http://localhost:9/v1"}, true},
		{map[string]string{"ADVERTEST_MODEL": "m", "OPENAI_BASE_URL": "http://10.0.0.1/v1"}, false},
		{map[string]string{"OPENAI_API_KEY": "k"}, false},
	} {
		if got := DefaultConfig(env(tc.env)).Configured(env(tc.env)); got != tc.want {
			t.Errorf("Configured with %v = %v, want %v", tc.env, got, tc.want)
		}
	}
}

func TestChatRetriesATimeout(t *testing.T) {
	// The first attempt never answers (until the test ends): the request timeout ends it,
	// and the retry gets the answer.
	hang := make(chan struct{})
	t.Cleanup(func() { close(hang) })
	srv := llmtest.Start(t, func(r *llmtest.Request, n int) llmtest.Response {
		if n == 0 {
			<-hang
		}
		return llmtest.Reply("ok", 1, 1)
	})
	c, logs := newTestClient(t, srv.URL, func(c *Config) { c.RequestTimeoutSeconds = 0.3 })
	r, err := c.Chat(context.Background(), "x", []Message{{Role: "user", Content: "x"}})
	if err != nil || r.Text != "ok" || len(srv.Requests()) != 2 {
		t.Fatalf("Chat = %+v, %v after %d attempts", r, err, len(srv.Requests()))
	}
	if n := len(logs.FilterMessage("retrying the LLM request").All()); n != 1 {
		t.Errorf("%d retries logged, want 1", n)
	}
}
