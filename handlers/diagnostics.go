package handlers

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"
	"sync"
	"unicode/utf16"

	"go.lsp.dev/protocol"
	"go.uber.org/zap"

	"github.com/advertest/advertest-lsp/javaparse"
	"github.com/advertest/advertest-lsp/loop"
	"github.com/advertest/advertest-lsp/loop/mutants"
	"github.com/advertest/advertest-lsp/loop/report"
	"github.com/advertest/advertest-lsp/loop/state"
)

// DiagnosticSource is the source of every advertest diagnostic.
const DiagnosticSource = "advertest"

// PossibleBugCode is the code of the diagnostic on a method that a generated test fails on.
const PossibleBugCode = "possible-bug"

// methodResult is what the diagnostics of one method come from: its surviving mutants (lines
// tracked across edits), the tests that cover them, the generated tests that fail on the
// current code.
type methodResult struct {
	key          string
	uri          protocol.DocumentURI
	moduleRoot   string
	class, query string
	name         string
	survivors    []report.Mutant
	// ignored are the survivors the user ignored or marked equivalent: no diagnostic, but
	// hover and the code action that shows them again know where they are.
	ignored []report.Mutant
	// withdrawn are the survivors (and ignored mutants) whose line was edited since their
	// evaluation.
	withdrawn map[string]bool
	// gone is set while the method cannot be found in the document.
	gone         bool
	covering     map[string][]string
	possibleBugs []string
	// related are, by mutant id, the tests that cover its line and did not kill it, where
	// they are written (the diagnostic's relatedInformation).
	related map[string][]protocol.DiagnosticRelatedInformation
}

// results holds the method results of every document and publishes their diagnostics: one
// writer at a time per document, which computes the set it sends from the results as they
// are when it sends, so that an older set never follows a newer one.
type results struct {
	h *Handler

	// mu guards the maps below.
	mu sync.Mutex
	// byURI holds the results of each document, by method key.
	byURI map[protocol.DocumentURI]map[string]*methodResult
	// published is the last set sent for each document (as JSON), to skip unchanged sets.
	published map[protocol.DocumentURI]string
	// due are the documents whose diagnostics must be sent again; writing those a writer is
	// sending for.
	due, writing map[protocol.DocumentURI]bool
	// generation counts each document's closings, so that a restore started before one
	// restores nothing.
	generation map[protocol.DocumentURI]int
	// idle is signalled (on mu) when a document's writer stops: written waits on it.
	idle *sync.Cond
}

func newResults(h *Handler) *results {
	r := &results{h: h, byURI: map[protocol.DocumentURI]map[string]*methodResult{}, published: map[protocol.DocumentURI]string{},
		due: map[protocol.DocumentURI]bool{}, writing: map[protocol.DocumentURI]bool{}, generation: map[protocol.DocumentURI]int{}}
	r.idle = sync.NewCond(&r.mu)
	return r
}

// survivorsOf returns the surviving mutants of a report.
func survivorsOf(ms []report.Mutant) []report.Mutant { return withStatus(ms, report.Survived) }

// withStatus returns the mutants of a status, by line.
func withStatus(ms []report.Mutant, status report.Status) []report.Mutant {
	var out []report.Mutant
	for _, m := range ms {
		if m.Status == status {
			out = append(out, m)
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Line < out[j].Line })
	return out
}

// set replaces a method's result. The mutants' lines are those of the text the evaluation
// ran on; publish carries them to the document's current text.
func (r *results) set(res *methodResult) {
	r.mu.Lock()
	r.setLocked(res)
	r.mu.Unlock()
}

func (r *results) setLocked(res *methodResult) {
	m := r.byURI[res.uri]
	if m == nil {
		m = map[string]*methodResult{}
		r.byURI[res.uri] = m
	}
	if res.withdrawn == nil {
		res.withdrawn = map[string]bool{}
	}
	m[res.key] = res
}

// update takes new verdicts of some of a method's mutants (a kill): those no longer
// surviving leave its survivors.
func (r *results) update(uri protocol.DocumentURI, key string, verdicts []report.Mutant) {
	r.mu.Lock()
	defer r.mu.Unlock()
	res := r.byURI[uri][key]
	if res == nil {
		return
	}
	gone := map[string]bool{}
	for _, v := range verdicts {
		if v.Status != report.Survived {
			gone[v.ID] = true
		}
	}
	res.survivors = slices.DeleteFunc(res.survivors, func(m report.Mutant) bool { return gone[m.ID] })
}

// opened marks the start of a restore for a document just opened: restore takes its results
// only while the document has not been closed since.
func (r *results) opened(uri protocol.DocumentURI) int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.generation[uri]
}

// restore sets the results read from the saved state, for the methods that have none yet
// (a job's are newer), unless the document was closed since opened. It reports whether it
// set any.
func (r *results) restore(uri protocol.DocumentURI, opened int, restored []*methodResult) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.generation[uri] != opened {
		return false
	}
	any := false
	for _, res := range restored {
		if r.byURI[uri][res.key] == nil {
			r.setLocked(res)
			any = true
		}
	}
	return any
}

// get returns a copy of a method's result.
func (r *results) get(uri protocol.DocumentURI, key string) *methodResult {
	r.mu.Lock()
	defer r.mu.Unlock()
	res := r.byURI[uri][key]
	if res == nil {
		return nil
	}
	c := *res
	c.survivors = append([]report.Mutant(nil), res.survivors...)
	c.ignored = append([]report.Mutant(nil), res.ignored...)
	c.withdrawn = maps.Clone(res.withdrawn)
	return &c
}

// forURI returns copies of a document's results.
func (r *results) forURI(uri protocol.DocumentURI) []*methodResult {
	r.mu.Lock()
	keys := make([]string, 0, len(r.byURI[uri]))
	for k := range r.byURI[uri] {
		keys = append(keys, k)
	}
	r.mu.Unlock()
	sort.Strings(keys)
	var out []*methodResult
	for _, k := range keys {
		if res := r.get(uri, k); res != nil {
			out = append(out, res)
		}
	}
	return out
}

// clear drops a document's results (didClose); its writer then clears its diagnostics.
func (r *results) clear(uri protocol.DocumentURI) {
	r.mu.Lock()
	delete(r.byURI, uri)
	r.generation[uri]++
	r.mu.Unlock()
	r.publish(uri)
}

// hasResults reports whether a document has any result.
func (r *results) hasResults(uri protocol.DocumentURI) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.byURI[uri]) > 0
}

// findMethod finds a method in a parse by its class's binary name and its query name.
func findMethod(f *javaparse.File, class, query string) *javaparse.Method {
	for _, m := range f.Methods() {
		if m.BinaryClassName == class && loop.QueryName(m) == query {
			return m
		}
	}
	return nil
}

// track carries every result of the document to its current text: a survivor moves to the
// line that now holds its original text within the method, or is withdrawn; a method that
// is no longer there hides its diagnostics. It returns the diagnostics and the document's
// version; ok is false when the document is not open.
func (r *results) track(uri protocol.DocumentURI) (diags []protocol.Diagnostic, version int32, ok bool) {
	doc, ok := r.h.session.Documents().Get(uri)
	if !ok {
		return nil, 0, false
	}
	diags = []protocol.Diagnostic{}
	r.mu.Lock()
	defer r.mu.Unlock()
	byKey := r.byURI[uri]
	if len(byKey) == 0 {
		return diags, doc.Version(), true
	}
	keys := slices.Sorted(maps.Keys(byKey))
	doc.WithFile(func(f *javaparse.File, v int32) {
		version = v
		src := f.Source()
		lines := f.Lines()
		for _, k := range keys {
			res := byKey[k]
			m := findMethod(f, res.class, res.query)
			res.gone = m == nil
			if m == nil {
				continue
			}
			for i := range res.survivors {
				if relocate(src, m, &res.survivors[i], res.withdrawn) {
					d := mutantDiagnostic(res.survivors[i], lines.LineText(res.survivors[i].Line))
					d.RelatedInformation = res.related[res.survivors[i].ID]
					diags = append(diags, d)
				}
			}
			for i := range res.ignored {
				relocate(src, m, &res.ignored[i], res.withdrawn)
			}
			if len(res.possibleBugs) > 0 {
				diags = append(diags, possibleBugDiagnostic(lines, m, res.possibleBugs))
			}
		}
	})
	return diags, version, true
}

// relocate moves mu to the line of the method m that now holds its original text, or marks
// it withdrawn; it reports whether the mutant is still there.
func relocate(src []byte, m *javaparse.Method, mu *report.Mutant, withdrawn map[string]bool) bool {
	mm := mutants.Mutant{ID: mu.ID, Line: mu.Line, Original: mu.Original, Mutated: mu.Mutated}
	moved, ok := mutants.Relocate(src, mm, m.StartLine, m.EndLine)
	if !ok || moved.Original != mu.Original {
		withdrawn[mu.ID] = true
		return false
	}
	delete(withdrawn, mu.ID)
	mu.Line = moved.Line
	return true
}

// setUserVerdict moves a mutant of a method's result between its survivors and its ignored
// mutants as the user's verdict says (state.UserEquivalent or state.UserIgnored: ignored; "":
// a survivor again). It reports whether the mutant was there to move.
func (r *results) setUserVerdict(uri protocol.DocumentURI, key, id, verdict string) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	res := r.byURI[uri][key]
	if res == nil {
		return false
	}
	from, to := &res.survivors, &res.ignored
	if verdict == "" {
		from, to = &res.ignored, &res.survivors
	}
	i := slices.IndexFunc(*from, func(m report.Mutant) bool { return m.ID == id })
	if i < 0 {
		return false
	}
	m := (*from)[i]
	*from = slices.Delete(*from, i, i+1)
	switch verdict {
	case "":
		m.Status, m.Equivalence = report.Survived, nil
	case state.UserEquivalent:
		eq := state.UserEquivalence
		m.Status, m.Equivalence = report.Ignored, &eq
	default:
		m.Status, m.Equivalence = report.Ignored, nil
	}
	*to = append(*to, m)
	sort.SliceStable(*to, func(i, j int) bool { return (*to)[i].Line < (*to)[j].Line })
	return true
}

// publish has the document's diagnostics sent when they changed since the last time: by the
// document's writer, started here unless one is running (it then sends once more).
func (r *results) publish(uri protocol.DocumentURI) {
	r.mu.Lock()
	r.due[uri] = true
	if r.writing[uri] {
		r.mu.Unlock()
		return
	}
	r.writing[uri] = true
	r.mu.Unlock()
	if !r.h.session.Go("diagnostics", func(context.Context) { r.write(uri) }) {
		r.mu.Lock()
		delete(r.writing, uri)
		r.idle.Broadcast()
		r.mu.Unlock()
	}
}

// written waits until no writer is sending the document's diagnostics, so that the set a job
// left has reached the client (or was found unchanged) before the job's progress ends. A job's
// goroutine calls it; the writer (write) signals idle when it stops.
func (r *results) written(uri protocol.DocumentURI) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for r.writing[uri] {
		r.idle.Wait()
	}
}

// write is a document's writer: it sends the document's set while one is due.
func (r *results) write(uri protocol.DocumentURI) {
	for {
		r.mu.Lock()
		if !r.due[uri] {
			delete(r.writing, uri)
			r.idle.Broadcast()
			r.mu.Unlock()
			return
		}
		delete(r.due, uri)
		r.mu.Unlock()
		r.send(uri)
	}
}

// send computes the document's diagnostics and sends them unless they are the set sent last;
// a closed document that had diagnostics gets an empty set.
func (r *results) send(uri protocol.DocumentURI) {
	diags, version, open := r.track(uri)
	data, _ := json.Marshal(diags)
	r.mu.Lock()
	last, had := r.published[uri]
	hasResults := len(r.byURI[uri]) > 0
	switch {
	case !had && (!open || !hasResults):
		r.mu.Unlock() // nothing was shown, nothing is to show
		return
	case !open:
		delete(r.published, uri)
		diags, version = []protocol.Diagnostic{}, 0
	case last == string(data):
		r.mu.Unlock()
		return
	default:
		r.published[uri] = string(data)
	}
	r.mu.Unlock()
	if err := r.h.session.Client().PublishDiagnostics(context.Background(), uri, version, diags); err != nil {
		r.h.logger.Debug("publishDiagnostics", zap.Error(err))
	}
}

// mutantDiagnostic is a surviving mutant on its line's code, without the indentation.
func mutantDiagnostic(m report.Mutant, lineText string) protocol.Diagnostic {
	trimmedLeft := strings.TrimLeft(lineText, " \t")
	start := utf16Len(lineText[:len(lineText)-len(trimmedLeft)])
	end := utf16Len(strings.TrimRight(lineText, " \t"))
	line := uint32(m.Line - 1)
	d := protocol.Diagnostic{
		Range: protocol.Range{
			Start: protocol.Position{Line: line, Character: uint32(start)},
			End:   protocol.Position{Line: line, Character: uint32(end)},
		},
		Severity: protocol.DiagnosticSeverityWarning,
		Code:     m.ID,
		Source:   DiagnosticSource,
		Message:  describeMutant(m) + " survives: no test tells them apart",
	}
	if m.LikelyEquivalent() {
		// Still a survivor that counts, but most likely one no test can kill: shown softer.
		d.Severity = protocol.DiagnosticSeverityHint
		d.Message = fmt.Sprintf("%s survives, probably equivalent: %s (%s)", describeMutant(m), evidenceOf(m.Equivalence), judgeName(m.Equivalence.By))
	}
	return d
}

// evidenceOf is an equivalence's evidence, or a word when it has none.
func evidenceOf(eq *report.Equivalence) string {
	if e := strings.TrimSpace(eq.Evidence); e != "" {
		return e
	}
	return "no evidence given"
}

// judgeName says who reached an equivalence verdict.
func judgeName(by report.EquivalenceBy) string {
	switch by {
	case report.ByLLM:
		return "the LLM judge"
	case report.BySearch:
		return "the search for inputs"
	case report.ByBytecode:
		return "the bytecode"
	case report.ByUser:
		return "your verdict"
	}
	return string(by)
}

// describeMutant names the change: the mutant's description, or the two lines' code.
func describeMutant(m report.Mutant) string {
	if m.Description != "" {
		return m.Description
	}
	return fmt.Sprintf("`%s` → `%s`", strings.TrimSpace(m.Original), strings.TrimSpace(m.Mutated))
}

// possibleBugDiagnostic sits on the method's name and names the tests.
func possibleBugDiagnostic(lines *javaparse.LineMap, m *javaparse.Method, tests []string) protocol.Diagnostic {
	sl, sc := lines.Position(m.NameStartByte)
	el, ec := lines.Position(m.NameEndByte)
	names := make([]string, len(tests))
	for i, t := range tests {
		names[i] = "`" + t + "`"
	}
	what := "a generated test fails"
	if len(tests) > 1 {
		what = fmt.Sprintf("%d generated tests fail", len(tests))
	}
	return protocol.Diagnostic{
		Range:    protocol.Range{Start: protocol.Position{Line: uint32(sl), Character: uint32(sc)}, End: protocol.Position{Line: uint32(el), Character: uint32(ec)}},
		Severity: protocol.DiagnosticSeverityInformation,
		Code:     PossibleBugCode,
		Source:   DiagnosticSource,
		Message:  fmt.Sprintf("possible bug: %s on the current code: %s", what, strings.Join(names, ", ")),
	}
}

func utf16Len(s string) int { return len(utf16.Encode([]rune(s))) }
