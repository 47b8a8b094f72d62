package llm

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"

	"github.com/advertest/advertest-lsp/loop/llm/llmtest"
)

var oneMessage = []Message{{Role: "user", Content: "hi!!"}} // 4 characters: one estimated token

// TestRedirectIsNotFollowed: a 30x from the endpoint is an error naming where it pointed; the
// other server is never asked, so the API key never reaches it.
func TestRedirectIsNotFollowed(t *testing.T) {
	elsewhere := llmtest.Start(t, func(*llmtest.Request, int) llmtest.Response { return llmtest.Reply("stolen", 1, 1) })
	for _, status := range []int{301, 302, 307, 308} {
		redirecting := llmtest.Start(t, func(*llmtest.Request, int) llmtest.Response {
			return llmtest.Response{Status: status, Header: map[string]string{"Location": elsewhere.URL + "/chat/completions"}}
		})
		c, logs := newTestClient(t, redirecting.URL, nil)
		_, err := c.Chat(context.Background(), "T.initial", oneMessage)
		if err == nil || !strings.Contains(err.Error(), "answered with a redirect to") || !strings.Contains(err.Error(), elsewhere.URL+"/chat/completions") {
			t.Errorf("%d: Chat error %v, want a redirect error naming %s", status, err, elsewhere.URL)
		}
		if n := len(redirecting.Requests()); n != 1 {
			t.Errorf("%d: the endpoint got %d requests, want 1 (a redirect is not retried)", status, n)
		}
		if u := c.Usage(); u.Requests != 0 {
			t.Errorf("%d: usage %+v after a redirect", status, u)
		}
		assertNoKeyInLogs(t, logs)
	}
	if reqs := elsewhere.Requests(); len(reqs) != 0 {
		t.Fatalf("the redirect target was asked %d times (authorized: %v)", len(reqs), reqs[0].Authorized)
	}
}

// TestReplyBodyIsBounded: an answer over 8 MiB is refused with a clear error, whatever its
// status, and not retried.
func TestReplyBodyIsBounded(t *testing.T) {
	huge := `{"padding":"` + strings.Repeat("x", maxReplyBodyBytes) + `"}`
	for _, status := range []int{200, 400} {
		srv := llmtest.Start(t, func(*llmtest.Request, int) llmtest.Response { return llmtest.Response{Status: status, Body: huge} })
		c, _ := newTestClient(t, srv.URL, nil)
		_, err := c.Chat(context.Background(), "T.initial", oneMessage)
		if !errors.Is(err, errBodyTooLarge) && (err == nil || !strings.Contains(err.Error(), "larger than 8 MiB")) {
			t.Errorf("status %d with a %d-byte body: %v, want the size error", status, len(huge), err)
		}
		if n := len(srv.Requests()); n != 1 {
			t.Errorf("status %d: %d attempts, want 1", status, n)
		}
	}
	// Just under the limit is read as usual.
	text := strings.Repeat("y", maxReplyBodyBytes-1024)
	srv := llmtest.Start(t, func(*llmtest.Request, int) llmtest.Response { return llmtest.Reply(text, 1, 1) })
	c, _ := newTestClient(t, srv.URL, nil)
	if r, err := c.Chat(context.Background(), "T.initial", oneMessage); err != nil || r.Text != text {
		t.Errorf("a reply under the limit: %d characters, %v", len(r.Text), err)
	}
}

// TestEveryRequestCarriesMaxTokensAndTemperature: retries included, max_tokens and a
// temperature of 0 are in the JSON the endpoint receives.
func TestEveryRequestCarriesMaxTokensAndTemperature(t *testing.T) {
	srv := llmtest.Start(t, func(_ *llmtest.Request, n int) llmtest.Response {
		if n%2 == 0 {
			return llmtest.Status(503, nil)
		}
		return llmtest.Reply("ok", 1, 1)
	})
	c, _ := newTestClient(t, srv.URL, func(c *Config) { c.MaxReplyTokens = 777 })
	for i := 0; i < 3; i++ {
		if _, err := c.Chat(context.Background(), "x", oneMessage); err != nil {
			t.Fatal(err)
		}
	}
	reqs := srv.Requests()
	if len(reqs) != 6 {
		t.Fatalf("%d requests, want 6 (three answered after a 503 each)", len(reqs))
	}
	for i, r := range reqs {
		if string(r.Raw["max_tokens"]) != "777" || string(r.Raw["temperature"]) != "0" {
			t.Errorf("request %d: max_tokens %s, temperature %s; want 777 and 0", i, r.Raw["max_tokens"], r.Raw["temperature"])
		}
	}
}

// TestBudgetReservesTheWorstCase: concurrent requests each hold prompt + max_tokens before
// they are sent; those that do not fit are refused unsent, and the real usage replaces the
// reservations when the replies come.
func TestBudgetReservesTheWorstCase(t *testing.T) {
	release := make(chan struct{})
	arrived := make(chan struct{}, 10)
	srv := llmtest.Start(t, func(*llmtest.Request, int) llmtest.Response {
		arrived <- struct{}{}
		<-release
		return llmtest.Reply("ok", 1, 50)
	})
	// Each request's worst case is 1 + 300 tokens: three fit in 1000, not four.
	c, _ := newTestClient(t, srv.URL, func(c *Config) { c.Budget.MaxTokens, c.MaxReplyTokens, c.MaxConcurrency = 1000, 300, 8 })
	results := make(chan error, 5)
	for i := 0; i < 5; i++ {
		go func() {
			_, err := c.Chat(context.Background(), "x", oneMessage)
			results <- err
		}()
	}
	for i := 0; i < 3; i++ {
		<-arrived
	}
	for i := 0; i < 2; i++ {
		if err := <-results; !errors.Is(err, ErrBudget) || !strings.Contains(err.Error(), "held by requests in flight") {
			t.Errorf("request over the reserved budget: %v, want ErrBudget", err)
		}
	}
	if tokens, _ := c.BudgetAccount().Reserved(); tokens != 903 {
		t.Errorf("reserved %d tokens, want 3 × 301", tokens)
	}
	close(release)
	for i := 0; i < 3; i++ {
		if err := <-results; err != nil {
			t.Errorf("a request within the budget: %v", err)
		}
	}
	if n := len(srv.Requests()); n != 3 {
		t.Errorf("the endpoint got %d requests, want 3", n)
	}
	spent, _ := c.BudgetAccount().Spent()
	reserved, _ := c.BudgetAccount().Reserved()
	if spent != 153 || reserved != 0 || c.Budget() != nil {
		t.Errorf("after the replies: spent %d, reserved %d, budget %v; want 153, 0, nil", spent, reserved, c.Budget())
	}

	// Dollars the same way: the worst reply alone (1000 tokens at $10/M) is over $0.005.
	usd := llmtest.Start(t, func(*llmtest.Request, int) llmtest.Response { return llmtest.Reply("ok", 1, 1) })
	c2, _ := newTestClient(t, usd.URL, func(c *Config) {
		c.Budget.MaxUSD, c.MaxReplyTokens, c.Pricing = 0.005, 1000, Pricing{OutputPerMTok: 10}
	})
	if _, err := c2.Chat(context.Background(), "x", oneMessage); !errors.Is(err, ErrBudget) || !strings.Contains(err.Error(), "budget.maxUSD") {
		t.Errorf("a request whose worst case is over maxUSD: %v", err)
	}
	if !errors.Is(c2.Budget(), ErrBudget) || len(usd.Requests()) != 0 {
		t.Errorf("budget hook %v, %d requests sent; want ErrBudget and none", c2.Budget(), len(usd.Requests()))
	}
}

// TestSharedBudgetAccount: clients given one account draw on one budget; each reports its
// own usage.
func TestSharedBudgetAccount(t *testing.T) {
	srv := llmtest.Start(t, func(*llmtest.Request, int) llmtest.Response { return llmtest.Reply("ok", 150, 150) })
	account := NewBudgetAccount(Budget{MaxTokens: 500})
	newClient := func() *Client {
		cfg := DefaultConfig(func(string) string { return "" })
		cfg.BaseURL, cfg.Model, cfg.MaxReplyTokens = srv.URL, "m", 100
		cfg.Budget.MaxTokens = 1 << 30 // the shared account's limits win
		c, err := NewClient(cfg, ClientOptions{Budget: account})
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	a, b := newClient(), newClient()
	if _, err := a.Chat(context.Background(), "x", oneMessage); err != nil {
		t.Fatal(err)
	}
	if _, err := b.Chat(context.Background(), "x", oneMessage); err != nil {
		t.Fatalf("the second client, with 200 tokens left: %v", err)
	}
	if _, err := a.Chat(context.Background(), "x", oneMessage); !errors.Is(err, ErrBudget) {
		t.Errorf("past the shared budget: %v", err)
	}
	if !errors.Is(b.Budget(), ErrBudget) || len(srv.Requests()) != 2 {
		t.Errorf("budget hook %v after %d requests", b.Budget(), len(srv.Requests()))
	}
	if spent, _ := account.Spent(); spent != 600 || a.Usage().PromptTokens+a.Usage().CompletionTokens != 300 || b.Usage().Requests != 1 {
		t.Errorf("account spent %d; usage a %+v b %+v", spent, a.Usage(), b.Usage())
	}

	// Reserving from many goroutines at once never holds more than the limit.
	shared := NewBudgetAccount(Budget{MaxTokens: 1000})
	var wg sync.WaitGroup
	var mu sync.Mutex
	held := 0
	for i := 0; i < 50; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if _, err := shared.Reserve(30, 0); err == nil {
				mu.Lock()
				held++
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	if tokens, _ := shared.Reserved(); held != 33 || tokens != 990 {
		t.Errorf("%d reservations of 30 held (%d tokens) in a budget of 1000, want 33", held, tokens)
	}
}

// TestEstimatedUsageIsMarked: a reply without usage figures is counted at four characters a
// token, and the report says so.
func TestEstimatedUsageIsMarked(t *testing.T) {
	srv := llmtest.Start(t, func(_ *llmtest.Request, n int) llmtest.Response {
		if n == 0 {
			return llmtest.Reply("12345678", 3, 2)
		}
		return llmtest.Reply("12345678", 0, 0)
	})
	c, _ := newTestClient(t, srv.URL, nil)
	if _, err := c.Chat(context.Background(), "x", oneMessage); err != nil {
		t.Fatal(err)
	}
	if c.Usage().Estimated {
		t.Errorf("usage %+v marked estimated after a reply with usage", c.Usage())
	}
	if _, err := c.Chat(context.Background(), "x", oneMessage); err != nil {
		t.Fatal(err)
	}
	if u := c.Usage(); !u.Estimated || u.PromptTokens != 3+1 || u.CompletionTokens != 2+2 {
		t.Errorf("usage %+v, want estimated with 1 prompt and 2 completion tokens added", u)
	}
}

// TestMethodBudget: one client (one method's game) sends at most budget.methodRequests
// requests and uses at most budget.methodTokens tokens, whatever the shared account allows;
// the budget hook says so before the next action.
func TestMethodBudget(t *testing.T) {
	srv := llmtest.Start(t, func(*llmtest.Request, int) llmtest.Response { return llmtest.Reply("ok", 10, 90) })
	c, _ := newTestClient(t, srv.URL, func(c *Config) { c.Budget.MethodRequests, c.Budget.MethodTokens, c.MaxReplyTokens = 3, 0, 100 })
	for i := 0; i < 3; i++ {
		if _, err := c.Chat(context.Background(), "x", oneMessage); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := c.Chat(context.Background(), "x", oneMessage); !errors.Is(err, ErrBudget) || !strings.Contains(err.Error(), "3 of budget.methodRequests 3 requests sent") {
		t.Errorf("the fourth request: %v", err)
	}
	if err := c.Budget(); !errors.Is(err, ErrBudget) {
		t.Errorf("budget hook %v, want ErrBudget", err)
	}
	// Tokens: 100 a request used, 101 the worst case of the next; 250 allow two.
	c2, _ := newTestClient(t, srv.URL, func(c *Config) { c.Budget.MethodRequests, c.Budget.MethodTokens, c.MaxReplyTokens = 0, 250, 100 })
	for i := 0; i < 2; i++ {
		if _, err := c2.Chat(context.Background(), "x", oneMessage); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := c2.Chat(context.Background(), "x", oneMessage); !errors.Is(err, ErrBudget) || !strings.Contains(err.Error(), "200 of budget.methodTokens 250 tokens used") {
		t.Errorf("the third request: %v", err)
	}
	if n := len(srv.Requests()); n != 5 {
		t.Errorf("the endpoint got %d requests, want 5", n)
	}
}
