// Package server owns the LSP transport and the session state of each client
// connection.
//
// Transport: Stream frames messages with Content-Length headers and, unlike
// jsonrpc2.NewStream, survives bad input: an undecodable body is answered
// with ParseError or InvalidRequest when its request id can be recovered, or
// logged and skipped, and reading resynchronises on the next Content-Length
// header. Two limits keep one hostile message from ending the process: a body
// nesting deeper than maxNesting (512) levels is refused before any decoder
// recurses into it, and a Content-Length over maxBodyBytes (64 MiB) is
// refused and its body skipped as it streams past; either is answered with
// InvalidRequest when the request id can be read (docs/server.md). A
// go.lsp.dev/jsonrpc2 Conn runs on top of it.
//
// Handler chain (Serve): the Conn's read loop hands each message to one
// non-blocking handler. A call runs on its own goroutine (jsonrpc2's
// AsyncHandler would serialise them), cancellable by $/cancelRequest with a
// numeric or string id, after every notification received before it has
// been applied. Notifications run one at a time, in order, on one
// goroutine, so text synchronisation applies in the order the client sent
// it. The lifecycle rules (ServerNotInitialized before initialize, only exit
// after shutdown) apply before dispatch. Dispatch goes through a method table
// that decodes params itself, so bad params get InvalidParams with a message
// naming the field, and unknown methods MethodNotFound. Panics become
// InternalError replies; the jsonrpc2 handler never returns an error, which
// would close the connection. Requests are logged at debug level through
// zap; nothing is ever written to stdout but LSP frames.
//
// Session state: Documents (the open documents, each Java one with a
// tree-sitter parse updated incrementally on every change; a didChange
// applies whole or not at all, and one that cannot leaves the document out of
// step until the editor's text comes again), a Notifier for
// messages to the client (diagnostics, messages, progress, workspace edits,
// workspace/configuration), the workspace folders with CheckDocument (work
// that builds or runs a project starts only for an open document in step
// with the editor or a file inside a workspace folder), and a background context cancelled by shutdown
// and by the end of the connection. The LSP methods themselves live in package handlers.
package server
