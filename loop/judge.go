package loop

import (
	"context"
	"errors"
	"fmt"

	"github.com/advertest/advertest-lsp/loop/agent"
	"github.com/advertest/advertest-lsp/loop/mutants"
	"github.com/advertest/advertest-lsp/loop/report"
)

// The equivalence judge plays after T's last move (docs/llm.md, "The judge"): each survivor
// that T targeted and could not kill is put to it. "Equivalent" leaves the mutant a survivor
// judged likely equivalent (by llm, its reason as the evidence): it still counts in the score,
// the editor shows it softer. "Not equivalent" with an input has T write tests from the input;
// the claim is believed only when the engine sees one of them kill the mutant, and otherwise
// the mutant stays a plain survivor.

// judge runs the judge on the survivors T could not kill, then evaluates the tests written
// from its inputs (the report's last round then stands for that evaluation).
func (g *game) judge(ctx context.Context, rounds int) error {
	if g.agents.Judge == nil {
		return nil
	}
	var todo []mutants.Mutant
	for _, m := range g.survivors() {
		// Not those T already answered about (equivalent), nor those judged in an earlier run.
		if g.targeted[m.ID] && !g.cfg.Judged[m.ID] && g.equivalence[m.ID] == nil {
			todo = append(todo, m)
		}
	}
	g.judged = &report.LLMJudge{}
	if len(todo) == 0 {
		return nil
	}
	g.sink.emit(Event{Phase: PhaseJudge, Round: rounds, Rounds: rounds, Agent: "T", Total: len(todo),
		Message: fmt.Sprintf("the equivalence judge on %d surviving mutants", len(todo))})
	tester, _ := g.agents.T.(agent.InputTester)
	var (
		tests    []agent.Test
		withTest []string
	)
	for i, m := range todo {
		if err := ctx.Err(); err != nil {
			return err
		}
		if g.cfg.Budget != nil {
			if err := g.cfg.Budget(); err != nil {
				g.warn(fmt.Sprintf(StoppedWarningPrefix+"the equivalence judge after %d of %d survivors: %v", i, len(todo), err))
				break
			}
		}
		g.judged.Asked++
		j, err := g.agents.Judge.Judge(ctx, g.subject, m)
		if err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			if errors.Is(err, agent.ErrNoJudgement) {
				g.judged.Unanswered++
				continue
			}
			g.warn("the equivalence judge failed: " + err.Error())
			break
		}
		switch {
		case j.Equivalent:
			g.judged.LikelyEquivalent++
			g.equivalence[m.ID] = &report.Equivalence{Verdict: report.VerdictLikelyEquivalent, By: report.ByLLM, Evidence: j.Reason}
		case j.Input != "" && tester != nil && !g.bounded[m.ID]:
			// (A mutant whose attempt hit a harness bound is not asked about again.)
			ts, err := tester.KillWithInput(ctx, g.subject, m, j.Input)
			if err != nil {
				if ctx.Err() != nil {
					return ctx.Err()
				}
				if g.agentCannot(err) {
					break
				}
				return fmt.Errorf("the test agent on the judge's input for mutant %s: %w", m.ID, err)
			}
			if len(ts) > 0 {
				g.judged.Inputs++
				tests = append(tests, ts...)
				withTest = append(withTest, m.ID)
			}
		}
		g.sink.emit(Event{Phase: PhaseJudge, Round: rounds, Rounds: rounds, Agent: "T", Done: i + 1, Total: len(todo)})
	}
	if len(tests) == 0 {
		return nil
	}
	if err := g.addTests(ctx, tests); err != nil {
		return err
	}
	if err := g.evaluate(ctx, rounds, "T", rounds); err != nil {
		return err
	}
	// The evaluation belongs to T's last move: one round entry for it.
	if n := len(g.rounds); n >= 2 {
		g.rounds = append(g.rounds[:n-2], g.rounds[n-1])
	}
	for _, id := range withTest {
		if g.verdicts[id].Status == report.Killed {
			g.judged.KilledByInput++
		}
	}
	return nil
}

// attachEquivalence gives the report's survivors the judge's verdicts, else the search's (T's
// evidence on the survivors it could not kill, SearchEquivalence).
func (g *game) attachEquivalence(rep *report.Report) {
	for i := range rep.Mutants {
		m := &rep.Mutants[i]
		eq := g.equivalence[m.ID]
		if eq == nil {
			eq = g.searched[m.ID]
		}
		if eq != nil && m.Status == report.Survived {
			c := *eq
			m.Equivalence = &c
		}
	}
}
