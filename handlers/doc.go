// Package handlers implements the LSP methods of advertest (protocol.Server,
// plus server.Handler's DidChangeContent), one file per LSP area:
// lifecycle.go (initialize … exit, capabilities), textsync.go (open, change,
// save, close), codeactions.go (the two method actions), commands.go
// (workspace/executeCommand and its argument), unsupported.go (every other
// method answers MethodNotFound).
//
// Handlers are thin: they find the document in the server.Session, ask
// javaparse about it, and convert to and from protocol types. Transport,
// routing, parameter decoding, cancellation and the open documents belong to
// package server; Java parsing to javaparse.
package handlers
