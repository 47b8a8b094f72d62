package server_test

import "github.com/advertest/advertest-lsp/server/lsptest"

var readFrames = lsptest.ReadFrames
