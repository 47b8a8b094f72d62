package handlers

import (
	"context"
	"fmt"
	"strings"

	"go.lsp.dev/protocol"
	"go.uber.org/zap"

	"github.com/advertest/advertest-lsp/javaparse"
)

// MethodArgument is the argument of the two method commands: the document
// and a position inside the method (0-based, UTF-16 columns, as LSP).
type MethodArgument struct {
	URI      protocol.DocumentURI `json:"uri"`
	Position protocol.Position    `json:"position"`
}

// CodeAction offers "Generate adversarial tests" and "Analyze mutants" for
// the method at the start of the range. It answers [] (never null) outside a
// method, for a document that is not open or not Java, and when
// context.only leaves out refactor.
func (h *Handler) CodeAction(_ context.Context, params *protocol.CodeActionParams) ([]protocol.CodeAction, error) {
	actions := []protocol.CodeAction{}
	uri := params.TextDocument.URI
	if kindRequested(protocol.QuickFix, params.Context.Only) {
		actions = append(actions, killMutantActions(uri, params.Context.Diagnostics)...)
		actions = append(actions, h.unignoreActions(uri, params.Range)...)
	}
	if !kindRequested(protocol.Refactor, params.Context.Only) {
		return actions, nil
	}
	doc, ok := h.session.Documents().Get(uri)
	if !ok {
		h.logger.Debug("codeAction for a document that is not open", zap.String("uri", string(uri)))
		return actions, nil
	}
	if !doc.IsJava() {
		return actions, nil
	}
	pos := params.Range.Start
	var method *javaparse.Method
	doc.WithFile(func(f *javaparse.File, _ int32) {
		off, err := f.Lines().Offset(int(pos.Line), int(pos.Character))
		if err != nil {
			h.logger.Debug("codeAction position outside the document", zap.String("uri", string(uri)), zap.Error(err))
			return
		}
		method = methodAt(f, int(pos.Line), off)
	})
	if method == nil {
		return actions, nil
	}
	arg := MethodArgument{URI: uri, Position: pos}
	for _, a := range []struct{ command, verb string }{
		{CommandGenerateTests, "Generate adversarial tests for"},
		{CommandAnalyzeMutants, "Analyze mutants in"},
	} {
		title := fmt.Sprintf("%s `%s`", a.verb, method.Name)
		actions = append(actions, protocol.CodeAction{
			Title: title,
			Kind:  protocol.Refactor,
			Command: &protocol.Command{
				Title:     title,
				Command:   a.command,
				Arguments: []any{arg},
			},
		})
	}
	return actions, nil
}

// methodAt is the method at byte offset off on the 0-based line: the innermost one holding
// the offset, else the one that starts on the line when the cursor is in the indentation
// before its first modifier or annotation (MethodAt's range starts there).
func methodAt(f *javaparse.File, line, off int) *javaparse.Method {
	if m := f.MethodAt(off); m != nil {
		return m
	}
	m := f.MethodAtLine(line + 1) // javaparse lines are 1-based
	if m == nil || m.StartLine != line+1 || off > m.StartByte {
		return nil
	}
	lines := f.Lines()
	indent := lines.Column(m.StartByte) - 1
	if text := lines.LineText(line + 1); indent > len(text) || strings.TrimSpace(text[:indent]) != "" {
		return nil // something else comes first on the line: the cursor is not in its indentation
	}
	return m
}

// KillMutantTitle is the quick fix's title on a surviving-mutant diagnostic.
const KillMutantTitle = "Generate a test that kills this mutant"

// KillMutantArgument is advertest.killMutant's argument.
type KillMutantArgument struct {
	URI    protocol.DocumentURI `json:"uri"`
	Mutant string               `json:"mutant"`
}

// killMutantActions offers the quick fixes for each surviving-mutant diagnostic of the
// context: a test that kills it, then the user's verdicts (Mark as equivalent, Ignore this
// mutant).
func killMutantActions(uri protocol.DocumentURI, diags []protocol.Diagnostic) []protocol.CodeAction {
	var out []protocol.CodeAction
	for _, d := range diags {
		id, ok := d.Code.(string)
		if d.Source != DiagnosticSource || !ok || id == "" || id == PossibleBugCode {
			continue
		}
		out = append(out, protocol.CodeAction{
			Title:       KillMutantTitle,
			Kind:        protocol.QuickFix,
			Diagnostics: []protocol.Diagnostic{d},
			Command: &protocol.Command{
				Title:     KillMutantTitle,
				Command:   CommandKillMutant,
				Arguments: []any{KillMutantArgument{URI: uri, Mutant: id}},
			},
		})
		out = append(out, verdictActions(uri, d, id)...)
	}
	return out
}

// kindRequested reports whether context.only lets actions of kind through:
// kinds are hierarchical, so "refactor" asks for "refactor" and
// "refactor.extract", but "refactor.extract" does not ask for "refactor".
func kindRequested(kind protocol.CodeActionKind, only []protocol.CodeActionKind) bool {
	if len(only) == 0 {
		return true
	}
	for _, o := range only {
		if kind == o || strings.HasPrefix(string(kind), string(o)+".") {
			return true
		}
	}
	return false
}
