// editors/vscode is the VS Code extension (TypeScript), not Go. This file makes it a module of its
// own so that `go test ./...` and `go vet ./...` at the repository root skip its node_modules,
// where npm packages ship Go sources (flatted/golang).
module github.com/advertest/advertest-lsp/editors/vscode

go 1.26
