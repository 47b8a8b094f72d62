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
	if n := len(rep.Tests.LeftOut); n > 0 {
		fmt.Fprintf(w, "  left out   %d tests that add no kill, line or branch (the minimal suite)\n", n)
	}
	for _, d := range rep.Tests.Dropped {
		fmt.Fprintf(w, "  dropped    %s: %s\n", d.Test, d.Reason)
	}
	if cost := llmCost(rep.LLM); cost != "" {
		fmt.Fprintf(w, "  llm        %s\n", cost)
	}
}

// llmCost is a run's LLM use in words: "12 requests, 45,120 tokens (38,000 prompt + 7,120
// completion), $0.0231"; the dollars only with llm.pricing, "" without requests.
func llmCost(l report.LLM) string {
	if l.Requests == 0 {
		return ""
	}
	s := fmt.Sprintf("%d requests, %s tokens (%s prompt + %s completion)", l.Requests,
		thousands(l.PromptTokens+l.CompletionTokens), thousands(l.PromptTokens), thousands(l.CompletionTokens))
	if l.CostUSD > 0 {
		s += fmt.Sprintf(", $%.4f", l.CostUSD)
	}
	if l.Estimated {
		s += " (some tokens estimated)"
	}
	return s
}

// thousands writes n with commas between its thousands.
func thousands(n int) string {
	s := fmt.Sprint(n)
	if n < 0 {
		return "-" + thousands(-n)
	}
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}
