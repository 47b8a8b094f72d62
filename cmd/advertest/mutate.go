package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"sort"
	"sync"
	"time"

	"github.com/advertest/advertest-lsp/app"
	"github.com/advertest/advertest-lsp/loop"
	"github.com/advertest/advertest-lsp/loop/report"
)

func mutateCommand() *command {
	c := &command{
		name:    "mutate",
		args:    "TARGET...",
		summary: "mutation analysis with the project's existing tests (TARGET: FILE:LINE, FILE with --method NAME, FILE, FOLDER; or --diff REV)",
		minArgs: 0, maxArgs: -1, // TARGET is checked below: --list-operators and --diff need none
	}
	c.setFlags = func(fs *flag.FlagSet) func(context.Context, *env, []string) int {
		var tf targetFlags
		tf.register(fs)
		var vf verdictFlags
		vf.register(fs)
		listOps := fs.Bool("list-operators", false, "print the mutation operators (code, group, description) and exit; takes no TARGET")
		return func(ctx context.Context, e *env, args []string) int {
			if *listOps {
				return listOperators(e, args)
			}
			if len(args) == 0 && tf.diff == "" {
				fmt.Fprintf(e.stderr, "advertest %s: missing %s\n", c.name, c.args)
				printCommandUsage(e.stderr, c, fs)
				return exitUsage
			}
			if vf.any() {
				// A mark names one mutant of one method: the target must be that method.
				if !oneMethodTarget(&tf, args) {
					return usageFail(e, "mutate", fmt.Errorf("--ignore, --mark-equivalent and --unignore take one method as TARGET (FILE:LINE or FILE --method NAME)"))
				}
				if code := vf.apply(e, &tf, args[0]); code != exitOK {
					return code
				}
			}
			return runMutate(ctx, e, &tf, args, vf.showIgnored)
		}
	}
	return c
}

// runMutate is mutation analysis of the targets; with showIgnored a one-method table also lists
// the ignored mutants with their marks (a report over many methods carries them in its JSON).
func runMutate(ctx context.Context, e *env, tf *targetFlags, args []string, showIgnored bool) int {
	table := printMutateTable
	if showIgnored {
		table = func(w io.Writer, rep *report.Report, interrupted bool) {
			printMutateTable(w, rep, interrupted)
			printIgnored(w, rep)
		}
	}
	return onTargets(ctx, e, "mutate", tf, args, (*app.Core).AnalyzeMany, false, func(arg string) int {
		return onMethod(ctx, e, "mutate", tf, arg, (*app.Core).Analyze, table, nil)
	})
}

func printMutateTable(w io.Writer, rep *report.Report, interrupted bool) {
	t := rep.Target
	fmt.Fprintf(w, "\n%s.%s  %s:%d-%d\n", t.Class, t.Method, t.File, t.StartLine, t.EndLine)
	if interrupted {
		fmt.Fprintln(w, "  (interrupted: partial results)")
	}
	c := report.Counts(rep.Mutants)
	counts := fmt.Sprintf("killed %d, survived %d, uncompilable %d, timeout %d",
		c[report.Killed], c[report.Survived], c[report.Uncompilable], c[report.Timeout])
	for _, st := range []report.Status{report.Equivalent, report.Duplicate, report.Ignored} {
		if c[st] > 0 {
			counts += fmt.Sprintf(", %s %d", st, c[st])
		}
	}
	fmt.Fprintf(w, "  mutants    %d: %s\n", len(rep.Mutants), counts)
	counted := c[report.Killed] + c[report.Survived]
	if rep.MutationScore != nil {
		fmt.Fprintf(w, "  score      %.1f%% (%d of %d counted mutants killed)\n", 100**rep.MutationScore, c[report.Killed], counted)
		if left := c[report.Equivalent] + c[report.Duplicate] + c[report.Ignored]; left > 0 && rep.RawMutationScore != nil {
			fmt.Fprintf(w, "  raw score  %.1f%% (over every valid mutant, the %d equivalent, duplicate or ignored too)\n", 100**rep.RawMutationScore, left)
		}
	} else {
		fmt.Fprintln(w, "  score      n/a (no valid mutant)")
	}
	fmt.Fprintf(w, "  coverage   lines %.1f%%, branches %.1f%%\n", 100*rep.LineCoverage, 100*rep.BranchCoverage)
	var surv []report.Mutant
	for _, m := range rep.Mutants {
		if m.Status == report.Survived {
			surv = append(surv, m)
		}
	}
	sort.SliceStable(surv, func(i, j int) bool { return surv[i].Line < surv[j].Line })
	if len(surv) > 0 {
		fmt.Fprintln(w, "  surviving:")
		for _, m := range surv {
			fmt.Fprintf(w, "    line %-4d %-5s %s  [%s]\n", m.Line, m.Operator, m.Describe(), m.ID)
			if m.LikelyEquivalent() {
				fmt.Fprintf(w, "              probably equivalent (by %s): %s\n", m.Equivalence.By, m.Equivalence.Evidence)
			}
		}
	}
	for _, warn := range rep.Warnings {
		fmt.Fprintf(w, "  warning: %s\n", warn)
	}
	fmt.Fprintf(w, "  time       %.1f s (baseline %.1f s, %d mutants in %.1f s, %d test runs)\n",
		float64(rep.Timing.TotalMs)/1000, float64(rep.Timing.BaselineMs)/1000,
		rep.Timing.MutantsEvaluated, float64(rep.Timing.MutantsMs)/1000, rep.Timing.TestExecutions)
	if ms := rep.Timing.FirstVerdictsMs; ms > 0 {
		fmt.Fprintf(w, "  first      verdicts after %.1f s, from the test classes that name the class (no coverage map yet)\n", float64(ms)/1000)
	}
	if cm := rep.Timing.CoverageMap; cm != nil {
		fmt.Fprintf(w, "  baseline   %d project tests run (%d reach the method, %d new or changed), %d not run: the coverage map says they do not reach it (%.1f MB)\n",
			cm.Reaching+cm.Rerun, cm.Reaching, cm.Rerun, cm.NotRun, float64(cm.Bytes)/(1<<20))
	}
	if t := rep.Timing; t.ModelMs+t.CompileMs+t.WorkersMs > 0 {
		fmt.Fprintf(w, "  opening    %.1f s (build model %.1f s, compile %.1f s, workers %.1f s)\n",
			float64(t.ModelMs+t.CompileMs+t.WorkersMs)/1000, float64(t.ModelMs)/1000, float64(t.CompileMs)/1000, float64(t.WorkersMs)/1000)
	}
}

// progress prints phases and counts on stderr: a line that rewrites itself on a terminal, a
// line per phase elsewhere, never the same line twice in a row. It is called from the use
// case's goroutine (phases, warnings through line, clear and done) and from the engine's
// goroutines (the counts of the mutants evaluated, which the engine sends one at a time and in
// order); mu makes each call one step, so a warning never lands inside a progress line.
type progress struct {
	w   io.Writer
	tty bool

	mu sync.Mutex
	// last is when a count was last printed (not a terminal: at most one a second); lastLine
	// is the last progress line printed there, which is not printed again right after itself.
	last     time.Time
	lastLine string
}

func newProgress(w io.Writer) *progress {
	p := &progress{w: w}
	if f, ok := underlying(w).(*os.File); ok {
		if fi, err := f.Stat(); err == nil && fi.Mode()&os.ModeCharDevice != 0 {
			p.tty = true
		}
	}
	return p
}

func (p *progress) sink(ev loop.Event) {
	switch ev.Phase {
	case loop.PhaseProject:
		p.print(ev.Message, true)
	case loop.PhaseEvaluate:
		msg := fmt.Sprintf("evaluating mutants %d/%d", ev.Done, ev.Total)
		p.print(msg, ev.Done == ev.Total)
	case loop.PhaseDone:
	default:
		msg := string(ev.Phase)
		if ev.Round > 0 || ev.Rounds > 0 {
			msg = fmt.Sprintf("round %d/%d %s", ev.Round, ev.Rounds, ev.Agent)
		}
		if ev.Message != "" {
			msg += ": " + ev.Message
		}
		if ev.Score != nil {
			msg += fmt.Sprintf(" · %d mutants · score %.0f%%", ev.Mutants, 100**ev.Score)
		}
		p.print(msg, true)
	}
}

func (p *progress) print(msg string, important bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.tty {
		fmt.Fprintf(p.w, "\r\033[K%s", msg)
		return
	}
	// Not a terminal: phases always, counts at most once a second, and a line never twice in
	// a row (a game's round reports its phase at each of its steps).
	if msg == p.lastLine || !important && time.Since(p.last) < time.Second {
		return
	}
	p.last, p.lastLine = time.Now(), msg
	fmt.Fprintln(p.w, msg)
}

// line prints a line of its own (a warning), taking a terminal's progress line away first.
func (p *progress) line(text string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.clearLocked()
	fmt.Fprintln(p.w, text)
}

// clear takes a terminal's progress line away before another line is printed.
func (p *progress) clear() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.clearLocked()
}

func (p *progress) clearLocked() {
	if p.tty {
		fmt.Fprint(p.w, "\r\033[K")
	}
}

func (p *progress) done() { p.clear() }
