package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"

	"github.com/advertest/advertest-lsp/app"
	"github.com/advertest/advertest-lsp/loop"
	"github.com/advertest/advertest-lsp/loop/report"
	"github.com/advertest/advertest-lsp/settings"
)

// batchUseCase is the application core's use case over many methods.
type batchUseCase func(core *app.Core, ctx context.Context, b app.Batch, ev app.BatchEvents) ([]app.MethodOutcome, error)

// onTargets runs a command on its TARGETs: exactly one method (FILE:LINE, FILE --method NAME)
// goes to single, today's one-method run and report; every other target (files, folders,
// several targets, --diff, --shard) runs many with the report over many methods.
// writeTests writes each class's suite (run --write-tests).
func onTargets(ctx context.Context, e *env, cmd string, tf *targetFlags, args []string, many batchUseCase, writeTests bool, single func(arg string) int) int {
	targets, err := parseTargets(tf, args)
	if err != nil {
		return usageFail(e, cmd, err)
	}
	if tf.single(targets) && !isDir(targets.Specs[0].Path) {
		return single(args[0])
	}
	return onMany(ctx, e, cmd, tf, targets, many, writeTests)
}

// oneMethodTarget reports whether args name exactly one method (FILE:LINE or FILE --method
// NAME), the target that gives the one-method report.
func oneMethodTarget(tf *targetFlags, args []string) bool {
	targets, err := parseTargets(tf, args)
	return err == nil && tf.single(targets) && !isDir(targets.Specs[0].Path)
}

// onMany is a run over many methods: the settings, the targets resolved into methods, the
// shard's slice of them, the use case on each (one line per method as it ends), the summary
// table, then the reports and the exit status.
func onMany(ctx context.Context, e *env, cmd string, tf *targetFlags, targets app.Targets, use batchUseCase, writeTests bool) int {
	s, code := tf.runSettings(e, cmd)
	if code != exitOK {
		return code
	}
	core, closeCore := tf.newCore(e)
	defer closeCore()

	start := time.Now()
	resolved, err := core.Resolve(ctx, targets, s)
	if err != nil {
		fmt.Fprintf(e.stderr, "advertest %s: %s\n", cmd, describe(err))
		if isUsage(err) {
			return exitUsage
		}
		return failRun(e, cmd, err)
	}
	for _, n := range resolved.Notes {
		fmt.Fprintf(e.stderr, "advertest %s: %s\n", cmd, n)
	}
	methods := resolved.Methods
	var shard *report.Shard
	if tf.shard.set() {
		picked, sh, err := report.SelectShard(methods, (*app.Method).Key, tf.shard.index, tf.shard.count)
		if err != nil {
			return usageFail(e, cmd, err)
		}
		fmt.Fprintf(e.stderr, "shard %d/%d: %d of %d methods\n", sh.Index, sh.Count, len(picked), len(methods))
		methods, shard = picked, &sh
	} else {
		fmt.Fprintf(e.stderr, "%d methods\n", len(methods))
	}
	if len(methods) == 0 {
		fmt.Fprintf(e.stderr, "advertest %s: no method to run%s\n", cmd, emptyReason(targets, shard))
	}

	pr := newBatchPrinter(cmd, e.stderr, writeTests)
	var outcomes []app.MethodOutcome
	if len(methods) > 0 {
		outcomes, err = use(core, ctx, app.Batch{Methods: methods, Settings: s}, pr)
		pr.clear()
		if err != nil {
			return failRun(e, cmd, err)
		}
	}
	multi, unfinished := collect(outcomes, shard)
	interrupted := unfinished > 0 || ctx.Err() != nil
	printManySummary(e.stderr, multi)
	fmt.Fprintf(e.stderr, "  wall time  %.1f s\n", time.Since(start).Seconds())
	if interrupted {
		fmt.Fprintf(e.stderr, "advertest %s: interrupted: %d of %d methods did not finish; the reports keep the %d that did\n",
			cmd, unfinished, len(methods), len(multi.Methods)+len(multi.Failures))
	}
	failed := tf.out.write(e, cmd, tf.jsonPath, multi, multi.Methods)
	return tf.out.exitStatus(e, cmd, interrupted, failed || len(multi.Failures) > 0, multi.Summary.MutationScore)
}

// emptyReason says why a run has no method.
func emptyReason(t app.Targets, shard *report.Shard) string {
	switch {
	case shard != nil:
		return fmt.Sprintf(" in shard %d/%d (the report is written: merge needs it)", shard.Index, shard.Count)
	case t.Diff != "":
		return " changed since " + t.Diff
	}
	return ": the targets hold no method with a body in the modules' main sources"
}

func isDir(path string) bool {
	fi, err := os.Stat(path)
	return err == nil && fi.IsDir()
}

// runSettings are the command line's settings, checked; a bad one is printed, and its exit
// status returned.
func (tf *targetFlags) runSettings(e *env, cmd string) (settings.Settings, int) {
	values, err := tf.settings.values(os.Getenv)
	if err != nil {
		return settings.Settings{}, usageFail(e, cmd, err)
	}
	s := settings.Settings{Values: values}
	if err := app.Check(s); err != nil {
		return s, usageFail(e, cmd, err)
	}
	return s, exitOK
}

// newCore is the run's application core, logging on stderr at --log-level; closeCore closes
// its warm projects, waiting a little for their JVMs.
func (tf *targetFlags) newCore(e *env) (core *app.Core, closeCore func()) {
	log := stderrLogger(e.stderr, zapcore.Level(tf.logLevel))
	core = app.New(app.Options{Logger: log})
	return core, func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		if err := core.Close(ctx); err != nil {
			log.Warn("closing the projects", zap.Error(err))
		}
		_ = log.Sync()
	}
}

// collect turns the outcomes into the report over many methods: finished methods with their
// report, failed ones as failures; the methods an interruption stopped are counted, not kept.
func collect(outcomes []app.MethodOutcome, shard *report.Shard) (*report.Multi, int) {
	var reps []report.Report
	var failures []report.Failure
	unfinished := 0
	dirs := map[string]string{}
	dirOf := func(root string) string {
		if d, ok := dirs[root]; ok {
			return d
		}
		dirs[root] = moduleDir(root)
		return dirs[root]
	}
	for _, o := range outcomes {
		switch {
		case o.Finished():
			rep := *o.Result.Report
			rep.ModuleDir = dirOf(o.Result.ModuleRoot)
			reps = append(reps, rep)
		case o.Interrupted():
			unfinished++
		default:
			root := ""
			if o.Result != nil {
				root = o.Result.ModuleRoot
			}
			if root == "" {
				root, _ = app.ModuleRoot(o.Method.Target.File)
			}
			msg := "no report"
			if o.Err != nil {
				msg = o.Err.Error()
			}
			failures = append(failures, report.Failure{Target: o.Method.Target.ReportTarget(root), ModuleDir: dirOf(root), Error: msg})
		}
	}
	return report.NewMulti(reps, failures, shard), unfinished
}

// printManySummary prints the table of a report over many methods: one row per method, the
// failures, and the totals.
func printManySummary(w io.Writer, m *report.Multi) {
	sum := m.Summary
	fmt.Fprintf(w, "\n%d methods", sum.Methods)
	if sum.FailedMethods > 0 {
		fmt.Fprintf(w, ", %d failed", sum.FailedMethods)
	}
	if m.Shard != nil {
		fmt.Fprintf(w, " (shard %d/%d, method set %s)", m.Shard.Index, m.Shard.Count, m.Shard.MethodSetHash)
	}
	fmt.Fprintln(w)
	if len(m.Methods) > 0 {
		withLLM := sum.LLM.Requests > 0
		if withLLM {
			fmt.Fprintln(w, "   score  mutants  survived  requests     tokens        cost  method")
		} else {
			fmt.Fprintln(w, "   score  mutants  survived  method")
		}
		for i := range m.Methods {
			r := &m.Methods[i]
			c := report.Counts(r.Mutants)
			llmCols := ""
			if withLLM {
				llmCols = fmt.Sprintf("%8d  %9s  %10s  ", r.LLM.Requests, thousands(r.LLM.PromptTokens+r.LLM.CompletionTokens), dollars(r.LLM.CostUSD))
			}
			fmt.Fprintf(w, "  %6s  %7d  %8d  %s%s  %s:%d\n", percent(r.MutationScore), len(r.Mutants), c[report.Survived], llmCols, r.Target.Key(), r.RepoPath(), r.Target.StartLine)
		}
	}
	for _, f := range m.Failures {
		fmt.Fprintf(w, "  failed  %s: %s\n", f.Target.Key(), firstLineOf(f.Error))
	}
	fmt.Fprintf(w, "  mutants    %d: killed %d, survived %d, timeout %d, uncompilable %d", sum.Mutants, sum.Killed, sum.Survived, sum.Timeout, sum.Uncompilable)
	for _, extra := range []struct {
		name string
		n    int
	}{{"equivalent", sum.Equivalent}, {"duplicate", sum.Duplicate}, {"ignored", sum.Ignored}} {
		if extra.n > 0 {
			fmt.Fprintf(w, ", %s %d", extra.name, extra.n)
		}
	}
	fmt.Fprintln(w)
	if sum.MutationScore != nil {
		fmt.Fprintf(w, "  score      %.1f%% (%d of %d mutants killed)\n", 100**sum.MutationScore, sum.Killed, sum.Killed+sum.Survived)
	} else {
		fmt.Fprintln(w, "  score      n/a (no valid mutant)")
	}
	fmt.Fprintf(w, "  coverage   lines %.1f%%, branches %.1f%%\n", 100*sum.LineCoverage, 100*sum.BranchCoverage)
	if cost := llmCost(sum.LLM); cost != "" {
		fmt.Fprintf(w, "  llm        %s\n", cost)
	}
	for _, warn := range sum.Warnings {
		fmt.Fprintf(w, "  warning: %s\n", warn)
	}
	fmt.Fprintf(w, "  time       %.1f s in the methods' runs (%d mutants, %d test runs)\n", float64(sum.Timing.TotalMs)/1000, sum.Timing.MutantsEvaluated, sum.Timing.TestExecutions)
}

// dollars is a cost for the table ("-" without llm.pricing).
func dollars(usd float64) string {
	if usd <= 0 {
		return "-"
	}
	return fmt.Sprintf("$%.4f", usd)
}

func percent(score *float64) string {
	if score == nil {
		return "n/a"
	}
	return fmt.Sprintf("%.1f%%", 100**score)
}

func firstLineOf(s string) string {
	first, _, _ := strings.Cut(s, "\n")
	return first
}

// batchPrinter prints a batch's events on stderr: one line per method as it ends, with the
// count so far; on a terminal, a status line of the methods running. It is called from the
// batch's goroutines, several methods at once, and through each method's methodPrinter from
// the engine's goroutines too (app.BatchEvents): every method takes mu for its fields and
// its writes.
type batchPrinter struct {
	cmd        string
	w          io.Writer
	tty        bool
	writeTests bool

	// mu guards the fields below and the writes to w.
	mu sync.Mutex
	// running holds each running method's last phase, in the order they started.
	running []*runningMethod
	// said are the messages printed once (warnings, the opening of a module's project).
	said map[string]bool
}

type runningMethod struct {
	m     *app.Method
	phase string
}

func newBatchPrinter(cmd string, w io.Writer, writeTests bool) *batchPrinter {
	return &batchPrinter{cmd: cmd, w: w, tty: newProgress(w).tty, writeTests: writeTests, said: map[string]bool{}}
}

func (p *batchPrinter) Method(m *app.Method) app.Events { return &methodPrinter{p: p, m: m} }

func (p *batchPrinter) Warning(w app.Warning) { p.once("warning: " + w.Message) }

// Finished prints the method's line.
func (p *batchPrinter) Finished(o app.MethodOutcome, done, total int) {
	var line string
	switch {
	case o.Finished():
		rep := o.Result.Report
		c := report.Counts(rep.Mutants)
		line = fmt.Sprintf("%s · %d mutants, %d survived", percent(rep.MutationScore), len(rep.Mutants), c[report.Survived])
		if rep.Tests.File != nil {
			line += fmt.Sprintf(" · %d new tests", o.Result.NewTests)
		}
		line += fmt.Sprintf(" · %.1f s", float64(rep.Timing.TotalMs)/1000)
	case o.Interrupted():
		line = "interrupted"
	default:
		line = "failed: " + firstLineOf(o.Err.Error())
	}
	width := len(fmt.Sprint(total))
	p.mu.Lock()
	defer p.mu.Unlock()
	for i, r := range p.running {
		if r.m == o.Method {
			p.running = append(p.running[:i], p.running[i+1:]...)
			break
		}
	}
	p.clearLocked()
	fmt.Fprintf(p.w, "[%*d/%d] %s  %s\n", width, done, total, o.Method.Key(), line)
	p.statusLocked()
}

// Suite writes a class's tests with --write-tests; without, they stay in the report.
func (p *batchPrinter) Suite(_ context.Context, f app.SuiteFile) error {
	if !p.writeTests {
		return nil
	}
	msg, err := app.WriteTestFile(f)
	if err != nil {
		return err
	}
	p.once(msg)
	return nil
}

// once prints msg unless it was printed before.
func (p *batchPrinter) once(msg string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.said[msg] {
		return
	}
	p.said[msg] = true
	p.clearLocked()
	fmt.Fprintf(p.w, "advertest %s: %s\n", p.cmd, msg)
	p.statusLocked()
}

// phase records a running method's phase and redraws the terminal's status line.
func (p *batchPrinter) phase(m *app.Method, phase string) {
	if !p.tty {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	found := false
	for _, r := range p.running {
		if r.m == m {
			r.phase, found = phase, true
		}
	}
	if !found {
		p.running = append(p.running, &runningMethod{m: m, phase: phase})
	}
	p.statusLocked()
}

func (p *batchPrinter) statusLocked() {
	if !p.tty || len(p.running) == 0 {
		return
	}
	parts := make([]string, len(p.running))
	for i, r := range p.running {
		parts[i] = r.m.Name() + ": " + r.phase
	}
	fmt.Fprintf(p.w, "\r\033[K%s", strings.Join(parts, " · "))
}

func (p *batchPrinter) clearLocked() {
	if p.tty {
		fmt.Fprint(p.w, "\r\033[K")
	}
}

// clear takes the terminal's status line away.
func (p *batchPrinter) clear() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.clearLocked()
}

// methodPrinter is one method's events: its Progress comes from the method's run and the
// engine's goroutines (one call at a time within the run, see loop.EventSink), beside the
// other methods' calls; it holds no state of its own and prints through its batchPrinter.
type methodPrinter struct {
	app.NoEvents
	p *batchPrinter
	m *app.Method
}

func (mp *methodPrinter) Progress(e loop.Event) {
	switch e.Phase {
	case loop.PhaseProject:
		mp.p.once(fmt.Sprintf("module %s: %s", moduleName(mp.m.Target.File), e.Message))
	case loop.PhaseDone:
	case loop.PhaseEvaluate:
		mp.p.phase(mp.m, fmt.Sprintf("mutants %d/%d", e.Done, e.Total))
	default:
		mp.p.phase(mp.m, string(e.Phase))
	}
}

func (mp *methodPrinter) Warning(w app.Warning) { mp.p.once("warning: " + w.Message) }

// moduleName names the module of a Java file for the user: its root relative to the current
// folder, or the root's folder name when that is the current folder or outside it.
func moduleName(file string) string {
	root, err := app.ModuleRoot(file)
	if err != nil {
		return filepath.Dir(file)
	}
	if cwd, err := os.Getwd(); err == nil {
		if rel, err := filepath.Rel(cwd, root); err == nil && rel != "." && !strings.HasPrefix(rel, "..") {
			return filepath.ToSlash(rel)
		}
	}
	return filepath.Base(root)
}
