package handlers

import (
	"fmt"
	"slices"
	"strings"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"

	"github.com/advertest/advertest-lsp/app"
	"github.com/advertest/advertest-lsp/loop/report"
)

// The user's verdicts on surviving mutants: the code actions Mark as equivalent and Ignore
// this mutant on a mutant's diagnostic, the one that shows an ignored mutant again, and their
// commands. The verdicts are kept by app.SetUserVerdict in the module's .advertest/ (shared
// with `advertest mutate --ignore`); this file finds the mutant and updates the diagnostics.

// Titles of the verdict code actions.
const (
	MarkEquivalentTitle = "Mark as equivalent"
	IgnoreMutantTitle   = "Ignore this mutant"
)

// VerdictResult is the answer to the verdict commands: the mutant's status now (ignored or
// survived), whether a mark changed, and the method's mutation score as saved (null when
// nothing counts or the method has no saved state).
type VerdictResult struct {
	Mutant        string   `json:"mutant"`
	Status        string   `json:"status"`
	Changed       bool     `json:"changed"`
	MutationScore *float64 `json:"mutationScore"`
}

// resultInput is what a method's result is made from: a job's verdicts or a saved state.
type resultInput struct {
	key, moduleRoot, class, query, name string
	mutants                             []report.Mutant
	covering                            map[string][]string
	failingOnOriginal                   []string
}

// newResult is the result a method's diagnostics come from, with the tests that cover each
// survivor's line located for its relatedInformation.
func (h *Handler) newResult(uri protocol.DocumentURI, in resultInput) *methodResult {
	res := &methodResult{
		key: in.key, uri: uri, moduleRoot: in.moduleRoot, class: in.class, query: in.query, name: in.name,
		survivors: survivorsOf(in.mutants), ignored: withStatus(in.mutants, report.Ignored),
		covering: in.covering, possibleBugs: shortNames(in.failingOnOriginal),
	}
	res.related = h.relatedTests(uri, in.moduleRoot, append(append([]report.Mutant(nil), res.survivors...), res.ignored...), in.covering)
	return res
}

// maxRelated bounds the tests a diagnostic lists.
const maxRelated = 8

// relatedTests are, for each mutant, the tests that cover its line (none killed it), where
// they are written; a test whose file is not found points at the mutant's line.
func (h *Handler) relatedTests(uri protocol.DocumentURI, moduleRoot string, ms []report.Mutant, covering map[string][]string) map[string][]protocol.DiagnosticRelatedInformation {
	tests := map[string][]string{}
	var all []string
	for _, m := range ms {
		t := covering[m.ID]
		if len(t) == 0 {
			t = m.CoveredBy
		}
		t = t[:min(len(t), maxRelated)]
		tests[m.ID] = t
		all = append(all, t...)
	}
	if len(all) == 0 {
		return nil
	}
	slices.Sort(all)
	locs := h.core.TestLocations(moduleRoot, slices.Compact(all))
	out := map[string][]protocol.DiagnosticRelatedInformation{}
	for _, m := range ms {
		for _, t := range tests[m.ID] {
			loc := protocol.Location{URI: uri, Range: protocol.Range{
				Start: protocol.Position{Line: uint32(m.Line - 1)}, End: protocol.Position{Line: uint32(m.Line - 1)}}}
			if l, ok := locs[t]; ok {
				pos := protocol.Position{Line: uint32(l.Line), Character: uint32(l.Column)}
				loc = protocol.Location{URI: fileURI(l.Path), Range: protocol.Range{Start: pos, End: pos}}
			}
			out[m.ID] = append(out[m.ID], protocol.DiagnosticRelatedInformation{Location: loc,
				Message: fmt.Sprintf("`%s` covers this line and passes on the mutant", shortNames([]string{t})[0])})
		}
	}
	return out
}

// verdictActions offers, on a surviving-mutant diagnostic, Mark as equivalent and Ignore this
// mutant.
func verdictActions(uri protocol.DocumentURI, d protocol.Diagnostic, id string) []protocol.CodeAction {
	var out []protocol.CodeAction
	for _, a := range []struct{ title, command string }{
		{MarkEquivalentTitle, CommandMarkEquivalent},
		{IgnoreMutantTitle, CommandIgnoreMutant},
	} {
		out = append(out, protocol.CodeAction{
			Title: a.title, Kind: protocol.QuickFix, Diagnostics: []protocol.Diagnostic{d},
			Command: &protocol.Command{Title: a.title, Command: a.command, Arguments: []any{KillMutantArgument{URI: uri, Mutant: id}}},
		})
	}
	return out
}

// unignoreActions offers to show again the ignored mutants on the lines of rng.
func (h *Handler) unignoreActions(uri protocol.DocumentURI, rng protocol.Range) []protocol.CodeAction {
	var out []protocol.CodeAction
	first, last := int(rng.Start.Line)+1, int(rng.End.Line)+1
	for _, res := range h.results.forURI(uri) {
		if res.gone {
			continue
		}
		for _, m := range res.ignored {
			if m.Line < first || m.Line > last || res.withdrawn[m.ID] {
				continue
			}
			title := fmt.Sprintf("Show the ignored mutant %s again", describeMutant(m))
			out = append(out, protocol.CodeAction{Title: title, Kind: protocol.QuickFix,
				Command: &protocol.Command{Title: title, Command: CommandUnignoreMutant, Arguments: []any{KillMutantArgument{URI: uri, Mutant: m.ID}}}})
		}
	}
	return out
}

// verdictCommand serves advertest.markEquivalent, advertest.ignoreMutant (a surviving mutant
// the document shows) and advertest.unignoreMutant (an ignored one; or any mutant id of the
// document's module, whose mark is then taken off the module's verdicts):
// {"uri": "...", "mutant": "ID"}.
func (h *Handler) verdictCommand(command, verdict string, args []any) (any, error) {
	fields, err := stringArgs(command, `{"uri": "file:///…", "mutant": "ID"}`, args, "uri", "mutant")
	if err != nil {
		return nil, err
	}
	uri, id := protocol.DocumentURI(fields[0]), fields[1]
	if err := h.session.CheckDocument(command, uri); err != nil {
		return nil, err
	}
	doc, ok := h.session.Documents().Get(uri)
	if !ok {
		return nil, invalidParams("%s: document %s is not open", command, uri)
	}
	if doc.Path() == "" {
		return nil, invalidParams("%s: %s is not a file on disk", command, uri)
	}
	h.results.track(uri) // carries the lines to the current text
	res, target := h.shownMutant(uri, id, verdict == "")
	root, class, query := "", "", ""
	switch {
	case res != nil:
		root, class, query = res.moduleRoot, res.class, res.query
	case verdict != "":
		return nil, invalidParams("%s: no surviving mutant %q is shown in %s", command, id, uri)
	default:
		if root, err = app.ModuleRoot(doc.Path()); err != nil {
			return nil, invalidParams("%s: %v", command, err)
		}
		target = report.Mutant{ID: id}
	}
	changed, rep, err := app.SetUserVerdict(root, class, query, target, verdict)
	if err != nil {
		if !changed {
			return nil, jsonrpc2.Errorf(jsonrpc2.InternalError, "%s: %v", command, err)
		}
		h.warn(app.Warning{Message: err.Error(), Err: err})
	}
	if res != nil && h.results.setUserVerdict(uri, res.key, id, verdict) {
		h.results.publish(uri)
	}
	out := &VerdictResult{Mutant: id, Status: string(report.Survived), Changed: changed}
	if verdict != "" {
		out.Status = string(report.Ignored)
	}
	if rep != nil {
		out.MutationScore = rep.MutationScore
	}
	return out, nil
}

// shownMutant finds a mutant the document shows: among the survivors, or (ignored) among the
// ignored mutants.
func (h *Handler) shownMutant(uri protocol.DocumentURI, id string, ignored bool) (*methodResult, report.Mutant) {
	for _, r := range h.results.forURI(uri) {
		list := r.survivors
		if ignored {
			list = r.ignored
		}
		for _, s := range list {
			if s.ID == id && !r.withdrawn[id] && !r.gone {
				return r, s
			}
		}
	}
	return nil, report.Mutant{}
}

// hoverIgnored describes an ignored mutant for the hover.
func hoverIgnored(b *strings.Builder, m report.Mutant) {
	what := "ignored by you"
	if m.Equivalence != nil && m.Equivalence.By == report.ByUser {
		what = "marked equivalent by you"
	}
	fmt.Fprintf(b, "**AdverTest**: mutant `%s` is %s (left out of the mutation score)\n\n", m.ID, what)
	fmt.Fprintf(b, "```diff\n- %s\n+ %s\n```\n\n", strings.TrimSpace(m.Original), strings.TrimSpace(m.Mutated))
	fmt.Fprintf(b, "The code action *Show the ignored mutant … again*, or `advertest mutate --unignore %s`, takes the mark off.\n", m.ID)
}
