package offline

import (
	"context"
	"errors"
	"fmt"

	"go.uber.org/zap"

	"github.com/advertest/advertest-lsp/buildtools/harness"
	"github.com/advertest/advertest-lsp/loop/agent"
	"github.com/advertest/advertest-lsp/loop/mutants"
)

// candidate is a differing input and what its test asserts.
type candidate struct {
	rec *record
	em  emphasis
}

// KillMutant explores the mutant with the original's inputs and turns the first inputs where
// it behaves differently into tests; it returns the first one that passes on the original
// and fails on the mutant, or none when no input tells them apart.
func (a *Agent) KillMutant(ctx context.Context, s *agent.Subject, m mutants.Mutant) ([]agent.Test, error) {
	tests, _, err := a.ExplainedKillMutant(ctx, s, m)
	return tests, err
}

// ExplainedKillMutant is KillMutant with why it wrote no test (the search's evidence, with
// the infection counts when the probes watched the mutated site); Why is "" when it wrote one.
func (a *Agent) ExplainedKillMutant(ctx context.Context, s *agent.Subject, m mutants.Mutant) ([]agent.Test, agent.Evidence, error) {
	s, orig, err := a.drive(ctx, s)
	if err != nil {
		return nil, agent.Evidence{}, err
	}
	mutated, err := mutants.Apply(s.Source, m)
	if err != nil {
		return nil, agent.Evidence{}, fmt.Errorf("offline: applying mutant %s: %w", m.ID, err)
	}
	pkg := subjectPackage(s)
	junit := junitOf(s, a.pool)
	mp := orig.params
	mp.maxTimeouts = 1
	explored := probedMutant(s.Source, mutated, orig.via)
	me, err := a.explore(ctx, harness.Source{ClassName: s.Method.TopLevelClass, Text: string(explored)}, pkg, junit, mp)
	if err != nil {
		var ce *compileError
		if errors.As(err, &ce) {
			a.log.Debug("offline: the mutant does not compile", zap.String("mutant", m.ID), zap.Error(err))
			return nil, agent.Evidence{Why: "the mutant does not compile"}, nil
		}
		return nil, agent.Evidence{}, err
	}
	cands := differences(orig, me, a.opts.Candidates*2)
	if len(cands) == 0 {
		why := noDifference(orig, me)
		if len(orig.records) > 0 {
			inf, err := a.infection(ctx, s, m, orig)
			if err != nil {
				return nil, agent.Evidence{}, err
			}
			if inf != nil {
				why = infectionEvidence(why, inf)
			}
		}
		return nil, why, nil
	}
	if last := cands[len(cands)-1]; last.em.timeout && !last.em.stopped {
		a.log.Warn("offline: a looping call of the mutant could not be stopped", zap.String("mutant", m.ID))
	}
	r := newRenderer(junit, s.Method, orig.hdr, a.opts.TestTimeout.Milliseconds())
	r.minimal = orig.params.minimal
	var tests []rendered
	for _, c := range cands {
		tests = append(tests, r.test(c.rec, c.em))
	}
	tests, cands = withoutReflection(tests, cands)
	uniqueNames(tests)
	good, err := a.verify(ctx, s, pkg, mutated, tests, cands, a.opts.Candidates)
	if err != nil {
		return nil, agent.Evidence{}, err
	}
	if len(good) == 0 {
		return nil, agent.Evidence{Why: fmt.Sprintf("the %d tests written from inputs where the mutant behaved differently did not fail on it when run", len(tests))}, nil
	}
	t := tests[good[0]]
	return []agent.Test{{Name: t.name, Source: t.source, Imports: t.imports, Target: m.ID, Origin: "search", Members: t.members}}, agent.Evidence{}, nil
}
