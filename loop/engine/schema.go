package engine

import (
	"context"
	"fmt"
	"reflect"
	"sync"
	"time"

	"github.com/advertest/advertest-lsp/buildtools/harness"
	"github.com/advertest/advertest-lsp/loop/mutants"
)

// schema is the compiled mutant schema of one evaluation: the rule mutants that fit, in one
// class text the workers compile once (they keep their last compiles).
type schema struct {
	text        string
	ids         map[string]int
	compileTime time.Duration
	// digest is the schema's bytecode digest: with no mutant active and with each one active
	// (nil when the worker gave none).
	digest     *harness.Digest
	digestTime time.Duration
}

// id is the mutant's schema id, 0 when it is compiled on its own.
func (s *schema) id(mutant string) int {
	if s == nil {
		return 0
	}
	return s.ids[mutant]
}

// PendingSchema is a mutant schema compiling in the background (PrepareSchema), for Evaluate
// to take through Options.Schema.
type PendingSchema struct {
	done    chan struct{}
	sch     *schema
	err     error
	class   string
	source  string
	extra   []Source
	mutants map[string]mutants.Mutant
	runner  Runner
	// started and finished bound the compile in wall-clock time (finished is set before done
	// is closed).
	started, finished time.Time
}

// PrepareSchema starts compiling the mutant schema of ms on one of r's workers and returns once
// the compile holds its worker (with a runner that compiles for all its workers, a harness
// pool; at once with any other). Called just before RunBaseline, the compile goes first: the
// baseline, sharded over the workers, finds one worker busy and queues its last part behind
// the compile, so Evaluate finds the schema compiled instead of waiting for it after the
// baseline. Evaluate uses it when given the same runner, subject and suite and mutants that
// are among ms (each the same as there); otherwise it compiles its own. Cancelling ctx stops
// the compile.
func PrepareSchema(ctx context.Context, r Runner, subj Subject, suite Suite, ms []mutants.Mutant) *PendingSchema {
	p := &PendingSchema{done: make(chan struct{}), class: subj.Class, source: string(subj.Source),
		extra: append([]Source(nil), suite.Extra...), mutants: make(map[string]mutants.Mutant, len(ms)), runner: r,
		started: time.Now()}
	for _, m := range ms {
		p.mutants[m.ID] = m
	}
	held := make(chan struct{})
	var once sync.Once
	signal := func() { once.Do(func() { close(held) }) }
	go func() {
		p.sch, p.err = buildSchema(harness.WhenAcquired(ctx, signal), r, subj, suite, ms)
		p.finished = time.Now()
		signal() // no worker held (no schema to compile, or a runner without a pool): done
		close(p.done)
	}()
	if _, pooled := r.(sharedCompiler); pooled {
		select {
		case <-held:
		case <-ctx.Done():
		}
	}
	return p
}

// fits says whether the pending schema was prepared for this evaluation.
func (p *PendingSchema) fits(r Runner, subj Subject, suite Suite, ms []mutants.Mutant) bool {
	if p == nil || !sameRunner(p.runner, r) || p.class != subj.Class || p.source != string(subj.Source) || len(p.extra) != len(suite.Extra) {
		return false
	}
	for i, x := range suite.Extra {
		if x != p.extra[i] {
			return false
		}
	}
	for _, m := range ms {
		if pm, ok := p.mutants[m.ID]; ok && pm != m {
			return false
		}
	}
	return true
}

// sameRunner reports whether a and b are one runner. == on interface values panics when their
// dynamic type cannot be compared (a struct holding a slice or a map): such runners never match
// here, so the schema is compiled again (only slower, never wrong).
func sameRunner(a, b Runner) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	ta, tb := reflect.TypeOf(a), reflect.TypeOf(b)
	if ta != tb || !ta.Comparable() {
		return false
	}
	return a == b
}

// wait is the prepared schema once compiled, and how long its compile ran before since (the
// start of the evaluation that waits): the worker time it took outside that evaluation.
func (p *PendingSchema) wait(ctx context.Context, since time.Time) (*schema, time.Duration, error) {
	select {
	case <-p.done:
	case <-ctx.Done():
		return nil, 0, ctx.Err()
	}
	end := p.finished
	if since.Before(end) {
		end = since
	}
	return p.sch, max(0, end.Sub(p.started)), p.err
}

// sharedCompiler is a Runner that can compile once for all its workers (harness.Pool,
// buildtools.Project): the schema's runs then need no compile of their own on any worker.
type sharedCompiler interface {
	CompileShared(ctx context.Context, sources []harness.Source) (*harness.CompileResult, error)
}

func compileShared(ctx context.Context, r Runner, sources []harness.Source) (*harness.CompileResult, error) {
	if sc, ok := r.(sharedCompiler); ok {
		return sc.CompileShared(ctx, sources)
	}
	return r.Compile(ctx, sources)
}

// maxSchemaRounds bounds the compiles spent dropping the sites javac rejects.
const maxSchemaRounds = 6

// buildSchema builds and compiles the schema of ms; a site on a line javac reports an error on
// is dropped (its mutants are compiled on their own, and come out uncompilable there if they
// are) and the rest compiled again. nil: no schema (fewer than two mutants fit, or an error
// outside every site).
func buildSchema(ctx context.Context, r Runner, subj Subject, suite Suite, ms []mutants.Mutant) (*schema, error) {
	var spent time.Duration
	todo := ms
	for round := 0; round < maxSchemaRounds; round++ {
		s, err := mutants.BuildSchema(subj.Source, todo)
		if err != nil || len(s.IDs) < 2 {
			return nil, nil // the mutants go one by one
		}
		cr, err := compileShared(ctx, r, append([]harness.Source{{ClassName: subj.Class, Text: s.Text, Digest: true}}, suite.Extra...))
		if err != nil {
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			return nil, fmt.Errorf("compiling the mutant schema: %w", err)
		}
		spent += cr.Duration
		if cr.OK {
			sch := &schema{text: s.Text, ids: s.IDs, compileTime: spent, digestTime: cr.DigestDuration}
			if d, ok := cr.Digests[subj.Class]; ok {
				sch.digest = &d
			}
			return sch, nil
		}
		drop := map[string]bool{}
		for _, d := range cr.Diagnostics {
			if d.Kind != "error" {
				continue
			}
			if d.ClassName != subj.Class {
				return nil, nil // the error is not the schema's: nothing to learn from it
			}
			for _, id := range s.SitesOnLine(d.Line) {
				drop[id] = true
			}
		}
		if len(drop) == 0 {
			return nil, nil // an error outside every site (flow analysis): one by one
		}
		var rest []mutants.Mutant
		for _, m := range todo {
			if s.IDs[m.ID] > 0 && !drop[m.ID] {
				rest = append(rest, m)
			}
		}
		todo = rest
	}
	return nil, nil
}
