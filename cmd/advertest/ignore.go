package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/advertest/advertest-lsp/app"
	"github.com/advertest/advertest-lsp/loop/report"
	"github.com/advertest/advertest-lsp/loop/state"
	"github.com/advertest/advertest-lsp/settings"
)

// verdictFlags are `advertest mutate`'s flags for the user's verdicts on single mutants:
// --ignore ID, --mark-equivalent ID, --unignore ID (each repeatable) and --show-ignored. The
// marks are kept in the module's .advertest/, shared with the language server (docs/state.md).
type verdictFlags struct {
	ignore, equivalent, unignore idList
	showIgnored                  bool
}

// idList is a repeatable flag of mutant ids.
type idList []string

func (l *idList) String() string { return strings.Join(*l, ",") }
func (l *idList) Set(v string) error {
	if v = strings.TrimSpace(v); v == "" {
		return fmt.Errorf("a mutant id is needed")
	}
	*l = append(*l, v)
	return nil
}

func (f *verdictFlags) register(fs *flag.FlagSet) {
	fs.Var(&f.ignore, "ignore", "ignore the mutant `ID` from now on: status ignored, left out of the mutation score (repeatable)")
	fs.Var(&f.equivalent, "mark-equivalent", "mark the mutant `ID` equivalent to the original: status ignored, equivalence by user (repeatable)")
	fs.Var(&f.unignore, "unignore", "take your mark off the mutant `ID` (repeatable)")
	fs.BoolVar(&f.showIgnored, "show-ignored", false, "list the ignored mutants in the table, with your marks")
}

// any reports whether a mark is to change.
func (f *verdictFlags) any() bool {
	return len(f.ignore)+len(f.equivalent)+len(f.unignore) > 0
}

// apply records the marks the flags ask for on the mutants of the target's method, before the
// analysis runs (so that its report shows them), saying on stderr what it did. An id that is
// none of the method's mutants is a usage error.
func (f *verdictFlags) apply(e *env, tf *targetFlags, arg string) int {
	if !f.any() {
		return exitOK
	}
	values, err := tf.settings.values(os.Getenv)
	if err != nil {
		return usageFail(e, "mutate", err)
	}
	target, code := resolveTarget(e, tf, arg)
	if target == nil {
		return code
	}
	root, err := app.ModuleRoot(target.File)
	if err != nil {
		return failRun(e, "mutate", err)
	}
	req := app.Request{Method: app.MethodOf(target), Settings: settings.Settings{Values: values}}
	for _, step := range []struct {
		ids     idList
		verdict string
		done    string
	}{
		{f.unignore, "", "no longer ignored"},
		{f.ignore, state.UserIgnored, "ignored"},
		{f.equivalent, state.UserEquivalent, "marked equivalent"},
	} {
		for _, id := range step.ids {
			m := report.Mutant{ID: id}
			if step.verdict != "" {
				if m, err = app.FindMutant(req, id); err != nil {
					return usageFail(e, "mutate", err)
				}
			}
			changed, _, err := app.SetUserVerdict(root, req.Method.Class, req.Method.Query, m, step.verdict)
			if err != nil && !changed {
				return failRun(e, "mutate", err)
			}
			if err != nil {
				fmt.Fprintf(e.stderr, "advertest mutate: warning: %v\n", err)
			}
			switch {
			case changed:
				fmt.Fprintf(e.stderr, "advertest mutate: %s %s\n", id, step.done)
			case step.verdict == "":
				fmt.Fprintf(e.stderr, "advertest mutate: warning: %s was not ignored\n", id)
			default:
				fmt.Fprintf(e.stderr, "advertest mutate: %s was %s already\n", id, step.done)
			}
		}
	}
	return exitOK
}

// printIgnored lists the report's ignored mutants with the user's mark.
func printIgnored(w io.Writer, rep *report.Report) {
	var ignored []report.Mutant
	for _, m := range rep.Mutants {
		if m.Status == report.Ignored {
			ignored = append(ignored, m)
		}
	}
	if len(ignored) == 0 {
		fmt.Fprintln(w, "  ignored:   none")
		return
	}
	fmt.Fprintln(w, "  ignored:")
	for _, m := range ignored {
		mark := "ignored"
		if m.Equivalence != nil && m.Equivalence.By == report.ByUser {
			mark = "marked equivalent"
		}
		fmt.Fprintf(w, "    line %-4d %-5s %s  [%s, %s; --unignore %s]\n", m.Line, m.Operator, m.Describe(), m.ID, mark, m.ID)
	}
}
