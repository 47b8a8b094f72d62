package app

import (
	"errors"
	"strings"
	"testing"

	"github.com/advertest/advertest-lsp/buildtools/sandbox"
	"github.com/advertest/advertest-lsp/settings"
)

func noEnv(string) string { return "" }

func withKey(name string) string {
	if name == "OPENAI_API_KEY" {
		return "k"
	}
	return ""
}

var (
	contained   = sandbox.Status{Mode: sandbox.ModeAuto, Kind: sandbox.KindBwrap}
	uncontained = sandbox.Status{Mode: sandbox.ModeAuto, Kind: sandbox.KindNone, Reason: "bwrap is not installed"}
	turnedOff   = sandbox.Status{Mode: sandbox.ModeOff, Kind: sandbox.KindNone, Reason: "sandbox.mode is off"}
)

func llmSettings(agents, baseURL string) settings.Settings {
	s := settings.Default(noEnv)
	s.Agents = agents
	s.LLM.Model = "m"
	s.LLM.BaseURL = baseURL
	return s
}

// TestChooseAgentsUnderTheSandbox: LLM-written code plays only where it may run: agents llm
// fails without a sandbox (unless sandbox.mode is off), agents auto plays offline and says
// why, as it does for an LLM configuration that is not usable.
func TestChooseAgentsUnderTheSandbox(t *testing.T) {
	for _, tc := range []struct {
		name    string
		s       settings.Settings
		getenv  func(string) string
		status  sandbox.Status
		llm     bool
		errPart string
		warning string
	}{
		{name: "llm, contained", s: llmSettings("llm", "https://api.example/v1"), getenv: withKey, status: contained, llm: true},
		{name: "llm, uncontained", s: llmSettings("llm", "https://api.example/v1"), getenv: withKey, status: uncontained, errPart: "agents llm: LLM-written code would run without a sandbox: bwrap is not installed"},
		{name: "llm, sandbox off", s: llmSettings("llm", "https://api.example/v1"), getenv: withKey, status: turnedOff, llm: true},
		{name: "llm, no model", s: settings.Default(noEnv), getenv: noEnv, status: contained, errPart: "agents llm: no model"},
		{name: "auto, contained", s: llmSettings("auto", "https://api.example/v1"), getenv: withKey, status: contained, llm: true},
		{name: "auto, uncontained", s: llmSettings("auto", "https://api.example/v1"), getenv: withKey, status: uncontained,
			warning: "agents auto plays offline: LLM-written code would run without a sandbox: bwrap is not installed"},
		{name: "auto, insecure URL", s: llmSettings("auto", "http://10.1.2.3/v1"), getenv: withKey, status: contained,
			warning: "agents auto plays offline: the LLM's configuration is not usable: the LLM base URL \"http://10.1.2.3/v1\" is plain http://"},
		{name: "auto, nothing configured", s: settings.Default(noEnv), getenv: noEnv, status: uncontained},
		{name: "offline", s: llmSettings("offline", "https://api.example/v1"), getenv: withKey, status: contained},
	} {
		if tc.name == "llm, no model" {
			tc.s.Agents = "llm"
		}
		c, err := ChooseAgents(tc.s, tc.getenv, tc.status)
		switch {
		case tc.errPart != "":
			if err == nil || !strings.HasPrefix(err.Error(), tc.errPart) {
				t.Errorf("%s: error %v, want %q", tc.name, err, tc.errPart)
			}
			if tc.status.Kind == sandbox.KindNone && !errors.Is(err, sandbox.ErrUnsandboxedLLM) {
				t.Errorf("%s: error %v does not wrap ErrUnsandboxedLLM", tc.name, err)
			}
		case err != nil:
			t.Errorf("%s: %v", tc.name, err)
		case c.LLM != tc.llm:
			t.Errorf("%s: LLM %v, want %v", tc.name, c.LLM, tc.llm)
		case !strings.HasPrefix(c.Warning, tc.warning) || (tc.warning == "") != (c.Warning == ""):
			t.Errorf("%s: warning %q, want %q", tc.name, c.Warning, tc.warning)
		}
	}
}

func TestMinimalSuiteByAgents(t *testing.T) {
	for _, c := range []struct {
		setting string
		llm     bool
		want    bool
	}{{"auto", true, true}, {"auto", false, false}, {"on", false, true}, {"off", true, false}} {
		s := settings.Default(func(string) string { return "" })
		s.SuiteMinimal = c.setting
		if got := minimalSuite(s, c.llm); got != c.want {
			t.Errorf("suite.minimal %s, LLM %v: %v, want %v", c.setting, c.llm, got, c.want)
		}
	}
}
