package llm

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/advertest/advertest-lsp/buildtools/harness"
	"github.com/advertest/advertest-lsp/loop"
	"github.com/advertest/advertest-lsp/loop/llm/llmtest"
	"github.com/advertest/advertest-lsp/loop/report"
)

// initialWithMembers is a model's first class for clamp: a constant, a field set up in a
// @BeforeEach, a private helper, and its tests.
const initialWithMembers = `package org.acme;

import static org.junit.jupiter.api.Assertions.*;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class PriceCalculatorAdverTest {
    private static final int LIMIT = 10;
    private PriceCalculator calc;

    @BeforeEach
    void setUp() {
        calc = new PriceCalculator(0);
    }

    @Test
    void insideStays() {
        check(5, 5);
    }

    @Test
    void belowGoesToMin() {
        check(0, -3);
    }

    @Test
    void cartCountsItems() {
        assertEquals(1, calc.addItem(100));
    }

    private void check(int want, int value) {
        assertEquals(want, PriceCalculator.clamp(value, 0, LIMIT));
    }
}`

// killAboveWithClash kills `return hi;` → `return hi - 1;` with a constant of the same name
// and another value, and the same helper, which then must be renamed with it.
const killAboveWithClash = `package org.acme;

import static org.junit.jupiter.api.Assertions.*;

import org.junit.jupiter.api.Test;

class PriceCalculatorAdverTest {
    private static final int LIMIT = 20;

    @Test
    void aboveGoesToMax() {
        check(20, 50);
    }

    private void check(int want, int value) {
        assertEquals(want, PriceCalculator.clamp(value, 0, LIMIT));
    }
}`

// firstBoundsAttempt has a test that never compiles and one that passes on `lo >= hi` too.
const firstBoundsAttempt = `package org.acme;

import static org.junit.jupiter.api.Assertions.*;

import org.junit.jupiter.api.Test;

class PriceCalculatorAdverTest {
    @Test
    void boundsAsText() {
        String s = PriceCalculator.clamp(1, 2, 3);
        assertEquals("2", s);
    }

    @Test
    void wideBounds() {
        assertEquals(5, PriceCalculator.clamp(5, 0, 10));
        assertEquals(10, PriceCalculator.clamp(10, 0, 10));
    }
}`

const secondBoundsAttempt = `package org.acme;

import static org.junit.jupiter.api.Assertions.*;

import org.junit.jupiter.api.Test;

class PriceCalculatorAdverTest {
    @Test
    void equalBoundsAreAllowed() {
        assertEquals(3, PriceCalculator.clamp(3, 3, 3));
    }
}`

// TestModelClassKeptWholeAndDropsExplained: a model class with a constant, a field, a
// @BeforeEach and a helper is written with each once; a later class with a constant of the
// same name and another value gets it renamed with its helper; the written file compiles,
// passes on the original and is indented consistently. A test that did not compile is in the
// report's dropped tests with the error, and the next prompt about its mutant says what became
// of each test of the earlier attempt.
func TestModelClassKeptWholeAndDropsExplained(t *testing.T) {
	proj, target := calculatorMethod(t, "clamp")
	var mu sync.Mutex
	var boundsPrompts []string
	equivalentAsks := 0
	srv := llmtest.Start(t, func(req *llmtest.Request, _ int) llmtest.Response {
		last := req.Last()
		switch {
		case strings.Contains(req.Messages[0].Content, "mutation testing"):
			if strings.Contains(last, "diverse mutants") {
				return reply(req, fence("json", `{"mutants": [
  {"line": 33, "original": "            return hi;", "mutated": "            return hi - 1;"},
  {"line": 30, "original": "            return lo;", "mutated": "            return lo + 1;"},
  {"line": 32, "original": "        if (value > hi) {", "mutated": "        if (value >= hi) {"},
  {"line": 26, "original": "        if (lo > hi) {", "mutated": "        if (lo >= hi) {"}]}`))
			}
			return reply(req, fence("json", `{"mutants": []}`))
		case strings.Contains(last, "does not compile or cannot run"):
			return reply(req, fence("java", firstBoundsAttempt)) // the same again: not repaired
		case strings.Contains(last, "`if (value >= hi) {`"):
			mu.Lock()
			equivalentAsks++
			mu.Unlock()
			return reply(req, "They are the same.\n```json\n{\"equivalent\": true, \"reason\": \"at value == hi both return hi\"}\n```")
		case strings.Contains(last, "`return hi - 1;`"):
			return reply(req, fence("java", killAboveWithClash))
		case strings.Contains(last, "`if (lo >= hi) {`"):
			mu.Lock()
			boundsPrompts = append(boundsPrompts, last)
			n := len(boundsPrompts)
			mu.Unlock()
			if n == 1 {
				return reply(req, fence("java", firstBoundsAttempt))
			}
			return reply(req, fence("java", secondBoundsAttempt))
		case strings.Contains(last, "cover every path"):
			return reply(req, fence("java", initialWithMembers))
		}
		return llmtest.Status(400, nil)
	})
	cfg := DefaultConfig(func(string) string { return "" })
	cfg.BaseURL, cfg.Model, cfg.RepairAttempts = srv.URL, "scripted", 1
	client, err := NewClient(cfg, ClientOptions{BaseBackoff: 10 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	lcfg := loop.DefaultConfig()
	lcfg.Rounds = 3
	lcfg.Budget, lcfg.Usage = client.Budget, client.Usage
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	out, err := loop.Run(ctx, proj, target, lcfg, loop.Agents{T: NewTestAgent(client, proj.Pool, nil), M: NewMutantAgent(client, nil)}, nil)
	if err != nil {
		t.Fatal(err)
	}
	rep, src := out.Report, out.FileText
	t.Logf("warnings %q\n%s", rep.Warnings, src)

	// Each member once; the clashing constant and the helper that reads it renamed together.
	for what, n := range map[string]int{
		"    private static final int LIMIT = 10;\n": 1, "    private static final int LIMIT2 = 20;\n": 1, "    private PriceCalculator calc;\n": 1,
		"    @BeforeEach\n    void setUp() {\n        calc = new PriceCalculator(0);\n    }\n":                                   1,
		"    private void check(int want, int value) {\n        assertEquals(want, PriceCalculator.clamp(value, 0, LIMIT));\n":   1,
		"    private void check2(int want, int value) {\n        assertEquals(want, PriceCalculator.clamp(value, 0, LIMIT2));\n": 1,
		"        check2(20, 50);\n": 1, "final int LIMIT": 2,
	} {
		if got := strings.Count(src, what); got != n {
			t.Errorf("%q %d times, want %d", what, got, n)
		}
	}
	for i, l := range strings.Split(src, "\n") {
		if ind := len(l) - len(strings.TrimLeft(l, " ")); ind%4 != 0 {
			t.Errorf("line %d indented by %d: %q", i+1, ind, l)
		}
	}
	// The written file compiles and every test in it passes on the original.
	rr, err := proj.Pool.Run(ctx, harness.RunSpec{
		ExtraTests: []harness.Source{{ClassName: "org.acme.PriceCalculatorAdverTest", Text: src}},
		Tests:      []harness.TestID{{Class: "org.acme.PriceCalculatorAdverTest"}},
	})
	if err != nil {
		t.Fatal(err)
	}
	if rr.Compile != nil && !rr.Compile.OK {
		t.Fatalf("the written file does not compile: %+v", rr.Compile.Diagnostics)
	}
	if len(rr.Tests) == 0 {
		t.Fatal("no test ran")
	}
	for _, r := range rr.Tests {
		if r.Outcome != harness.Passed {
			t.Errorf("%s: %s %s", r.Test, r.Outcome, r.Message)
		}
	}
	// The mutants killed in the end, but `value >= hi`: the model answered that no input
	// tells it apart, in the format asked, once; it stays a survivor, likely equivalent.
	for _, m := range rep.Mutants {
		switch {
		case strings.Contains(m.Mutated, "value >= hi"):
			if m.Status != report.Survived || !m.LikelyEquivalent() || m.Equivalence.By != "llm" || m.Equivalence.Evidence != "at value == hi both return hi" {
				t.Errorf("`value >= hi`: %s %+v", m.Status, m.Equivalence)
			}
		case m.Status != report.Killed:
			t.Errorf("%s: %s", strings.TrimSpace(m.Mutated), m.Status)
		}
	}
	if equivalentAsks != 1 || rep.LLM.Tests == nil || rep.LLM.Tests.EquivalenceAnswers != 1 {
		t.Errorf("`value >= hi` asked %d times (llm.tests %+v), want once", equivalentAsks, rep.LLM.Tests)
	}
	// The dropped test, with its reason, in the report and in the next prompt.
	dropped := ""
	for _, d := range rep.Tests.Dropped {
		if d.Test == "boundsAsText" {
			dropped = d.Reason
		}
	}
	if !strings.HasPrefix(dropped, "did not compile") || !strings.Contains(dropped, "incompatible types") {
		t.Errorf("dropped tests %+v: want boundsAsText with the compiler's error", rep.Tests.Dropped)
	}
	if len(boundsPrompts) != 2 {
		t.Fatalf("%d prompts about `lo >= hi`, want 2", len(boundsPrompts))
	}
	for _, want := range []string{"- `boundsAsText`: did not compile: incompatible types", "- `wideBounds`: passed on the original and on the mutant: it does not tell the two lines apart\n```java\n@Test\nvoid wideBounds() {\n    assertEquals(5,"} {
		if !strings.Contains(boundsPrompts[1], want) {
			t.Errorf("the second prompt lacks %q:\n%s", want, boundsPrompts[1])
		}
	}
}
