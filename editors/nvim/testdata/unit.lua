-- Unit checks of the plugin's own logic, in headless Neovim (run by
-- nvim_test.go: nvim --headless -u NONE -c 'luafile testdata/unit.lua').
-- ADVERTEST_PLUGIN is editors/nvim, ADVERTEST_PROJECT a folder with a pom.xml,
-- ADVERTEST_RESULT where "ok" or the failure goes.
vim.opt.runtimepath:prepend(vim.env.ADVERTEST_PLUGIN)
local advertest = require('advertest')
local I = advertest._internal

local function eq(got, want, what)
  if not vim.deep_equal(got, want) then
    error(string.format('%s: got %s, want %s', what, vim.inspect(got), vim.inspect(want)), 2)
  end
end

-- What goes on the wire: the LSP client encodes with vim.json where it exists.
local function encode(v)
  local text = vim.json and vim.json.encode(v) or vim.fn.json_encode(v)
  return (text:gsub('%s', ''))
end

local function checks()
  -- Settings: empty tables are JSON objects, except lists such as maven.args.
  eq(encode(I.as_json_object({})), '{}', 'empty settings')
  local enc = vim.fn.json_decode(encode(I.as_json_object({ agents = 'offline', llm = {}, maven = { args = {} } })))
  eq(enc, { agents = 'offline', llm = {}, maven = { args = {} } }, 'round trip')
  eq(encode(I.as_json_object({ llm = {} })), '{"llm":{}}', 'empty nested object')
  eq(encode(I.as_json_object({ maven = { args = {} } })), '{"maven":{"args":[]}}', 'empty list')

  -- The command line.
  eq(I.server_cmd({ cmd_path = 'advertest' }), { 'advertest', 'lsp' }, 'default cmd')
  eq(I.server_cmd({ cmd_path = '/x/advertest', log_file = '/tmp/l', log_level = 'debug' }), { '/x/advertest', 'lsp', '--log', '/tmp/l', '--log-level', 'debug' }, 'log flags')
  eq(I.server_cmd({ cmd = { 'a', 'b' }, cmd_path = 'x' }), { 'a', 'b' }, 'explicit cmd')

  -- Progress lines.
  eq(I.progress_text({ kind = 'begin', title = 'AdverTest: clamp', message = 'baseline' }), 'AdverTest: clamp: baseline', 'begin')
  eq(I.progress_text({ kind = 'report', title = 'T', message = 'mutants 3/24', percentage = 12 }), 'T: mutants 3/24 (12%)', 'report')
  eq(I.progress_text({ kind = 'end' }), 'done', 'end without message')

  -- The statusline text follows the progress.
  eq(advertest.status(), '', 'status before any job')
  local progress = vim.lsp.handlers['$/progress']
  vim.lsp.handlers['$/progress'] = nil -- only the plugin's part
  local on_progress = I.make_config(0, '/p').handlers['$/progress']
  on_progress(nil, { token = 't', value = { kind = 'begin', title = 'AdverTest: `clamp`', message = 'loading the project' } }, {}, {})
  eq(advertest.status(), 'AdverTest: `clamp`: loading the project', 'status while running')
  on_progress(nil, { token = 't', value = { kind = 'end', message = 'score 62% · 9 of 24 mutants survive' } }, {}, {})
  eq(advertest.status(), 'AdverTest: `clamp`: score 62% · 9 of 24 mutants survive', 'status after the end')
  I.make_config(0, '/p').handlers['advertest/jobEnded'](nil, { job = '1', target = { method = 'clamp' }, mutationScore = 0.625 }, {}, {})
  eq(advertest.status(), 'AdverTest clamp: 63%', 'status from advertest/jobEnded')
  vim.lsp.handlers['$/progress'] = progress

  -- The files a workspace edit touches.
  local files = I.edited_files({
    documentChanges = {
      { kind = 'create', uri = 'file:///p/src/test/java/ACalcAdverTest.java' },
      { textDocument = { uri = 'file:///p/src/test/java/ACalcAdverTest.java', version = vim.NIL }, edits = {} },
    },
    changes = { ['file:///p/B.java'] = {} },
  })
  table.sort(files)
  eq(files, { '/p/B.java', '/p/src/test/java/ACalcAdverTest.java' }, 'edited files')

  -- setup: the root is the folder with the build file; the config carries the settings twice.
  advertest.setup({ cmd_path = 'true', settings = { rounds = 3, llm = { model = 'm' } } })
  local project = vim.env.ADVERTEST_PROJECT
  vim.cmd('edit ' .. vim.fn.fnameescape(project .. '/src/main/java/org/acme/PriceCalculator.java'))
  local bufnr = vim.api.nvim_get_current_buf()
  eq(advertest.root_dir(bufnr), project, 'root_dir')
  local cfg = I.make_config(bufnr, project)
  eq(cfg.init_options, { rounds = 3, llm = { model = 'm' } }, 'init_options')
  eq(cfg.settings, { advertest = { rounds = 3, llm = { model = 'm' } } }, 'settings section')
  eq(vim.lsp.util.lookup_section(cfg.settings, 'advertest'), cfg.init_options, 'workspace/configuration answer')
  eq(cfg.name, 'advertest', 'name')
  eq(cfg.workspace_folders[1].uri, vim.uri_from_fname(project), 'workspace folder')
  for _, name in ipairs({ 'AdverTestGenerate', 'AdverTestAnalyze', 'AdverTestCancel', 'AdverTestUnignore', 'AdverTestLog' }) do
    eq(vim.fn.exists(':' .. name), 2, ':' .. name)
  end
  -- The survivors a statusline counts: warnings and hints (probably equivalent), not possible bugs.
  local ns = vim.api.nvim_create_namespace('advertest-unit')
  vim.diagnostic.set(ns, bufnr, {
    { lnum = 28, col = 8, severity = vim.diagnostic.severity.WARN, source = 'advertest', code = 'm000000000001', message = 'a' },
    { lnum = 31, col = 8, severity = vim.diagnostic.severity.HINT, source = 'advertest', code = 'm000000000002', message = 'b' },
    { lnum = 24, col = 4, severity = vim.diagnostic.severity.INFO, source = 'advertest', code = 'possible-bug', message = 'c' },
    { lnum = 24, col = 4, severity = vim.diagnostic.severity.HINT, source = 'jdtls', code = 'x', message = 'd' },
  })
  eq(advertest.survivors(bufnr), { survivors = 2, likely_equivalent = 1 }, 'survivors')
  vim.diagnostic.reset(ns, bufnr)

  -- A command without a server says so instead of failing.
  vim.cmd('enew')
  advertest.run(advertest.commands.analyze)
  advertest.unignore('m000000000001')

  -- nvim-lspconfig's table.
  local lc = advertest.lspconfig({ settings = {} })
  eq(lc.cmd, { 'advertest', 'lsp' }, 'lspconfig cmd')
  eq(lc.filetypes, { 'java' }, 'lspconfig filetypes')
  eq(encode(lc.init_options), '{}', 'lspconfig init_options')
end

local ok, err = xpcall(checks, debug.traceback)
local f = assert(io.open(vim.env.ADVERTEST_RESULT, 'w'))
f:write(ok and 'ok' or tostring(err))
f:close()
vim.cmd(ok and 'qa!' or 'cquit 1')
