package main

import (
	"context"
	"fmt"
	"time"

	"github.com/advertest/advertest-lsp/buildtools"
	"github.com/advertest/advertest-lsp/loop/engine"
	"github.com/advertest/advertest-lsp/loop/mutants"
	"github.com/advertest/advertest-lsp/loop/report"
)

// faultLikeCodes are the registry codes of the fault-like operators (docs/operators.md, "Fault-like
// operators"): their mutants look like real one-line faults rather than textbook operator swaps.
var faultLikeCodes = map[string]bool{"WRAP": true, "SWAP": true, "LOOP": true, "EXIT": true, "VAR": true, "ARG": true, "IDX": true}

// faultLikeCost evaluates each method's mutants again in two halves, the classic operators' and
// the fault-like operators', on the same warm pool and baseline, and says how many mutants the
// fault-like operators add and what they cost. The halves are evaluated one after the other, so
// the ratio of their times is what the fault-like operators add to a method's evaluation.
func (b bench) faultLikeCost(ctx context.Context, proj *buildtools.Project, jobs []job, suite engine.Suite) (string, error) {
	var classicN, faultN int
	var classicWall, faultWall time.Duration
	var faultKilled, faultSurvived int
	for _, j := range jobs {
		var classic, faultLike []mutants.Mutant
		for _, m := range j.ms {
			if faultLikeCodes[m.Operator] {
				faultLike = append(faultLike, m)
			} else {
				classic = append(classic, m)
			}
		}
		base, err := engine.RunBaseline(ctx, proj.Pool, j.target.Subject(), suite)
		if err != nil {
			return "", err
		}
		for _, half := range []struct {
			ms   []mutants.Mutant
			wall *time.Duration
		}{{classic, &classicWall}, {faultLike, &faultWall}} {
			if len(half.ms) == 0 {
				continue
			}
			start := time.Now()
			vs, _, err := engine.Evaluate(ctx, proj.Pool, j.target.Subject(), suite, base, half.ms, b.options())
			if err != nil {
				return "", fmt.Errorf("evaluate %s's %d mutants: %w", j.target.Method.Name, len(half.ms), err)
			}
			*half.wall += time.Since(start)
			if half.wall == &faultWall {
				c := report.Counts(vs)
				faultKilled += c[report.Killed] + c[report.Timeout]
				faultSurvived += c[report.Survived]
			}
		}
		classicN += len(classic)
		faultN += len(faultLike)
	}
	return fmt.Sprintf("fault-like operators (WRAP SWAP LOOP EXIT VAR ARG IDX): %d more mutants on top of the classic operators' %d (+%.0f%%), %d killed or timeout, %d survived; evaluated apart on the same pool: classic %.2f s, fault-like %.2f s (+%.0f%% time)",
		faultN, classicN, 100*float64(faultN)/float64(max(1, classicN)), faultKilled, faultSurvived,
		classicWall.Seconds(), faultWall.Seconds(), 100*faultWall.Seconds()/max(0.001, classicWall.Seconds())), nil
}
