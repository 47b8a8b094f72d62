package jobs

import (
	"github.com/advertest/advertest-lsp/loop/engine"
	"github.com/advertest/advertest-lsp/loop/report"
)

// Covering lists, for each surviving mutant of ms, the tests (Class.method) that execute its
// line on the original, from the baseline's per-test coverage; empty without a baseline.
func Covering(base *engine.Baseline, ms []report.Mutant) map[string][]string {
	out := map[string][]string{}
	if base == nil {
		return out
	}
	for _, m := range ms {
		if m.Status != report.Survived {
			continue
		}
		var names []string
		for _, id := range base.TestsFor(m.Line) {
			names = append(names, id.String())
		}
		out[m.ID] = names
	}
	return out
}
