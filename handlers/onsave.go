package handlers

import (
	"context"
	"errors"
	"path/filepath"
	"time"

	"go.lsp.dev/protocol"
	"go.uber.org/zap"

	"github.com/advertest/advertest-lsp/jobs"
	"github.com/advertest/advertest-lsp/loop/state"
	"github.com/advertest/advertest-lsp/settings"
)

// statesOf reads the states of a document's methods from its module's .advertest/.
func statesOf(path string) (root string, states []*state.Method, err error) {
	root, err = jobs.ModuleRoot(path)
	if err != nil {
		return "", nil, err
	}
	rel, err := filepath.Rel(root, path)
	if err != nil {
		return "", nil, err
	}
	states, err = state.Open(root).ForFile(filepath.ToSlash(rel))
	return root, states, err
}

// restoreState publishes the diagnostics kept in .advertest/ for a document just opened.
func (h *Handler) restoreState(doc documentLike) {
	path := doc.Path()
	if path == "" {
		return
	}
	root, states, err := statesOf(path)
	if err != nil {
		h.logger.Debug("no state for the document", zap.String("uri", string(doc.URI())), zap.Error(err))
		if errors.As(err, new(*state.CorruptError)) {
			h.warnState(h.session.Background(), err)
		}
	}
	if len(states) == 0 {
		return
	}
	for _, st := range states {
		t := st.Report.Target
		h.results.set(&methodResult{
			key: root + "\x00" + t.Class + "\x00" + st.Query, uri: doc.URI(), moduleRoot: root,
			class: t.Class, query: st.Query, name: t.Method,
			survivors: survivorsOf(st.Report.Mutants), covering: st.Covering,
			possibleBugs: shortNames(st.Report.Tests.FailingOnOriginal),
		})
	}
	h.results.publish(doc.URI())
}

// warnState logs and shows a failure to save a method's state, or a warning of a corrupt
// state file moved aside; nil does nothing.
func (h *Handler) warnState(ctx context.Context, err error) {
	if err == nil {
		return
	}
	h.logger.Warn("method state", zap.Error(err))
	_ = h.session.Client().ShowMessage(ctx, protocol.MessageTypeWarning, "AdverTest: "+err.Error())
}

// documentLike is what restoreState needs of a document.
type documentLike interface {
	Path() string
	URI() protocol.DocumentURI
}

// scheduleOnSave runs the on-save rounds of a document after the onSaveDelayMs debounce; a
// new save restarts the wait.
func (h *Handler) scheduleOnSave(uri protocol.DocumentURI) {
	s := h.Settings()
	if s.OnSave == settings.OnSaveOff {
		return
	}
	h.saveMu.Lock()
	defer h.saveMu.Unlock()
	if t := h.saveTimers[uri]; t != nil {
		t.Stop()
	}
	h.saveTimers[uri] = time.AfterFunc(s.OnSaveDelay, func() { h.onSave(uri) })
}

// onSave starts, for each method of the document with state whose text changed since its
// evaluation, the job the onSave setting names. A new on-save job of a method cancels the
// previous one.
func (h *Handler) onSave(uri protocol.DocumentURI) {
	h.saveMu.Lock()
	delete(h.saveTimers, uri)
	h.saveMu.Unlock()
	if h.session.Background().Err() != nil {
		return
	}
	if err := h.session.CheckDocument("on save", uri); err != nil {
		h.logger.Debug("no on-save work", zap.Error(err))
		return
	}
	doc, ok := h.session.Documents().Get(uri)
	if !ok {
		return
	}
	_, states, err := statesOf(doc.Path())
	if err != nil {
		h.logger.Debug("on save: reading state", zap.Error(err))
	}
	mode := h.Settings().OnSave
	for _, st := range states {
		snap, err := snapshotMethod(doc, -1, st.Report.Target.Class, st.Query)
		if err != nil {
			continue // the method is gone: its diagnostics are hidden already
		}
		if snap.method.Text(snap.file.Source()) == st.MethodText {
			continue
		}
		st := st
		switch mode {
		case settings.OnSaveRound:
			h.jobs.Start(snap.key()+"\x00onsave", "onSave:round", h.queued(snap.title(), false), func(j *jobs.Job) {
				h.runGenerate(j, snap, "onSave:round", st)
			})
		case settings.OnSaveAnalyze:
			h.jobs.Start(snap.key()+"\x00onsave", "onSave:analyze", h.queued(snap.title(), true), func(j *jobs.Job) {
				h.runAnalyze(j, snap, st, "onSave:analyze")
			})
		}
	}
}
