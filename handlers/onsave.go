package handlers

import (
	"context"
	"errors"
	"time"

	"go.lsp.dev/protocol"
	"go.uber.org/zap"

	"github.com/advertest/advertest-lsp/app"
	"github.com/advertest/advertest-lsp/loop/state"
	"github.com/advertest/advertest-lsp/settings"
)

// readStates reads the saved states of a source file's methods (app.States; tests replace it).
var readStates = app.States

// restoreState publishes the diagnostics kept in .advertest/ for a document just opened. The
// states are read on a goroutine of their own: didOpen, on the ordered notification
// goroutine, must not wait for the disk. What a job has published for a method meanwhile
// wins over the saved state, and a document closed meanwhile gets nothing.
func (h *Handler) restoreState(uri protocol.DocumentURI, path string) {
	if path == "" {
		return
	}
	opened := h.results.opened(uri)
	h.session.Go("restore state", func(context.Context) {
		root, states, err := readStates(path)
		if err != nil {
			h.logger.Debug("no state for the document", zap.String("uri", string(uri)), zap.Error(err))
			if errors.As(err, new(*state.CorruptError)) {
				h.warn(app.Warning{Message: err.Error(), Err: err})
			}
		}
		if len(states) == 0 {
			return
		}
		restored := make([]*methodResult, 0, len(states))
		for _, st := range states {
			t := st.Report.Target
			restored = append(restored, h.newResult(uri, resultInput{
				key: methodKey(root, t.Class, st.Query), moduleRoot: root, class: t.Class, query: st.Query, name: t.Method,
				mutants: st.Report.Mutants, covering: st.Covering, failingOnOriginal: st.Report.Tests.FailingOnOriginal,
			}))
		}
		if h.results.restore(uri, opened, restored) {
			h.results.publish(uri)
		}
	})
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
// evaluation, the job the onSave setting names. It waits for the method's running job; a new
// on-save job of a method replaces the one not yet done (see jobs.Queue).
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
	_, states, err := readStates(doc.Path())
	if err != nil {
		h.logger.Debug("on save: reading state", zap.Error(err))
	}
	mode := h.Settings().OnSave
	for _, st := range states {
		snap, err := snapshotMethod(doc, -1, st.Report.Target.Class, st.Query)
		if err != nil {
			continue // the method is gone: its diagnostics are hidden already
		}
		if snap.method.Text() == st.MethodText {
			continue
		}
		switch mode {
		case settings.OnSaveRound:
			h.startPlay(snap, st, "onSave:round")
		case settings.OnSaveAnalyze:
			h.startAnalyze(snap, st, "onSave:analyze")
		}
	}
}
