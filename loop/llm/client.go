package llm

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	openai "github.com/sashabaranov/go-openai"
	"go.uber.org/zap"

	"github.com/advertest/advertest-lsp/loop/report"
)

// ErrBudget is returned (wrapped) by Chat when a request's worst case does not fit in what
// is left of budget.maxTokens or budget.maxUSD: the request is not sent.
var ErrBudget = errors.New("the LLM budget is spent")

// maxReplyBodyBytes bounds the body of one HTTP answer from the endpoint. A chat completion
// of max_tokens tokens is a few hundred KiB at most; 8 MiB leaves room for any real one and
// keeps a broken or hostile endpoint from filling the memory.
const maxReplyBodyBytes = 8 << 20

// Message is one chat message.
type Message struct {
	Role    string // "system", "user", "assistant"
	Content string
}

// Reply is one chat completion's answer.
type Reply struct {
	Text string
	// FinishReason is the provider's: "stop", "length" (cut off by max_tokens), ...
	FinishReason     string
	PromptTokens     int
	CompletionTokens int
}

// Truncated reports whether the reply was cut off by max_tokens.
func (r Reply) Truncated() bool { return r.FinishReason == string(openai.FinishReasonLength) }

// ClientOptions are the run-time parts of a Client besides its Config.
type ClientOptions struct {
	Logger *zap.Logger
	// Getenv reads the API key's variable (nil: os.Getenv).
	Getenv func(string) string
	// Transport replaces http.DefaultTransport (tests).
	Transport http.RoundTripper
	// BaseBackoff is the first retry's wait when the server gives no Retry-After [500ms].
	BaseBackoff time.Duration
	// Budget is the account the client's requests draw on, which other clients may share (a
	// server session's jobs, say); its limits replace Config.Budget. nil: the client keeps an
	// account of its own with Config.Budget's limits.
	Budget *BudgetAccount
}

// Client talks to one OpenAI-compatible endpoint. It is safe for concurrent use.
type Client struct {
	cfg Config
	api *openai.Client
	log *zap.Logger
	sem chan struct{}
	key string
	// budget is what the requests draw on; possibly shared with other clients.
	budget *BudgetAccount

	// mu guards this client's own figures (the report's llm section).
	mu               sync.Mutex
	requests         int // chat requests answered (retries not counted)
	attempts         int // HTTP attempts, retries included
	promptTokens     int
	completionTokens int
	estimated        bool // some reply had no usage: its tokens were estimated
	// inFlight and inFlightTokens are the requests sent and not answered yet, and their worst
	// cases: the method's budget (Config.Budget.MethodRequests, MethodTokens) counts them.
	inFlight       int
	inFlightTokens int
}

// NewClient makes a client for cfg (zero fields take the settings table's defaults, docs/settings.md). It does not contact
// the endpoint.
func NewClient(cfg Config, opts ClientOptions) (*Client, error) {
	if err := cfg.Validate(opts.Getenv); err != nil {
		return nil, err
	}
	cfg = cfg.withDefaults()
	log := opts.Logger
	if log == nil {
		log = zap.NewNop()
	}
	key := cfg.APIKey(opts.Getenv)
	c := &Client{cfg: cfg, log: log.Named("llm"), sem: make(chan struct{}, cfg.MaxConcurrency), key: key, budget: opts.Budget}
	if c.budget == nil {
		c.budget = NewBudgetAccount(cfg.Budget)
	}
	rt := opts.Transport
	if rt == nil {
		rt = http.DefaultTransport
	}
	backoff := opts.BaseBackoff
	if backoff <= 0 {
		backoff = 500 * time.Millisecond
	}
	oc := openai.DefaultConfig(key)
	oc.BaseURL = strings.TrimRight(cfg.BaseURL, "/")
	oc.HTTPClient = &retryingDoer{
		http: &http.Client{Transport: rt, Timeout: cfg.RequestTimeout(),
			// A redirect is never followed: the API key goes to the configured base URL only.
			CheckRedirect: func(r *http.Request, _ []*http.Request) error {
				return fmt.Errorf("%w to %s (not followed: the API key is sent to the configured llm.baseURL only; set it to the endpoint itself)",
					errRedirect, r.URL.Redacted())
			}},
		temperature: cfg.Temperature,
		maxTokens:   cfg.MaxReplyTokens,
		maxRetries:  cfg.MaxRetries,
		backoff:     backoff,
		client:      c,
	}
	c.api = openai.NewClientWithConfig(oc)
	return c, nil
}

// Model is the model the client asks.
func (c *Client) Model() string { return c.cfg.Model }

// Config is the client's configuration with defaults filled in.
func (c *Client) Config() Config { return c.cfg }

// Chat sends one chat completion request. kind names the request in logs ("T.initial",
// "M.more", ...). It waits for a free slot of the concurrency limit, retries as the
// transport allows, and counts the reply's tokens.
func (c *Client) Chat(ctx context.Context, kind string, msgs []Message) (Reply, error) {
	req := openai.ChatCompletionRequest{
		Model:       c.cfg.Model,
		Temperature: float32(c.cfg.Temperature), // sent even when 0: see retryingDoer
		MaxTokens:   c.cfg.MaxReplyTokens,       // sent always: see retryingDoer
	}
	promptChars := 0
	for _, m := range msgs {
		req.Messages = append(req.Messages, openai.ChatCompletionMessage{Role: m.Role, Content: m.Content})
		promptChars += len(m.Content)
	}
	select {
	case c.sem <- struct{}{}:
	case <-ctx.Done():
		return Reply{}, ctx.Err()
	}
	defer func() { <-c.sem }()
	// Hold the worst case (the whole max_tokens) before sending; the real usage replaces it.
	worstTokens := estimateTokens(promptChars) + c.cfg.MaxReplyTokens
	if err := c.holdMethod(worstTokens); err != nil {
		c.log.Info("not sending the LLM request: over the method's budget", zap.String("kind", kind), zap.Error(err))
		return Reply{}, err
	}
	defer c.releaseMethod(worstTokens)
	held, err := c.budget.Reserve(worstTokens, c.cost(estimateTokens(promptChars), c.cfg.MaxReplyTokens))
	if err != nil {
		c.log.Info("not sending the LLM request: over budget", zap.String("kind", kind), zap.Error(err))
		return Reply{}, err
	}
	start := time.Now()
	resp, err := c.api.CreateChatCompletion(ctx, req)
	if err != nil {
		held.Release()
		if ctx.Err() != nil {
			return Reply{}, ctx.Err()
		}
		err = errors.New(c.redact(err.Error()))
		c.log.Warn("chat request failed", zap.String("kind", kind), zap.Error(err))
		return Reply{}, fmt.Errorf("the LLM request (%s to %s): %w", kind, c.cfg.BaseURL, err)
	}
	r := Reply{PromptTokens: resp.Usage.PromptTokens, CompletionTokens: resp.Usage.CompletionTokens}
	if len(resp.Choices) > 0 {
		r.Text = resp.Choices[0].Message.Content
		r.FinishReason = string(resp.Choices[0].FinishReason)
	}
	estimated := false
	if r.PromptTokens == 0 && r.CompletionTokens == 0 {
		// Some local servers send no usage: estimate (about four characters a token) so
		// that budgets still bite.
		r.PromptTokens, r.CompletionTokens, estimated = estimateTokens(promptChars), estimateTokens(len(r.Text)), true
	}
	held.Settle(r.PromptTokens+r.CompletionTokens, c.cost(r.PromptTokens, r.CompletionTokens))
	c.mu.Lock()
	c.requests++
	c.promptTokens += r.PromptTokens
	c.completionTokens += r.CompletionTokens
	c.estimated = c.estimated || estimated
	c.mu.Unlock()
	c.log.Debug("chat reply", zap.String("kind", kind), zap.Int("promptTokens", r.PromptTokens),
		zap.Int("completionTokens", r.CompletionTokens), zap.String("finish", r.FinishReason),
		zap.Duration("took", time.Since(start)))
	if len(resp.Choices) == 0 {
		return r, fmt.Errorf("the LLM request (%s): the reply has no choices", kind)
	}
	return r, nil
}

// estimateTokens is the token count of chars characters when the server sends no usage:
// about four characters a token.
func estimateTokens(chars int) int { return (chars + 3) / 4 }

// Usage is the report's llm figures so far, of this client's requests (the budget it draws
// on may be shared). Estimated is set once some reply came without usage.
func (c *Client) Usage() report.LLM {
	c.mu.Lock()
	defer c.mu.Unlock()
	return report.LLM{Requests: c.requests, PromptTokens: c.promptTokens, CompletionTokens: c.completionTokens,
		CostUSD: c.cost(c.promptTokens, c.completionTokens), Estimated: c.estimated}
}

// Attempts counts HTTP attempts, retries included.
func (c *Client) Attempts() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.attempts
}

// cost is the price of prompt and completion tokens at the configured pricing.
func (c *Client) cost(prompt, completion int) float64 {
	return (float64(prompt)*c.cfg.Pricing.InputPerMTok + float64(completion)*c.cfg.Pricing.OutputPerMTok) / 1e6
}

// Budget returns a wrapped ErrBudget once what is left of the budget, the account's or the
// method's, cannot hold one more reply of max_tokens (the loop's Budget hook: every request
// would be refused).
func (c *Client) Budget() error {
	c.mu.Lock()
	err := c.methodRoomLocked(c.cfg.MaxReplyTokens, false)
	c.mu.Unlock()
	if err != nil {
		return err
	}
	return c.budget.Afford(c.cfg.MaxReplyTokens, c.cost(0, c.cfg.MaxReplyTokens))
}

// holdMethod counts a request of worst tokens in flight against the method's budget, or
// returns a wrapped ErrBudget saying which limit it would pass.
func (c *Client) holdMethod(worst int) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if err := c.methodRoomLocked(worst, true); err != nil {
		return err
	}
	c.inFlight++
	c.inFlightTokens += worst
	return nil
}

func (c *Client) releaseMethod(worst int) {
	c.mu.Lock()
	c.inFlight--
	c.inFlightTokens -= worst
	c.mu.Unlock()
}

// methodRoomLocked checks one more request of worst tokens against the method's budget (with
// the requests in flight when withInFlight). c.mu is held.
func (c *Client) methodRoomLocked(worst int, withInFlight bool) error {
	b := c.cfg.Budget
	reqs, tokens := c.requests, c.promptTokens+c.completionTokens
	if withInFlight {
		reqs += c.inFlight
		tokens += c.inFlightTokens
	}
	if b.MethodRequests > 0 && reqs >= b.MethodRequests {
		return fmt.Errorf("%w for this method: %d of budget.methodRequests %d requests sent", ErrBudget, reqs, b.MethodRequests)
	}
	if b.MethodTokens > 0 && tokens+worst > b.MethodTokens {
		return fmt.Errorf("%w for this method: %d of budget.methodTokens %d tokens used; the next request could use %d more",
			ErrBudget, tokens, b.MethodTokens, worst)
	}
	return nil
}

// BudgetAccount is the account the client's requests draw on.
func (c *Client) BudgetAccount() *BudgetAccount { return c.budget }

// redact removes the API key from text that came back from the server or the library.
func (c *Client) redact(s string) string {
	if len(c.key) >= 4 {
		s = strings.ReplaceAll(s, c.key, "[redacted]")
	}
	return s
}

// errRedirect marks an answer that was a redirect (never followed).
var errRedirect = errors.New("the LLM endpoint answered with a redirect")

// errBodyTooLarge is the read error of an answer's body past maxReplyBodyBytes.
var errBodyTooLarge = fmt.Errorf("the LLM endpoint's answer is larger than %d MiB: refused", maxReplyBodyBytes>>20)

// retryingDoer is go-openai's HTTP client. It puts temperature and max_tokens into every
// request body (the library drops a 0 temperature: omitempty, see docs/llm.md), bounds every
// answer's body to maxReplyBodyBytes, and retries with backoff on 429
// (honouring Retry-After / retry-after-ms), 5xx, a 200 whose body is not JSON, timeouts and
// refused connections, at most maxRetries times, stopping when the request's context ends.
type retryingDoer struct {
	http        *http.Client
	temperature float64
	maxTokens   int
	maxRetries  int
	backoff     time.Duration
	client      *Client
}

func (d *retryingDoer) Do(req *http.Request) (*http.Response, error) {
	var body []byte
	if req.Body != nil {
		b, err := io.ReadAll(req.Body)
		req.Body.Close()
		if err != nil {
			return nil, fmt.Errorf("reading the request body: %w", err)
		}
		body = withRequiredFields(b, d.temperature, d.maxTokens)
	}
	ctx := req.Context()
	for attempt := 0; ; attempt++ {
		r := req.Clone(ctx)
		if body != nil {
			r.Body = io.NopCloser(bytes.NewReader(body))
			r.ContentLength = int64(len(body))
			r.GetBody = func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(body)), nil }
		}
		d.client.mu.Lock()
		d.client.attempts++
		d.client.mu.Unlock()
		resp, err := d.http.Do(r)
		if err == nil {
			resp.Body = &boundedBody{ReadCloser: resp.Body, left: maxReplyBodyBytes}
		}
		if err == nil && resp.StatusCode == http.StatusOK {
			// Read the body here: a proxy's HTML page with status 200 is retried too.
			b, rerr := io.ReadAll(resp.Body)
			resp.Body.Close()
			if errors.Is(rerr, errBodyTooLarge) {
				return nil, rerr
			}
			if rerr == nil && json.Valid(b) {
				resp.Body = io.NopCloser(bytes.NewReader(b))
				return resp, nil
			}
			if rerr != nil {
				err = fmt.Errorf("reading the reply: %w", rerr)
			} else {
				err = fmt.Errorf("the reply's body is not JSON: %.80q", b)
			}
			resp = nil
		}
		wait, retry := d.retryable(resp, err, attempt)
		if ctx.Err() != nil {
			if resp != nil {
				resp.Body.Close()
			}
			return nil, ctx.Err()
		}
		if !retry || attempt >= d.maxRetries {
			if resp == nil && err == nil {
				err = errors.New("no reply")
			}
			return resp, err
		}
		status := 0
		if resp != nil {
			status = resp.StatusCode
			_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 1<<20))
			resp.Body.Close()
		}
		reason := ""
		if err != nil {
			reason = d.client.redact(err.Error())
		}
		d.client.log.Info("retrying the LLM request", zap.Int("attempt", attempt+1), zap.Int("status", status),
			zap.String("reason", reason), zap.Duration("wait", wait))
		t := time.NewTimer(wait)
		select {
		case <-t.C:
		case <-ctx.Done():
			t.Stop()
			return nil, ctx.Err()
		}
	}
}

// retryable says whether an attempt's result is worth another try, and after how long.
func (d *retryingDoer) retryable(resp *http.Response, err error, attempt int) (time.Duration, bool) {
	backoff := d.backoff * time.Duration(math.Pow(2, float64(attempt)))
	backoff += time.Duration(rand.Int64N(int64(d.backoff)/4 + 1)) // jitter
	backoff = min(backoff, 30*time.Second)
	if err != nil {
		var ne net.Error
		if (errors.As(err, &ne) && ne.Timeout()) || errors.Is(err, syscall.ECONNREFUSED) ||
			errors.Is(err, syscall.ECONNRESET) || errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) ||
			strings.Contains(err.Error(), "not JSON") {
			return backoff, true
		}
		return 0, false
	}
	switch {
	case resp.StatusCode == http.StatusTooManyRequests:
		if w, ok := retryAfter(resp.Header); ok {
			return w, true
		}
		return backoff, true
	case resp.StatusCode >= 500:
		if w, ok := retryAfter(resp.Header); ok {
			return w, true
		}
		return backoff, true
	}
	return 0, false
}

// retryAfter reads retry-after-ms (OpenAI's) or Retry-After (seconds or an HTTP date), capped
// at a minute.
func retryAfter(h http.Header) (time.Duration, bool) {
	const maxWait = time.Minute
	if v := h.Get("retry-after-ms"); v != "" {
		if ms, err := strconv.ParseFloat(v, 64); err == nil && ms >= 0 {
			return min(time.Duration(ms*float64(time.Millisecond)), maxWait), true
		}
	}
	v := h.Get("Retry-After")
	if v == "" {
		return 0, false
	}
	if s, err := strconv.ParseFloat(v, 64); err == nil && s >= 0 {
		return min(time.Duration(s*float64(time.Second)), maxWait), true
	}
	if t, err := http.ParseTime(v); err == nil {
		return min(max(time.Until(t), 0), maxWait), true
	}
	return 0, false
}

// boundedBody fails a read past left bytes with errBodyTooLarge.
type boundedBody struct {
	io.ReadCloser
	left int64
}

func (b *boundedBody) Read(p []byte) (int, error) {
	if b.left <= 0 {
		// One byte more tells a body of exactly the limit from a longer one.
		var one [1]byte
		n, err := b.ReadCloser.Read(one[:])
		if n > 0 {
			return 0, errBodyTooLarge
		}
		return 0, err
	}
	if int64(len(p)) > b.left {
		p = p[:b.left]
	}
	n, err := b.ReadCloser.Read(p)
	b.left -= int64(n)
	return n, err
}

// withRequiredFields sets "temperature" and "max_tokens" in a JSON request body (kept as is
// when it is not an object), whatever the library left out.
func withRequiredFields(body []byte, temperature float64, maxTokens int) []byte {
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(body, &obj); err != nil {
		return body
	}
	obj["temperature"] = json.RawMessage(strconv.FormatFloat(temperature, 'f', -1, 64))
	if maxTokens > 0 {
		obj["max_tokens"] = json.RawMessage(strconv.Itoa(maxTokens))
	}
	out, err := json.Marshal(obj)
	if err != nil {
		return body
	}
	return out
}
