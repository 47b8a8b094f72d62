package server

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
	"go.uber.org/zap"
)

// Handler is what the server dispatches to: the protocol.Server methods
// plus DidChangeContent, which receives textDocument/didChange decoded with a
// pointer Range (protocol's own type cannot tell a full-text change from an
// insertion at 0:0). The server never calls Handler.DidChange.
type Handler interface {
	protocol.Server
	DidChangeContent(ctx context.Context, params *DidChangeParams) error
}

// route is one entry of the method table: it decodes the params into the
// method's own type and calls the handler.
type route struct {
	notification bool
	invoke       func(ctx context.Context, params json.RawMessage) (any, error)
}

// routesFor is the method table. Anything not here is MethodNotFound (for a
// call) or dropped (a notification); $/cancelRequest and the lifecycle
// checks are handled before the table.
func routesFor(h Handler, logger *zap.Logger) map[string]route {
	return map[string]route{
		protocol.MethodInitialize:                         initializeRoute(h.Initialize, logger),
		protocol.MethodInitialized:                        notification(protocol.MethodInitialized, h.Initialized),
		protocol.MethodShutdown:                           callWithoutParams(h.Shutdown),
		protocol.MethodExit:                               {notification: true, invoke: func(ctx context.Context, _ json.RawMessage) (any, error) { return nil, h.Exit(ctx) }},
		protocol.MethodSetTrace:                           notification(protocol.MethodSetTrace, h.SetTrace),
		protocol.MethodLogTrace:                           notification(protocol.MethodLogTrace, h.LogTrace),
		protocol.MethodTextDocumentDidOpen:                notification(protocol.MethodTextDocumentDidOpen, h.DidOpen),
		protocol.MethodTextDocumentDidChange:              notification(protocol.MethodTextDocumentDidChange, h.DidChangeContent),
		protocol.MethodTextDocumentDidSave:                notification(protocol.MethodTextDocumentDidSave, h.DidSave),
		protocol.MethodTextDocumentDidClose:               notification(protocol.MethodTextDocumentDidClose, h.DidClose),
		protocol.MethodTextDocumentCodeAction:             call(protocol.MethodTextDocumentCodeAction, h.CodeAction),
		protocol.MethodTextDocumentHover:                  call(protocol.MethodTextDocumentHover, h.Hover),
		protocol.MethodWorkspaceExecuteCommand:            call(protocol.MethodWorkspaceExecuteCommand, h.ExecuteCommand),
		protocol.MethodWorkDoneProgressCancel:             notification(protocol.MethodWorkDoneProgressCancel, h.WorkDoneProgressCancel),
		protocol.MethodWorkspaceDidChangeConfiguration:    notification(protocol.MethodWorkspaceDidChangeConfiguration, h.DidChangeConfiguration),
		protocol.MethodWorkspaceDidChangeWorkspaceFolders: notification(protocol.MethodWorkspaceDidChangeWorkspaceFolders, h.DidChangeWorkspaceFolders),
	}
}

func call[P, R any](method string, fn func(context.Context, *P) (R, error)) route {
	return route{invoke: func(ctx context.Context, raw json.RawMessage) (any, error) {
		params := new(P)
		if err := DecodeParams(method, raw, params); err != nil {
			return nil, err
		}
		return fn(ctx, params)
	}}
}

// initializeRoute forgives client capabilities that do not fit protocol's
// types (a client newer than protocol v0.12.0, or a sloppy one): refusing
// initialize would leave the editor without a server at all. The
// capabilities are then dropped and the rest of the params kept.
func initializeRoute(fn func(context.Context, *protocol.InitializeParams) (*protocol.InitializeResult, error), logger *zap.Logger) route {
	return route{invoke: func(ctx context.Context, raw json.RawMessage) (any, error) {
		params := new(protocol.InitializeParams)
		err := DecodeParams(protocol.MethodInitialize, raw, params)
		if err != nil {
			var withoutCapabilities struct {
				protocol.InitializeParams
				Capabilities json.RawMessage `json:"capabilities"`
			}
			if DecodeParams(protocol.MethodInitialize, raw, &withoutCapabilities) != nil {
				return nil, err
			}
			params = &withoutCapabilities.InitializeParams
			params.Capabilities = protocol.ClientCapabilities{}
			logger.Warn("initialize: ignoring client capabilities that do not decode", zap.Error(err))
		}
		return fn(ctx, params)
	}}
}

func callWithoutParams(fn func(context.Context) error) route {
	return route{invoke: func(ctx context.Context, _ json.RawMessage) (any, error) {
		return nil, fn(ctx)
	}}
}

func notification[P any](method string, fn func(context.Context, *P) error) route {
	return route{notification: true, invoke: func(ctx context.Context, raw json.RawMessage) (any, error) {
		params := new(P)
		if err := DecodeParams(method, raw, params); err != nil {
			return nil, err
		}
		return nil, fn(ctx, params)
	}}
}

// DecodeParams decodes a method's params into v. Its error is an
// InvalidParams *jsonrpc2.Error whose message names the method, the field
// and what was wrong with it, e.g.
// `textDocument/codeAction: invalid params: range.start.line: want uint32, got number -1`.
func DecodeParams(method string, raw json.RawMessage, v any) error {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || bytes.Equal(raw, []byte("null")) {
		return jsonrpc2.Errorf(jsonrpc2.InvalidParams, "%s: invalid params: params are missing", method)
	}
	if raw[0] != '{' {
		return jsonrpc2.Errorf(jsonrpc2.InvalidParams, "%s: invalid params: params must be an object, got %s", method, jsonKind(raw))
	}
	if err := json.Unmarshal(raw, v); err != nil {
		return jsonrpc2.Errorf(jsonrpc2.InvalidParams, "%s: invalid params: %s", method, describeDecodeError(err))
	}
	return nil
}

func describeDecodeError(err error) string {
	var typeErr *json.UnmarshalTypeError
	if errors.As(err, &typeErr) {
		field := typeErr.Field
		if field == "" {
			field = "params"
		}
		return fmt.Sprintf("%s: want %s, got %s", field, typeErr.Type, typeErr.Value)
	}
	return err.Error()
}

func jsonKind(raw json.RawMessage) string {
	switch raw[0] {
	case '[':
		return "an array"
	case '"':
		return "a string"
	case 't', 'f':
		return "a boolean"
	default:
		return "a number"
	}
}
