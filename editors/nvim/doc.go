// Package nvim holds the Neovim client of AdverTest: the Lua plugin under
// lua/advertest (require('advertest').setup{...}) and its tests, which run
// the real plugin in headless Neovim against the real server on a copy of an
// example project. The package has no Go API; it exists for its tests.
package nvim
