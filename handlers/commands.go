package handlers

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path"
	"path/filepath"
	"strings"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"

	"github.com/advertest/advertest-lsp/javaparse"
	"github.com/advertest/advertest-lsp/loop/state"
	"github.com/advertest/advertest-lsp/server"
)

// Target names the method a command works on, as the report JSON's
// "target" does.
type Target struct {
	// File is the source file's path relative to its module root, with
	// forward slashes.
	File string `json:"file"`
	// Class is the binary name of the class that declares the method
	// ("org.acme.Outer$Inner").
	Class     string `json:"class"`
	Method    string `json:"method"`
	Signature string `json:"signature"`
	StartLine int    `json:"startLine"` // 1-based
	EndLine   int    `json:"endLine"`   // 1-based
}

// CommandResult is the answer to a method command: the job that runs it and
// the method it targets.
type CommandResult struct {
	Job    string `json:"job"`
	Target Target `json:"target"`
}

// JobResult is the answer to advertest.killMutant.
type JobResult struct {
	Job string `json:"job"`
}

// CancelResult is the answer to advertest.cancel: whether a job was cancelled.
type CancelResult struct {
	Cancelled bool `json:"cancelled"`
}

// argumentShape is how error messages spell the expected argument.
const argumentShape = `{"uri": "file:///…", "position": {"line": L, "character": C}}`

// ExecuteCommand validates a command and its argument, starts its job and
// answers at once. Every invalid request (an unknown command, a missing or
// malformed argument, a document that is not open, a position outside any
// method, a file outside any Maven or Gradle module) is an InvalidParams
// error that says which.
func (h *Handler) ExecuteCommand(_ context.Context, params *protocol.ExecuteCommandParams) (any, error) {
	switch params.Command {
	case CommandGenerateTests, CommandAnalyzeMutants:
	case CommandKillMutant:
		return h.killMutantCommand(params.Arguments)
	case CommandCancel:
		return h.cancelCommand(params.Arguments)
	case CommandMarkEquivalent:
		return h.verdictCommand(params.Command, state.UserEquivalent, params.Arguments)
	case CommandIgnoreMutant:
		return h.verdictCommand(params.Command, state.UserIgnored, params.Arguments)
	case CommandUnignoreMutant:
		return h.verdictCommand(params.Command, "", params.Arguments)
	default:
		return nil, invalidParams("unknown command %q: advertest serves %s", params.Command, strings.Join(Commands, ", "))
	}
	arg, err := decodeMethodArgument(params.Command, params.Arguments)
	if err != nil {
		return nil, err
	}
	if err := h.session.CheckDocument(params.Command, arg.URI); err != nil {
		return nil, err
	}
	target, err := h.targetAt(params.Command, arg)
	if err != nil {
		return nil, err
	}
	doc, _ := h.session.Documents().Get(arg.URI)
	off, err := doc.Offset(arg.Position)
	if err != nil {
		return nil, invalidParams("%s: %v", params.Command, err)
	}
	snap, err := snapshotMethod(doc, off, "", "")
	if err != nil {
		return nil, invalidParams("%s: %v", params.Command, err)
	}
	kind := state.KindAnalyze
	if params.Command == CommandGenerateTests {
		kind = state.KindGenerate
	}
	job := h.startMethodJob(kind, snap)
	if job == nil {
		return nil, jsonrpc2.Errorf(jsonrpc2.InvalidRequest, "%s: the server is shutting down", params.Command)
	}
	return &CommandResult{Job: job.ID, Target: *target}, nil
}

// singleObject returns a command's one object argument.
func singleObject(command, shape string, args []any) (map[string]any, error) {
	switch {
	case len(args) == 0:
		return nil, invalidParams("%s: missing argument: want %s", command, shape)
	case len(args) > 1:
		return nil, invalidParams("%s: want exactly one argument %s, got %d", command, shape, len(args))
	}
	obj, ok := args[0].(map[string]any)
	if !ok {
		return nil, invalidParams("%s: the argument must be an object %s, got %s", command, shape, describeJSON(args[0]))
	}
	return obj, nil
}

func stringField(command string, obj map[string]any, name string) (string, error) {
	raw, ok := obj[name]
	if !ok {
		return "", invalidParams("%s: the argument has no %q", command, name)
	}
	s, ok := raw.(string)
	if !ok || s == "" {
		return "", invalidParams("%s: %q must be a non-empty string, got %s", command, name, describeJSON(raw))
	}
	return s, nil
}

// stringArgs decodes a command's one object argument whose fields names are non-empty strings.
func stringArgs(command, shape string, args []any, names ...string) ([]string, error) {
	obj, err := singleObject(command, shape, args)
	if err != nil {
		return nil, err
	}
	out := make([]string, len(names))
	for i, name := range names {
		if out[i], err = stringField(command, obj, name); err != nil {
			return nil, err
		}
	}
	return out, nil
}

func (h *Handler) cancelCommand(args []any) (any, error) {
	job, err := stringArgs(CommandCancel, `{"job": "ID"}`, args, "job")
	if err != nil {
		return nil, err
	}
	return &CancelResult{Cancelled: h.jobs.Cancel(job[0])}, nil
}

// decodeMethodArgument checks the one argument of a method command field by
// field, so that the error can say what is wrong.
func decodeMethodArgument(command string, args []any) (*MethodArgument, error) {
	obj, err := singleObject(command, argumentShape, args)
	if err != nil {
		return nil, err
	}
	uri, err := stringField(command, obj, "uri")
	if err != nil {
		return nil, err
	}
	rawPos, ok := obj["position"]
	if !ok {
		return nil, invalidParams("%s: the argument has no \"position\"", command)
	}
	pos, ok := rawPos.(map[string]any)
	if !ok {
		return nil, invalidParams("%s: \"position\" must be an object {\"line\": L, \"character\": C}, got %s", command, describeJSON(rawPos))
	}
	line, err := positionField(command, pos, "line")
	if err != nil {
		return nil, err
	}
	character, err := positionField(command, pos, "character")
	if err != nil {
		return nil, err
	}
	return &MethodArgument{URI: protocol.DocumentURI(uri), Position: protocol.Position{Line: line, Character: character}}, nil
}

func positionField(command string, pos map[string]any, name string) (uint32, error) {
	raw, ok := pos[name]
	if !ok {
		return 0, invalidParams("%s: \"position\" has no %q", command, name)
	}
	n, ok := raw.(float64)
	if !ok || n < 0 || n != math.Trunc(n) || n > math.MaxUint32 {
		return 0, invalidParams("%s: \"position.%s\" must be a non-negative integer, got %s", command, name, describeJSON(raw))
	}
	return uint32(n), nil
}

func describeJSON(v any) string {
	data, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprintf("%v", v)
	}
	const limit = 80
	if len(data) > limit {
		return string(data[:limit]) + "…"
	}
	return string(data)
}

// targetAt finds the method at the argument's position.
func (h *Handler) targetAt(command string, arg *MethodArgument) (*Target, error) {
	doc, ok := h.session.Documents().Get(arg.URI)
	if !ok {
		return nil, invalidParams("%s: document %s is not open", command, arg.URI)
	}
	if !doc.IsJava() {
		return nil, invalidParams("%s: document %s is not a Java file", command, arg.URI)
	}
	var (
		method  *javaparse.Method
		posErr  error
		lines   int
		hasTree = doc.WithFile(func(f *javaparse.File, _ int32) {
			lines = f.Lines().LineCount()
			off, err := f.Lines().Offset(int(arg.Position.Line), int(arg.Position.Character))
			if err != nil {
				posErr = err
				return
			}
			method = methodAt(f, int(arg.Position.Line), off)
		})
	)
	switch {
	case !hasTree:
		return nil, invalidParams("%s: document %s could not be parsed as Java", command, arg.URI)
	case posErr != nil:
		return nil, invalidParams("%s: position %d:%d is outside the document (%d lines)", command, arg.Position.Line, arg.Position.Character, lines)
	case method == nil:
		return nil, invalidParams("%s: no method or constructor at %d:%d in %s", command, arg.Position.Line, arg.Position.Character, arg.URI)
	}
	return &Target{
		File:      h.moduleRelativePath(doc),
		Class:     method.BinaryClassName,
		Method:    method.Name,
		Signature: method.Signature,
		StartLine: method.StartLine,
		EndLine:   method.EndLine,
	}, nil
}

// moduleRelativePath is the document's path relative to its module root.
func (h *Handler) moduleRelativePath(doc *server.Document) string {
	p := doc.Path()
	if p == "" {
		// Not a file: URI (an unsaved buffer): its last path element.
		return path.Base(string(doc.URI()))
	}
	p = filepath.FromSlash(p)
	rel, err := filepath.Rel(ModuleRoot(p, h.workspaceRoots()), p)
	if err != nil {
		return filepath.Base(p)
	}
	return filepath.ToSlash(rel)
}

// buildFiles mark a module root.
var buildFiles = []string{"pom.xml", "build.gradle", "build.gradle.kts"}

// ModuleRoot returns the module root of a source file: the nearest
// ancestor directory holding pom.xml, build.gradle or build.gradle.kts;
// without one, the innermost workspace root that holds the file; else the
// file's directory.
//
// It belongs with project detection (buildtools) once that exists.
func ModuleRoot(file string, workspaceRoots []string) string {
	dir := filepath.Dir(file)
	for d := dir; ; {
		for _, name := range buildFiles {
			if info, err := os.Stat(filepath.Join(d, name)); err == nil && !info.IsDir() {
				return d
			}
		}
		parent := filepath.Dir(d)
		if parent == d {
			break
		}
		d = parent
	}
	best := ""
	for _, root := range workspaceRoots {
		root = filepath.Clean(root)
		if rel, err := filepath.Rel(root, file); err == nil && !strings.HasPrefix(rel, "..") && len(root) > len(best) {
			best = root
		}
	}
	if best != "" {
		return best
	}
	return dir
}
