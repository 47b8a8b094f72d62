package offline

import (
	"context"
	"errors"
	"fmt"
	"time"

	"go.uber.org/zap"

	"github.com/advertest/advertest-lsp/buildtools/harness"
	"github.com/advertest/advertest-lsp/javaparse"
	"github.com/advertest/advertest-lsp/loop/agent"
)

// originalEntry is one exploration of the original, computed once: pending while it runs,
// then in the agent's cache (errors too, but for a cancelled computation).
type originalEntry struct {
	ready chan struct{}
	orig  *original
	err   error
}

func (e *originalEntry) size() int64 { return e.orig.size() }

// original is what the original does on the inputs that behave the same in two runs.
type original struct {
	hdr     header
	records []*record // deterministic, usable inputs, in index order
	byIndex map[int]*record
	inputs  int // inputs explored in one run
	params  explorerParams
	dur     time.Duration
	// kinds counts the first run's outcomes by kind ("ret", "throw", "arrange", "timeout",
	// "bound", "crash"); arrangeX is the first exception that making an input threw; stab
	// what the two runs disagreed on. They say why no test came out.
	kinds    map[string]int
	arrangeX string
	stab     *stability
	// via is the entry point the inputs call, nil when they call the method itself (entry.go);
	// missed counts the inputs whose call did not enter the method, left out of records.
	via    *entryPoint
	missed int
}

// originalFor explores the original twice (cached by source and method) and keeps the
// inputs whose outcome is the same in both runs; through via, when not nil, the inputs whose
// call entered via's target.
func (a *Agent) originalFor(ctx context.Context, s *agent.Subject, via *entryPoint) (*original, error) {
	if err := precheck(s); err != nil && (via == nil || !via.result) {
		// through a result, the target's own class (anonymous too) is never named (entry_result.go)
		return nil, err
	}
	key := sourceKey(s.Source) + "|original|" + s.Method.BinaryClassName + "|" + s.Method.Signature + "|" + fmt.Sprint(junitOf(s, a.pool)) + via.key()
	for {
		a.mu.Lock()
		if v, ok := a.cache.get(key); ok {
			a.mu.Unlock()
			e := v.(*originalEntry)
			return e.orig, e.err
		}
		e, ok := a.pending[key]
		if !ok {
			e = &originalEntry{ready: make(chan struct{})}
			a.pending[key] = e
		}
		a.mu.Unlock()
		if ok {
			select {
			case <-e.ready:
			case <-ctx.Done():
				return nil, ctx.Err()
			}
			if e.err != nil && (errors.Is(e.err, context.Canceled) || errors.Is(e.err, context.DeadlineExceeded)) {
				continue // its computation was cancelled: try again (the entry was dropped)
			}
			return e.orig, e.err
		}
		e.orig, e.err = a.exploreOriginal(ctx, s, via)
		a.mu.Lock()
		delete(a.pending, key)
		if e.err == nil || ctx.Err() == nil {
			a.cache.put(key, e, e.size())
		}
		a.mu.Unlock()
		close(e.ready)
		return e.orig, e.err
	}
}

func (a *Agent) exploreOriginal(ctx context.Context, s *agent.Subject, via *entryPoint) (*original, error) {
	p := a.params(s)
	pkg := subjectPackage(s)
	junit := junitOf(s, a.pool)
	src := harness.Source{ClassName: s.Method.TopLevelClass, Text: string(s.Source)}
	if via != nil {
		src.Text = string(withEntryProbe(s.Source, via.probeAt))
		p.probe = qualified(pkg, entryProbeClass)
		p.throughResult = via.result
		if f, err := javaparse.Parse(s.Source); err == nil {
			p.lits = entryLiterals(f, p.lits, via.target)
		}
	}
	p = a.withSeeds(ctx, s, p)
	runs, err := a.exploreTimes(ctx, src, pkg, junit, p, 2)
	if err == nil && runs[0].unsupported != "" && runs[0].minimal != "" {
		// an abstract receiver class with no usable implementation: again, with the minimal
		// subclass the explorer wrote nested in the driver (and later in the tests)
		p.minimal = runs[0].minimal
		runs, err = a.exploreTimes(ctx, src, pkg, junit, p, 2)
		var ce *compileError
		if errors.As(err, &ce) {
			return nil, &UnsupportedError{Method: methodID(s), Reason: "the minimal subclass written for its abstract receiver class does not compile: " + ce.Error()}
		}
	}
	if err != nil {
		var ce *compileError
		if errors.As(err, &ce) {
			return nil, fmt.Errorf("offline: the original of %s: %w", methodID(s), err)
		}
		return nil, err
	}
	if runs[0].unsupported != "" {
		return nil, &UnsupportedError{Method: methodID(s), Reason: runs[0].unsupported}
	}
	second := runs[1].byIndex()
	o := &original{hdr: runs[0].header, byIndex: map[int]*record{}, params: p, dur: runs[0].duration,
		kinds: map[string]int{}, stab: newStability(), via: via}
	type pair struct{ r, twin *record }
	var pairs []pair
	for _, r := range runs[0].records {
		o.inputs++
		o.kinds[r.outcome.K]++
		if r.outcome.K == "arrange" && o.arrangeX == "" {
			o.arrangeX = r.outcome.X
		}
		if via != nil && (r.Site == nil || r.Site.N == 0) {
			o.missed++
			continue // the call did not run the method under test
		}
		twin, ok := second[r.I]
		if !ok || twin.key() != r.key() {
			o.stab.dropped++
			continue // not seen twice
		}
		switch r.outcome.K {
		case "ret", "throw":
			if o.stab.compareRuns(&r.outcome, &twin.outcome) {
				pairs = append(pairs, pair{r, twin})
			}
		}
	}
	for _, p := range pairs {
		if !o.stab.clean(&p.r.outcome, &p.twin.outcome) {
			continue // nothing stable to assert
		}
		o.records = append(o.records, p.r)
		o.byIndex[p.r.I] = p.r
	}
	a.log.Debug("offline: explored the original", zap.String("method", methodID(s)),
		zap.Int("inputs", o.inputs), zap.Int("usable", len(o.records)), zap.Any("kinds", o.kinds),
		zap.Any("unstable", o.stab.unstable), zap.Duration("took", runs[0].duration))
	return o, nil
}
