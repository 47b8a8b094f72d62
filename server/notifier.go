package server

import (
	"context"
	"encoding/json"
	"fmt"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
)

// Notifier is what the server may send to the client. Handlers and
// background jobs use it instead of the connection, so tests can record
// what would be sent.
type Notifier interface {
	// PublishDiagnostics replaces the diagnostics of uri. A nil slice is sent
	// as [] (never null), which clears them. version 0 is left out.
	PublishDiagnostics(ctx context.Context, uri protocol.DocumentURI, version int32, diagnostics []protocol.Diagnostic) error
	// ShowMessage shows a message to the user (window/showMessage).
	ShowMessage(ctx context.Context, typ protocol.MessageType, message string) error
	// LogMessage writes to the client's log (window/logMessage).
	LogMessage(ctx context.Context, typ protocol.MessageType, message string) error
	// CreateProgress asks the client to create a work-done progress token
	// (window/workDoneProgress/create) and waits for its answer. Only call it
	// when the client announced window.workDoneProgress.
	CreateProgress(ctx context.Context, token protocol.ProgressToken) error
	// Progress sends $/progress: value is a protocol.WorkDoneProgressBegin,
	// Report or End.
	Progress(ctx context.Context, token protocol.ProgressToken, value any) error
	// ApplyEdit sends workspace/applyEdit and waits for the answer. edit is
	// any JSON value of the WorkspaceEdit shape, because protocol.WorkspaceEdit
	// cannot carry a CreateFile operation.
	ApplyEdit(ctx context.Context, label string, edit any) (*protocol.ApplyWorkspaceEditResponse, error)
	// Configuration sends workspace/configuration and returns one raw JSON value per item
	// (null for a section the client does not have). Only call it when the client announced
	// workspace.configuration.
	Configuration(ctx context.Context, items []protocol.ConfigurationItem) ([]json.RawMessage, error)
}

// connNotifier sends through the jsonrpc2 connection.
type connNotifier struct {
	conn jsonrpc2.Conn
}

var _ Notifier = connNotifier{}

func (n connNotifier) PublishDiagnostics(ctx context.Context, uri protocol.DocumentURI, version int32, diagnostics []protocol.Diagnostic) error {
	if diagnostics == nil {
		diagnostics = []protocol.Diagnostic{}
	}
	params := &protocol.PublishDiagnosticsParams{URI: uri, Diagnostics: diagnostics}
	if version > 0 {
		params.Version = uint32(version)
	}
	return n.notify(ctx, protocol.MethodTextDocumentPublishDiagnostics, params)
}

func (n connNotifier) ShowMessage(ctx context.Context, typ protocol.MessageType, message string) error {
	return n.notify(ctx, protocol.MethodWindowShowMessage, &protocol.ShowMessageParams{Type: typ, Message: message})
}

func (n connNotifier) LogMessage(ctx context.Context, typ protocol.MessageType, message string) error {
	return n.notify(ctx, protocol.MethodWindowLogMessage, &protocol.LogMessageParams{Type: typ, Message: message})
}

func (n connNotifier) CreateProgress(ctx context.Context, token protocol.ProgressToken) error {
	if _, err := n.conn.Call(ctx, protocol.MethodWorkDoneProgressCreate, &protocol.WorkDoneProgressCreateParams{Token: token}, nil); err != nil {
		return fmt.Errorf("%s: %w", protocol.MethodWorkDoneProgressCreate, err)
	}
	return nil
}

func (n connNotifier) Progress(ctx context.Context, token protocol.ProgressToken, value any) error {
	return n.notify(ctx, protocol.MethodProgress, &protocol.ProgressParams{Token: token, Value: value})
}

func (n connNotifier) ApplyEdit(ctx context.Context, label string, edit any) (*protocol.ApplyWorkspaceEditResponse, error) {
	params := struct {
		Label string `json:"label,omitempty"`
		Edit  any    `json:"edit"`
	}{label, edit}
	var result protocol.ApplyWorkspaceEditResponse
	if _, err := n.conn.Call(ctx, protocol.MethodWorkspaceApplyEdit, params, &result); err != nil {
		return nil, fmt.Errorf("%s: %w", protocol.MethodWorkspaceApplyEdit, err)
	}
	return &result, nil
}

func (n connNotifier) Configuration(ctx context.Context, items []protocol.ConfigurationItem) ([]json.RawMessage, error) {
	var result []json.RawMessage
	if _, err := n.conn.Call(ctx, protocol.MethodWorkspaceConfiguration, &protocol.ConfigurationParams{Items: items}, &result); err != nil {
		return nil, fmt.Errorf("%s: %w", protocol.MethodWorkspaceConfiguration, err)
	}
	return result, nil
}

func (n connNotifier) notify(ctx context.Context, method string, params any) error {
	if err := n.conn.Notify(ctx, method, params); err != nil {
		return fmt.Errorf("%s: %w", method, err)
	}
	return nil
}
