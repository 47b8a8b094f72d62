-- Minimal init for the headless tests: only this plugin, nothing of the user.
-- ADVERTEST_PLUGIN is editors/nvim, ADVERTEST_BIN the server binary.
vim.opt.runtimepath:prepend(vim.env.ADVERTEST_PLUGIN)
vim.opt.swapfile = false
vim.opt.shadafile = 'NONE'
vim.cmd('filetype on')
require('advertest').setup({
  cmd_path = vim.env.ADVERTEST_BIN,
  -- Neovim's own cache (lsp.log) is the test's; the server keeps the user's (its warm JVM
  -- worker is compiled once there).
  cmd_env = vim.env.ADVERTEST_SERVER_CACHE and { XDG_CACHE_HOME = vim.env.ADVERTEST_SERVER_CACHE } or nil,
  -- The test reads the file from disk as well as from its buffer.
  save_tests = true,
  -- A long constant part of the mutant timeout: on a loaded machine a surviving mutant must
  -- not turn into a timeout, or the diagnostics would differ from `advertest mutate`'s.
  settings = { agents = 'offline', rounds = 1, onSave = 'off', mutantTimeout = { constantMs = 20000 } },
})
