package llm

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/advertest/advertest-lsp/buildtools/buildtest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"
	"go.uber.org/zap/zaptest/observer"

	"github.com/advertest/advertest-lsp/buildtools"
	"github.com/advertest/advertest-lsp/internal/testenv"
	"github.com/advertest/advertest-lsp/loop"
	"github.com/advertest/advertest-lsp/loop/agent"
	"github.com/advertest/advertest-lsp/loop/llm/llmtest"
	"github.com/advertest/advertest-lsp/loop/report"
)

// The end-to-end tests play the real loop on a copy of examples/maven-calculator (one copy and
// one worker pool per test binary) against a scripted endpoint.

// sharedExample is an example project copied and opened once per test binary.
type sharedExample struct {
	once sync.Once
	proj *buildtools.Project
	root string
	err  error
}

var calculator, inventory sharedExample

func TestMain(m *testing.M) {
	code := m.Run()
	for _, e := range []*sharedExample{&calculator, &inventory} {
		if e.proj != nil {
			e.proj.Close()
		}
		if e.root != "" {
			os.RemoveAll(e.root)
		}
	}
	os.Exit(code)
}

// open copies examples/NAME and opens its project at the file (a path below the copy), with
// tool (mvn or gradle) and javac; it skips the test when they are missing. It returns the
// project and the copy's folder.
func (e *sharedExample) open(t *testing.T, name, file, tool string) (*buildtools.Project, string) {
	t.Helper()
	testenv.NeedsJVM(t)
	e.once.Do(func() {
		for _, tool := range []string{tool, "javac"} {
			if _, err := exec.LookPath(tool); err != nil {
				e.err = err
				return
			}
		}
		dir, err := os.MkdirTemp("", "llm-test-")
		if err != nil {
			e.err = err
			return
		}
		e.root = dir
		dst := filepath.Join(dir, name)
		if e.err = buildtest.CopyProject(filepath.Join("..", "..", "examples", name), dst); e.err != nil {
			return
		}
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
		defer cancel()
		e.proj, e.err = buildtools.OpenProject(ctx, buildtools.NewLoader(buildtools.Options{}), filepath.Join(dst, filepath.FromSlash(file)),
			buildtools.ProjectOptions{Workers: 2, CacheDir: filepath.Join(dir, "cache")})
	})
	if e.err != nil {
		var ee *exec.Error
		if errors.As(e.err, &ee) {
			t.Skipf("toolchain missing: %v", e.err)
		}
		t.Fatalf("opening %s: %v", name, e.err)
	}
	return e.proj, filepath.Join(e.root, name)
}

// openCalculator is examples/maven-calculator (JUnit 5), shared by the tests.
func openCalculator(t *testing.T) (*buildtools.Project, string) {
	return calculator.open(t, "maven-calculator", "src/main/java/org/acme/PriceCalculator.java", "mvn")
}

// openInventory is examples/gradle-inventory (JUnit 4), shared by the tests.
func openInventory(t *testing.T) (*buildtools.Project, string) {
	return inventory.open(t, "gradle-inventory", "src/main/java/org/acme/inventory/Pricing.java", "gradle")
}

// calculatorMethod is the method NAME of the calculator's PriceCalculator, with the project.
func calculatorMethod(t *testing.T, name string) (*buildtools.Project, *loop.Target) {
	t.Helper()
	proj, root := openCalculator(t)
	target, err := loop.ResolveTarget(filepath.Join(root, "src", "main", "java", "org", "acme", "PriceCalculator.java"), 0, name)
	if err != nil {
		t.Fatal(err)
	}
	return proj, target
}

func fence(lang, body string) string { return "```" + lang + "\n" + body + "\n```" }

// brokenInitial has a missing semicolon, an unclosed method, a missing java.util import (the
// class under test has it), a type error only an LLM round fixes, a test that fails on the
// original, a field and a @BeforeEach that must be folded into every test, a wrong package.
const brokenInitial = `package org.acme.tests;

import static org.junit.jupiter.api.Assertions.*;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class PriceCalculatorClampTest {
    private int hi;

    @BeforeEach
    void setUp() {
        hi = 10;
    }

    @Test
    void clampKeepsInside() {
        assertEquals(5, PriceCalculator.clamp(5, 0, hi))
    }

    @Test
    void clampRaisesLow() {
        assertEquals(0, PriceCalculator.clamp(-5, 0, hi));

    @Test
    void clampLowersHigh() {
        List<Integer> values = new ArrayList<>();
        values.add(PriceCalculator.clamp(50, 0, hi));
        assertEquals(10, (int) values.get(0));
    }

    @Test
    void clampRejectsInvertedBounds() {
        String message = PriceCalculator.clamp(1, 5, 0);
        assertThrows(IllegalArgumentException.class, () -> PriceCalculator.clamp(1, 5, 0));
    }

    @Test
    void clampOfHiIsEleven() {
        assertEquals(11, PriceCalculator.clamp(10, 0, hi));
    }
}`

// repairedInitial is the LLM's repair: the type error gone.
const repairedInitial = `package org.acme;

import static org.junit.jupiter.api.Assertions.*;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class PriceCalculatorAdverTest {
    private int hi;

    @BeforeEach
    void setUp() {
        hi = 10;
    }

    @Test
    void clampKeepsInside() {
        assertEquals(5, PriceCalculator.clamp(5, 0, hi));
    }

    @Test
    void clampRaisesLow() {
        assertEquals(0, PriceCalculator.clamp(-5, 0, hi));
    }

    @Test
    void clampLowersHigh() {
        List<Integer> values = new ArrayList<>();
        values.add(PriceCalculator.clamp(50, 0, hi));
        assertEquals(10, (int) values.get(0));
    }

    @Test
    void clampRejectsInvertedBounds() {
        assertThrows(IllegalArgumentException.class, () -> PriceCalculator.clamp(1, 5, 0));
    }

    @Test
    void clampOfHiIsEleven() {
        assertEquals(11, PriceCalculator.clamp(10, 0, hi));
    }
}`

const killBelowLo = `import org.junit.jupiter.api.Test;
import static org.junit.jupiter.api.Assertions.assertEquals;

public class ClampBoundaryTest {
    @Test
    public void clampJustBelowLo() {
        assertEquals(0, PriceCalculator.clamp(-1, 0, 10));
    }
}`

const initialMutantJSON = `{"mutants": [
  {"line": 31, "original": "        if (value < lo) {", "mutated": "        if (value < lo - 1) {", "description": "off by one below lo"},
  {"line": 29, "original": "if (value < lo) {", "mutated": "if (value < lo - 1) {", "description": "the same again"},
  {"line": 33, "original": "            return hi;", "mutated": "            return   hi;", "description": "whitespace"},
  {"line": 35, "original": "        return value;", "mutated": "        return value; // changed", "description": "a comment"},
  {"line": 26, "original": "        if (lo > hi) {", "mutated": "        if (lo > hi) {\n        }", "description": "two lines"},
  {"line": 32, "original": "        if (value > hi) {", "mutated": "        if (value > hi {", "description": "does not parse"},
  {"line": 32, "original": "        if (value > hi) {", "mutated": "        if (value >= hi + 1) {", "description": "equivalent"},
],}`

// reply answers with usage figures of about four characters a token, as real endpoints count
// them, so that the measured tokens mean something.
func reply(req *llmtest.Request, text string) llmtest.Response {
	return llmtest.Reply(text, (len(req.Prompt())+3)/4, (len(text)+3)/4)
}

func TestLoopWithScriptedLLM(t *testing.T) {
	proj, root := openCalculator(t)
	file := filepath.Join(root, "src", "main", "java", "org", "acme", "PriceCalculator.java")
	target, err := loop.ResolveTarget(file, 0, "clamp")
	if err != nil {
		t.Fatal(err)
	}

	var mu sync.Mutex
	hits := map[string]int{}
	hit := func(route string) int {
		mu.Lock()
		defer mu.Unlock()
		hits[route]++
		return hits[route]
	}
	srv := llmtest.Start(t, func(req *llmtest.Request, n int) llmtest.Response {
		last := req.Last()
		switch {
		case strings.Contains(last, "fail on the code as it is"):
			hit("T.expectation")
			return reply(req, "```json\n{\"possibleBugs\": [{\"test\": \"clampOfHiIsEleven\", \"reason\": \"the contract says hi is raised by one\"}]}\n```")
		case strings.Contains(last, "does not compile or cannot run"):
			hit("T.repair")
			// No usage figures, as some local servers send: the client estimates them.
			return llmtest.Reply("Here is the fixed class:\n"+fence("java", repairedInitial), 0, 0)
		case strings.Contains(last, "cover every path"):
			if hit("T.initial") == 1 {
				return llmtest.Status(429, map[string]string{"Retry-After": "1"})
			}
			return reply(req, "Sure! Here are the tests.\n\n"+fence("java", brokenInitial)+"\n\nThese cover the branches.")
		case strings.Contains(last, "surviving mutant"):
			if strings.Contains(last, "value < lo - 1") {
				hit("T.kill.lo")
				return reply(req, fence("java", killBelowLo))
			}
			hit("T.kill.other")
			return reply(req, "I could not find an input that tells these two apart.")
		case strings.Contains(last, "That was not the JSON"):
			hit("M.again")
			text := `{"mutants": [{"line": 30, "original": "            return lo;", "mutated": "            return hi;", "description": "wrong bound"}, {"line": 33, "original": "            ret`
			return llmtest.Truncated(text, (len(req.Prompt())+3)/4, (len(text)+3)/4)
		case strings.Contains(last, "blind spots"):
			hit("M.more")
			return reply(req, "The lines to attack are the boundaries; I suggest changing the comparisons.")
		case strings.Contains(last, "diverse mutants"):
			if hit("M.initial") == 1 {
				return llmtest.Status(500, nil)
			}
			return reply(req, "Mutants:\n"+fence("json", initialMutantJSON))
		}
		hit("unrouted")
		return llmtest.Status(400, nil)
	})

	core, logs := observer.New(zapcore.DebugLevel)
	log := zap.New(core)
	cfg := DefaultConfig(func(string) string { return "" })
	cfg.BaseURL, cfg.Model, cfg.APIKeyEnv = srv.URL, "scripted", "ADVERTEST_TEST_KEY"
	cfg.Pricing = Pricing{InputPerMTok: 0.27, OutputPerMTok: 1.10}
	client, err := NewClient(cfg, ClientOptions{Logger: log, Getenv: testEnv, BaseBackoff: 10 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	tAgent := NewTestAgent(client, proj.Pool, log)
	mAgent := NewMutantAgent(client, log)
	lcfg := loop.DefaultConfig()
	lcfg.Rounds = 3
	lcfg.Budget = client.Budget
	lcfg.Usage = client.Usage
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	out, err := loop.Run(ctx, proj, target, lcfg, loop.Agents{T: tAgent, M: Mixed{LLM: mAgent, Rules: loop.RuleMutantAgent{}, Log: log}}, nil)
	if err != nil {
		t.Fatalf("loop.Run: %v (hits %v)", err, hits)
	}
	rep := out.Report
	t.Logf("hits %v; T stats %+v; M drops %+v; warnings %q", hits, tAgent.Stats(), mAgent.Drops(), rep.Warnings)

	// Every route played, none unexpected.
	for _, r := range []string{"T.initial", "T.repair", "T.expectation", "T.kill.lo", "M.initial", "M.more", "M.again"} {
		if hits[r] == 0 {
			t.Errorf("route %s never asked", r)
		}
	}
	if hits["unrouted"] > 0 {
		t.Errorf("%d unrouted requests", hits["unrouted"])
	}

	// The repaired tests ran on the real JVM: all six are in the suite or were left out of the
	// minimal suite, the one the model says reveals a bug written disabled with its reason.
	methods := strings.Join(append(append([]string{}, rep.Tests.Methods...), rep.Tests.LeftOut...), " ")
	for _, name := range []string{"clampKeepsInside", "clampRaisesLow", "clampLowersHigh", "clampRejectsInvertedBounds", "clampOfHiIsEleven", "clampJustBelowLo"} {
		if !strings.Contains(methods, "PriceCalculatorAdverTest."+name) {
			t.Errorf("test %s is neither in the suite nor left out: %v, %v", name, rep.Tests.Methods, rep.Tests.LeftOut)
		}
	}
	if len(rep.Tests.FailingOnOriginal) != 1 || !strings.HasSuffix(rep.Tests.FailingOnOriginal[0], ".clampOfHiIsEleven") ||
		len(rep.Tests.Disabled) != 1 || rep.Tests.Disabled[0].Reason != "the contract says hi is raised by one" {
		t.Errorf("failing on the original: %v, disabled %+v; want clampOfHiIsEleven alone, with the model's reason", rep.Tests.FailingOnOriginal, rep.Tests.Disabled)
	}
	if !strings.Contains(rep.Tests.Source, "    @Disabled(\"possible bug: the contract says hi is raised by one\")\n    @Test\n    void clampOfHiIsEleven() {") ||
		!strings.Contains(rep.Tests.Source, "import org.junit.jupiter.api.Disabled;") {
		t.Errorf("the possible bug is not written disabled:\n%s", rep.Tests.Source)
	}
	st := tAgent.Stats()
	if st.RuleRepairs < 2 || st.LLMRepairs < 1 || st.ExpectationRounds != 1 || st.FailingOriginal != 1 {
		t.Errorf("repairs: %+v, want the rules twice or more (syntax, imports), an LLM round and one question about the failing test", st)
	}
	// The class's field and set-up are the suite's, once, not copied into each test.
	if strings.Count(rep.Tests.Source, "    private int hi;\n") != 1 || strings.Count(rep.Tests.Source, "@BeforeEach") != 1 ||
		strings.Contains(rep.Tests.Source, "        int hi;") {
		t.Errorf("the class's members are not kept whole:\n%s", rep.Tests.Source)
	}

	// The LLM's surviving mutant was killed by the next round's test.
	var below *report.Mutant
	origins := map[string]int{}
	for i, m := range rep.Mutants {
		origins[string(m.Origin)]++
		if m.Line == 29 && strings.Contains(m.Mutated, "value < lo - 1") {
			below = &rep.Mutants[i]
		}
	}
	if below == nil {
		t.Fatalf("the LLM's mutant on line 29 is not in the report: %+v", rep.Mutants)
	}
	if below.Origin != "llm" || below.Status != report.Killed || !strings.Contains(strings.Join(below.KilledBy, " "), "clampJustBelowLo") {
		t.Errorf("line 29 mutant: origin %s, status %s, killed by %v; want llm, killed by clampJustBelowLo", below.Origin, below.Status, below.KilledBy)
	}
	if origins["llm"] < 3 || origins["rule"] == 0 {
		t.Errorf("origins %v: want the LLM's three valid mutants and rule mutants", origins)
	}
	d := mAgent.Drops()
	if d.Repeated < 1 || d.NoOp < 2 || d.MultiLine < 1 || d.Unparsable < 1 {
		t.Errorf("mutant drops %+v: want a repeat, two no-ops, a multi-line and an unparsable one", d)
	}

	// Tokens and cost.
	reqs := srv.Requests()
	for _, r := range reqs {
		if r.Temperature == nil || *r.Temperature != 0 {
			t.Errorf("a request had temperature %s, want 0", r.Raw["temperature"])
		}
		for _, m := range r.Messages {
			if strings.Contains(m.Content, testKey) {
				t.Errorf("the API key is in a prompt")
			}
		}
	}
	u := rep.LLM
	t.Logf("tokens for the method: %d requests, %d prompt + %d completion tokens, $%.5f", u.Requests, u.PromptTokens, u.CompletionTokens, u.CostUSD)
	if u.Requests == 0 || u.PromptTokens == 0 || u.CompletionTokens == 0 || u.Requests != len(reqs)-2 {
		t.Errorf("usage %+v for %d requests received (2 were retried)", u, len(reqs))
	}
	want := (float64(u.PromptTokens)*0.27 + float64(u.CompletionTokens)*1.10) / 1e6
	if d := u.CostUSD - want; d > 1e-12 || d < -1e-12 {
		t.Errorf("cost %v, want %v", u.CostUSD, want)
	}
	// The agents' own figures reach the report's JSON; the estimate is marked.
	if !u.Estimated {
		t.Errorf("usage %+v: the repair reply had no usage, want estimated", u)
	}
	js, err := rep.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	var decoded struct {
		LLM struct {
			Estimated   *bool               `json:"estimated"`
			Tests       *report.LLMTests    `json:"tests"`
			MutantDrops *report.MutantDrops `json:"mutantDrops"`
		} `json:"llm"`
	}
	if err := json.Unmarshal(js, &decoded); err != nil {
		t.Fatal(err)
	}
	got := decoded.LLM
	wantTests := report.LLMTests{Classes: st.Classes, Generated: st.Tests, RuleRepairs: st.RuleRepairs, LLMRepairs: st.LLMRepairs,
		Dropped: st.Dropped, FailingOnOriginal: st.FailingOriginal, EquivalenceAnswers: st.EquivalenceAnswers,
		ExpectationRounds: st.ExpectationRounds, Corrected: st.Corrected}
	if got.Estimated == nil || !*got.Estimated || got.Tests == nil || *got.Tests != wantTests || got.Tests.Generated == 0 || got.Tests.LLMRepairs == 0 {
		t.Errorf("report llm %s\nwant estimated and tests %+v", js[strings.Index(string(js), `"llm"`):], wantTests)
	}
	if got.MutantDrops == nil || *got.MutantDrops != (report.MutantDrops{NotFound: d.NotFound, MultiLine: d.MultiLine, NoOp: d.NoOp, Repeated: d.Repeated, Unparsable: d.Unparsable}) {
		t.Errorf("report llm.mutantDrops %+v, want the agent's %+v", got.MutantDrops, d)
	}
	assertNoKeyInLogs(t, logs)
	measurePrompts(t, reqs)
}

// measurePrompts logs the tokens of the run and how much of each prompt is a prefix it shares
// with an earlier request of the same method (what prompt caching can reuse).
func measurePrompts(t *testing.T, reqs []*llmtest.Request) {
	seenKind := map[string][]string{}
	var total, shared int
	var sharedSameAgent int
	lines := []string{}
	for _, r := range reqs {
		p := r.Prompt()
		agentName := "T"
		if strings.Contains(r.Messages[0].Content, "mutation testing") {
			agentName = "M"
		}
		best, bestSame := 0, 0
		for a, ps := range seenKind {
			for _, q := range ps {
				n := commonPrefix(p, q)
				best = max(best, n)
				if a == agentName {
					bestSame = max(bestSame, n)
				}
			}
		}
		seenKind[agentName] = append(seenKind[agentName], p)
		total += len(p)
		shared += best
		sharedSameAgent += bestSame
		kind := r.Last()
		if i := strings.Index(kind, "# Task\n"); i >= 0 {
			kind = strings.SplitN(kind[i+7:], "\n", 2)[0]
		}
		if len(kind) > 50 {
			kind = kind[:50]
		}
		lines = append(lines, fmt.Sprintf("%s %5d chars, prefix shared %5.1f%%  %s", agentName, len(p), 100*float64(bestSame)/float64(len(p)), kind))
	}
	t.Logf("prompts of one method (%d requests):\n  %s", len(reqs), strings.Join(lines, "\n  "))
	t.Logf("stable prefix shared with an earlier request of the same agent: %.1f%% of all prompt characters (%d of %d; ~%d tokens reusable of ~%d)",
		100*float64(sharedSameAgent)/float64(total), sharedSameAgent, total, sharedSameAgent/4, total/4)
}

func commonPrefix(a, b string) int {
	n := min(len(a), len(b))
	for i := 0; i < n; i++ {
		if a[i] != b[i] {
			return i
		}
	}
	return n
}

// TestLoopStopsAtBudget: a test whose own code throws on the original is repaired by an LLM
// round (not kept as a possible bug), and budget.maxTokens ends the game cleanly after the
// initial moves: the repair's reply reports so many tokens that no further reply fits.
func TestLoopStopsAtBudget(t *testing.T) {
	proj, root := openCalculator(t)
	file := filepath.Join(root, "src", "main", "java", "org", "acme", "PriceCalculator.java")
	target, err := loop.ResolveTarget(file, 0, "clamp")
	if err != nil {
		t.Fatal(err)
	}
	const throwing = "package org.acme;\nimport org.junit.jupiter.api.Test;\nimport static org.junit.jupiter.api.Assertions.*;\nclass T {\n    @Test\n    void clampParsesNothing() {\n        int lo = Integer.parseInt(\"zero\");\n        assertEquals(lo, PriceCalculator.clamp(-7, lo, 10));\n    }\n}"
	fixed := strings.Replace(throwing, `Integer.parseInt("zero")`, `Integer.parseInt("0")`, 1)
	srv := llmtest.Start(t, func(req *llmtest.Request, n int) llmtest.Response {
		last := req.Last()
		switch {
		case strings.Contains(last, "does not compile or cannot run"):
			if !strings.Contains(last, "NumberFormatException") {
				return llmtest.Status(400, nil)
			}
			return llmtest.Reply(fence("java", fixed), 60, 200_000)
		case strings.Contains(last, "cover every path"):
			return llmtest.Reply(fence("java", throwing), 60, 40)
		case strings.Contains(last, "diverse mutants"):
			return llmtest.Reply(`{"mutants":[{"line":30,"original":"            return lo;","mutated":"            return lo + 1;"}]}`, 60, 40)
		}
		return llmtest.Status(400, nil)
	})
	cfg := DefaultConfig(func(string) string { return "" })
	cfg.BaseURL, cfg.Model = srv.URL, "scripted"
	cfg.Budget.MaxTokens = 200_000
	client, err := NewClient(cfg, ClientOptions{})
	if err != nil {
		t.Fatal(err)
	}
	tAgent := NewTestAgent(client, proj.Pool, nil)
	lcfg := loop.DefaultConfig()
	lcfg.Rounds = 5
	lcfg.Budget, lcfg.Usage = client.Budget, client.Usage
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	out, err := loop.Run(ctx, proj, target, lcfg, loop.Agents{T: tAgent, M: NewMutantAgent(client, nil)}, nil)
	if err != nil {
		t.Fatal(err)
	}
	rep := out.Report
	if len(rep.Tests.Methods) != 1 || len(rep.Tests.FailingOnOriginal) != 0 || !strings.Contains(rep.Tests.Source, `parseInt("0")`) {
		t.Errorf("want the repaired test, passing: methods %v failing %v\n%s", rep.Tests.Methods, rep.Tests.FailingOnOriginal, rep.Tests.Source)
	}
	if st := tAgent.Stats(); st.LLMRepairs != 1 {
		t.Errorf("stats %+v, want one LLM repair", st)
	}
	if len(rep.Rounds) != 1 || !strings.Contains(strings.Join(rep.Warnings, " "), "budget") {
		t.Errorf("rounds %d, warnings %q: want the game stopped by the budget after the initial moves", len(rep.Rounds), rep.Warnings)
	}
	if rep.LLM.Requests != 3 || rep.LLM.PromptTokens+rep.LLM.CompletionTokens != 200_260 || len(srv.Requests()) != 3 {
		t.Errorf("usage %+v, %d requests received; want 3 and 200,260 tokens", rep.LLM, len(srv.Requests()))
	}
}

// TestUnrepairableTestIsDropped: a test whose type error the LLM never fixes is dropped after
// repairAttempts rounds and counted; its sound sibling is handed over.
func TestUnrepairableTestIsDropped(t *testing.T) {
	proj, root := openCalculator(t)
	file := filepath.Join(root, "src", "main", "java", "org", "acme", "PriceCalculator.java")
	target, err := loop.ResolveTarget(file, 0, "clamp")
	if err != nil {
		t.Fatal(err)
	}
	const class = "package org.acme;\nimport org.junit.jupiter.api.Test;\nimport static org.junit.jupiter.api.Assertions.*;\nclass T {\n    @Test\n    void good() {\n        assertEquals(3, PriceCalculator.clamp(3, 0, 10));\n    }\n\n    @Test\n    void bad() {\n        boolean b = PriceCalculator.clamp(3, 0, 10);\n        assertTrue(b);\n    }\n}"
	srv := llmtest.Start(t, func(req *llmtest.Request, n int) llmtest.Response {
		return llmtest.Reply("Fixed:\n"+fence("java", class), 10, 10) // the same class, every time
	})
	cfg := DefaultConfig(func(string) string { return "" })
	cfg.BaseURL, cfg.Model, cfg.RepairAttempts = srv.URL, "scripted", 2
	client, err := NewClient(cfg, ClientOptions{})
	if err != nil {
		t.Fatal(err)
	}
	a := NewTestAgent(client, proj.Pool, nil)
	s := &agent.Subject{File: file, Source: target.Source, Parsed: target.Parsed, Method: target.Method,
		Context: target.Parsed.Context(target.Method), JUnit: 5, TestClassName: "PriceCalculatorAdverTest"}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	tests, err := a.InitialSuite(ctx, s)
	if err != nil {
		t.Fatal(err)
	}
	st := a.Stats()
	if len(tests) != 1 || tests[0].Name != "good" || st.Dropped != 1 || st.LLMRepairs != 2 || len(srv.Requests()) != 3 {
		t.Errorf("tests %d (%v), stats %+v, %d requests; want good alone, 1 dropped, 2 repair rounds, 3 requests", len(tests), tests, st, len(srv.Requests()))
	}
}

// TestTruncatedClass: a class cut off by max_tokens inside its second test keeps its first
// test; the cut one is dropped once the rules and the repair round cannot finish it.
func TestTruncatedClass(t *testing.T) {
	proj, root := openCalculator(t)
	file := filepath.Join(root, "src", "main", "java", "org", "acme", "PriceCalculator.java")
	target, err := loop.ResolveTarget(file, 0, "clamp")
	if err != nil {
		t.Fatal(err)
	}
	const cut = "```java\npackage org.acme;\nimport org.junit.jupiter.api.Test;\nimport static org.junit.jupiter.api.Assertions.*;\nclass T {\n    @Test\n    void inside() {\n        assertEquals(4, PriceCalculator.clamp(4, 0, 10));\n    }\n\n    @Test\n    void above() {\n        assertEquals(10, PriceCalculator.clamp(11, 0,"
	srv := llmtest.Start(t, func(req *llmtest.Request, n int) llmtest.Response {
		return llmtest.Truncated(cut, 10, 10)
	})
	cfg := DefaultConfig(func(string) string { return "" })
	cfg.BaseURL, cfg.Model, cfg.RepairAttempts = srv.URL, "scripted", 1
	client, err := NewClient(cfg, ClientOptions{})
	if err != nil {
		t.Fatal(err)
	}
	a := NewTestAgent(client, proj.Pool, nil)
	s := &agent.Subject{File: file, Source: target.Source, Parsed: target.Parsed, Method: target.Method,
		Context: target.Parsed.Context(target.Method), JUnit: 5, TestClassName: "PriceCalculatorAdverTest"}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	tests, err := a.InitialSuite(ctx, s)
	if err != nil {
		t.Fatal(err)
	}
	if st := a.Stats(); len(tests) != 1 || tests[0].Name != "inside" || st.Dropped != 1 {
		t.Errorf("tests %v, stats %+v; want inside alone and the cut test dropped", tests, st)
	}
}
