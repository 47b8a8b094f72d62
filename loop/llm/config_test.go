package llm

import (
	"strings"
	"testing"

	"github.com/advertest/advertest-lsp/settings/schema"
)

// TestValidateRefusesPlainHTTPToAnotherHost: a plain http:// base URL is refused for a host
// other than the loopback unless llm.allowInsecureHTTP, and the message names the setting.
func TestValidateRefusesPlainHTTPToAnotherHost(t *testing.T) {
	env := func(k string) string {
		if k == "OPENAI_API_KEY" {
			return "k"
		}
		return ""
	}
	for _, tc := range []struct {
		url      string
		insecure bool
		ok       bool
	}{
		{"http://10.0.0.1/v1", false, false},
		{"http://llm.example.com:8080/v1", false, false},
		{"HTTP://llm.example.com/v1", false, false},
		{"http://10.0.0.1/v1", true, true},
		{"https://llm.example.com/v1", false, true},
		{"http://127.0.0.1:9/v1", false, true},
		{"http://localhost:9/v1", false, true},
		{"http://[::1]:9/v1", false, true},
	} {
		c := DefaultConfig(env)
		c.Model, c.BaseURL, c.AllowInsecureHTTP = "m", tc.url, tc.insecure
		err := c.Validate(env)
		if (err == nil) != tc.ok {
			t.Errorf("%s (allowInsecureHTTP %v): %v", tc.url, tc.insecure, err)
		}
		if err != nil && !strings.Contains(err.Error(), "llm.allowInsecureHTTP") {
			t.Errorf("%s: the message does not name the setting: %v", tc.url, err)
		}
		if _, err := NewClient(c, ClientOptions{Getenv: env}); (err == nil) != tc.ok {
			t.Errorf("NewClient %s (allowInsecureHTTP %v): %v", tc.url, tc.insecure, err)
		}
	}
}

// TestConfigFromTheTable: the defaults are the settings table's, and ConfigFrom carries every
// llm.* and budget.* setting.
func TestConfigFromTheTable(t *testing.T) {
	d := DefaultConfig(func(string) string { return "" })
	if d.BaseURL != DefaultBaseURL || d.APIKeyEnv != "OPENAI_API_KEY" || d.MaxConcurrency != 4 || d.RequestTimeoutSeconds != 120 ||
		d.RepairAttempts != 10 || d.MaxRetries != DefaultMaxRetries || d.MaxReplyTokens != 4096 || d.AllowInsecureHTTP || d.Model != "" ||
		d.ContextTokens != DefaultContextTokens || d.Budget.MethodRequests != 60 || d.Budget.MethodTokens != 200_000 {
		t.Errorf("defaults %+v", d)
	}
	v := schema.Defaults(func(string) string { return "" })
	for name, text := range map[string]string{
		"llm.baseURL": "http://10.0.0.2/v1", "llm.model": "m", "llm.apiKeyEnv": "K", "llm.temperature": "0.5",
		"llm.maxConcurrency": "2", "llm.requestTimeoutSeconds": "30", "llm.maxReplyTokens": "100", "llm.allowInsecureHTTP": "true",
		"llm.pricing.inputPerMTok": "1", "llm.pricing.outputPerMTok": "2", "budget.maxTokens": "10", "budget.maxUSD": "0.5",
		"repairAttempts": "3", "budget.methodRequests": "7", "budget.methodTokens": "9000", "llm.contextTokens": "600",
	} {
		if err := schema.Set(&v, name, text); err != nil {
			t.Fatal(err)
		}
	}
	want := Config{BaseURL: "http://10.0.0.2/v1", Model: "m", APIKeyEnv: "K", Temperature: 0.5, MaxConcurrency: 2, RequestTimeoutSeconds: 30,
		Pricing: Pricing{1, 2}, Budget: Budget{10, 0.5, 7, 9000}, RepairAttempts: 3, MaxRetries: DefaultMaxRetries, MaxReplyTokens: 100,
		ContextTokens: 600, AllowInsecureHTTP: true}
	if got := ConfigFrom(v); got != want {
		t.Errorf("ConfigFrom:\n%+v\nwant\n%+v", got, want)
	}
}
