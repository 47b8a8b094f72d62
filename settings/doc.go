// Package settings is the server's view of the user settings: the `advertest` section of
// initializationOptions and workspace/configuration, as nested JSON objects, declared with
// their types, defaults and checks in one table (settings/schema; docs/settings.md lists
// them). A bad value keeps the previous one and yields a Problem that says which setting, what
// was wrong and what is used instead, so the server can show it and carry on. Settings turns
// into the loop's and the LLM client's configurations. It knows nothing of LSP.
package settings

//go:generate go run ./cmd/gensettings
