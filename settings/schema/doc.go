// Package schema is the one declaration of every AdverTest setting: its dotted name, type,
// default, validation, scope and description (Table), the typed values they land in (Values),
// and the two readers of user input, nested JSON (Decode: the server's `advertest` section and
// the CLI's --config file) and name=value text (Set: the CLI's --set and its shorthand flags).
// The server's defaults, loop.Config, llm.Config, the VS Code extension's
// contributes.configuration and docs/settings.md all come from Table.
//
// It is a leaf: it imports the standard library and loop/mutants/opnames alone (the operators'
// names, to check mutants.operators; loop/mutants itself needs tree-sitter, and so cgo), so that
// loop and loop/llm can take their defaults from it without importing the server's packages, and
// it builds with CGO_ENABLED=0.
package schema
