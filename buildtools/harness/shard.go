package harness

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"go.uber.org/zap"
)

// A sharded run (RunSpec.Sharded) splits its tests by class across the pool's workers and runs
// the parts at once; each part's worker exports its union's raw JaCoCo probes, Go ORs them per
// class, and one worker analyses the merged probes over the run's classes: the union is the
// one a single worker running every test would report (docs/worker-protocol.md, "Sharded
// coverage").

// shards are the parts of a sharded run: its tests grouped by class, the classes dealt in turn
// to at most as many parts as the pool has workers. Fewer than two parts: not sharded.
func (p *Pool) shards(spec RunSpec) [][]TestID {
	if !spec.Sharded || spec.StopAtFirstFailure || p.cfg.Workers < 2 {
		return nil
	}
	var classes []string
	byClass := map[string][]TestID{}
	for _, t := range spec.Tests {
		if _, ok := byClass[t.Class]; !ok {
			classes = append(classes, t.Class)
		}
		byClass[t.Class] = append(byClass[t.Class], t)
	}
	n := min(p.cfg.Workers, len(classes))
	if n < 2 {
		return nil
	}
	parts := make([][]TestID, n)
	for i, c := range classes {
		parts[i%n] = append(parts[i%n], byClass[c]...)
	}
	return parts
}

// runSharded runs the parts at once and merges them: the tests in the order of their classes'
// first entries in spec.Tests, the restarts, and the exact coverage union when every part
// exported its probes (else Coverage is nil, as when a worker was lost mid-run).
func (p *Pool) runSharded(ctx context.Context, spec RunSpec, parts [][]TestID) (*RunResult, error) {
	start := time.Now()
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	results := make([]*RunResult, len(parts))
	var (
		wg       sync.WaitGroup
		mu       sync.Mutex
		firstErr error
	)
	for i, tests := range parts {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sub := spec
			sub.Sharded = false
			sub.Tests = tests
			sub.exportProbes = spec.Coverage
			res, err := p.Run(ctx, sub)
			results[i] = res
			if err != nil {
				mu.Lock()
				if firstErr == nil {
					firstErr = err // the first failure; the others are cancelled by it
				}
				mu.Unlock()
				cancel()
			}
		}()
	}
	wg.Wait()
	res := &RunResult{}
	for _, r := range results {
		if r == nil {
			continue
		}
		// One source, one compile: the parts agree, but a part that failed to compile says so.
		if r.Compile != nil && (res.Compile == nil || !r.Compile.OK) {
			res.Compile = r.Compile
		}
		for _, why := range strings.Split(r.RestartReason, "; ") {
			if r.WorkerRestarted && why != "" {
				res.restarted(why)
			}
		}
	}
	res.Tests = inClassOrder(spec.Tests, results)
	if firstErr != nil {
		res.Duration = time.Since(start)
		return res, firstErr
	}
	if res.Compile != nil && !res.Compile.OK {
		res.Tests = nil
	}
	if spec.Coverage && (res.Compile == nil || res.Compile.OK) {
		res.Coverage = p.unionOf(ctx, spec, results)
	}
	res.Duration = time.Since(start)
	return res, nil
}

// inClassOrder is the parts' results with each class's results together, the classes in the
// order of their first entries in tests.
func inClassOrder(tests []TestID, parts []*RunResult) []TestResult {
	byClass := map[string][]TestResult{}
	for _, r := range parts {
		if r == nil {
			continue
		}
		for _, tr := range r.Tests {
			byClass[tr.Test.Class] = append(byClass[tr.Test.Class], tr)
		}
	}
	var out []TestResult
	for _, t := range tests {
		out = append(out, byClass[t.Class]...)
		delete(byClass, t.Class)
	}
	return out
}

// unionOf is the exact coverage union of a sharded run's parts, nil when a part has no probes
// (its worker was lost, or JaCoCo is unavailable) or the merge or the analysis fails: the
// caller then has the per-test coverage only, as after a restart.
func (p *Pool) unionOf(ctx context.Context, spec RunSpec, parts []*RunResult) *Coverage {
	var all [][]wireProbes
	for _, r := range parts {
		if r == nil || !r.probesOK {
			return nil
		}
		all = append(all, r.probes)
	}
	merged, err := mergeProbes(all)
	if err == nil {
		var cov *Coverage
		if cov, err = p.analyzeProbes(ctx, spec, merged); err == nil {
			return cov
		}
	}
	p.log.Warn("harness: no coverage union for a sharded run", zap.Error(err))
	return nil
}

// mergeProbes ORs the parts' probes class by class. The parts must have run the same bytes of
// each class (one class id, one probe count): otherwise their probes do not line up.
func mergeProbes(parts [][]wireProbes) ([]wireProbes, error) {
	byClass := map[string]int{}
	var out []wireProbes
	for _, ps := range parts {
		for _, pr := range ps {
			k, seen := byClass[pr.Class]
			if !seen {
				byClass[pr.Class] = len(out)
				out = append(out, pr)
				continue
			}
			m := &out[k]
			if m.ID != pr.ID || len(m.Probes) != len(pr.Probes) {
				return nil, fmt.Errorf("the parts ran different bytes of %s (class ids %s and %s)", pr.Class, m.ID, pr.ID)
			}
			b := []byte(m.Probes)
			for i := range b {
				switch pr.Probes[i] {
				case '1':
					b[i] = '1'
				case '0':
				default:
					return nil, fmt.Errorf("the probes of %s are not 0s and 1s", pr.Class)
				}
			}
			m.Probes = string(b)
		}
	}
	return out, nil
}

// analyzeProbes asks a worker for the coverage of probes over spec's classes.
func (p *Pool) analyzeProbes(ctx context.Context, spec RunSpec, probes []wireProbes) (*Coverage, error) {
	req := &analyzeRequest{
		Overrides:    wireSources(spec.Overrides),
		ExtraTests:   wireSources(spec.ExtraTests),
		CoverClasses: nonNil(spec.CoverClasses),
		Probes:       nonNil(probes),
	}
	var reply analyzeReply
	err := p.callVia(ctx, req, &reply, func(w *worker) {
		if len(spec.Overrides)+len(spec.ExtraTests) > 0 {
			req.Precompiled = p.exported.shipTo(sourcesKey(spec.Overrides, spec.ExtraTests), w)
		}
	})
	if err != nil {
		return nil, fmt.Errorf("harness: analyze the merged coverage: %w", err)
	}
	if reply.Coverage == nil {
		return nil, errors.New("harness: analyze the merged coverage: no coverage in the answer")
	}
	return decodeCoverage(reply.Coverage), nil
}
