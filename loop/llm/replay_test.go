package llm

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/advertest/advertest-lsp/buildtools"
	"github.com/advertest/advertest-lsp/buildtools/harness"
	"github.com/advertest/advertest-lsp/loop"
	"github.com/advertest/advertest-lsp/loop/llm/llmtest"
	"github.com/advertest/advertest-lsp/loop/report"
)

// The replay tests play the product's LLM agents (T, the LLM's M beside the rule-based one,
// the judge) on the methods of llmtest/testdata/examples.jsonl, a real model's answers to this
// repository's own examples, recorded once (see docs/llm.md, "Replays"). Each method plays
// twice, as a user running `advertest run --write-tests` twice would: the second game starts
// from the first one's file and knows the first one's equivalence verdicts (verdicts.json).
// The counts they log are docs/llm.md's figures.

const transcript = "llmtest/testdata/examples.jsonl"

// replayCounts are what one method's replay showed, over its two games.
type replayCounts struct {
	requests, killRequests, moreRequests, repairs, judgeRequests int
	promptTokens, completionTokens                               int
	// killToEquivalent counts kill requests about a mutant that was already judged, or
	// answered, equivalent (in the game or by the first game's verdicts).
	killToEquivalent int
	// repeatedM counts M follow-ups whose prompt repeated an earlier one of the same game.
	repeatedM int
	// junitRepairs counts LLM repairs of a class written for the other JUnit version.
	junitRepairs int
	unrecorded   int
	// maxKillsOneMutant is the most kill requests one mutant got in a game.
	maxKillsOneMutant int
	// unsignedShift is the most kill requests (judge's inputs included) that indexOf's
	// `>>> 1` → `>> 1`, which only an array of 2^30 elements tells apart, got in a game.
	unsignedShift int
	// written are the tests in each game's written file.
	written [2]int
	// gameRequests and gameTokens are the most requests and tokens one game used.
	gameRequests, gameTokens int
}

func (c replayCounts) String() string {
	return fmt.Sprintf("requests %d (T kill %d, M follow-ups %d, LLM repairs %d, judge %d), tokens %d+%d; "+
		"kill requests to a mutant already said equivalent: %d; repeated M prompts: %d; LLM repairs for the JUnit version: %d; "+
		"unrecorded requests: %d; most kill requests to one mutant in a game: %d; most kill requests about `>>> 1` → `>> 1` in a game: %d; tests written: %d, then %d; "+
		"the most one game used: %d requests, %d tokens",
		c.requests, c.killRequests, c.moreRequests, c.repairs, c.judgeRequests, c.promptTokens, c.completionTokens,
		c.killToEquivalent, c.repeatedM, c.junitRepairs, c.unrecorded, c.maxKillsOneMutant, c.unsignedShift, c.written[0], c.written[1],
		c.gameRequests, c.gameTokens)
}

// replayMethod plays the method twice against the transcript and counts.
func replayMethod(t *testing.T, proj *buildtools.Project, file, method string) replayCounts {
	t.Helper()
	target, err := loop.ResolveTarget(file, 0, method)
	if err != nil {
		t.Fatal(err)
	}
	var c replayCounts
	judged := map[string]bool{}
	var existing []byte
	for game := 0; game < 2; game++ {
		replay, err := llmtest.LoadReplay(transcript)
		if err != nil {
			t.Fatal(err)
		}
		srv := llmtest.Start(t, replay.Handle)
		cfg := DefaultConfig(func(string) string { return "" })
		cfg.BaseURL, cfg.Model = srv.URL, "replay"
		client, err := NewClient(cfg, ClientOptions{BaseBackoff: 10 * time.Millisecond})
		if err != nil {
			t.Fatal(err)
		}
		lcfg := loop.DefaultConfig()
		sel, err := lcfg.Selection()
		if err != nil {
			t.Fatal(err)
		}
		players, _, _ := Agents(client, proj.Pool, loop.RuleMutantAgent{Operators: sel}, nil)
		lcfg.Budget, lcfg.Usage = client.Budget, client.Usage
		lcfg.Judged = judged
		ctx, cancel := context.WithTimeout(context.Background(), 8*time.Minute)
		out, err := loop.RunFrom(ctx, proj, target, existing, lcfg, players, nil)
		cancel()
		if err != nil {
			t.Fatalf("%s, game %d: %v", method, game+1, err)
		}
		rep := out.Report
		c.requests += rep.LLM.Requests
		c.promptTokens += rep.LLM.PromptTokens
		c.completionTokens += rep.LLM.CompletionTokens
		c.written[game] = strings.Count(out.FileText, "@Test")
		c.gameRequests = max(c.gameRequests, rep.LLM.Requests)
		c.gameTokens = max(c.gameTokens, rep.LLM.PromptTokens+rep.LLM.CompletionTokens)

		// What the game asked, in order.
		saidEquivalent := map[llmtest.Key]bool{}
		for id := range judged {
			for _, m := range rep.Mutants {
				if m.ID == id {
					saidEquivalent[mutantKey(method, m)] = true
				}
			}
		}
		seenM := map[string]bool{}
		kills := map[llmtest.Key]int{}
		for _, s := range replay.Served() {
			k := s.Key
			if s.Recorded == 0 {
				c.unrecorded++
				t.Logf("%s, game %d: unrecorded %s", method, game+1, k)
			}
			switch k.Agent + "." + k.Kind {
			case "T.kill":
				c.killRequests++
				mk := llmtest.Key{Agent: "T", Kind: "kill", Method: k.Method, Line: k.Line, Original: k.Original, Mutated: k.Mutated}
				if saidEquivalent[mk] {
					c.killToEquivalent++
				}
				kills[mk]++
				if strings.Contains(k.Original, ">>> 1") && strings.Contains(k.Mutated, ">> 1") {
					c.unsignedShift = max(c.unsignedShift, kills[mk])
				}
				c.maxKillsOneMutant = max(c.maxKillsOneMutant, kills[mk])
				if j, err := ParseJudgement(s.Reply); err == nil && j.Equivalent {
					saidEquivalent[mk] = true
				}
			case "T.repair":
				c.repairs++
				if wrongJUnit(s.Prompt, proj.JUnitVersion()) {
					c.junitRepairs++
				}
			case "M.more":
				c.moreRequests++
				if seenM[s.Prompt] {
					c.repeatedM++
				}
				seenM[s.Prompt] = true
			case "J.judge":
				c.judgeRequests++
				if j, err := ParseJudgement(s.Reply); err == nil && j.Equivalent {
					saidEquivalent[llmtest.Key{Agent: "T", Kind: "kill", Method: k.Method, Line: k.Line, Original: k.Original, Mutated: k.Mutated}] = true
				}
			}
		}
		// The written file compiles and its tests pass on the original (a possible bug is
		// written disabled).
		assertSuitePasses(t, proj, out, fmt.Sprintf("%s, game %d", method, game+1))
		for _, m := range rep.Mutants {
			if m.Status == report.Survived && m.Equivalence != nil {
				judged[m.ID] = true
			}
		}
		existing = []byte(out.FileText)
	}
	return c
}

// mutantKey is the kill request's key of a mutant of the method.
func mutantKey(method string, m report.Mutant) llmtest.Key {
	return llmtest.Key{Agent: "T", Kind: "kill", Method: method, Line: m.Line, Original: strings.TrimSpace(m.Original), Mutated: strings.TrimSpace(m.Mutated)}
}

// wrongJUnit reports whether a repair prompt shows a class written for the other JUnit version.
func wrongJUnit(prompt string, junit int) bool {
	class := prompt
	if i := strings.Index(prompt, "```java"); i >= 0 {
		class = prompt[i:]
	}
	if junit == 4 {
		return strings.Contains(class, "org.junit.jupiter")
	}
	return strings.Contains(class, "import org.junit.Test;") || strings.Contains(class, "org.junit.Assert")
}

// assertSuitePasses compiles the game's written file and runs it on the original.
func assertSuitePasses(t *testing.T, proj *buildtools.Project, out *loop.Outcome, what string) {
	t.Helper()
	if out.Suite == nil || strings.Count(out.FileText, "@Test") == 0 {
		return
	}
	class := out.Suite.BinaryName()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	rr, err := proj.Pool.Run(ctx, harness.RunSpec{
		ExtraTests: []harness.Source{{ClassName: class, Text: out.FileText}},
		Tests:      []harness.TestID{{Class: class}},
	})
	if err != nil {
		t.Fatalf("%s: running the written file: %v", what, err)
	}
	if rr.Compile != nil && !rr.Compile.OK {
		t.Errorf("%s: the written file does not compile: %+v\n%s", what, rr.Compile.Diagnostics, out.FileText)
		return
	}
	for _, r := range rr.Tests {
		if r.Outcome != harness.Passed && r.Outcome != harness.Skipped {
			t.Errorf("%s: %s %s on the original: %s", what, r.Test, r.Outcome, firstLines(r.Message, 2))
		}
	}
}

// TestReplayTranscripts replays the three recorded methods and checks what the issue asks of
// them: no kill request to a mutant already said equivalent, no M prompt repeated within a
// game, no LLM repair for the Gradle example's JUnit version; the games end and their written
// files compile and pass.
func TestReplayTranscripts(t *testing.T) {
	if testing.Short() {
		t.Skip("replays play six games on the JVM")
	}
	calc, calcRoot := openCalculator(t)
	inv, invRoot := openInventory(t)
	cases := []struct {
		method string
		proj   *buildtools.Project
		file   string
	}{
		{"bulkPrice", calc, filepath.Join(calcRoot, "src", "main", "java", "org", "acme", "PriceCalculator.java")},
		{"indexOf", calc, filepath.Join(calcRoot, "src", "main", "java", "org", "acme", "SortedLookup.java")},
		{"orderPrice", inv, filepath.Join(invRoot, "src", "main", "java", "org", "acme", "inventory", "Pricing.java")},
	}
	var total replayCounts
	for _, tc := range cases {
		c := replayMethod(t, tc.proj, tc.file, tc.method)
		t.Logf("replay %s: %s", tc.method, c)
		if c.killToEquivalent != 0 {
			t.Errorf("%s: %d kill requests went to a mutant already said equivalent", tc.method, c.killToEquivalent)
		}
		if c.repeatedM != 0 {
			t.Errorf("%s: %d M prompts repeated an earlier one of their game", tc.method, c.repeatedM)
		}
		if c.junitRepairs != 0 {
			t.Errorf("%s: %d LLM repairs for the JUnit version", tc.method, c.junitRepairs)
		}
		if c.unsignedShift > 1 {
			t.Errorf("%s: the mutant only a 2^30-element array tells apart was sent %d times", tc.method, c.unsignedShift)
		}
		total.requests += c.requests
		total.killToEquivalent += c.killToEquivalent
		total.repeatedM += c.repeatedM
		total.junitRepairs += c.junitRepairs
		total.unrecorded += c.unrecorded
	}
	t.Logf("replay total: %d requests; kill requests to a mutant said equivalent %d; repeated M prompts %d; JUnit repairs %d; unrecorded %d",
		total.requests, total.killToEquivalent, total.repeatedM, total.junitRepairs, total.unrecorded)
}
