package llm

import (
	"context"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/advertest/advertest-lsp/loop"
	"github.com/advertest/advertest-lsp/loop/llm/llmtest"
	"github.com/advertest/advertest-lsp/loop/report"
)

// The judge's mutants of clamp (lines 29, 32 and 33 of the example), none of which the weak
// initial suite kills.
const judgeMutantJSON = `{"mutants": [
  {"line": 29, "original": "        if (value < lo) {", "mutated": "        if (value <= lo) {"},
  {"line": 32, "original": "        if (value > hi) {", "mutated": "        if (value >= hi) {"},
  {"line": 29, "original": "        if (value < lo) {", "mutated": "        if (value < lo - 1) {"},
  {"line": 33, "original": "            return hi;", "mutated": "            return lo;"}
]}`

const insideOnly = `package org.acme;

import static org.junit.jupiter.api.Assertions.*;

import org.junit.jupiter.api.Test;

class PriceCalculatorAdverTest {
    @Test
    void clampKeepsInside() {
        assertEquals(5, PriceCalculator.clamp(5, 0, 10));
    }
}`

// fromInput is T's test from a judge's input: the original's result for that call.
func fromInput(name, call, result string) string {
	return "package org.acme;\n\nimport static org.junit.jupiter.api.Assertions.*;\n\nimport org.junit.jupiter.api.Test;\n\nclass PriceCalculatorAdverTest {\n    @Test\n    void " +
		name + "() {\n        assertEquals(" + result + ", " + call + ");\n    }\n}"
}

// TestJudgeWithScriptedLLM plays the game with the LLM's T, M and judge on the real JVM. The
// judge calls `value <= lo` equivalent (a likely-equivalent survivor by llm); it claims `value
// >= hi` is not, with an input whose test does not kill it (the mutant stays a plain
// survivor: the claim is not believed); its input for `value < lo - 1` gives a test that kills
// it; its answer on `return lo;` is not the JSON asked for (no verdict).
func TestJudgeWithScriptedLLM(t *testing.T) {
	proj, root := openCalculator(t)
	file := filepath.Join(root, "src", "main", "java", "org", "acme", "PriceCalculator.java")
	target, err := loop.ResolveTarget(file, 0, "clamp")
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	hits := map[string]int{}
	hit := func(route string) { mu.Lock(); hits[route]++; mu.Unlock() }
	srv := llmtest.Start(t, func(req *llmtest.Request, n int) llmtest.Response {
		last := req.Last()
		system := req.Messages[0].Content
		switch {
		case strings.Contains(system, "program semantics"):
			switch {
			case strings.Contains(last, "`if (value <= lo) {`"):
				hit("J.equivalent")
				return reply(req, "```json\n{\"equivalent\": true, \"reason\": \"the conditions differ only at value == lo, where both return lo\", \"input\": \"\"}\n```")
			case strings.Contains(last, "`if (value >= hi) {`"):
				hit("J.wrong")
				return reply(req, `{"equivalent": false, "reason": "at value == hi the mutant returns hi early", "input": "clamp(10, 0, 10)"}`)
			case strings.Contains(last, "`if (value < lo - 1) {`"):
				hit("J.right")
				return reply(req, `{"equivalent": false, "reason": "value == lo - 1 is not raised to lo", "input": "clamp(-1, 0, 10)"}`)
			}
			hit("J.garbage")
			return reply(req, `{"equivalent": "probably", "reason": "hard to say"}`)
		case strings.Contains(last, "A reviewer says this input"):
			if strings.Contains(last, "clamp(10, 0, 10)") {
				hit("T.input.wrong")
				return reply(req, fence("java", fromInput("clampAtHi", "PriceCalculator.clamp(10, 0, 10)", "10")))
			}
			hit("T.input.right")
			return reply(req, fence("java", fromInput("clampJustBelowLo", "PriceCalculator.clamp(-1, 0, 10)", "0")))
		case strings.Contains(last, "surviving mutant"):
			hit("T.kill")
			return reply(req, "I could not find an input that tells these two apart.")
		case strings.Contains(last, "cover every path"):
			hit("T.initial")
			return reply(req, fence("java", insideOnly))
		case strings.Contains(last, "diverse mutants"):
			hit("M.initial")
			return reply(req, fence("json", judgeMutantJSON))
		}
		hit("unrouted")
		return llmtest.Status(400, nil)
	})
	cfg := DefaultConfig(func(string) string { return "" })
	cfg.BaseURL, cfg.Model = srv.URL, "scripted"
	client, err := NewClient(cfg, ClientOptions{BaseBackoff: 10 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	players, _, _ := Agents(client, proj.Pool, loop.RuleMutantAgent{}, nil)
	players.M = NewMutantAgent(client, nil) // the LLM's mutants alone: the four above
	lcfg := loop.DefaultConfig()
	lcfg.Rounds = 1
	lcfg.Budget, lcfg.Usage = client.Budget, client.Usage
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	out, err := loop.Run(ctx, proj, target, lcfg, players, nil)
	if err != nil {
		t.Fatalf("loop.Run: %v (hits %v)", err, hits)
	}
	rep := out.Report
	t.Logf("hits %v; warnings %q", hits, rep.Warnings)
	for _, r := range []string{"J.equivalent", "J.wrong", "J.right", "J.garbage", "T.input.wrong", "T.input.right"} {
		if hits[r] != 1 {
			t.Errorf("route %s asked %d times, want once", r, hits[r])
		}
	}
	if hits["T.kill"] != 4 || hits["unrouted"] > 0 {
		t.Errorf("hits %v: want T asked about the four survivors, nothing unrouted", hits)
	}
	byMutated := map[string]report.Mutant{}
	for _, m := range rep.Mutants {
		byMutated[strings.TrimSpace(m.Mutated)] = m
	}
	if m := byMutated["if (value <= lo) {"]; !m.LikelyEquivalent() || m.Equivalence.By != "llm" || !strings.Contains(m.Equivalence.Evidence, "both return lo") {
		t.Errorf("`value <= lo`: %s %+v, want a survivor likely equivalent by llm with the judge's reason", m.Status, m.Equivalence)
	}
	if m := byMutated["if (value >= hi) {"]; m.Status != report.Survived || m.Equivalence != nil {
		t.Errorf("`value >= hi`: %s %+v; the judge's 'not equivalent' did not kill it, want a plain survivor", m.Status, m.Equivalence)
	}
	if m := byMutated["if (value < lo - 1) {"]; m.Status != report.Killed || !strings.Contains(strings.Join(m.KilledBy, " "), "clampJustBelowLo") {
		t.Errorf("`value < lo - 1`: %s by %v, want killed by the test from the judge's input", m.Status, m.KilledBy)
	}
	if m := byMutated["return lo;"]; m.Status != report.Survived || m.Equivalence != nil {
		t.Errorf("`return lo;`: %s %+v, want a survivor without a verdict", m.Status, m.Equivalence)
	}
	want := report.LLMJudge{Asked: 4, LikelyEquivalent: 1, Inputs: 2, KilledByInput: 1, Unanswered: 1}
	if rep.LLM.Judge == nil || *rep.LLM.Judge != want {
		t.Errorf("llm.judge %+v, want %+v", rep.LLM.Judge, want)
	}
	// The judge's requests are in the report's figures, sent like every other one.
	reqs := srv.Requests()
	if rep.LLM.Requests != len(reqs) {
		t.Errorf("llm.requests %d, %d requests received", rep.LLM.Requests, len(reqs))
	}
	for _, r := range reqs {
		if r.Temperature == nil || *r.Temperature != 0 {
			t.Errorf("a request had temperature %s", r.Raw["temperature"])
		}
	}
	// The test from the judge's input that kills is in the suite; the one that kills nothing
	// and covers nothing the project's tests do not is left out of the minimal suite. The
	// score counts the likely-equivalent survivor.
	if !strings.Contains(rep.Tests.Source, "clampJustBelowLo") || strings.Contains(rep.Tests.Source, "clampAtHi") ||
		!strings.Contains(strings.Join(rep.Tests.LeftOut, " "), "PriceCalculatorAdverTest.clampAtHi") {
		t.Errorf("left out %v; suite:\n%s", rep.Tests.LeftOut, rep.Tests.Source)
	}
	if rep.MutationScore == nil || *rep.MutationScore != 0.25 {
		t.Errorf("score %v, want 1 killed of 4 (likely-equivalent survivors still count)", rep.MutationScore)
	}
}
