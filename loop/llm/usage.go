package llm

import (
	"github.com/advertest/advertest-lsp/loop"
	"github.com/advertest/advertest-lsp/loop/report"
)

// The LLM's players add what became of the model's tests and mutants to the report's llm
// section (the client's Usage gives the requests, tokens and cost).
var (
	_ loop.UsageReporter = (*TestAgent)(nil)
	_ loop.UsageReporter = (*MutantAgent)(nil)
	_ loop.UsageReporter = Mixed{}
)

// ReportUsage puts T's counts into llm.tests.
func (a *TestAgent) ReportUsage(l *report.LLM) {
	st := a.Stats()
	l.Tests = &report.LLMTests{Classes: st.Classes, Generated: st.Tests, RuleRepairs: st.RuleRepairs,
		LLMRepairs: st.LLMRepairs, Dropped: st.Dropped, FailingOnOriginal: st.FailingOriginal,
		EquivalenceAnswers: st.EquivalenceAnswers, ExpectationRounds: st.ExpectationRounds, Corrected: st.Corrected}
}

// ReportUsage puts M's dropped mutants, by reason, into llm.mutantDrops.
func (a *MutantAgent) ReportUsage(l *report.LLM) {
	d := a.Drops()
	l.MutantDrops = &report.MutantDrops{NotFound: d.NotFound, MultiLine: d.MultiLine, NoOp: d.NoOp,
		Repeated: d.Repeated, Unparsable: d.Unparsable}
}

// ReportUsage passes the report's llm section to the LLM's M.
func (m Mixed) ReportUsage(l *report.LLM) {
	if r, ok := m.LLM.(loop.UsageReporter); ok {
		r.ReportUsage(l)
	}
}
