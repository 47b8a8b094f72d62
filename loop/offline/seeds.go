package offline

import (
	"context"
	"slices"
	"strings"
	"time"

	"go.uber.org/zap"

	"github.com/advertest/advertest-lsp/buildtools/harness"
	"github.com/advertest/advertest-lsp/loop/agent"
)

// Dynamic seeding (docs/explorer.md, "Seeding"): before the original's explorations, one short
// run of the explorer (Explorer.seeding) with the worker recording the comparisons of the
// run's classes (harness.RunSpec.RecordCompares) says which strings, characters and int
// constants the method and the project code it calls compare their input with. They join the
// method's literals, bounded and in the order first seen, and every later exploration of the
// method (the original twice, each mutant, the probes) runs with that same fixed list and
// without recording: the inputs must not depend on what a run saw, or the original's and a
// mutant's outcomes would no longer line up input by input.

// seedsLine is the seeding pass's line (Output.seeds).
type seedsLine struct {
	Seeds     []string `json:"seeds"`
	SeedChars string   `json:"seedChars"`
	SeedInts  []int64  `json:"seedInts"`
}

// Bounds on what a seeding pass adds to the literals: tokens, their length, characters, ints.
const (
	maxSeeds      = 16
	maxSeedLength = 32
	maxSeedChars  = 32
	maxSeedInts   = 6
)

// withSeeds returns p with the seeds of s's method added to its literals, from a seeding pass.
// It runs once per exploration of the original, whose answer the agent's cache keeps (the seeds
// are in its params, which the mutants' explorations reuse). A pass that fails leaves p as it is
// (the search goes on unseeded).
func (a *Agent) withSeeds(ctx context.Context, s *agent.Subject, p explorerParams) explorerParams {
	if a.opts.NoSeeding {
		return p
	}
	seen, err := a.seedingPass(ctx, s, p)
	if err != nil {
		a.log.Debug("offline: the seeding pass failed; exploring without seeds", zap.String("method", methodID(s)), zap.Error(err))
		return p
	}
	p.lits = mergeSeeds(p.lits, seen)
	return p
}

// seedingPass runs the explorer once in seeding mode on the original, recording comparisons.
func (a *Agent) seedingPass(ctx context.Context, s *agent.Subject, p explorerParams) (seedsLine, error) {
	p.seeding = true
	p.budget = a.opts.SeedBudget
	p.probe = "" // the pass compiles the plain source: an entry probe's class is not there
	start := time.Now()
	e, err := a.explore(ctx, harness.Source{ClassName: s.Method.TopLevelClass, Text: string(s.Source)}, subjectPackage(s), junitOf(s, a.pool), p)
	if err != nil {
		return seedsLine{}, err
	}
	var seen seedsLine
	if e.seeds != nil {
		seen = *e.seeds
	}
	a.log.Debug("offline: seeding pass", zap.String("method", methodID(s)), zap.Strings("tokens", seen.Seeds),
		zap.String("chars", seen.SeedChars), zap.Int64s("ints", seen.SeedInts), zap.Duration("took", time.Since(start)))
	return seen, nil
}

// mergeSeeds adds what a seeding pass saw to the method's literals, apart from its own: tokens
// the string literals do not hold already (as seeds, which Inputs combines: Seeds.combos),
// characters the char literals do not hold, int constants the int literals do not hold; each
// bounded, in the order the pass saw them, so the same pass gives the same inputs.
func mergeSeeds(lits literals, seen seedsLine) literals {
	out := lits
	out.seeds, out.seedChars, out.seedInts = nil, "", nil
	for _, t := range seen.Seeds {
		if len(out.seeds) == maxSeeds {
			break
		}
		if t == "" || len([]rune(t)) > maxSeedLength || slices.Contains(lits.strings, t) || slices.Contains(out.seeds, t) {
			continue
		}
		out.seeds = append(out.seeds, t)
	}
	for _, r := range seen.SeedChars {
		if len([]rune(out.seedChars)) == maxSeedChars {
			break
		}
		if !strings.ContainsRune(lits.chars, r) && !strings.ContainsRune(out.seedChars, r) {
			out.seedChars += string(r)
		}
	}
	for _, v := range seen.SeedInts {
		if len(out.seedInts) == maxSeedInts {
			break
		}
		if !slices.Contains(lits.ints, v) && !slices.Contains(out.seedInts, v) {
			out.seedInts = append(out.seedInts, v)
		}
	}
	return out
}
