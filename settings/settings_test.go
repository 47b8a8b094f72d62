package settings

import (
	"encoding/json"
	"strings"
	"testing"
	"time"
)

func TestParseNestedAndDefaults(t *testing.T) {
	base := Default(func(string) string { return "" })
	s, problems := Parse(base, json.RawMessage(`{"rounds": 3, "onSave": "round", "onSaveDelayMs": 50,
		"mutantTimeout": {"factor": 2, "constantMs": 1500}, "jobs": {"max": 1}, "maven": {"args": ["-q"]},
		"llm": {"model": "m", "pricing": {"inputPerMTok": 1.5}}, "agents": null}`))
	if len(problems) != 0 {
		t.Fatalf("problems: %v", problems)
	}
	if s.Rounds != 3 || s.OnSave != OnSaveRound || s.OnSaveDelay != 50*time.Millisecond || s.MutantTimeoutFactor != 2 ||
		s.MutantTimeoutConstant != 1500*time.Millisecond || s.JobsMax != 1 || strings.Join(s.MavenArgs, " ") != "-q" ||
		s.LLM.Model != "m" || s.LLM.InputPerMTok != 1.5 || s.Agents != "auto" {
		t.Fatalf("parsed %+v", s)
	}
	if c := s.LoopConfig(); c.Rounds != 3 || c.MutantTimeoutConstant != 1500*time.Millisecond {
		t.Errorf("loop config %+v", c)
	}
}

func TestParseBadValuesKeepDefaults(t *testing.T) {
	base := Default(func(string) string { return "" })
	s, problems := Parse(base, json.RawMessage(`{"rounds": "five", "onSave": "always", "jobs": 3, "workers": 0.5, "colour": 1, "mutantTimeout": {"factor": -1}}`))
	var got []string
	for _, p := range problems {
		got = append(got, p.String())
	}
	want := []string{
		"setting `colour`: unknown setting (ignored)",
		"setting `jobs`: want an object, got 3",
		"setting `mutantTimeout.factor`: want a number from 1 to 100, got -1; using 1.25",
		"setting `onSave`: want one of analyze, round, off, got \"always\"; using \"analyze\"",
		"setting `rounds`: want an integer from 1 to 99, got \"five\"; using 5",
		"setting `workers`: want an integer from 0 to 64, got 0.5; using 0",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("problems:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if s.Rounds != 5 || s.OnSave != OnSaveAnalyze || s.JobsMax != 2 || s.MutantTimeoutFactor != 1.25 {
		t.Fatalf("defaults not kept: %+v", s)
	}
	if _, problems := Parse(base, json.RawMessage(`[1]`)); len(problems) != 1 {
		t.Fatalf("a list: %v", problems)
	}
}

func noEnv(string) string { return "" }

func TestLLMConfigFromSettings(t *testing.T) {
	s := Default(noEnv)
	s.LLM.BaseURL, s.LLM.Model, s.LLM.APIKeyEnv = "http://127.0.0.1:9/v1", "m1", "MY_KEY"
	s.LLM.InputPerMTok, s.LLM.OutputPerMTok = 1.5, 6
	s.MaxTokens, s.MaxUSD, s.RepairAttempts = 1000, 0.5, 3
	s.LLM.MaxReplyTokens = 777
	c := s.LLMConfig()
	if c.BaseURL != s.LLM.BaseURL || c.Model != "m1" || c.APIKeyEnv != "MY_KEY" {
		t.Errorf("endpoint %q %q %q", c.BaseURL, c.Model, c.APIKeyEnv)
	}
	if c.Pricing.InputPerMTok != 1.5 || c.Pricing.OutputPerMTok != 6 || c.Budget.MaxTokens != 1000 || c.Budget.MaxUSD != 0.5 || c.RepairAttempts != 3 {
		t.Errorf("pricing %+v budget %+v repairs %d", c.Pricing, c.Budget, c.RepairAttempts)
	}
	if c.MaxReplyTokens != 777 || c.MaxRetries != 4 || c.AllowInsecureHTTP {
		t.Errorf("max reply tokens %d, retries %d, insecure %v", c.MaxReplyTokens, c.MaxRetries, c.AllowInsecureHTTP)
	}
	if err := c.Validate(noEnv); err != nil {
		t.Errorf("a loopback endpoint with a model: %v", err)
	}
}

// TestNewSettingsReachTheConfigs: the settings the sandbox, the worker, the step budget and
// the operator registry read have the documented defaults and reach loop.Config and llm.Config.
func TestNewSettingsReachTheConfigs(t *testing.T) {
	d := Default(noEnv)
	if c := d.LoopConfig(); c.SandboxMode != "auto" || len(c.SandboxEnv) != 0 || c.WorkerHeapMB != 512 || c.MaxLeakedThreads != 32 ||
		c.StepFactor != 10 || c.StepConstant != 1_000 || strings.Join(c.Operators, ",") != "default,strong" || c.Workers != 0 {
		t.Errorf("default loop config %+v", c)
	}
	if c := d.LLMConfig(); c.MaxReplyTokens != 4096 || c.AllowInsecureHTTP {
		t.Errorf("default llm config %+v", c)
	}
	s, problems := Parse(d, json.RawMessage(`{"sandbox": {"mode": "on", "env": ["HOME", "JAVA_TOOL_OPTIONS"]},
		"worker": {"heapMB": 1024, "maxLeakedThreads": 4}, "mutantTimeout": {"stepFactor": 2.5, "stepConstant": 5000},
		"mutants": {"operators": ["default", "strong", "ROR"]}, "llm": {"maxReplyTokens": 8000, "allowInsecureHTTP": true}}`))
	if len(problems) != 0 {
		t.Fatalf("problems: %v", problems)
	}
	c := s.LoopConfig()
	if c.SandboxMode != "on" || strings.Join(c.SandboxEnv, ",") != "HOME,JAVA_TOOL_OPTIONS" || c.WorkerHeapMB != 1024 || c.MaxLeakedThreads != 4 ||
		c.StepFactor != 2.5 || c.StepConstant != 5000 || strings.Join(c.Operators, ",") != "default,strong,ROR" {
		t.Errorf("loop config %+v", c)
	}
	if l := s.LLMConfig(); l.MaxReplyTokens != 8000 || !l.AllowInsecureHTTP {
		t.Errorf("llm config %+v", l)
	}
	if s.ProjectKey() == d.ProjectKey() {
		t.Errorf("a new heap, sandbox and step budget keep the warm project: %s", s.ProjectKey())
	}
	// The variable kept from Maven, Gradle and the workers is the project's too.
	k, _ := Parse(d, json.RawMessage(`{"llm": {"apiKeyEnv": "MY_KEY"}}`))
	if k.ProjectKey() == d.ProjectKey() {
		t.Errorf("another API key variable keeps the warm project")
	}
}

func TestParseBadNewSettings(t *testing.T) {
	base := Default(noEnv)
	s, problems := Parse(base, json.RawMessage(`{"sandbox": {"mode": "maybe", "env": ["HOME", "1BAD"]},
		"mutants": {"operators": []}, "llm": {"allowInsecureHTTP": "yes", "maxReplyTokens": 0}, "worker": {"heapMB": 8}}`))
	var got []string
	for _, p := range problems {
		got = append(got, p.String())
	}
	want := []string{
		"setting `llm.allowInsecureHTTP`: want true or false, got \"yes\"; using false",
		"setting `llm.maxReplyTokens`: want an integer from 1 to 1000000, got 0; using 4096",
		"setting `mutants.operators`: want a non-empty list of strings, got []; using [\"default\" \"strong\"]",
		"setting `sandbox.env`: entry 1: want an environment variable name (letters, digits and _, not starting with a digit), got \"1BAD\"; using []",
		"setting `sandbox.mode`: want one of auto, on, off, got \"maybe\"; using \"auto\"",
		"setting `worker.heapMB`: want an integer from 64 to 65536, got 8; using 512",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("problems:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if s.ProjectKey() != base.ProjectKey() || s.LLM != base.LLM || strings.Join(s.Operators, ",") != "default,strong" {
		t.Errorf("bad values changed the settings: %+v", s)
	}
}
