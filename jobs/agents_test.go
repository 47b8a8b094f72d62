package jobs

import (
	"strings"
	"testing"

	"github.com/advertest/advertest-lsp/settings"
)

func noEnv(string) string { return "" }

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
