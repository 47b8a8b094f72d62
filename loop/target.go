package loop

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/advertest/advertest-lsp/javaparse"
	"github.com/advertest/advertest-lsp/loop/report"
)

// Target is the method a run works on: the file, the text it is read from (an editor's
// buffer or the file on disk) and the method found in it.
type Target struct {
	// File is the source file's absolute path.
	File string
	// Source is the text the run works on: a snapshot, never re-read.
	Source []byte
	// Parsed is Source parsed; Method is one of its methods.
	Parsed *javaparse.File
	Method *javaparse.Method
}

// RequestError is a mistake in what was asked for, not a failure of the work: a file that
// cannot be read, no method at a line, an unknown or ambiguous name. Its message names no
// front end's syntax; each front end says it in its own terms (the CLI: a usage error, exit
// status 2, cmd/advertest).
type RequestError struct{ Msg string }

func (e *RequestError) Error() string { return e.Msg }

// IsRequestError reports whether err is, or wraps, a RequestError.
func IsRequestError(err error) bool {
	var r *RequestError
	return errors.As(err, &r)
}

// ResolveTarget reads file and finds the method: the innermost method whose lines hold line
// (1-based), or the one query names ("name", "name(int,int)", "Inner.name", a constructor by
// its class). Exactly one of line and query must be given.
func ResolveTarget(file string, line int, query string) (*Target, error) {
	abs, err := filepath.Abs(file)
	if err != nil {
		return nil, fmt.Errorf("resolving %s: %w", file, err)
	}
	src, err := os.ReadFile(abs)
	if err != nil {
		return nil, &RequestError{Msg: fmt.Sprintf("cannot read %s: %v", file, err)}
	}
	return ResolveTargetInText(abs, src, line, query)
}

// ResolveTargetInText is ResolveTarget on a text already in hand (an editor's buffer).
func ResolveTargetInText(file string, src []byte, line int, query string) (*Target, error) {
	if (line > 0) == (query != "") {
		return nil, &RequestError{Msg: "a method is picked by its line or by its name: give one of them"}
	}
	parsed, err := javaparse.Parse(src)
	if err != nil {
		return nil, fmt.Errorf("parsing %s: %w", file, err)
	}
	t := &Target{File: file, Source: src, Parsed: parsed}
	if line > 0 {
		m := parsed.MethodAtLine(line)
		if m == nil {
			return nil, &RequestError{Msg: fmt.Sprintf("no method or constructor at %s:%d%s", filepath.Base(file), line, candidates(parsed.Methods()))}
		}
		t.Method = m
		return t, nil
	}
	found := parsed.FindMethods(query)
	switch len(found) {
	case 1:
		t.Method = found[0]
		return t, nil
	case 0:
		return nil, &RequestError{Msg: fmt.Sprintf("no method %q in %s%s", query, filepath.Base(file), candidates(parsed.Methods()))}
	default:
		return nil, &RequestError{Msg: fmt.Sprintf("%q is ambiguous in %s; name one with its parameter types%s", query, filepath.Base(file), candidates(found))}
	}
}

// candidates lists methods for a usage message, one a line with the name that picks it.
func candidates(ms []*javaparse.Method) string {
	if len(ms) == 0 {
		return " (the file declares no methods)"
	}
	var b strings.Builder
	b.WriteString("; candidates:")
	for _, m := range ms {
		fmt.Fprintf(&b, "\n  %s  (line %d: %s)", QueryName(m), m.StartLine, m.Signature)
	}
	return b.String()
}

// QueryName is the name that picks m alone (FindMethods, the CLI's --method): the class path
// below the top-level class, the name, and the parameter types.
func QueryName(m *javaparse.Method) string {
	var b strings.Builder
	for _, c := range m.ClassPath[min(1, len(m.ClassPath)):] {
		b.WriteString(c)
		b.WriteByte('.')
	}
	b.WriteString(m.Name)
	b.WriteByte('(')
	for i, p := range m.Params {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(p.Type)
	}
	b.WriteByte(')')
	return b.String()
}

// ReportTarget is the target of the report JSON; moduleRoot makes the file relative.
func (t *Target) ReportTarget(moduleRoot string) report.Target {
	rel := t.File
	if moduleRoot != "" {
		if r, err := filepath.Rel(moduleRoot, t.File); err == nil && !strings.HasPrefix(r, "..") {
			rel = r
		}
	}
	return report.Target{
		File:      filepath.ToSlash(rel),
		Class:     t.Method.BinaryClassName,
		Method:    t.Method.Name,
		Signature: t.Method.Signature,
		StartLine: t.Method.StartLine,
		EndLine:   t.Method.EndLine,
	}
}
