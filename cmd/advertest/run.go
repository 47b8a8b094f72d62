package main

import (
	"context"
	"flag"
	"fmt"
	"io"

	"github.com/advertest/advertest-lsp/app"
	"github.com/advertest/advertest-lsp/loop/report"
)

func runCommand() *command {
	return &command{
		name:    "run",
		args:    "TARGET...",
		summary: "run the adversarial loop (TARGET: FILE:LINE, FILE with --method NAME, FILE, FOLDER; or --diff REV)",
		minArgs: 0, maxArgs: -1, // --diff needs no TARGET
		setFlags: func(fs *flag.FlagSet) func(context.Context, *env, []string) int {
			var tf targetFlags
			tf.register(fs, runFlags...)
			writeTests := fs.Bool("write-tests", false, "write the generated suite into the module's test sources")
			return func(ctx context.Context, e *env, args []string) int {
				return runRun(ctx, e, &tf, *writeTests, args)
			}
		},
	}
}

func runRun(ctx context.Context, e *env, tf *targetFlags, writeTests bool, args []string) int {
	var done func(*cliEvents) int
	if writeTests {
		done = func(ev *cliEvents) int {
			if ev.suite == nil {
				fmt.Fprintln(e.stderr, "no test was generated: nothing written")
				return exitOK
			}
			msg, err := app.WriteTestFile(*ev.suite)
			if err != nil {
				fmt.Fprintf(e.stderr, "advertest run: %v\n", err)
				return exitFailure
			}
			fmt.Fprintln(e.stderr, msg)
			return exitOK
		}
	}
	return onTargets(ctx, e, "run", tf, args, (*app.Core).PlayMany, writeTests, func(arg string) int {
		return onMethod(ctx, e, "run", tf, arg, (*app.Core).Play, printRunTable, done)
	})
}

func printRunTable(w io.Writer, rep *report.Report, interrupted bool) {
	printMutateTable(w, rep, interrupted)
	if len(rep.Rounds) > 0 {
		fmt.Fprintln(w, "  rounds:")
		fmt.Fprintln(w, "    #  agent  score   lines   branches  mutants  tests")
		for _, r := range rep.Rounds {
			score := "   n/a"
			if r.MutationScore != nil {
				score = fmt.Sprintf("%5.1f%%", 100**r.MutationScore)
			}
			fmt.Fprintf(w, "    %-2d %-5s %s  %5.1f%%  %6.1f%%  %7d  %5d\n", r.Index, r.Agent, score, 100*r.LineCoverage, 100*r.BranchCoverage, r.Mutants, r.Tests)
		}
	}
	fmt.Fprintf(w, "  generated  %d tests (%d failing on the original)\n", len(rep.Tests.Methods), len(rep.Tests.FailingOnOriginal))
}
