package app

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"slices"
	"strings"
	"sync"

	"github.com/advertest/advertest-lsp/settings"
)

// Batch is a use case over many methods: a file, a folder, a diff, a shard.
type Batch struct {
	Methods  []*Method
	Settings settings.Settings
	// Save keeps each method's result in its module's .advertest/ (as Request.Save).
	Save bool
}

// MethodOutcome is how one method of a batch ended.
type MethodOutcome struct {
	Method *Method
	// Result is the method's result, as its use case returned it; nil when the method did not
	// run (its project did not open, the batch was interrupted before it).
	Result *Result
	// Err says why the method's run failed or did not finish; it wraps context.Canceled when
	// the batch was interrupted.
	Err error
}

// Finished reports whether the method's run ended with a report and no error.
func (o MethodOutcome) Finished() bool {
	return o.Err == nil && o.Result != nil && o.Result.Report != nil
}

// Interrupted reports whether the method did not finish because the batch was interrupted.
func (o MethodOutcome) Interrupted() bool { return errors.Is(o.Err, context.Canceled) }

// BatchEvents receive what a batch has to tell. They are called from the batch's goroutines,
// several methods at once, and the Events that Method returns as app.Events are (their
// Progress also from the engine's goroutines): an implementation must be safe for concurrent
// calls.
type BatchEvents interface {
	// Method returns the events of one method's run: its progress, verdicts and warnings (a
	// warning said by several methods comes once). The suites the methods offer are not
	// passed on: a class's suite is offered once, with Suite, after its last method.
	Method(*Method) Events
	// Finished tells that a method's run ended (or failed); done counts the methods that have
	// ended so far, total those of the batch.
	Finished(o MethodOutcome, done, total int)
	// Suite offers the generated tests of one class, all its methods', for its test file; the
	// error says why they were not written (the batch then warns: they are in the reports).
	Suite(ctx context.Context, f SuiteFile) error
	// Warning is something about the whole batch.
	Warning(Warning)
}

// AnalyzeMany is Analyze on every method of the batch (`advertest mutate` on a file, a
// folder, a diff). See the batch's order below (PlayMany).
func (c *Core) AnalyzeMany(ctx context.Context, b Batch, ev BatchEvents) ([]MethodOutcome, error) {
	if err := c.checkBatch(b, ev, false); err != nil {
		return nil, err
	}
	return c.runBatch(ctx, b, ev, c.Analyze), nil
}

// PlayMany is Play on every method of the batch (`advertest run` on a file, a folder, a
// diff). Each module's warm project opens once; the files (classes) run in parallel, up to the
// pool's size (the workers setting), and the methods of one file in turn, in the order of
// their lines: each method's game starts from the suite its class's earlier methods grew
// (CAdverTest, merged as one run merges), and once its last method has played, the class's
// new tests are offered with BatchEvents.Suite. A setting, sandbox or agent choice that
// refuses the run fails the whole batch, before any project opens; a method's own failure is
// its outcome's. When ctx is cancelled the methods that finished keep their results, the
// others carry ctx's error. The outcomes are in the batch's order.
func (c *Core) PlayMany(ctx context.Context, b Batch, ev BatchEvents) ([]MethodOutcome, error) {
	if err := c.checkBatch(b, ev, true); err != nil {
		return nil, err
	}
	return c.runBatch(ctx, b, ev, c.Play), nil
}

// checkBatch refuses, once for the batch, what every method's run would refuse.
func (c *Core) checkBatch(b Batch, ev BatchEvents, withAgents bool) error {
	s := b.Settings
	if _, err := operators(s); err != nil {
		return err
	}
	status, err := c.Sandbox(s, batchWarnings{ev: ev})
	if err != nil {
		return err
	}
	if withAgents {
		if _, err := ChooseAgents(s, c.opts.Getenv, status); err != nil {
			return err
		}
	}
	return nil
}

// methodUseCase is a use case on one method (Analyze, Play).
type methodUseCase func(ctx context.Context, req Request, ev Events) (*Result, error)

// batchRun is the state of one batch.
type batchRun struct {
	c   *Core
	b   Batch
	ev  BatchEvents
	use methodUseCase

	// finishing guards done and outcomes, and is held while a count is told, so the counts
	// reach BatchEvents.Finished in order (1/6 before 2/6) when files finish at once.
	finishing sync.Mutex
	done      int
	outcomes  map[*Method]MethodOutcome

	// mu guards the fields below.
	mu      sync.Mutex
	warned  map[string]bool
	modules map[string]*batchModule
}

// batchModule is a module's warm project, leased for the whole batch: it opens once, and a
// failure to open fails its methods without another try.
type batchModule struct {
	once  sync.Once
	lease *Lease
	err   error
}

// fileGroup is the methods of one file, run in turn.
type fileGroup struct {
	root    string
	file    string
	methods []*Method
	err     error // the file's module could not be found
}

// runBatch runs use on every method of the batch.
func (c *Core) runBatch(ctx context.Context, b Batch, ev BatchEvents, use methodUseCase) []MethodOutcome {
	br := &batchRun{c: c, b: b, ev: ev, use: use, warned: map[string]bool{}, outcomes: map[*Method]MethodOutcome{}, modules: map[string]*batchModule{}}
	defer br.releaseModules()
	groups := groupByFile(b.Methods)
	parallel := b.Settings.LoopConfig().Workers
	if parallel <= 0 {
		parallel = runtime.NumCPU()
	}
	slots := make(chan struct{}, max(1, parallel))
	var wg sync.WaitGroup
	for _, g := range groups {
		select {
		case slots <- struct{}{}:
		case <-ctx.Done():
		}
		if ctx.Err() != nil {
			break
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() { <-slots }()
			br.runGroup(ctx, g)
		}()
	}
	wg.Wait()
	out := make([]MethodOutcome, len(b.Methods))
	for i, m := range b.Methods {
		o, ok := br.outcomes[m]
		if !ok {
			o = MethodOutcome{Method: m, Err: fmt.Errorf("not run: %w", context.Cause(ctx))}
		}
		out[i] = o
	}
	return out
}

// groupByFile groups the methods by module and file, in that order, each group's methods in
// the order of their lines.
func groupByFile(methods []*Method) []*fileGroup {
	byFile := map[string]*fileGroup{}
	var groups []*fileGroup
	for _, m := range methods {
		g := byFile[m.Target.File]
		if g == nil {
			g = &fileGroup{file: m.Target.File}
			g.root, g.err = ModuleRoot(m.Target.File)
			byFile[m.Target.File] = g
			groups = append(groups, g)
		}
		g.methods = append(g.methods, m)
	}
	slices.SortStableFunc(groups, func(a, b *fileGroup) int {
		if c := strings.Compare(a.root, b.root); c != 0 {
			return c
		}
		return strings.Compare(a.file, b.file)
	})
	for _, g := range groups {
		slices.SortStableFunc(g.methods, func(a, b *Method) int { return a.Target.Method.StartByte - b.Target.Method.StartByte })
	}
	return groups
}

// classSuite is what the methods of one top-level class offered: the suite so far, and each
// method's new tests to merge into a newer text of the file.
type classSuite struct {
	class  string
	last   SuiteFile
	merges []func([]byte) (string, error)
	tests  int
	// writable is false once a method found a file without the marker at the test file's path.
	writable bool
}

// runGroup runs the methods of one file in turn, carrying each top-level class's suite from
// one method's game to the next, then offers each class's tests.
func (br *batchRun) runGroup(ctx context.Context, g *fileGroup) {
	var lease *Lease
	err := g.err
	if err == nil {
		lease, err = br.module(ctx, g)
	}
	if err != nil {
		for _, m := range g.methods {
			br.finish(MethodOutcome{Method: m, Err: err})
		}
		return
	}
	_ = lease // held by the batch until it ends
	suites := map[string]*classSuite{}
	var order []*classSuite
	for _, m := range g.methods {
		if ctx.Err() != nil {
			break
		}
		top := m.Target.Method.TopLevelClass
		cs := suites[top]
		if cs == nil {
			cs = &classSuite{class: top, writable: true}
			suites[top] = cs
			order = append(order, cs)
		}
		req := Request{Method: m, Settings: br.b.Settings, Save: br.b.Save}
		if cs.tests > 0 {
			req.Suite = []byte(cs.last.Text)
		}
		mev := &batchMethodEvents{Events: br.ev.Method(m), br: br}
		res, err := br.use(ctx, req, mev)
		if f := mev.suite; f != nil && err == nil {
			cs.last = *f
			cs.tests += f.Tests
			cs.writable = cs.writable && f.Writable
			if f.Merge != nil {
				cs.merges = append(cs.merges, f.Merge)
			}
		}
		br.finish(MethodOutcome{Method: m, Result: res, Err: err})
	}
	for _, cs := range order {
		if cs.tests > 0 {
			br.offer(ctx, cs)
		}
	}
}

// module leases the warm project of the group's module, opening it the first time.
func (br *batchRun) module(ctx context.Context, g *fileGroup) (*Lease, error) {
	br.mu.Lock()
	mod := br.modules[g.root]
	if mod == nil {
		mod = &batchModule{}
		br.modules[g.root] = mod
	}
	br.mu.Unlock()
	mod.once.Do(func() {
		first := g.methods[0]
		mod.lease, mod.err = br.c.lease(ctx, first.Target.File, br.b.Settings, br.ev.Method(first))
	})
	return mod.lease, mod.err
}

func (br *batchRun) releaseModules() {
	br.mu.Lock()
	defer br.mu.Unlock()
	for _, mod := range br.modules {
		if mod.lease != nil {
			mod.lease.Release()
		}
	}
}

// finish records a method's outcome and tells it.
func (br *batchRun) finish(o MethodOutcome) {
	br.finishing.Lock()
	defer br.finishing.Unlock()
	br.outcomes[o.Method] = o
	br.done++
	br.ev.Finished(o, br.done, len(br.b.Methods))
}

// offer hands a class's new tests to BatchEvents.Suite; a refusal is a warning.
func (br *batchRun) offer(ctx context.Context, cs *classSuite) {
	f := cs.last
	f.Tests = cs.tests
	f.Writable = cs.writable
	f.For = fmt.Sprintf("the tests for `%s`", cs.class)
	merges := cs.merges
	f.Merge = func(current []byte) (string, error) {
		text := string(current)
		for _, merge := range merges {
			var err error
			if text, err = merge([]byte(text)); err != nil {
				return "", err
			}
		}
		return text, nil
	}
	// The tests of the methods that finished are written also when the batch was interrupted.
	if err := br.ev.Suite(context.WithoutCancel(ctx), f); err != nil {
		br.ev.Warning(Warning{Message: fmt.Sprintf("could not write %s: %v. They are kept in the report (tests.source).", f.For, err), Err: err})
	}
}

// firstWarning reports whether msg is said for the first time in the batch.
func (br *batchRun) firstWarning(msg string) bool {
	br.mu.Lock()
	defer br.mu.Unlock()
	first := !br.warned[msg]
	br.warned[msg] = true
	return first
}

// batchMethodEvents are one method's events in a batch: its suite is kept for its class, a
// warning already given is not repeated, the rest goes to BatchEvents.Method's.
type batchMethodEvents struct {
	Events
	br *batchRun
	// suite is the suite the method's run offered, if any.
	suite *SuiteFile
}

func (e *batchMethodEvents) Suite(_ context.Context, f SuiteFile) error {
	e.suite = &f
	return nil
}

func (e *batchMethodEvents) Warning(w Warning) {
	if e.br.firstWarning(w.Message) {
		e.Events.Warning(w)
	}
}

// batchWarnings pass a use case's warnings on as the batch's.
type batchWarnings struct {
	NoEvents
	ev BatchEvents
}

func (w batchWarnings) Warning(x Warning) { w.ev.Warning(x) }
