package main

import (
	"context"
	"fmt"
	"sort"
	"time"

	"github.com/advertest/advertest-lsp/buildtools"
	"github.com/advertest/advertest-lsp/buildtools/harness"
	"github.com/advertest/advertest-lsp/buildtools/sandbox"
	"github.com/advertest/advertest-lsp/loop/engine"
)

// sandboxSide is one way the workers start: in the sandbox the process decided, or with
// sandbox.mode off.
type sandboxSide struct {
	name   string
	status sandbox.Status
	policy sandbox.Policy
	starts []time.Duration // a fresh pool to its first worker's answer
	per    []time.Duration // the engine's wall time per mutant, warm workers
}

// measureSandbox prints what the sandbox costs (docs/sandbox.md): a worker's start and the
// engine's time per mutant, in the sandbox and with sandbox.mode off, in turns (rounds each)
// so that the machine's load falls on both alike. The mutants are the jobs' of the main run.
func measureSandbox(ctx context.Context, mod *buildtools.Module, cacheDir string, jobs []job, suite engine.Suite, workers, rounds int) error {
	on, err := sandbox.Policy{Mode: sandbox.ModeAuto}.Decide(nil)
	if err != nil {
		return err
	}
	if !on.Contained() {
		fmt.Printf("sandbox cost: not measured, no sandbox here (%s)\n", on.Reason)
		return nil
	}
	off := sandbox.Policy{Mode: sandbox.ModeOff}
	offStatus, _ := off.Decide(nil)
	sides := []*sandboxSide{{name: "bwrap", status: on}, {name: "off", status: offStatus, policy: off}}
	mutantsN := 0
	for _, j := range jobs {
		mutantsN += len(j.ms)
	}
	for r := 0; r < rounds; r++ {
		for i := range sides {
			s := sides[(i+r)%len(sides)] // each side goes first in every other round
			if err := s.measure(ctx, mod, cacheDir, jobs, suite, workers, mutantsN); err != nil {
				return fmt.Errorf("sandbox cost (%s): %w", s.name, err)
			}
		}
	}
	b, o := sides[0], sides[1]
	fmt.Printf("sandbox cost (medians of %d rounds, bwrap against sandbox.mode off in the same run):\n", rounds)
	fmt.Printf("  worker start: %.0f ms against %.0f ms (%+.0f ms)\n", ms(median(b.starts)), ms(median(o.starts)), ms(median(b.starts)-median(o.starts)))
	fmt.Printf("  per mutant:   %.2f ms against %.2f ms (%+.1f%%), %d mutants, %d workers\n", ms(median(b.per)), ms(median(o.per)),
		100*(float64(median(b.per))/float64(median(o.per))-1), mutantsN, workers)
	return nil
}

// measure opens a pool of this side, times its first worker's start, warms it with one pass
// over the mutants and times a second pass.
func (s *sandboxSide) measure(ctx context.Context, mod *buildtools.Module, cacheDir string, jobs []job, suite engine.Suite, workers, mutantsN int) error {
	cfg := mod.HarnessConfig()
	cfg.Workers, cfg.CacheDir = workers, cacheDir
	cfg.Sandbox, cfg.SandboxPolicy = s.status, s.policy
	cfg.ReadOnly = []string{mod.Root}
	t0 := time.Now()
	pool, err := harness.Open(ctx, cfg)
	if err != nil {
		return err
	}
	defer pool.Close()
	if _, err := pool.Compile(ctx, nil); err != nil { // starts one worker
		return err
	}
	s.starts = append(s.starts, time.Since(t0))
	pass := func() (time.Duration, error) {
		var wall time.Duration
		for _, j := range jobs {
			base, err := engine.RunBaseline(ctx, pool, j.target.Subject(), suite)
			if err != nil {
				return 0, err
			}
			_, st, err := engine.Evaluate(ctx, pool, j.target.Subject(), suite, base, j.ms, engine.Options{Parallelism: workers})
			if err != nil {
				return 0, err
			}
			wall += st.Wall
		}
		return wall, nil
	}
	if _, err := pass(); err != nil {
		return err
	}
	wall, err := pass()
	if err != nil {
		return err
	}
	s.per = append(s.per, wall/time.Duration(mutantsN))
	return nil
}

func median(ds []time.Duration) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	s := append([]time.Duration(nil), ds...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	return s[len(s)/2]
}
