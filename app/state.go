package app

import (
	"errors"
	"os"
	"path/filepath"
	"strings"

	"github.com/advertest/advertest-lsp/loop"
	"github.com/advertest/advertest-lsp/loop/agent"
	"github.com/advertest/advertest-lsp/loop/state"
)

// States reads the saved states of the methods of one source file (absolute) from its
// module's .advertest/, with the module root, the module's verdicts of single mutants brought
// to them (the user's marks as they are now, earlier evidence). Unreadable state files are
// reported in the error (a corrupt one, moved aside, is a *state.CorruptError: a warning), the
// readable states still returned.
func States(javaFile string) (root string, states []*state.Method, err error) {
	root, err = ModuleRoot(javaFile)
	if err != nil {
		return "", nil, err
	}
	rel, err := filepath.Rel(root, javaFile)
	if err != nil {
		return "", nil, err
	}
	store := state.Open(root)
	states, err = store.ForFile(filepath.ToSlash(rel))
	if len(states) == 0 {
		return root, states, err
	}
	verdicts, vErr := store.LoadVerdicts()
	for _, st := range states {
		applyVerdicts(verdicts, st.Report)
	}
	return root, states, errors.Join(err, vErr)
}

// generatedSuite is the method's generated test class (binary name and text) for a run after
// a save: the editor's buffer of its test file or the file on disk when they carry the marker,
// else the suite kept in the state; "", "" when there is none.
func (r *run) generatedSuite() (class, text string) {
	top := r.req.Method.Target.Method.TopLevelClass
	pkg := packageOf(top)
	simple := agent.TestClassName(top)
	class = simple
	if pkg != "" {
		class = pkg + "." + simple
	}
	path := r.lease.Project.TestFileFor(pkg, simple)
	if buf, ok := r.c.buffer(path); ok && loop.HasMarker(buf) {
		return class, string(buf)
	}
	if data, err := os.ReadFile(path); err == nil && loop.HasMarker(data) {
		return class, string(data)
	}
	if prev := r.req.Prev; prev != nil && prev.Report != nil && strings.TrimSpace(prev.Report.Tests.Source) != "" {
		return class, prev.Report.Tests.Source
	}
	return "", ""
}
