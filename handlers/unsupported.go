package handlers

import (
	"context"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
)

// The methods below are part of protocol.Server but not served: the server's
// method table does not route them (a client gets MethodNotFound there), and
// a direct caller gets the same error here.

func notSupported(method string) error {
	return jsonrpc2.Errorf(jsonrpc2.MethodNotFound, "method not found: %q is not supported by advertest", method)
}

// CodeLens is not served.
func (*Handler) CodeLens(_ context.Context, _ *protocol.CodeLensParams) ([]protocol.CodeLens, error) {
	return nil, notSupported("textDocument/codeLens")
}

// CodeLensResolve is not served.
func (*Handler) CodeLensResolve(_ context.Context, _ *protocol.CodeLens) (*protocol.CodeLens, error) {
	return nil, notSupported("codeLens/resolve")
}

// ColorPresentation is not served.
func (*Handler) ColorPresentation(_ context.Context, _ *protocol.ColorPresentationParams) ([]protocol.ColorPresentation, error) {
	return nil, notSupported("textDocument/colorPresentation")
}

// Completion is not served.
func (*Handler) Completion(_ context.Context, _ *protocol.CompletionParams) (*protocol.CompletionList, error) {
	return nil, notSupported("textDocument/completion")
}

// CompletionResolve is not served.
func (*Handler) CompletionResolve(_ context.Context, _ *protocol.CompletionItem) (*protocol.CompletionItem, error) {
	return nil, notSupported("completionItem/resolve")
}

// Declaration is not served.
func (*Handler) Declaration(_ context.Context, _ *protocol.DeclarationParams) ([]protocol.Location, error) {
	return nil, notSupported("textDocument/declaration")
}

// Definition is not served.
func (*Handler) Definition(_ context.Context, _ *protocol.DefinitionParams) ([]protocol.Location, error) {
	return nil, notSupported("textDocument/definition")
}

// DidChangeWatchedFiles is not served.
func (*Handler) DidChangeWatchedFiles(_ context.Context, _ *protocol.DidChangeWatchedFilesParams) error {
	return notSupported("workspace/didChangeWatchedFiles")
}

// DocumentColor is not served.
func (*Handler) DocumentColor(_ context.Context, _ *protocol.DocumentColorParams) ([]protocol.ColorInformation, error) {
	return nil, notSupported("textDocument/documentColor")
}

// DocumentHighlight is not served.
func (*Handler) DocumentHighlight(_ context.Context, _ *protocol.DocumentHighlightParams) ([]protocol.DocumentHighlight, error) {
	return nil, notSupported("textDocument/documentHighlight")
}

// DocumentLink is not served.
func (*Handler) DocumentLink(_ context.Context, _ *protocol.DocumentLinkParams) ([]protocol.DocumentLink, error) {
	return nil, notSupported("textDocument/documentLink")
}

// DocumentLinkResolve is not served.
func (*Handler) DocumentLinkResolve(_ context.Context, _ *protocol.DocumentLink) (*protocol.DocumentLink, error) {
	return nil, notSupported("documentLink/resolve")
}

// DocumentSymbol is not served.
func (*Handler) DocumentSymbol(_ context.Context, _ *protocol.DocumentSymbolParams) ([]interface{}, error) {
	return nil, notSupported("textDocument/documentSymbol")
}

// FoldingRanges is not served.
func (*Handler) FoldingRanges(_ context.Context, _ *protocol.FoldingRangeParams) ([]protocol.FoldingRange, error) {
	return nil, notSupported("textDocument/foldingRange")
}

// Formatting is not served.
func (*Handler) Formatting(_ context.Context, _ *protocol.DocumentFormattingParams) ([]protocol.TextEdit, error) {
	return nil, notSupported("textDocument/formatting")
}

// Implementation is not served.
func (*Handler) Implementation(_ context.Context, _ *protocol.ImplementationParams) ([]protocol.Location, error) {
	return nil, notSupported("textDocument/implementation")
}

// OnTypeFormatting is not served.
func (*Handler) OnTypeFormatting(_ context.Context, _ *protocol.DocumentOnTypeFormattingParams) ([]protocol.TextEdit, error) {
	return nil, notSupported("textDocument/onTypeFormatting")
}

// PrepareRename is not served.
func (*Handler) PrepareRename(_ context.Context, _ *protocol.PrepareRenameParams) (*protocol.Range, error) {
	return nil, notSupported("textDocument/prepareRename")
}

// RangeFormatting is not served.
func (*Handler) RangeFormatting(_ context.Context, _ *protocol.DocumentRangeFormattingParams) ([]protocol.TextEdit, error) {
	return nil, notSupported("textDocument/rangeFormatting")
}

// References is not served.
func (*Handler) References(_ context.Context, _ *protocol.ReferenceParams) ([]protocol.Location, error) {
	return nil, notSupported("textDocument/references")
}

// Rename is not served.
func (*Handler) Rename(_ context.Context, _ *protocol.RenameParams) (*protocol.WorkspaceEdit, error) {
	return nil, notSupported("textDocument/rename")
}

// SignatureHelp is not served.
func (*Handler) SignatureHelp(_ context.Context, _ *protocol.SignatureHelpParams) (*protocol.SignatureHelp, error) {
	return nil, notSupported("textDocument/signatureHelp")
}

// Symbols is not served.
func (*Handler) Symbols(_ context.Context, _ *protocol.WorkspaceSymbolParams) ([]protocol.SymbolInformation, error) {
	return nil, notSupported("workspace/symbol")
}

// TypeDefinition is not served.
func (*Handler) TypeDefinition(_ context.Context, _ *protocol.TypeDefinitionParams) ([]protocol.Location, error) {
	return nil, notSupported("textDocument/typeDefinition")
}

// WillSave is not served.
func (*Handler) WillSave(_ context.Context, _ *protocol.WillSaveTextDocumentParams) error {
	return notSupported("textDocument/willSave")
}

// WillSaveWaitUntil is not served.
func (*Handler) WillSaveWaitUntil(_ context.Context, _ *protocol.WillSaveTextDocumentParams) ([]protocol.TextEdit, error) {
	return nil, notSupported("textDocument/willSaveWaitUntil")
}

// ShowDocument is not served.
func (*Handler) ShowDocument(_ context.Context, _ *protocol.ShowDocumentParams) (*protocol.ShowDocumentResult, error) {
	return nil, notSupported("window/showDocument")
}

// WillCreateFiles is not served.
func (*Handler) WillCreateFiles(_ context.Context, _ *protocol.CreateFilesParams) (*protocol.WorkspaceEdit, error) {
	return nil, notSupported("workspace/willCreateFiles")
}

// DidCreateFiles is not served.
func (*Handler) DidCreateFiles(_ context.Context, _ *protocol.CreateFilesParams) error {
	return notSupported("workspace/didCreateFiles")
}

// WillRenameFiles is not served.
func (*Handler) WillRenameFiles(_ context.Context, _ *protocol.RenameFilesParams) (*protocol.WorkspaceEdit, error) {
	return nil, notSupported("workspace/willRenameFiles")
}

// DidRenameFiles is not served.
func (*Handler) DidRenameFiles(_ context.Context, _ *protocol.RenameFilesParams) error {
	return notSupported("workspace/didRenameFiles")
}

// WillDeleteFiles is not served.
func (*Handler) WillDeleteFiles(_ context.Context, _ *protocol.DeleteFilesParams) (*protocol.WorkspaceEdit, error) {
	return nil, notSupported("workspace/willDeleteFiles")
}

// DidDeleteFiles is not served.
func (*Handler) DidDeleteFiles(_ context.Context, _ *protocol.DeleteFilesParams) error {
	return notSupported("workspace/didDeleteFiles")
}

// CodeLensRefresh is not served.
func (*Handler) CodeLensRefresh(_ context.Context) error {
	return notSupported("workspace/codeLens/refresh")
}

// PrepareCallHierarchy is not served.
func (*Handler) PrepareCallHierarchy(_ context.Context, _ *protocol.CallHierarchyPrepareParams) ([]protocol.CallHierarchyItem, error) {
	return nil, notSupported("textDocument/prepareCallHierarchy")
}

// IncomingCalls is not served.
func (*Handler) IncomingCalls(_ context.Context, _ *protocol.CallHierarchyIncomingCallsParams) ([]protocol.CallHierarchyIncomingCall, error) {
	return nil, notSupported("callHierarchy/incomingCalls")
}

// OutgoingCalls is not served.
func (*Handler) OutgoingCalls(_ context.Context, _ *protocol.CallHierarchyOutgoingCallsParams) ([]protocol.CallHierarchyOutgoingCall, error) {
	return nil, notSupported("callHierarchy/outgoingCalls")
}

// SemanticTokensFull is not served.
func (*Handler) SemanticTokensFull(_ context.Context, _ *protocol.SemanticTokensParams) (*protocol.SemanticTokens, error) {
	return nil, notSupported("textDocument/semanticTokens/full")
}

// SemanticTokensFullDelta is not served.
func (*Handler) SemanticTokensFullDelta(_ context.Context, _ *protocol.SemanticTokensDeltaParams) (interface{}, error) {
	return nil, notSupported("textDocument/semanticTokens/full/delta")
}

// SemanticTokensRange is not served.
func (*Handler) SemanticTokensRange(_ context.Context, _ *protocol.SemanticTokensRangeParams) (*protocol.SemanticTokens, error) {
	return nil, notSupported("textDocument/semanticTokens/range")
}

// SemanticTokensRefresh is not served.
func (*Handler) SemanticTokensRefresh(_ context.Context) error {
	return notSupported("workspace/semanticTokens/refresh")
}

// LinkedEditingRange is not served.
func (*Handler) LinkedEditingRange(_ context.Context, _ *protocol.LinkedEditingRangeParams) (*protocol.LinkedEditingRanges, error) {
	return nil, notSupported("textDocument/linkedEditingRange")
}

// Moniker is not served.
func (*Handler) Moniker(_ context.Context, _ *protocol.MonikerParams) ([]protocol.Moniker, error) {
	return nil, notSupported("textDocument/moniker")
}

// Request is not served.
func (*Handler) Request(_ context.Context, method string, _ interface{}) (interface{}, error) {
	return nil, notSupported(method)
}
