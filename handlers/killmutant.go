package handlers

import (
	"go.lsp.dev/protocol"

	"github.com/advertest/advertest-lsp/loop/report"
)

// killMutantCommand starts one targeted T turn against a surviving mutant that the document
// shows: {"uri": "...", "mutant": "ID"}.
func (h *Handler) killMutantCommand(args []any) (any, error) {
	fields, err := stringArgs(CommandKillMutant, `{"uri": "file:///…", "mutant": "ID"}`, args, "uri", "mutant")
	if err != nil {
		return nil, err
	}
	uri, id := fields[0], fields[1]
	if err := h.session.CheckDocument(CommandKillMutant, protocol.DocumentURI(uri)); err != nil {
		return nil, err
	}
	doc, ok := h.session.Documents().Get(protocol.DocumentURI(uri))
	if !ok {
		return nil, invalidParams("%s: document %s is not open", CommandKillMutant, uri)
	}
	h.results.track(doc.URI()) // carries the lines to the current text
	var (
		res    *methodResult
		target report.Mutant
	)
	for _, r := range h.results.forURI(doc.URI()) {
		for _, s := range r.survivors {
			if s.ID == id && !r.withdrawn[id] && !r.gone {
				res, target = r, s
			}
		}
	}
	if res == nil {
		return nil, invalidParams("%s: no surviving mutant %q is shown in %s", CommandKillMutant, id, uri)
	}
	snap, err := snapshotMethod(doc, -1, res.class, res.query)
	if err != nil {
		return nil, invalidParams("%s: %v", CommandKillMutant, err)
	}
	job := h.startKill(snap, target)
	if job == nil {
		return nil, invalidParams("%s: the server is shutting down", CommandKillMutant)
	}
	return &JobResult{Job: job.ID}, nil
}
