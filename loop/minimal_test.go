package loop_test

import (
	"context"
	"regexp"
	"strings"
	"testing"

	"github.com/advertest/advertest-lsp/buildtools/harness"
	"github.com/advertest/advertest-lsp/loop"
	"github.com/advertest/advertest-lsp/loop/agent"
	"github.com/advertest/advertest-lsp/loop/engine"
	"github.com/advertest/advertest-lsp/loop/mutants"
)

// branchProject runs the tests of the generated class on line 5 of fakeSource (`if (x > 0)`,
// two branches): a test named pos… takes the true side, neg… the false side; JaCoCo's per-test
// counts say one branch each, the run's union says how many sides the tests took together. A
// test named bare… executes line 4 alone.
type branchProject struct{ fakeProject }

var branchTestRE = regexp.MustCompile(`void ((pos|neg|bare)\w*)\(`)

func (p *branchProject) Run(_ context.Context, spec engine.RunSpec) (*engine.RunResult, error) {
	res := &engine.RunResult{Compile: &engine.CompileResult{OK: true}}
	sides := map[string]bool{}
	for _, x := range spec.ExtraTests {
		for _, m := range branchTestRE.FindAllStringSubmatch(x.Text, -1) {
			if strings.Contains(x.Text, "@Disabled") && strings.Contains(x.Text, m[1]) {
				continue
			}
			tr := engine.TestResult{Test: engine.TestID{Class: x.ClassName, Method: m[1]}, Outcome: harness.Passed}
			lines := map[int]harness.LineCoverage{4: {CoveredInstructions: 1}}
			if m[2] != "bare" {
				sides[m[2]] = true
				lines[5] = harness.LineCoverage{CoveredInstructions: 1, CoveredBranches: 1, MissedBranches: 1}
			}
			if spec.Coverage {
				tr.Coverage = &harness.Coverage{Classes: map[string]*harness.ClassCoverage{"p.C": {Lines: lines}}}
			}
			res.Tests = append(res.Tests, tr)
		}
	}
	if spec.Coverage {
		res.Coverage = &harness.Coverage{Classes: map[string]*harness.ClassCoverage{"p.C": {Lines: map[int]harness.LineCoverage{
			4: {CoveredInstructions: 1}, 5: {CoveredInstructions: 1, CoveredBranches: len(sides), MissedBranches: 2 - len(sides)}}}}}
	}
	return res, nil
}

// sidesT writes a test that reaches line 4 alone, then one for each side of the branch.
type sidesT struct{ fakeT }

func (*sidesT) InitialSuite(context.Context, *agent.Subject) ([]agent.Test, error) {
	var out []agent.Test
	for _, n := range []string{"bareOne", "posOne", "negOne"} {
		out = append(out, agent.Test{Name: n, Source: "@Test\nvoid " + n + "() { C.f(" + map[bool]string{true: "1", false: "-1"}[!strings.HasPrefix(n, "neg")] + "); /* " + n + " */ }\n"})
	}
	return out, nil
}

// TestMinimalSuiteKeepsBothSidesOfABranch: the per-test counts cannot tell which side a test
// took, so the cover keeps one of the two; the minimal suite's run shows a branch lost, and the
// left-out test that takes a branch comes back. The test that adds nothing stays out, and each
// test is written once.
func TestMinimalSuiteKeepsBothSidesOfABranch(t *testing.T) {
	_, target := fakeGame(t)
	proj := &branchProject{fakeProject{root: t.TempDir()}}
	cfg := loop.DefaultConfig()
	cfg.Rounds = 1
	out, err := loop.Run(context.Background(), proj, target, cfg, loop.Agents{T: &sidesT{}, M: fixedM{[]mutants.Mutant{}}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	src := out.FileText
	if strings.Count(src, "void posOne()") != 1 || strings.Count(src, "void negOne()") != 1 || strings.Contains(src, "bareOne") {
		t.Errorf("want posOne and negOne once each, bareOne left out:\n%s", src)
	}
	if got := out.Report.Tests.LeftOut; len(got) != 1 || got[0] != "p.CAdverTest.bareOne" {
		t.Errorf("left out %v", got)
	}
	if c := out.Report.Coverage; c == nil || c.Branches.Covered != 2 {
		t.Errorf("branch coverage %+v, want 2 of 2", out.Report.Coverage)
	}
}
