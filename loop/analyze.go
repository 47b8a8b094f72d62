package loop

import (
	"runtime"
	"strings"

	"github.com/advertest/advertest-lsp/loop/engine"
	"github.com/advertest/advertest-lsp/loop/mutants"
)

// Subject is the target as the engine sees it.
func (t *Target) Subject() engine.Subject {
	return engine.Subject{
		Class:     t.Method.TopLevelClass,
		Source:    t.Source,
		StartLine: t.Method.StartLine,
		EndLine:   t.Method.EndLine,
	}
}

// AllRuleMutants is every rule-based mutant of the method that the operators sel allow (the
// zero Selection: every operator), of the default and the strong group, on every line.
func AllRuleMutants(t *Target, sel mutants.Selection) []mutants.Mutant {
	return ruleMutants(t, sel, nil)
}

// ruleMutants is the mutants of both groups of sel on lines (nil: every line of the method).
func ruleMutants(t *Target, sel mutants.Selection, lines []int) []mutants.Mutant {
	ms := mutants.Generate(t.Parsed, t.Method, mutants.Options{Lines: lines, Operators: sel})
	return dedupeMutants(append(ms, mutants.Generate(t.Parsed, t.Method, mutants.Options{Strong: true, Lines: lines, Operators: sel})...))
}

func dedupeMutants(ms []mutants.Mutant) []mutants.Mutant {
	seen := map[string]bool{}
	out := ms[:0:0]
	for _, m := range ms {
		if seen[m.ID] {
			continue
		}
		seen[m.ID] = true
		out = append(out, m)
	}
	return out
}

// ClassTests turns test class names into suite entries that stand for every test of a class.
func ClassTests(classes []string) []engine.TestID {
	ids := make([]engine.TestID, len(classes))
	for i, c := range classes {
		ids[i] = engine.TestID{Class: c}
	}
	return ids
}

// engineOptions are the engine's budgets from cfg, for parallel mutants (with Progress to add).
func engineOptions(cfg Config, parallel bool) engine.Options {
	o := engine.Options{
		TimeoutFactor:   cfg.MutantTimeoutFactor,
		TimeoutConstant: cfg.MutantTimeoutConstant,
		StepFactor:      cfg.StepFactor,
		StepConstant:    cfg.StepConstant,
	}
	if parallel {
		o.Parallelism = workers(cfg)
	}
	return o
}

func workers(cfg Config) int {
	if cfg.Workers > 0 {
		return cfg.Workers
	}
	return runtime.NumCPU()
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}
