package jobs

import (
	"strings"
	"testing"

	"github.com/advertest/advertest-lsp/settings"
)

func noEnv(string) string { return "" }

func TestLLMConfigFromSettings(t *testing.T) {
	s := settings.Default(noEnv)
	s.LLM.BaseURL, s.LLM.Model, s.LLM.APIKeyEnv = "http://127.0.0.1:9/v1", "m1", "MY_KEY"
	s.LLM.InputPerMTok, s.LLM.OutputPerMTok = 1.5, 6
	s.MaxTokens, s.MaxUSD, s.RepairAttempts = 1000, 0.5, 3
	c := LLMConfig(s, noEnv)
	if c.BaseURL != s.LLM.BaseURL || c.Model != "m1" || c.APIKeyEnv != "MY_KEY" {
		t.Errorf("endpoint %q %q %q", c.BaseURL, c.Model, c.APIKeyEnv)
	}
	if c.Pricing.InputPerMTok != 1.5 || c.Pricing.OutputPerMTok != 6 || c.Budget.MaxTokens != 1000 || c.Budget.MaxUSD != 0.5 || c.RepairAttempts != 3 {
		t.Errorf("pricing %+v budget %+v repairs %d", c.Pricing, c.Budget, c.RepairAttempts)
	}
	if err := c.Validate(noEnv); err != nil {
		t.Errorf("a loopback endpoint with a model: %v", err)
	}
}

// TestAgentsLLMWithoutModel: agents llm with no model configured fails before any project
// is needed, and says which setting.
func TestAgentsLLMWithoutModel(t *testing.T) {
	s := settings.Default(noEnv)
	s.Agents = "llm"
	_, _, err := Agents(nil, s, AgentOptions{Getenv: noEnv})
	if err == nil || !strings.HasPrefix(err.Error(), "agents llm: ") || !strings.Contains(err.Error(), "model") {
		t.Fatalf("error %v, want agents llm: no model", err)
	}
}

func TestModuleRoot(t *testing.T) {
	if _, err := ModuleRoot("/nonexistent-advertest/src/A.java"); err == nil {
		t.Error("a file with no build file above it has a module root")
	}
}
