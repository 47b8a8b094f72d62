// Package lsptest drives a server over a pipe with a real go.lsp.dev/jsonrpc2
// client, for tests of this module. Besides ordinary calls and notifications
// it writes raw (malformed) frames and records every response by its raw id,
// so that answers to messages the jsonrpc2 client could not have sent (an id
// outside int32, a body that is not JSON) can be checked too.
package lsptest
