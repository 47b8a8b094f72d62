package llm

import (
	"fmt"
	"net"
	"net/url"
	"os"
	"strings"
	"time"

	"github.com/advertest/advertest-lsp/settings/schema"
)

// DefaultBaseURL is used when neither the settings nor OPENAI_BASE_URL name an endpoint.
const DefaultBaseURL = schema.DefaultBaseURL

// DefaultMaxRetries bounds the retries of one request (not a setting).
const DefaultMaxRetries = 4

// Config is the llm.* and budget.* part of the settings (docs/settings.md; the dotted names
// are in the fields' comments), plus the repair bound. ConfigFrom takes it from the settings
// table, DefaultConfig gives the table's defaults; zero numbers mean "the default" where
// noted.
type Config struct {
	// BaseURL is llm.baseURL [OPENAI_BASE_URL, else DefaultBaseURL].
	BaseURL string `json:"baseURL"`
	// Model is llm.model [ADVERTEST_MODEL].
	Model string `json:"model"`
	// APIKeyEnv is llm.apiKeyEnv [OPENAI_API_KEY]: the name of the environment variable
	// holding the key. The key itself is never stored in a Config, logged or put in a prompt.
	APIKeyEnv string `json:"apiKeyEnv"`
	// Temperature is llm.temperature [0]; it is always sent, 0 included.
	Temperature float64 `json:"temperature"`
	// MaxConcurrency is llm.maxConcurrency [4]: requests in flight at once.
	MaxConcurrency int `json:"maxConcurrency"`
	// RequestTimeoutSeconds is llm.requestTimeoutSeconds [120]: one HTTP attempt's limit.
	RequestTimeoutSeconds float64 `json:"requestTimeoutSeconds"`
	// Pricing is llm.pricing.inputPerMTok / outputPerMTok [0]: dollars per million tokens.
	Pricing Pricing `json:"pricing"`
	// Budget is budget.maxTokens / budget.maxUSD [none].
	Budget Budget `json:"budget"`
	// RepairAttempts is repairAttempts [10]: LLM repair rounds per generated class (K).
	RepairAttempts int `json:"repairAttempts"`
	// MaxRetries bounds the retries of one request on 429, 5xx, timeouts and refused
	// connections [DefaultMaxRetries]; MaxReplyTokens is llm.maxReplyTokens [4096], sent as
	// max_tokens.
	MaxRetries     int `json:"maxRetries"`
	MaxReplyTokens int `json:"maxReplyTokens"`
	// ContextTokens is llm.contextTokens [8000]: how much of the class's file a prompt shows
	// (classview.go).
	ContextTokens int `json:"contextTokens"`
	// AllowInsecureHTTP is llm.allowInsecureHTTP [false]: without it Validate refuses a plain
	// http:// base URL for a host other than the loopback.
	AllowInsecureHTTP bool `json:"allowInsecureHTTP"`
}

// Pricing is dollars per million prompt (input) and completion (output) tokens.
type Pricing struct {
	InputPerMTok  float64 `json:"inputPerMTok"`
	OutputPerMTok float64 `json:"outputPerMTok"`
}

// Budget stops the game cleanly once spent; zero fields mean no limit. MaxTokens and MaxUSD
// are the account's (a job's, or a server session's when shared); MethodRequests and
// MethodTokens are one client's, that is one method's game (budget.methodRequests,
// budget.methodTokens).
type Budget struct {
	MaxTokens      int     `json:"maxTokens"`
	MaxUSD         float64 `json:"maxUSD"`
	MethodRequests int     `json:"methodRequests"`
	MethodTokens   int     `json:"methodTokens"`
}

// DefaultConfig returns the settings table's defaults, reading OPENAI_BASE_URL and
// ADVERTEST_MODEL through getenv (nil: os.Getenv).
func DefaultConfig(getenv func(string) string) Config {
	return ConfigFrom(schema.Defaults(getenv))
}

// ConfigFrom is the LLM client's configuration from the settings v.
func ConfigFrom(v schema.Values) Config {
	return Config{
		BaseURL:               v.LLM.BaseURL,
		Model:                 v.LLM.Model,
		APIKeyEnv:             v.LLM.APIKeyEnv,
		Temperature:           v.LLM.Temperature,
		MaxConcurrency:        v.LLM.MaxConcurrency,
		RequestTimeoutSeconds: v.LLM.RequestTimeoutSeconds,
		Pricing:               Pricing{InputPerMTok: v.LLM.InputPerMTok, OutputPerMTok: v.LLM.OutputPerMTok},
		Budget:                Budget{MaxTokens: v.MaxTokens, MaxUSD: v.MaxUSD, MethodRequests: v.MethodRequests, MethodTokens: v.MethodTokens},
		RepairAttempts:        v.RepairAttempts,
		MaxRetries:            DefaultMaxRetries,
		MaxReplyTokens:        v.LLM.MaxReplyTokens,
		ContextTokens:         v.LLM.ContextTokens,
		AllowInsecureHTTP:     v.LLM.AllowInsecureHTTP,
	}
}

// withDefaults fills zero fields with DefaultConfig's values (not the environment's).
func (c Config) withDefaults() Config {
	d := DefaultConfig(func(string) string { return "" })
	if c.BaseURL == "" {
		c.BaseURL = d.BaseURL
	}
	if c.APIKeyEnv == "" {
		c.APIKeyEnv = d.APIKeyEnv
	}
	if c.MaxConcurrency <= 0 {
		c.MaxConcurrency = d.MaxConcurrency
	}
	if c.RequestTimeoutSeconds <= 0 {
		c.RequestTimeoutSeconds = d.RequestTimeoutSeconds
	}
	if c.RepairAttempts < 0 {
		c.RepairAttempts = 0
	}
	if c.MaxRetries < 0 {
		c.MaxRetries = 0
	}
	if c.MaxReplyTokens <= 0 {
		c.MaxReplyTokens = d.MaxReplyTokens
	}
	if c.ContextTokens <= 0 {
		c.ContextTokens = d.ContextTokens
	}
	return c
}

// RequestTimeout is RequestTimeoutSeconds as a duration.
func (c Config) RequestTimeout() time.Duration {
	return time.Duration(c.withDefaults().RequestTimeoutSeconds * float64(time.Second))
}

// APIKey reads the key from the variable APIKeyEnv names.
func (c Config) APIKey(getenv func(string) string) string {
	if getenv == nil {
		getenv = os.Getenv
	}
	return getenv(c.withDefaults().APIKeyEnv)
}

// Configured is the rule of `agents: auto` (docs/settings.md): a model, and either an API key or a
// loopback base URL (a local server needs no key).
func (c Config) Configured(getenv func(string) string) bool {
	if strings.TrimSpace(c.Model) == "" {
		return false
	}
	return c.APIKey(getenv) != "" || IsLoopback(c.withDefaults().BaseURL)
}

// Validate says what is wrong with a configuration the LLM agents are asked to use.
func (c Config) Validate(getenv func(string) string) error {
	c = c.withDefaults()
	if strings.TrimSpace(c.Model) == "" {
		return fmt.Errorf("no model: set llm.model, --llm-model or ADVERTEST_MODEL")
	}
	u, err := url.Parse(c.BaseURL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return fmt.Errorf("the LLM base URL %q is not an http(s) URL", c.BaseURL)
	}
	if u.Scheme == "http" && !IsLoopback(c.BaseURL) && !c.AllowInsecureHTTP {
		return fmt.Errorf("the LLM base URL %q is plain http:// to a host other than the loopback: the API key and the code would cross the network unencrypted; use https://, or set llm.allowInsecureHTTP to true (--set llm.allowInsecureHTTP=true)", c.BaseURL)
	}
	if c.APIKey(getenv) == "" && !IsLoopback(c.BaseURL) {
		return fmt.Errorf("no API key: the environment variable %s is empty (a loopback base URL needs none)", c.APIKeyEnv)
	}
	if c.Temperature < 0 || c.Temperature > 2 {
		return fmt.Errorf("llm.temperature %v is outside 0..2", c.Temperature)
	}
	if c.Budget.MaxTokens < 0 || c.Budget.MaxUSD < 0 || c.Budget.MethodRequests < 0 || c.Budget.MethodTokens < 0 || c.Pricing.InputPerMTok < 0 || c.Pricing.OutputPerMTok < 0 {
		return fmt.Errorf("budgets and prices cannot be negative")
	}
	return nil
}

// IsLoopback reports whether rawURL's host is localhost or a loopback address.
func IsLoopback(rawURL string) bool {
	u, err := url.Parse(rawURL)
	if err != nil {
		return false
	}
	host := u.Hostname()
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}
