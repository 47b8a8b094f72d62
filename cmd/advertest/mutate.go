package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
	"time"

	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"

	"github.com/advertest/advertest-lsp/buildtools"
	"github.com/advertest/advertest-lsp/loop"
	"github.com/advertest/advertest-lsp/loop/report"
)

// targetFlags are the flags that every command on a method shares, and the settings.
type targetFlags struct {
	method   string
	jsonPath string
	logLevel logLevel
	settings settingsFlags
}

// register declares the shared flags, the settings' and the command's own shorthands.
func (f *targetFlags) register(fs *flag.FlagSet, shorthands ...shorthand) {
	fs.StringVar(&f.method, "method", "", "the method by `NAME` (name, name(int,int), Inner.name, a constructor by its class) when TARGET is a FILE")
	fs.StringVar(&f.jsonPath, "json", "", "write the report JSON to `PATH` (- for stdout, alone)")
	f.logLevel = logLevel(zapcore.WarnLevel)
	fs.Var(&f.logLevel, "log-level", "log `LEVEL` on stderr: debug, info, warn or error")
	f.settings.register(fs, append([]shorthand{workersFlag, mavenFlag, sandboxFlag}, shorthands...)...)
}

// usageFail prints a usage error of cmd (a bad setting) and returns its status.
func usageFail(e *env, cmd string, err error) int {
	fmt.Fprintf(e.stderr, "advertest %s: %v\n", cmd, err)
	return exitUsage
}

func mutateCommand() *command {
	c := &command{
		name:    "mutate",
		args:    "TARGET",
		summary: "mutation analysis of one method with the project's existing tests (TARGET: FILE:LINE, or FILE with --method NAME)",
		minArgs: 0, maxArgs: 1, // TARGET is checked below: --list-operators needs none
	}
	c.setFlags = func(fs *flag.FlagSet) func(context.Context, *env, []string) int {
		var tf targetFlags
		tf.register(fs)
		listOps := fs.Bool("list-operators", false, "print the mutation operators (code, group, description) and exit; takes no TARGET")
		return func(ctx context.Context, e *env, args []string) int {
			if *listOps {
				return listOperators(e, args)
			}
			if len(args) == 0 {
				fmt.Fprintf(e.stderr, "advertest %s: missing %s\n", c.name, c.args)
				printCommandUsage(e.stderr, c, fs)
				return exitUsage
			}
			return runMutate(ctx, e, &tf, args[0])
		}
	}
	return c
}

func runMutate(ctx context.Context, e *env, tf *targetFlags, arg string) int {
	values, err := tf.settings.values(os.Getenv)
	if err != nil {
		return usageFail(e, "mutate", err)
	}
	target, code := resolveTarget(e, tf, arg)
	if target == nil {
		return code
	}
	log := stderrLogger(e.stderr, zapcore.Level(tf.logLevel))
	defer func() { _ = log.Sync() }()

	cfg := loop.ConfigFrom(values)
	progress := newProgress(e.stderr)
	progress.phase("loading the project and compiling it")
	proj, err := openProject(ctx, target.File, cfg, log)
	if err != nil {
		return failRun(e, "mutate", err)
	}
	defer proj.Close()

	rep, err := loop.Analyze(ctx, proj, target, cfg, progress.sink)
	progress.done()
	if err != nil && !errors.Is(err, context.Canceled) {
		return failRun(e, "mutate", err)
	}
	interrupted := err != nil
	printMutateTable(e.stderr, rep, interrupted)
	if werr := writeReport(e, tf.jsonPath, rep); werr != nil {
		fmt.Fprintf(e.stderr, "advertest mutate: %v\n", werr)
		return exitFailure
	}
	if interrupted {
		return exitInterrupted
	}
	return exitOK
}

// resolveTarget turns TARGET and --method into the method, or prints the usage error and
// returns the exit status.
func resolveTarget(e *env, tf *targetFlags, arg string) (*loop.Target, int) {
	file, line, err := loop.SplitFileLine(arg)
	if err == nil {
		if line > 0 && tf.method != "" {
			err = &loop.UsageError{Msg: "give either FILE:LINE or --method NAME, not both"}
		} else {
			var t *loop.Target
			t, err = loop.ResolveTarget(file, line, tf.method)
			if err == nil {
				return t, exitOK
			}
		}
	}
	fmt.Fprintf(e.stderr, "advertest: %v\n", err)
	if loop.IsUsageError(err) {
		return nil, exitUsage
	}
	return nil, exitFailure
}

func openProject(ctx context.Context, file string, cfg loop.Config, log *zap.Logger) (*buildtools.Project, error) {
	loader := buildtools.NewLoader(buildtools.Options{MavenArgs: cfg.MavenArgs, Logger: log})
	return buildtools.OpenProject(ctx, loader, file, buildtools.ProjectOptions{
		Workers:         cfg.Workers,
		TimeoutFactor:   cfg.MutantTimeoutFactor,
		TimeoutConstant: cfg.MutantTimeoutConstant,
		JacocoAgentJar:  cfg.JacocoAgentPath,
		Logger:          log,
	})
}

func failRun(e *env, cmd string, err error) int {
	if errors.Is(err, context.Canceled) {
		fmt.Fprintf(e.stderr, "advertest %s: interrupted\n", cmd)
		return exitInterrupted
	}
	fmt.Fprintf(e.stderr, "advertest %s: %v\n", cmd, err)
	return exitFailure
}

// writeReport writes the report JSON: to stdout alone for "-", atomically to a file otherwise.
func writeReport(e *env, path string, rep *report.Report) error {
	switch path {
	case "":
		return nil
	case "-":
		b, err := rep.Marshal()
		if err != nil {
			return err
		}
		_, err = e.stdout.Write(b)
		return err
	default:
		return rep.WriteFile(path)
	}
}

func stderrLogger(w io.Writer, level zapcore.Level) *zap.Logger {
	cfg := zap.NewDevelopmentEncoderConfig()
	cfg.EncodeTime = zapcore.ISO8601TimeEncoder
	return zap.New(zapcore.NewCore(zapcore.NewConsoleEncoder(cfg), zapcore.Lock(zapcore.AddSync(w)), level))
}

func printMutateTable(w io.Writer, rep *report.Report, interrupted bool) {
	t := rep.Target
	fmt.Fprintf(w, "\n%s.%s  %s:%d-%d\n", t.Class, t.Method, t.File, t.StartLine, t.EndLine)
	if interrupted {
		fmt.Fprintln(w, "  (interrupted: partial results)")
	}
	c := report.Counts(rep.Mutants)
	fmt.Fprintf(w, "  mutants    %d: killed %d, survived %d, uncompilable %d, timeout %d\n",
		len(rep.Mutants), c[report.Killed], c[report.Survived], c[report.Uncompilable], c[report.Timeout])
	valid := c[report.Killed] + c[report.Survived]
	if rep.MutationScore != nil {
		fmt.Fprintf(w, "  score      %.1f%% (%d of %d valid mutants killed)\n", 100**rep.MutationScore, c[report.Killed], valid)
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
			desc := m.Description
			if desc == "" {
				desc = fmt.Sprintf("`%s` → `%s`", strings.TrimSpace(m.Original), strings.TrimSpace(m.Mutated))
			}
			fmt.Fprintf(w, "    line %-4d %-5s %s  [%s]\n", m.Line, m.Operator, desc, m.ID)
		}
	}
	for _, warn := range rep.Warnings {
		fmt.Fprintf(w, "  warning: %s\n", warn)
	}
	fmt.Fprintf(w, "  time       %.1f s (baseline %.1f s, %d mutants in %.1f s, %d test runs)\n",
		float64(rep.Timing.TotalMs)/1000, float64(rep.Timing.BaselineMs)/1000,
		rep.Timing.MutantsEvaluated, float64(rep.Timing.MutantsMs)/1000, rep.Timing.TestExecutions)
}

// progress prints phases and counts on stderr: a line that rewrites itself on a terminal, a
// line per phase elsewhere.
type progress struct {
	w        io.Writer
	tty      bool
	last     time.Time
	lastLine string
}

func newProgress(w io.Writer) *progress {
	p := &progress{w: w}
	if f, ok := w.(*os.File); ok {
		if fi, err := f.Stat(); err == nil && fi.Mode()&os.ModeCharDevice != 0 {
			p.tty = true
		}
	}
	return p
}

func (p *progress) phase(msg string) { p.print(msg, true) }

func (p *progress) sink(ev loop.Event) {
	switch ev.Phase {
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
	if p.tty {
		fmt.Fprintf(p.w, "\r\033[K%s", msg)
		if important {
			p.lastLine = msg
		}
		return
	}
	// Not a terminal: phases always, counts at most once a second.
	if !important && time.Since(p.last) < time.Second {
		return
	}
	p.last = time.Now()
	fmt.Fprintln(p.w, msg)
}

func (p *progress) done() {
	if p.tty {
		fmt.Fprint(p.w, "\r\033[K")
	}
}
