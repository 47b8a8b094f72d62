package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"slices"
	"strings"
	"sync"

	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"

	"github.com/advertest/advertest-lsp/app"
	"github.com/advertest/advertest-lsp/loop"
	"github.com/advertest/advertest-lsp/loop/report"
)

// targetFlags are the flags that every command on a method shares, and the settings.
type targetFlags struct {
	method   string
	jsonPath string
	logLevel logLevel
	settings settingsFlags
	// out are the report formats and --fail-under; diff and shard select the methods of a run
	// over many (many.go).
	out   outputFlags
	diff  string
	shard shardFlag
}

// register declares the shared flags, the settings' and the command's own shorthands.
func (f *targetFlags) register(fs *flag.FlagSet, shorthands ...shorthand) {
	fs.StringVar(&f.method, "method", "", "the method by `NAME` (name, name(int,int), Inner.name, a constructor by its class) when TARGET is a FILE")
	fs.StringVar(&f.jsonPath, "json", "", "write the report JSON to `PATH` (- for stdout, alone)")
	f.logLevel = logLevel(zapcore.WarnLevel)
	fs.Var(&f.logLevel, "log-level", "log `LEVEL` on stderr: debug, info, warn or error")
	f.settings.register(fs, append([]shorthand{workersFlag, mavenFlag, sandboxFlag}, shorthands...)...)
	f.out.register(fs)
	f.registerMany(fs)
}

// useCase is the application core's use case a command runs on the method.
type useCase func(core *app.Core, ctx context.Context, req app.Request, ev app.Events) (*app.Result, error)

// onMethod is what run and mutate share: the settings and the target from the command line,
// the use case on the application core with its events printed on stderr, the table, then
// done (the command's own last steps, on a run that was not interrupted) and the report JSON.
func onMethod(ctx context.Context, e *env, cmd string, tf *targetFlags, arg string, use useCase, printTable func(io.Writer, *report.Report, bool), done func(*cliEvents) int) int {
	s, code := tf.runSettings(e, cmd)
	if code != exitOK {
		return code
	}
	target, code := resolveTarget(e, tf, arg)
	if target == nil {
		return code
	}
	core, closeCore := tf.newCore(e)
	defer closeCore()

	ev := &cliEvents{cmd: cmd, w: e.stderr, progress: newProgress(e.stderr)}
	res, err := use(core, ctx, app.Request{Method: app.MethodOf(target), Settings: s}, ev)
	ev.progress.done()
	if res == nil || res.Report == nil {
		return failRun(e, cmd, err)
	}
	rep := res.Report
	rep.ModuleDir = moduleDir(res.ModuleRoot)
	interrupted := errors.Is(err, context.Canceled)
	if err != nil && !interrupted {
		if len(rep.Mutants) > 0 {
			printTable(e.stderr, ev.unsaid(rep), false) // what was found before the failure
		}
		return failRun(e, cmd, err)
	}
	printTable(e.stderr, ev.unsaid(rep), interrupted)
	if !interrupted && done != nil {
		if code := done(ev); code != exitOK {
			return code
		}
	}
	failed := tf.out.write(e, cmd, tf.jsonPath, rep, []report.Report{*rep})
	return tf.out.exitStatus(e, cmd, interrupted, failed, rep.MutationScore)
}

// moduleDir is the report's moduleDir: the module root relative to the repository that holds
// the current folder, else the one that holds the module ("" when it is the repository root).
func moduleDir(moduleRoot string) string {
	if moduleRoot == "" {
		return ""
	}
	for _, from := range []string{".", moduleRoot} {
		if repo, err := report.RepoRoot(from); err == nil {
			if dir, err := report.ModuleDirOf(repo, moduleRoot); err == nil {
				return dir
			}
		}
	}
	return ""
}

// cliEvents prints a use case's events on stderr and keeps the suite it offers for done. Its
// methods are called from the use case's goroutines, Progress also from the engine's: the
// printing goes through progress, whose lock keeps each line whole, and mu guards said.
type cliEvents struct {
	app.NoEvents
	cmd      string
	w        io.Writer
	progress *progress
	// suite is the last suite offered, nil when none was.
	suite *app.SuiteFile

	mu sync.Mutex
	// said are the warnings printed while the run went on: the table does not print them again.
	said []string
}

func (c *cliEvents) Progress(e loop.Event) { c.progress.sink(e) }

func (c *cliEvents) Warning(w app.Warning) {
	c.mu.Lock()
	c.said = append(c.said, w.Message)
	c.mu.Unlock()
	c.progress.line(fmt.Sprintf("advertest %s: warning: %s", c.cmd, w.Message))
}

// unsaid is rep for its table: its warnings without those printed while the run went on (the
// use case prefixes the method's name to a report warning it also sends as an event). The
// report itself, for the JSON, keeps every warning.
func (c *cliEvents) unsaid(rep *report.Report) *report.Report {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.said) == 0 || len(rep.Warnings) == 0 {
		return rep
	}
	shown := *rep
	shown.Warnings = nil
	for _, w := range rep.Warnings {
		if !slices.ContainsFunc(c.said, func(said string) bool { return said == w || strings.HasSuffix(said, ": "+w) }) {
			shown.Warnings = append(shown.Warnings, w)
		}
	}
	return &shown
}

// Suite keeps the suite: the CLI writes it after the table, with --write-tests only.
func (c *cliEvents) Suite(_ context.Context, f app.SuiteFile) error {
	c.suite = &f
	return nil
}

// usageFail prints a usage error of cmd (a bad setting) and returns its status.
func usageFail(e *env, cmd string, err error) int {
	fmt.Fprintf(e.stderr, "advertest %s: %v\n", cmd, err)
	return exitUsage
}

// resolveTarget turns TARGET and --method into the method, or prints the usage error and
// returns the exit status.
func resolveTarget(e *env, tf *targetFlags, arg string) (*loop.Target, int) {
	file, line, err := splitFileLine(arg)
	if err == nil {
		err = checkOneMethod(file, line, tf.method)
	}
	if err == nil {
		var t *loop.Target
		t, err = loop.ResolveTarget(file, line, tf.method)
		if err == nil {
			return t, exitOK
		}
	}
	fmt.Fprintf(e.stderr, "advertest: %s\n", describe(err))
	if isUsage(err) {
		return nil, exitUsage
	}
	return nil, exitFailure
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
func writeReport(e *env, path string, rep document) error {
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
