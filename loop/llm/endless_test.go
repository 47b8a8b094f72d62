package llm

import (
	"context"
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/advertest/advertest-lsp/buildtools/harness"
	"github.com/advertest/advertest-lsp/loop"
	"github.com/advertest/advertest-lsp/loop/llm/llmtest"
)

// passingProject is a module whose every compile succeeds and every test passes, on the
// original and on every mutant, with no coverage measured: a mutant always survives. No JVM.
type passingProject struct{ root string }

var _ loop.Project = passingProject{}

func (p passingProject) ModuleRoot() string       { return p.root }
func (p passingProject) TestClassNames() []string { return nil }
func (p passingProject) TestFileFor(pkg, simple string) string {
	return filepath.Join(p.root, "src", "test", "java", strings.ReplaceAll(pkg, ".", "/"), simple+".java")
}
func (passingProject) JUnitVersion() int      { return 5 }
func (passingProject) MockitoVersion() string { return "" }

func (passingProject) Compile(context.Context, []harness.Source) (*harness.CompileResult, error) {
	return &harness.CompileResult{OK: true}, nil
}

var testNameRE = regexp.MustCompile(`void (\w+)\(`)

func (passingProject) Run(_ context.Context, spec harness.RunSpec) (*harness.RunResult, error) {
	res := &harness.RunResult{Compile: &harness.CompileResult{OK: true}}
	for _, x := range spec.ExtraTests {
		for _, m := range testNameRE.FindAllStringSubmatch(x.Text, -1) {
			res.Tests = append(res.Tests, harness.TestResult{Test: harness.TestID{Class: x.ClassName, Method: m[1]}, Outcome: harness.Passed})
		}
	}
	return res, nil
}

const endlessSource = `package p;

public class Step {
    public static int next(int x) {
        if (x > 0) {
            return x + 1;
        }
        return x - 1;
    }
}
`

// TestDefaultBudgetStopsAnEndlessGame: a model that always proposes new mutants and never
// writes a test that tells one apart, over 99 rounds, is stopped by the method's default
// budget (budget.methodRequests), and the report says so.
func TestDefaultBudgetStopsAnEndlessGame(t *testing.T) {
	root := t.TempDir()
	target, err := loop.ResolveTargetInText(filepath.Join(root, "src", "main", "java", "p", "Step.java"), []byte(endlessSource), 0, "next")
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	n := 0
	srv := llmtest.Start(t, func(req *llmtest.Request, _ int) llmtest.Response {
		mu.Lock()
		n++
		k := n
		mu.Unlock()
		if strings.Contains(req.Messages[0].Content, "mutation testing") {
			var ms []string
			for i := 0; i < 12; i++ {
				ms = append(ms, fmt.Sprintf(`{"line": 6, "original": "            return x + 1;", "mutated": "            return x + %d;"}`, 1000*k+i+2))
			}
			return llmtest.Reply("```json\n{\"mutants\": ["+strings.Join(ms, ",")+"]}\n```", 100, 100)
		}
		return llmtest.Reply(fmt.Sprintf("```java\npackage p;\nimport org.junit.jupiter.api.Test;\nclass StepAdverTest {\n    @Test\n    void t%d() {\n        Step.next(%d);\n    }\n}\n```", k, k), 100, 100)
	})
	cfg := DefaultConfig(func(string) string { return "" })
	cfg.BaseURL, cfg.Model = srv.URL, "scripted"
	client, err := NewClient(cfg, ClientOptions{})
	if err != nil {
		t.Fatal(err)
	}
	proj := passingProject{root: root}
	lcfg := loop.DefaultConfig()
	lcfg.Rounds = 99
	lcfg.Budget, lcfg.Usage = client.Budget, client.Usage
	out, err := loop.Run(context.Background(), proj, target, lcfg, loop.Agents{T: NewTestAgent(client, proj, nil), M: NewMutantAgent(client, nil)}, nil)
	if err != nil {
		t.Fatal(err)
	}
	rep := out.Report
	limit := cfg.Budget.MethodRequests
	if limit <= 0 || rep.LLM.Requests != limit || len(srv.Requests()) != limit {
		t.Errorf("%d requests answered, %d received; want the default budget's %d", rep.LLM.Requests, len(srv.Requests()), limit)
	}
	stopped := ""
	for _, w := range rep.Warnings {
		if strings.HasPrefix(w, loop.StoppedWarningPrefix) {
			stopped = w
		}
	}
	if !strings.Contains(stopped, fmt.Sprintf("%d of budget.methodRequests %d requests sent", limit, limit)) || len(rep.Rounds) >= 100 {
		t.Errorf("rounds %d, warnings %q: want the game stopped by budget.methodRequests", len(rep.Rounds), rep.Warnings)
	}
}
