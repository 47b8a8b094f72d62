package main

import (
	"flag"
	"fmt"

	"github.com/advertest/advertest-lsp/app"
	"github.com/advertest/advertest-lsp/loop/report"
)

// registerMany declares the flags that pick the methods of a run over many: --diff, --shard.
func (f *targetFlags) registerMany(fs *flag.FlagSet) {
	fs.StringVar(&f.diff, "diff", "", "only the methods whose lines differ between the working tree and the git revision `REV` (without TARGET: the whole repository's main sources)")
	fs.Var(&f.shard, "shard", "run only shard `I/N` of the methods (1-based, by a hash of each method's identity; see docs/reports.md)")
}

// shardFlag is --shard I/N.
type shardFlag struct{ index, count int }

func (s *shardFlag) String() string {
	if s == nil || s.count == 0 {
		return ""
	}
	return fmt.Sprintf("%d/%d", s.index, s.count)
}

func (s *shardFlag) Set(v string) error {
	i, n, err := report.ParseShard(v)
	if err != nil {
		return err
	}
	s.index, s.count = i, n
	return nil
}

func (s *shardFlag) set() bool { return s.count > 0 }

// parseTargets turns the positional TARGETs, --method and --diff into the run's targets. A
// TARGET is FILE:LINE, FILE (with --method NAME: that method; without: every method of the
// file) or FOLDER.
func parseTargets(tf *targetFlags, args []string) (app.Targets, error) {
	t := app.Targets{Diff: tf.diff}
	if len(args) == 0 && tf.diff == "" {
		return t, usagef("missing TARGET")
	}
	if tf.method != "" && len(args) != 1 {
		return t, usagef("--method NAME picks a method of one FILE: give exactly one TARGET with it")
	}
	for _, a := range args {
		file, line, err := splitFileLine(a)
		if err != nil {
			return t, err
		}
		if line > 0 || tf.method != "" {
			if err := checkOneMethod(file, line, tf.method); err != nil {
				return t, err
			}
		}
		t.Specs = append(t.Specs, app.TargetSpec{Path: file, Line: line, Query: tf.method})
	}
	return t, nil
}

// single reports whether the run is on exactly one method and gives the one-method report.
func (tf *targetFlags) single(t app.Targets) bool { return t.Single() && !tf.shard.set() }
