package loop

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/advertest/advertest-lsp/loop/agent"
	"github.com/advertest/advertest-lsp/loop/engine"
	"github.com/advertest/advertest-lsp/loop/mutants"
	"github.com/advertest/advertest-lsp/loop/report"
)

// Before a suite is written, whoever wrote it (the LLM's T or the offline one), the game keeps
// only the new tests it needs (docs/architecture.md, "Minimal suites"): a greedy cover over
// what the last evaluation already measured, so that no kill and no covered line or branch of
// the method is lost. The elements to cover are
//   - each killed mutant, by the tests the engine saw kill it (killedBy);
//   - each line of the method that a passing test executes;
//   - each line's branches: a test covers them when it takes as many of the line's branches
//     as any test does (JaCoCo's per-test counts say how many, not which).
// Elements that the project's own tests or the existing generated file already cover need no
// new test. The evaluations stop at a mutant's first killer, so the killed mutants run once
// more against all their tests first (killMatrix): the cover, and the written suite, do not
// depend on which test happened to run first. The greedy pass takes the test that covers the most uncovered elements (the earlier
// one on a tie) until all are covered; a second pass drops every kept test whose elements the
// others cover. The minimal suite then runs once on the original: should its branch coverage
// be lower (two tests that each take one side of a branch look alike in the per-test counts),
// every left-out test that takes a branch of the method comes back. Disabled tests (possible
// bugs) and tests that fail on the original are not candidates: they stay.

// minimalCover picks which candidates to keep: elements maps each candidate to the elements it
// covers; covered are the elements covered without any candidate. It returns the candidates
// to keep, in their order.
func minimalCover(candidates []string, elements map[string][]string, covered map[string]bool) []string {
	need := map[string]bool{}
	for _, c := range candidates {
		for _, e := range elements[c] {
			if !covered[e] {
				need[e] = true
			}
		}
	}
	var picked []string
	taken := map[string]bool{}
	for len(need) > 0 {
		best, bestN := "", 0
		for _, c := range candidates {
			if taken[c] {
				continue
			}
			n := 0
			for _, e := range elements[c] {
				if need[e] {
					n++
				}
			}
			if n > bestN {
				best, bestN = c, n
			}
		}
		if best == "" {
			break
		}
		taken[best] = true
		picked = append(picked, best)
		for _, e := range elements[best] {
			delete(need, e)
		}
	}
	// Irredundancy: the last picked first, drop a test whose elements the others cover.
	for i := len(picked) - 1; i >= 0; i-- {
		c := picked[i]
		count := map[string]int{}
		for d := range taken {
			for _, e := range elements[d] {
				count[e]++
			}
		}
		needed := false
		for _, e := range elements[c] {
			if !covered[e] && count[e] == 1 {
				needed = true
				break
			}
		}
		if !needed {
			delete(taken, c)
		}
	}
	var out []string
	for _, c := range candidates {
		if taken[c] {
			out = append(out, c)
		}
	}
	return out
}

// minimize leaves out of the suite the new tests that the minimal cover does not need, and
// says how many it left out. It needs the last evaluation (g.base and the verdicts); it does
// nothing when the game has none.
func (g *game) minimize(ctx context.Context) error {
	if !g.cfg.MinimalSuite || g.base == nil || len(g.suite.Tests) < 2 {
		return nil
	}
	names := g.runNames() // suite test → its name in the runs
	gen := g.suite.BinaryName()
	failing := map[string]bool{}
	for _, id := range g.base.Failing {
		if id.Class == gen {
			failing[id.Method] = true
		}
	}
	var candidates []string
	isCandidate := map[string]bool{}
	for _, t := range g.suite.Tests {
		run, ok := names[t.Name]
		if !ok || t.Disabled != "" || failing[run] {
			continue
		}
		if _, ran := g.base.Results[engine.TestID{Class: gen, Method: run}]; !ran {
			continue
		}
		candidates = append(candidates, run)
		isCandidate[run] = true
	}
	if len(candidates) < 2 {
		return nil
	}
	killers, err := g.killMatrix(ctx)
	if err != nil {
		return err
	}
	elements, covered := g.coverElements(gen, isCandidate, killers)
	keep := minimalCover(candidates, elements, covered)
	if len(keep) == len(candidates) {
		return nil
	}
	kept := map[string]bool{}
	for _, k := range keep {
		kept[k] = true
	}
	var out []string // suite names left out
	for _, t := range g.suite.Tests {
		if run, ok := names[t.Name]; ok && isCandidate[run] && !kept[run] {
			out = append(out, t.Name)
		}
	}
	whole := append([]agent.Test(nil), g.suite.Tests...) // Remove compacts in place
	g.suite.Remove(out...)
	// Check the branches on the minimal suite; bring back the tests that take branches when
	// some were lost.
	base, err := engine.RunBaseline(ctx, g.proj, g.target.Subject(), g.suiteForRuns())
	if err != nil {
		g.suite.Tests = whole
		return fmt.Errorf("running the minimal suite on the original: %w", err)
	}
	if base.Branches.Covered < g.base.Branches.Covered || base.Lines.Covered < g.base.Lines.Covered {
		back := map[string]bool{}
		for _, name := range out {
			if g.takesBranches(gen, names[name]) || base.Lines.Covered < g.base.Lines.Covered {
				back[name] = true
			}
		}
		var restored []string
		g.suite.Tests = nil
		for _, t := range whole {
			if !slices.Contains(out, t.Name) || back[t.Name] {
				g.suite.Tests = append(g.suite.Tests, t)
			}
		}
		for _, name := range out {
			if !back[name] {
				restored = append(restored, name)
			}
		}
		out = restored
	}
	g.leftOut = out
	if len(out) > 0 {
		g.warn(fmt.Sprintf("%d generated test(s) left out of the written suite: they kill no mutant and cover no line or branch of the method that the %d kept ones do not", len(out), len(g.suite.Tests)))
	}
	return nil
}

// killMatrix names, for each killed mutant, every test of the suite that kills it: the game's
// evaluations stop at the first (which one comes first depends on the tests' times), so the
// killed mutants run once more against all their tests. A mutant that this run does not kill
// (a flaky test) keeps the killers it had.
func (g *game) killMatrix(ctx context.Context) (map[string][]string, error) {
	var killed []mutants.Mutant
	for _, m := range g.pool {
		if g.verdicts[m.ID].Status == report.Killed {
			killed = append(killed, m)
		}
	}
	out := map[string][]string{}
	for _, m := range killed {
		out[m.ID] = g.verdicts[m.ID].KilledBy
	}
	if len(killed) == 0 {
		return out, nil
	}
	opts := engineOptions(g.cfg, true)
	opts.AllKillers = true
	vs, st, err := engine.Evaluate(ctx, g.proj, g.target.Subject(), g.suiteForRuns(), g.base, killed, opts)
	if err != nil {
		return nil, fmt.Errorf("the kill matrix of the minimal suite: %w", err)
	}
	g.stats.TestExecutions += st.TestExecutions
	for _, v := range vs {
		if v.Status == report.Killed && len(v.KilledBy) > 0 {
			out[v.ID] = v.KilledBy
		}
	}
	return out, nil
}

// coverElements lists what each candidate covers (by its name in the runs), and what the other
// tests of the suite cover already.
func (g *game) coverElements(gen string, isCandidate map[string]bool, killers map[string][]string) (map[string][]string, map[string]bool) {
	elements := map[string][]string{}
	covered := map[string]bool{}
	note := func(id engine.TestID, e string) {
		if id.Class == gen && isCandidate[id.Method] {
			elements[id.Method] = append(elements[id.Method], e)
		} else {
			covered[e] = true
		}
	}
	for id, ks := range killers {
		for _, k := range ks {
			i := strings.LastIndexByte(k, '.')
			if i < 0 {
				continue
			}
			note(engine.TestID{Class: k[:i], Method: k[i+1:]}, "kill:"+id)
		}
	}
	subj := g.target.Subject()
	maxBranches := map[int]int{}
	for _, id := range g.base.Passing {
		for line, lc := range g.lineCoverage(id) {
			maxBranches[line] = max(maxBranches[line], lc.CoveredBranches)
		}
	}
	for _, id := range g.base.Passing {
		for line, lc := range g.lineCoverage(id) {
			if line < subj.StartLine || line > subj.EndLine {
				continue
			}
			if lc.CoveredInstructions > 0 {
				note(id, fmt.Sprintf("line:%d", line))
			}
			if m := maxBranches[line]; m > 0 && lc.CoveredBranches == m {
				note(id, fmt.Sprintf("branches:%d", line))
			}
		}
	}
	for c := range elements {
		sort.Strings(elements[c])
	}
	return elements, covered
}

// lineCounts is what a test executed of one line.
type lineCounts struct{ CoveredInstructions, CoveredBranches int }

// lineCoverage is a test's coverage of the target's file, by line.
func (g *game) lineCoverage(id engine.TestID) map[int]lineCounts {
	r, ok := g.base.Results[id]
	if !ok || r.Coverage == nil {
		return nil
	}
	out := map[int]lineCounts{}
	top := g.target.Method.TopLevelClass
	for name, cc := range r.Coverage.Classes {
		if name != top && !strings.HasPrefix(name, top+"$") {
			continue
		}
		for line, lc := range cc.Lines {
			o := out[line]
			o.CoveredInstructions += lc.CoveredInstructions
			o.CoveredBranches += lc.CoveredBranches
			out[line] = o
		}
	}
	return out
}

// takesBranches reports whether a test takes a branch of the method.
func (g *game) takesBranches(gen, name string) bool {
	subj := g.target.Subject()
	for line, lc := range g.lineCoverage(engine.TestID{Class: gen, Method: name}) {
		if line >= subj.StartLine && line <= subj.EndLine && lc.CoveredBranches > 0 {
			return true
		}
	}
	return false
}
