package loop_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/advertest/advertest-lsp/loop"
	"github.com/advertest/advertest-lsp/loop/agent"
	"github.com/advertest/advertest-lsp/loop/mutants"
	"github.com/advertest/advertest-lsp/loop/report"
)

// stubbornT finds no test for any mutant, but writes one from a judge's input: the input
// "kill" gives the test that kills the mutant (kill_<tag>), any other a test that passes on it.
type stubbornT struct {
	fakeT
	inputs []string
}

func (t *stubbornT) KillMutant(ctx context.Context, s *agent.Subject, m mutants.Mutant) ([]agent.Test, error) {
	_, _ = t.fakeT.KillMutant(ctx, s, m) // records the request
	return nil, nil
}

func (t *stubbornT) KillWithInput(_ context.Context, _ *agent.Subject, m mutants.Mutant, input string) ([]agent.Test, error) {
	tag := tagRE.FindStringSubmatch(m.Mutated)[1]
	t.inputs = append(t.inputs, tag+"="+input)
	name := "try_" + tag
	if input == "kill" {
		name = "kill_" + tag
	}
	return []agent.Test{{Name: name, Source: fmt.Sprintf("@Test\nvoid %s() { /* %s from %q */ }\n", name, tag, input), Target: m.ID}}, nil
}

// fixedM proposes its mutants first, nothing later.
type fixedM struct{ ms []mutants.Mutant }

func (m fixedM) InitialMutants(context.Context, *agent.Subject) ([]mutants.Mutant, error) {
	return m.ms, nil
}
func (fixedM) MoreMutants(context.Context, *agent.Subject, agent.Feedback) ([]mutants.Mutant, error) {
	return nil, nil
}

// scriptedJudge answers by the mutant's tag.
type scriptedJudge struct {
	answers map[string]agent.Judgement
	asked   []string
}

func (j *scriptedJudge) Judge(_ context.Context, _ *agent.Subject, m mutants.Mutant) (agent.Judgement, error) {
	tag := tagRE.FindStringSubmatch(m.Mutated)[1]
	j.asked = append(j.asked, tag)
	if a, ok := j.answers[tag]; ok {
		return a, nil
	}
	return agent.Judgement{}, fmt.Errorf("garbage: %w", agent.ErrNoJudgement)
}

// TestJudgeOnTheSurvivorsTCouldNotKill: after the game the judge is asked about each survivor
// T targeted; neither T nor the judge spends a request on those the user ignored or those
// judged before. "Equivalent" leaves a
// survivor judged likely equivalent by llm; "not equivalent" with an input becomes T's test,
// believed only when it kills the mutant; an unreadable answer is no verdict.
func TestJudgeOnTheSurvivorsTCouldNotKill(t *testing.T) {
	proj, target := fakeGame(t)
	equiv, missed, killed, ignored, judgedBefore, garbage := fakeMutant(5, "eq"), fakeMutant(5, "miss"), fakeMutant(6, "hit"),
		fakeMutant(6, "ign"), fakeMutant(8, "old"), fakeMutant(8, "junk")
	ta := &stubbornT{}
	judge := &scriptedJudge{answers: map[string]agent.Judgement{
		"eq":   {Equivalent: true, Reason: "both branches return lo at the boundary"},
		"miss": {Reason: "x = 0 differs", Input: "clamp(0, 0, 10)"},
		"hit":  {Reason: "x = 1 differs", Input: "kill"},
	}}
	cfg := loop.DefaultConfig()
	cfg.Rounds = 1
	cfg.Ignore = map[string]bool{ignored.ID: true}
	cfg.Judged = map[string]bool{judgedBefore.ID: true}
	var (
		mu     sync.Mutex // the sink is called from the engine's goroutines too
		phases []loop.Phase
	)
	out, err := loop.Run(context.Background(), proj, target, cfg,
		loop.Agents{T: ta, M: fixedM{[]mutants.Mutant{equiv, missed, killed, ignored, judgedBefore, garbage}}, Judge: judge},
		func(e loop.Event) { mu.Lock(); phases = append(phases, e.Phase); mu.Unlock() })
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"eq", "miss", "hit", "junk"}; !slices.Equal(ta.asked, want) {
		t.Errorf("T targeted %v, want %v (the ignored mutant and the one judged before left alone)", ta.asked, want)
	}
	if want := []string{"eq", "miss", "hit", "junk"}; !slices.Equal(judge.asked, want) {
		t.Errorf("the judge was asked about %v, want %v", judge.asked, want)
	}
	if want := []string{"miss=clamp(0, 0, 10)", "hit=kill"}; !slices.Equal(ta.inputs, want) {
		t.Errorf("T's tests from inputs %v, want %v", ta.inputs, want)
	}
	rep := out.Report
	byTag := map[string]report.Mutant{}
	for _, m := range rep.Mutants {
		byTag[tagRE.FindStringSubmatch(m.Mutated)[1]] = m
	}
	if m := byTag["eq"]; !m.LikelyEquivalent() || m.Equivalence.By != "llm" || m.Equivalence.Evidence != "both branches return lo at the boundary" {
		t.Errorf("judged equivalent: %s %+v", m.Status, m.Equivalence)
	}
	if m := byTag["miss"]; m.Status != report.Survived || m.Equivalence != nil {
		t.Errorf("a 'not equivalent' whose test does not kill: %s %+v, want a plain survivor", m.Status, m.Equivalence)
	}
	if m := byTag["hit"]; m.Status != report.Killed || len(m.KilledBy) != 1 || !strings.HasSuffix(m.KilledBy[0], ".kill_hit") {
		t.Errorf("a 'not equivalent' whose test kills: %s by %v", m.Status, m.KilledBy)
	}
	for _, tag := range []string{"junk", "old", "ign"} {
		if m := byTag[tag]; m.Status != report.Survived || m.Equivalence != nil {
			t.Errorf("%s: %s %+v, want a survivor without a verdict", tag, m.Status, m.Equivalence)
		}
	}
	if got, want := rep.LLM.Judge, (report.LLMJudge{Asked: 4, LikelyEquivalent: 1, Inputs: 2, KilledByInput: 1, Unanswered: 1}); got == nil || *got != want {
		t.Errorf("judge counts %+v, want %+v", got, want)
	}
	// The tests from the judge's inputs are part of T's last move: one round entry, the
	// report's evaluation.
	if got := agentsOf(rep); !slices.Equal(got, []string{"T+M", "T"}) {
		t.Errorf("rounds %v", got)
	}
	if last := rep.Rounds[len(rep.Rounds)-1]; *last.MutationScore != *rep.MutationScore || last.Tests != 3 {
		t.Errorf("the last round %+v is not the report's evaluation (score %v)", last, *rep.MutationScore)
	}
	if !strings.Contains(out.FileText, "void kill_hit()") || !slices.Contains(phases, loop.PhaseJudge) {
		t.Errorf("the suite lacks the judge's killing test, or no judge phase was reported (%v)", phases)
	}
}

// searchingT finds no test for any mutant and says what its probes saw at the mutated site,
// by the mutant's tag.
type searchingT struct {
	fakeT
	seen map[string]agent.Infection
}

func (t *searchingT) KillMutant(ctx context.Context, s *agent.Subject, m mutants.Mutant) ([]agent.Test, error) {
	_, _ = t.fakeT.KillMutant(ctx, s, m) // records the request
	return nil, nil
}

func (t *searchingT) ExplainedInitialSuite(ctx context.Context, s *agent.Subject) ([]agent.Test, agent.Evidence, error) {
	tests, err := t.InitialSuite(ctx, s)
	return tests, agent.Evidence{}, err
}

func (t *searchingT) ExplainedKillMutant(ctx context.Context, s *agent.Subject, m mutants.Mutant) ([]agent.Test, agent.Evidence, error) {
	tests, err := t.KillMutant(ctx, s, m)
	for tag, inf := range t.seen {
		if fakeMutant(5, tag).ID == m.ID {
			inf := inf
			return tests, agent.Evidence{Why: "no input told it apart", Infection: &inf}, err
		}
	}
	return tests, agent.Evidence{}, err
}

// TestSearchEvidenceGivesLikelyEquivalent: T's evidence makes a survivor likely equivalent by
// search only when its inputs reached the site, infected it on enough of them and changed no
// outcome: a site never infected, infected on too few inputs, never reached, or whose change
// showed, gives no verdict.
func TestSearchEvidenceGivesLikelyEquivalent(t *testing.T) {
	proj, target := fakeGame(t)
	ta := &searchingT{seen: map[string]agent.Infection{
		"eq":     {Reached: 212, Infected: 14},
		"clean":  {Reached: 212},
		"far":    {},
		"showed": {Reached: 212, Infected: 14, Propagated: 1},
		"thin":   {Reached: 3, Infected: agent.MinInfectedForEquivalence - 1},
	}}
	var ms []mutants.Mutant
	for tag := range ta.seen {
		ms = append(ms, fakeMutant(5, tag))
	}
	cfg := loop.DefaultConfig()
	cfg.Rounds = 1
	out, err := loop.Run(context.Background(), proj, target, cfg, loop.Agents{T: ta, M: fixedM{ms}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range out.Report.Mutants {
		tag := tagRE.FindStringSubmatch(m.Mutated)[1]
		if tag == "eq" {
			want := report.Equivalence{Verdict: report.VerdictLikelyEquivalent, By: "search",
				Evidence: "212 inputs reached this line, 14 changed its value, none changed the result"}
			if !m.LikelyEquivalent() || *m.Equivalence != want {
				t.Errorf("eq: %s %+v, want %+v", m.Status, m.Equivalence, want)
			}
			continue
		}
		if m.Status != report.Survived || m.Equivalence != nil {
			t.Errorf("%s: %s %+v, want a survivor without a verdict", tag, m.Status, m.Equivalence)
		}
	}
	// still counted: five survivors of five
	if s := out.Report.MutationScore; s == nil || *s != 0 {
		t.Errorf("score %v, want 0: a likely-equivalent survivor still counts", s)
	}
}
