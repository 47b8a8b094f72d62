package handlers

import (
	"fmt"
	"slices"
	"time"

	"go.lsp.dev/protocol"

	"github.com/advertest/advertest-lsp/jobs"
	"github.com/advertest/advertest-lsp/loop"
	"github.com/advertest/advertest-lsp/loop/mutants"
	"github.com/advertest/advertest-lsp/loop/report"
	"github.com/advertest/advertest-lsp/loop/state"
)

// killMutantCommand starts one targeted T turn against a surviving mutant that the document
// shows: {"uri": "...", "mutant": "ID"}.
func (h *Handler) killMutantCommand(args []any) (any, error) {
	obj, err := singleObject(CommandKillMutant, `{"uri": "file:///…", "mutant": "ID"}`, args)
	if err != nil {
		return nil, err
	}
	uri, err := stringField(CommandKillMutant, obj, "uri")
	if err != nil {
		return nil, err
	}
	id, err := stringField(CommandKillMutant, obj, "mutant")
	if err != nil {
		return nil, err
	}
	if err := h.session.CheckDocument(CommandKillMutant, protocol.DocumentURI(uri)); err != nil {
		return nil, err
	}
	doc, ok := h.session.Documents().Get(protocol.DocumentURI(uri))
	if !ok {
		return nil, invalidParams("%s: document %s is not open", CommandKillMutant, uri)
	}
	h.results.publish(doc.URI()) // carries the lines to the current text
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
	m := mutants.Mutant{ID: target.ID, Line: target.Line, Original: target.Original, Mutated: target.Mutated,
		Origin: mutants.Origin(target.Origin), Operator: target.Operator, Description: target.Description}
	job := h.jobs.Start(snap.key()+"\x00kill\x00"+id, "killMutant", h.queued(killTitle(m), true), func(j *jobs.Job) { h.runKill(j, snap, m) })
	if job == nil {
		return nil, invalidParams("%s: the server is shutting down", CommandKillMutant)
	}
	return &JobResult{Job: job.ID}, nil
}

// runKill asks T for a test against one mutant and, once the engine has confirmed that it
// passes on the original and fails on the mutant, offers it as an edit of the test file.
func (h *Handler) runKill(j *jobs.Job, snap *methodSnapshot, m mutants.Mutant) {
	ctx := j.Context()
	s := h.Settings()
	p := h.beginProgress(ctx, j, killTitle(m), "one targeted test", true)
	var err error
	defer func() { p.endWith(j, err) }()
	warm, err := h.project(ctx, p, snap, s)
	if err != nil {
		return
	}
	agents, configure, err := h.agents(ctx, warm, s)
	if err != nil {
		return
	}
	cfg := s.LoopConfig()
	configure(&cfg)
	var existing []byte
	testPath := warm.Project.Module.TestFileFor(packageOfClass(snap.method.TopLevelClass), loop.TestClassName(snap.method.TopLevelClass))
	if doc, ok := h.session.Documents().Get(fileURI(testPath)); ok {
		existing = doc.Text()
	}
	kill, runErr := loop.KillMutant(ctx, warm.Project, snap.target(), m, agents.T, existing, cfg)
	if runErr != nil {
		err = jobErr(j, runErr)
		return
	}
	if kill.Verdict.Status != report.Killed {
		p.summary = "no test found that tells the mutant from the original"
		return
	}
	if editErr := h.applyTestFile(ctx, testFileEdit{path: kill.TestFile, text: kill.FileText, writable: kill.Writable,
		label: fmt.Sprintf("AdverTest: a test that kills %s", m.ID)}); editErr != nil {
		_ = h.session.Client().ShowMessage(ctx, protocol.MessageTypeWarning, "AdverTest: the test was not written: "+editErr.Error())
	}
	// The mutant is killed: its diagnostic goes, and the state learns the test.
	if res := h.results.get(snap.uri, snap.key()); res != nil {
		res.survivors = slices.DeleteFunc(res.survivors, func(s report.Mutant) bool { return s.ID == m.ID })
		h.results.set(res)
		h.results.publish(snap.uri)
	}
	stateErr := state.Open(snap.moduleRoot).Update(snap.class, snap.query, func(st *state.Method) *state.Method {
		if st == nil {
			return nil
		}
		for i := range st.Report.Mutants {
			if st.Report.Mutants[i].ID == m.ID {
				st.Report.Mutants[i].Status = report.Killed
				st.Report.Mutants[i].KilledBy = kill.Verdict.KilledBy
			}
		}
		st.Report.MutationScore = report.Score(st.Report.Mutants)
		st.Report.Tests.Source = kill.FileText
		for _, t := range kill.Tests {
			st.Report.Tests.Methods = append(st.Report.Tests.Methods, kill.Class+"."+t.Name)
		}
		st.Record("killMutant", time.Now())
		return st
	})
	h.warnState(ctx, stateErr)
	p.summary = fmt.Sprintf("killed by %v", kill.Verdict.KilledBy)
}

func packageOfClass(binary string) string {
	for i := len(binary) - 1; i >= 0; i-- {
		if binary[i] == '.' {
			return binary[:i]
		}
	}
	return ""
}

func killTitle(m mutants.Mutant) string {
	return fmt.Sprintf("AdverTest: kill %s", describeMutant(report.Mutant{Original: m.Original, Mutated: m.Mutated, Description: m.Description}))
}
