package main

import (
	"encoding/json"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/advertest/advertest-lsp/app"
	"github.com/advertest/advertest-lsp/buildtools/buildtest"
	"github.com/advertest/advertest-lsp/buildtools/sandbox"
	"github.com/advertest/advertest-lsp/internal/testenv"
	"github.com/advertest/advertest-lsp/loop/llm/llmtest"
	"github.com/advertest/advertest-lsp/loop/report"
	"github.com/advertest/advertest-lsp/settings"
)

// TestAgentsSelection covers the rule for agents auto (docs/settings.md) as the flags set it,
// and the refusal of --agents llm without a usable configuration (exit 1, before any project
// is opened). The choice is made in a sandbox (app's tests cover the choice without one).
func TestAgentsSelection(t *testing.T) {
	for _, k := range []string{"OPENAI_BASE_URL", "OPENAI_API_KEY", "ADVERTEST_MODEL", "ADVERTEST_KEY_FOR_TEST"} {
		t.Setenv(k, "")
	}
	for _, tc := range []struct {
		args []string
		env  map[string]string
		llm  bool
		err  bool
	}{
		{nil, nil, false, false},
		{[]string{"--llm-model", "m"}, nil, false, false},
		{[]string{"--llm-model", "m"}, map[string]string{"OPENAI_API_KEY": "k"}, true, false},
		{[]string{"--llm-base-url", "http://127.0.0.1:1/v1"}, map[string]string{"ADVERTEST_MODEL": "m"}, true, false},
		{[]string{"--llm-model", "m", "--llm-api-key-env", "ADVERTEST_KEY_FOR_TEST"}, map[string]string{"OPENAI_API_KEY": "k"}, false, false},
		{[]string{"--agents", "offline", "--llm-model", "m"}, map[string]string{"OPENAI_API_KEY": "k"}, false, false},
		{[]string{"--agents", "llm"}, nil, false, true},
		{[]string{"--agents", "llm", "--llm-model", "m", "--llm-base-url", "https://example.invalid/v1"}, nil, false, true},
		{[]string{"--agents", "llm", "--llm-model", "m", "--llm-base-url", "http://localhost:1/v1"}, nil, true, false},
		// Plain http:// to another host: refused, unless llm.allowInsecureHTTP.
		{[]string{"--agents", "llm", "--llm-model", "m", "--llm-base-url", "http://10.1.2.3/v1"}, map[string]string{"OPENAI_API_KEY": "k"}, false, true},
		{[]string{"--agents", "auto", "--llm-model", "m", "--llm-base-url", "http://10.1.2.3/v1"}, map[string]string{"OPENAI_API_KEY": "k"}, false, false},
		{[]string{"--agents", "llm", "--llm-model", "m", "--llm-base-url", "http://10.1.2.3/v1", "--set", "llm.allowInsecureHTTP=true"}, map[string]string{"OPENAI_API_KEY": "k"}, true, false},
		// --set names the same settings as the shorthands.
		{[]string{"--set", "agents=llm", "--set", "llm.model=m", "--set", "llm.baseURL=http://[::1]:1/v1"}, nil, true, false},
	} {
		for k, v := range tc.env {
			t.Setenv(k, v)
		}
		values := parseSettings(t, tc.args...)
		choice, err := app.ChooseAgents(settings.Settings{Values: values}, os.Getenv, sandbox.Status{Mode: sandbox.ModeAuto, Kind: sandbox.KindBwrap})
		if choice.LLM != tc.llm || (err != nil) != tc.err {
			t.Errorf("%q %v: llm %v err %v; want %v, error %v", tc.args, tc.env, choice.LLM, err, tc.llm, tc.err)
		}
		for k := range tc.env {
			t.Setenv(k, "")
		}
	}

	dir := t.TempDir()
	file := filepath.Join(dir, "A.java")
	if err := os.WriteFile(file, []byte("class A {\n    int f(int x) {\n        return x + 1;\n    }\n}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, errOut := runCLI("run", file+":3", "--agents", "llm")
	if code != 1 || !strings.Contains(errOut, "no model") {
		t.Errorf("run --agents llm without a model: status %d, stderr %q; want 1 and a message", code, errOut)
	}
}

// TestRunWithScriptedLLM runs `advertest run --agents llm` on a copy of the Maven example
// against a scripted endpoint, then against a closed port (exit 1).
func TestRunWithScriptedLLM(t *testing.T) {
	testenv.NeedsJVM(t)
	if _, err := exec.LookPath("mvn"); err != nil {
		t.Skip("mvn missing")
	}
	t.Setenv("OPENAI_API_KEY", "")
	dir := t.TempDir()
	if err := buildtest.CopyProject(filepath.Join("..", "..", "examples", "maven-calculator"), filepath.Join(dir, "calc")); err != nil {
		t.Fatal(err)
	}
	srv := llmtest.Start(t, func(req *llmtest.Request, n int) llmtest.Response {
		if strings.Contains(req.Messages[0].Content, "mutation testing") {
			return llmtest.Reply("```json\n{\"mutants\": [{\"line\": 1, \"original\": \"        if (value > hi) {\", \"mutated\": \"        if (value > hi + 1) {\"},]}\n```", 900, 60)
		}
		if n == 0 {
			return llmtest.Status(429, map[string]string{"Retry-After": "0"})
		}
		return llmtest.Reply("```java\nimport org.junit.jupiter.api.Test;\nimport static org.junit.jupiter.api.Assertions.*;\nclass X {\n  @Test\n  void clampAbove() {\n    assertEquals(10, PriceCalculator.clamp(12, 0, 10))\n  }\n}\n```", 1000, 80)
	})
	file := filepath.Join(dir, "calc", "src", "main", "java", "org", "acme", "PriceCalculator.java")
	jsonPath := filepath.Join(dir, "report.json")
	// LLM-written code runs in the sandbox; where none can start, only with sandbox.mode off.
	mode, kind := "auto", "bwrap"
	if !sandbox.Probe().OK {
		mode, kind = "off", "none"
	}
	code, _, errOut := runCLI("run", file, "--method", "clamp", "--agents", "llm", "--llm-base-url", srv.URL, "--llm-model", "scripted",
		"--rounds", "1", "--json", jsonPath, "--workers", "1", "--sandbox", mode)
	if code != 0 {
		t.Fatalf("status %d:\n%s", code, errOut)
	}
	b, err := os.ReadFile(jsonPath)
	if err != nil {
		t.Fatal(err)
	}
	var rep report.Report
	if err := json.Unmarshal(b, &rep); err != nil {
		t.Fatal(err)
	}
	origins := map[string]int{}
	for _, m := range rep.Mutants {
		origins[string(m.Origin)]++
	}
	if len(rep.Tests.Methods) != 1 || rep.LLM.Requests < 2 || rep.LLM.PromptTokens < 1900 || origins["llm"] != 1 || origins["rule"] == 0 {
		t.Errorf("report: tests %v, llm %+v, origins %v", rep.Tests.Methods, rep.LLM, origins)
	}
	// The table says what the LLM cost the method.
	if want := fmt.Sprintf("\n  llm        %d requests, %s tokens (", rep.LLM.Requests, thousands(rep.LLM.PromptTokens+rep.LLM.CompletionTokens)); !strings.Contains(errOut, want) {
		t.Errorf("the table lacks %q:\n%s", want, errOut)
	}
	if rep.Sandbox == nil || rep.Sandbox.Kind != kind || rep.Sandbox.Mode != mode {
		t.Errorf("report: sandbox %+v, want %s under mode %s", rep.Sandbox, kind, mode)
	}
	for _, r := range srv.Requests() {
		if r.Temperature == nil || *r.Temperature != 0 {
			t.Errorf("a request without temperature 0: %s", r.Raw["temperature"])
		}
	}

	// A closed port: the run fails with status 1.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closed := "http://" + ln.Addr().String() + "/v1"
	ln.Close()
	code, _, errOut = runCLI("run", file, "--method", "clamp", "--agents", "llm", "--llm-base-url", closed, "--llm-model", "scripted", "--rounds", "1", "--workers", "1")
	if code != 1 || !strings.Contains(errOut, "LLM") {
		t.Errorf("unreachable LLM: status %d, stderr %q; want 1", code, errOut)
	}
}

func TestThousands(t *testing.T) {
	for n, want := range map[int]string{0: "0", 999: "999", 1000: "1,000", 272000: "272,000", 1234567: "1,234,567", -4500: "-4,500"} {
		if got := thousands(n); got != want {
			t.Errorf("thousands(%d) = %q, want %q", n, got, want)
		}
	}
}
