package handlers_test

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/advertest/advertest-lsp/buildtools/buildtest"
	"github.com/advertest/advertest-lsp/buildtools/sandbox"
	"github.com/advertest/advertest-lsp/loop/llm/llmtest"
	"github.com/advertest/advertest-lsp/server/lsptest"
)

const judgeReason = "at value == lo both paths return lo"

// TestGenerateWithScriptedLLM runs generateTests with agents llm against a scripted
// OpenAI-compatible endpoint: the LLM's tests and mutants reach the report, the state and the
// workspace edit, the judge's verdict a Hint and the module's verdicts, and the requests carry
// temperature 0.
func TestGenerateWithScriptedLLM(t *testing.T) {
	if testing.Short() {
		t.Skip("runs Maven and JVMs")
	}
	const initial = "package org.acme;\nimport org.junit.jupiter.api.Test;\nimport static org.junit.jupiter.api.Assertions.*;\nclass T {\n    @Test\n    void clampKeepsInside() {\n        assertEquals(5, PriceCalculator.clamp(5, 0, 10));\n    }\n}"
	const killer = "package org.acme;\nimport org.junit.jupiter.api.Test;\nimport static org.junit.jupiter.api.Assertions.*;\nclass T {\n    @Test\n    void clampRaisesToLo() {\n        assertEquals(0, PriceCalculator.clamp(-5, 0, 10));\n    }\n}"
	fence := func(body string) string { return "```java\n" + body + "\n```" }
	srv := llmtest.Start(t, func(req *llmtest.Request, n int) llmtest.Response {
		last := req.Last()
		switch {
		case strings.Contains(req.Messages[0].Content, "program semantics"): // the equivalence judge
			if strings.Contains(last, "`if (value <= lo) {`") {
				return llmtest.Reply(`{"equivalent": true, "reason": "`+judgeReason+`", "input": ""}`, 60, 20)
			}
			return llmtest.Reply(`{"equivalent": false, "reason": "not sure", "input": ""}`, 60, 20)
		case strings.Contains(last, "diverse mutants"):
			return llmtest.Reply(`{"mutants":[{"line":30,"original":"            return lo;","mutated":"            return lo + 1;"}]}`, 60, 40)
		case strings.Contains(last, "cover every path"):
			return llmtest.Reply(fence(initial), 60, 40)
		case strings.Contains(req.Prompt(), `"mutants"`):
			return llmtest.Reply(`{"mutants":[]}`, 20, 5)
		}
		return llmtest.Reply(fence(killer), 60, 40)
	})
	module := buildtest.CopyExample(t, "maven-calculator")
	srcPath := filepath.Join(module, "src", "main", "java", "org", "acme", "PriceCalculator.java")
	data, err := os.ReadFile(srcPath)
	if err != nil {
		t.Fatal(err)
	}
	uri := "file://" + srcPath
	// LLM-written code runs in the sandbox; where none can start, only with sandbox.mode off.
	mode := "auto"
	if !sandbox.Probe().OK {
		mode = "off"
	}
	s := startSession(t, module, map[string]any{"agents": "llm", "rounds": 1, "sandbox": map[string]any{"mode": mode},
		"llm": map[string]any{"baseURL": srv.URL, "model": "scripted"}}, editorCaps())
	openDoc(s.c, uri, "java", string(data))
	from := s.mark()
	res := s.command("advertest.generateTests", map[string]any{"uri": uri, "position": map[string]any{"line": 28, "character": 12}})
	end, _ := s.waitEnd(from, res["job"].(string))
	if !strings.Contains(end.Message, "tests") || strings.Contains(end.Message, "failed") {
		t.Fatalf("end %q", end.Message)
	}
	// The method's LLM requests and tokens are in the final message.
	if !regexp.MustCompile(` · [1-9]\d* LLM requests, [1-9]\d* tokens`).MatchString(end.Message) {
		t.Errorf("end %q does not say what the LLM cost", end.Message)
	}
	edit, _ := s.waitFrom(from, "the edit", func(m lsptest.Message) bool { return m.Method == "workspace/applyEdit" })
	_, _, text := textOfEdit(t, edit)
	// The test that kills is written; clampKeepsInside adds nothing to the project's own test
	// of that value, so the minimal suite leaves it out.
	if !strings.Contains(text, "clampRaisesToLo") || strings.Contains(text, "clampKeepsInside") {
		t.Errorf("the suite is not the minimal one:\n%s", text)
	}
	matches, _ := filepath.Glob(filepath.Join(module, ".advertest", "methods", "org.acme.PriceCalculator", "clamp*.json"))
	if len(matches) != 1 {
		t.Fatalf("state files %v", matches)
	}
	st, _ := os.ReadFile(matches[0])
	if !strings.Contains(string(st), `"origin": "llm"`) || strings.Contains(string(st), `"requests": 0`) {
		t.Errorf("the state has no LLM mutant or no LLM usage")
	}
	// The judge found `value <= lo` likely equivalent: a Hint with its reason, kept in the
	// module's verdicts for later runs.
	if !strings.Contains(end.Message, "probably equivalent") {
		t.Errorf("end %q does not count the probably equivalent survivor", end.Message)
	}
	hint := withMessage(s.latestDiagnostics(uri), "`value < lo` → `value <= lo` survives, probably equivalent: "+judgeReason+" (the LLM judge)")
	if hint == nil || hint.Severity != 4 {
		t.Errorf("no Hint for the likely-equivalent survivor: %+v", s.latestDiagnostics(uri))
	}
	if v, err := os.ReadFile(filepath.Join(module, ".advertest", "verdicts.json")); err != nil || !strings.Contains(string(v), judgeReason) || !strings.Contains(string(v), `"by": "llm"`) {
		t.Errorf("the judge's evidence is not in verdicts.json: %v\n%s", err, v)
	}
	reqs := srv.Requests()
	if len(reqs) == 0 {
		t.Fatal("no request reached the endpoint")
	}
	for _, r := range reqs {
		if r.Temperature == nil || *r.Temperature != 0 || r.Model != "scripted" {
			t.Errorf("request: model %q, temperature %v", r.Model, r.Temperature)
			break
		}
	}
	s.shutdown()
}
