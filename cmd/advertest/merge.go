package main

import (
	"context"
	"flag"
	"fmt"

	"github.com/advertest/advertest-lsp/loop/report"
)

// mergeCommand is `advertest merge REPORT...`: the reports of a run's shards joined into the
// report of the whole run (see docs/reports.md).
func mergeCommand() *command {
	return &command{
		name:    "merge",
		args:    "REPORT...",
		summary: "merge the reports of the shards of one run (--shard I/N, every I) into the report of the whole run",
		minArgs: 1, maxArgs: -1,
		setFlags: func(fs *flag.FlagSet) func(context.Context, *env, []string) int {
			var jsonPath string
			var out outputFlags
			fs.StringVar(&jsonPath, "json", "", "write the merged report JSON to `PATH` (- for stdout, alone)")
			out.register(fs)
			return func(_ context.Context, e *env, args []string) int {
				return runMerge(e, jsonPath, &out, args)
			}
		},
	}
}

// runMerge merges the shard reports, prints the summary table, writes the reports and
// decides the exit status: 1 when the reports do not make up one run or a method's run
// failed in a shard, 3 below --fail-under.
func runMerge(e *env, jsonPath string, out *outputFlags, paths []string) int {
	multi, err := report.MergeFiles(paths)
	if err != nil {
		fmt.Fprintf(e.stderr, "advertest merge: %v\n", err)
		return exitFailure
	}
	printManySummary(e.stderr, multi)
	failed := out.write(e, "merge", jsonPath, multi, multi.Methods)
	return out.exitStatus(e, "merge", false, failed || len(multi.Failures) > 0, multi.Summary.MutationScore)
}
