// Package settings owns the server's user settings: DESIGN's settings contract (the
// `advertest` section of initializationOptions and workspace/configuration, as nested JSON
// objects), their defaults, and their validation. A bad value keeps the default and yields a
// Problem that says which setting, what was wrong and what is used instead, so the server can
// show it and carry on. It knows nothing of LSP.
package settings
