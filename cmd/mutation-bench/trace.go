package main

import (
	"context"
	"fmt"
	"os"
	"sync"
	"time"

	"github.com/advertest/advertest-lsp/buildtools/harness"
	"github.com/advertest/advertest-lsp/loop/engine"
)

// tracer wraps the engine's runner and prints every run: the active mutant, its wall time seen
// from Go against the worker's own compile and test times, and each test's outcome, time and
// steps. It is how the endless-loop line's figures are taken apart (-trace).
type tracer struct {
	engine.Runner
	mu sync.Mutex
}

func (t *tracer) Run(ctx context.Context, spec harness.RunSpec) (*harness.RunResult, error) {
	start := time.Now()
	res, err := t.Runner.Run(ctx, spec)
	wall := time.Since(start)
	if res == nil {
		return res, err
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	compile := time.Duration(0)
	if res.Compile != nil {
		compile = res.Compile.Duration
	}
	fmt.Fprintf(os.Stderr, "trace: mutant %3d wall %7.2f ms compile %6.2f ms restarted=%v %s\n", spec.ActiveMutant, ms(wall), ms(compile), res.WorkerRestarted, res.RestartReason)
	for _, tr := range res.Tests {
		fmt.Fprintf(os.Stderr, "trace:     %-45s %-8s %7.2f ms %9d steps (budget %d) %.60s\n", tr.Test, tr.Outcome, ms(tr.Duration), tr.Steps, spec.StepBudgets[tr.Test], tr.Message)
	}
	return res, err
}

// CompileShared keeps the pool's shared compile of a schema under the trace (the engine asks
// for it when its runner has it), so a traced run compiles what an untraced one does.
func (t *tracer) CompileShared(ctx context.Context, sources []harness.Source) (*harness.CompileResult, error) {
	if sc, ok := t.Runner.(interface {
		CompileShared(context.Context, []harness.Source) (*harness.CompileResult, error)
	}); ok {
		start := time.Now()
		cr, err := sc.CompileShared(ctx, sources)
		if cr != nil {
			t.mu.Lock()
			fmt.Fprintf(os.Stderr, "trace: schema compile wall %7.2f ms worker %7.2f ms (digests %6.2f ms) %s %s, %d bytes of source\n",
				ms(time.Since(start)), ms(cr.Duration), ms(cr.DigestDuration), cr.Origin, cr.JavacContext, len(sources[0].Text))
			t.mu.Unlock()
		}
		return cr, err
	}
	return t.Runner.Compile(ctx, sources)
}
