-- AdverTest for Neovim: starts `advertest lsp` for Java buffers and adds
-- :AdverTestGenerate / :AdverTestAnalyze for the method at the cursor.
--
-- What the built-in LSP client already does is left to it: surviving mutants
-- arrive as textDocument/publishDiagnostics and are shown through
-- vim.diagnostic (warnings; hints for survivors judged probably equivalent);
-- their quick fixes (a test that kills the mutant, Mark as equivalent, Ignore
-- this mutant) come with vim.lsp.buf.code_action(); the generated suite
-- arrives as workspace/applyEdit. This
-- module adds the commands, echoes $/progress, names the test file an edit
-- created, and keeps working on Neovim 0.7 (vim.lsp.start_client) as on 0.8+
-- (vim.lsp.start).

local M = {}

local SERVER_NAME = 'advertest'

M.commands = {
  generate = 'advertest.generateTests',
  analyze = 'advertest.analyzeMutants',
  cancel = 'advertest.cancel',
  -- The user's verdicts: the server offers the first two as quick fixes on a mutant's
  -- diagnostic, the third on an ignored mutant's line (and :AdverTestUnignore ID).
  mark_equivalent = 'advertest.markEquivalent',
  ignore = 'advertest.ignoreMutant',
  unignore = 'advertest.unignoreMutant',
}

local defaults = {
  -- The server's command line. nil: { cmd_path, 'lsp' } plus the log flags.
  cmd = nil,
  -- The binary: an absolute path, or a name looked up on $PATH.
  cmd_path = 'advertest',
  log_file = nil, -- `advertest lsp --log FILE`
  log_level = nil, -- `advertest lsp --log-level LEVEL`
  cmd_env = nil, -- extra environment of the server process
  filetypes = { 'java' },
  -- The root is the nearest folder holding one of these (the module's build file first).
  root_markers = { 'pom.xml', 'build.gradle', 'build.gradle.kts', '.git' },
  -- The server's settings (docs/settings.md, nested: { agents = 'offline', llm = { model = '…' } }),
  -- sent as initializationOptions and as the workspace/configuration section "advertest".
  settings = {},
  -- Echo $/progress messages (the built-in client only records them on 0.7).
  progress = true,
  -- vim.diagnostic options for the server's diagnostics (nil: your global vim.diagnostic.config).
  diagnostics = nil,
  -- After the generated suite arrives: open it in a split ('split', 'vsplit', 'tab') or not (false),
  -- and write it to disk (the edit leaves it in an unsaved buffer).
  open_tests = false,
  save_tests = false,
  on_attach = nil,
  capabilities = nil,
}

-- Settings keys whose values are lists: an empty Lua table there is a JSON array.
local list_keys = { args = true }

local state = {
  config = vim.deepcopy(defaults),
  -- clients by root folder (Neovim 0.7, where vim.lsp.start does not exist to reuse them).
  clients = {},
  -- jobs: id → { command, uri, method }, newest last in job_order.
  jobs = {},
  job_order = {},
  -- progress: every $/progress value echoed, oldest first (for :AdverTestLog and tests).
  progress = {},
  -- titles: progress token → the title of its begin.
  titles = {},
  -- running: progress token → its latest begin/report value; last_end: the latest end.
  running = {},
  last_end = nil,
  -- last_job: the latest advertest/jobEnded notification (when the server sends one).
  last_job = nil,
  -- test files the server's edits created or changed (paths).
  test_files = {},
  setup_done = false,
}
M.state = state

local function notify(msg, level)
  vim.notify('[advertest] ' .. msg, level or vim.log.levels.INFO)
end

-- An empty Lua table encodes as []; the server's settings are objects.
local function as_json_object(value, key)
  if type(value) ~= 'table' then
    return value
  end
  if vim.tbl_isempty(value) then
    if list_keys[key] then
      return value
    end
    return vim.empty_dict()
  end
  if (vim.islist or vim.tbl_islist)(value) then
    return value
  end
  local out = {}
  for k, v in pairs(value) do
    out[k] = as_json_object(v, k)
  end
  return out
end

local function server_cmd(cfg)
  if cfg.cmd then
    return cfg.cmd
  end
  local cmd = { cfg.cmd_path, 'lsp' }
  if cfg.log_file then
    vim.list_extend(cmd, { '--log', cfg.log_file })
  end
  if cfg.log_level then
    vim.list_extend(cmd, { '--log-level', cfg.log_level })
  end
  return cmd
end

-- The nearest ancestor of the buffer's file holding a root marker; else its folder.
function M.root_dir(bufnr)
  local fname = vim.api.nvim_buf_get_name(bufnr)
  if fname == '' then
    return nil
  end
  local dir = vim.fn.fnamemodify(fname, ':p:h')
  for _, marker in ipairs(state.config.root_markers) do
    local found = vim.fn.findfile(marker, dir .. ';')
    if found == '' then
      found = vim.fn.finddir(marker, dir .. ';')
    end
    if found ~= '' then
      local root = vim.fn.fnamemodify(found, ':p:h'):gsub('/%.git/?$', '')
      return root
    end
  end
  return dir
end

local function progress_text(value)
  local parts = {}
  if value.title then
    table.insert(parts, value.title)
  end
  if value.message then
    table.insert(parts, value.message)
  end
  local text = table.concat(parts, ': ')
  if value.percentage then
    text = string.format('%s (%d%%)', text, value.percentage)
  end
  if value.kind == 'end' then
    text = text == '' and 'done' or text
  end
  return text
end

local function on_progress(err, result, ctx, config)
  local default = vim.lsp.handlers['$/progress']
  if default then
    default(err, result, ctx, config)
  end
  if err or not result or type(result.value) ~= 'table' then
    return
  end
  local value = result.value
  -- Reports and the end carry no title: keep the begin's, per token.
  local key = tostring(result.token)
  if value.kind == 'begin' then
    state.titles[key] = value.title
  end
  local title = state.titles[key]
  if value.kind == 'end' then
    state.titles[key] = nil
  end
  value = vim.tbl_extend('force', { title = title }, value)
  state.running[key] = value.kind ~= 'end' and value or nil
  if value.kind == 'end' then
    state.last_end = value
  end
  table.insert(state.progress, { token = result.token, kind = value.kind, title = value.title, message = value.message, percentage = value.percentage })
  if state.config.progress then
    vim.api.nvim_echo({ { '[advertest] ' .. progress_text(value), value.kind == 'end' and 'MoreMsg' or 'None' } }, false, {})
  end
end

-- The files a workspace edit creates or changes.
local function edited_files(edit)
  local files = {}
  for _, change in ipairs(edit.documentChanges or {}) do
    local uri = change.uri or (change.textDocument and change.textDocument.uri) or change.newUri
    if uri then
      files[vim.uri_to_fname(uri)] = true
    end
  end
  for uri in pairs(edit.changes or {}) do
    files[vim.uri_to_fname(uri)] = true
  end
  return vim.tbl_keys(files)
end

local function on_apply_edit(err, result, ctx, config)
  local response = vim.lsp.handlers['workspace/applyEdit'](err, result, ctx, config)
  if not (response and response.applied and result and result.edit) then
    return response
  end
  for _, path in ipairs(edited_files(result.edit)) do
    if path:match('AdverTest%.java$') then
      table.insert(state.test_files, path)
      local bufnr = vim.fn.bufadd(path)
      vim.fn.bufload(bufnr)
      if state.config.save_tests then
        vim.api.nvim_buf_call(bufnr, function()
          vim.cmd('silent noautocmd write')
        end)
      end
      local open = state.config.open_tests
      if open then
        local cmd = ({ split = 'sbuffer', vsplit = 'vertical sbuffer', tab = 'tab sbuffer' })[open] or 'sbuffer'
        vim.cmd(cmd .. ' ' .. bufnr)
      end
      notify(string.format('tests in %s%s', vim.fn.fnamemodify(path, ':~:.'), state.config.save_tests and '' or ' (unsaved: :w to keep them)'))
    end
  end
  return response
end

-- advertest/jobEnded (a notification the server may send at a job's end: job, status,
-- target, mutationScore, …): kept for status().
local function on_job_ended(_, result)
  state.last_job = result
end

local function make_config(bufnr, root)
  local cfg = state.config
  local settings = as_json_object(cfg.settings or {})
  local handlers = {
    ['$/progress'] = on_progress,
    ['workspace/applyEdit'] = on_apply_edit,
    ['advertest/jobEnded'] = on_job_ended,
  }
  return {
    name = SERVER_NAME,
    cmd = server_cmd(cfg),
    cmd_env = cfg.cmd_env,
    root_dir = root,
    workspace_folders = { { uri = vim.uri_from_fname(root), name = root } },
    init_options = settings,
    settings = { advertest = settings },
    capabilities = cfg.capabilities or vim.lsp.protocol.make_client_capabilities(),
    handlers = handlers,
    on_init = function(client)
      -- The server's diagnostics live in the client's namespace: configure that one.
      if cfg.diagnostics then
        vim.diagnostic.config(cfg.diagnostics, vim.lsp.diagnostic.get_namespace(client.id))
      end
    end,
    on_attach = cfg.on_attach,
    on_exit = function()
      state.clients[root] = nil
    end,
    -- Let the server finish its jobs' cleanup on :qa.
    flags = { debounce_text_changes = 150, exit_timeout = 2000 },
  }
end

-- Starts (or reuses) the server for a buffer and attaches it. Returns the client id.
function M.start(bufnr)
  bufnr = (bufnr == nil or bufnr == 0) and vim.api.nvim_get_current_buf() or bufnr
  local root = M.root_dir(bufnr)
  if not root then
    return nil
  end
  if vim.fn.executable(server_cmd(state.config)[1]) ~= 1 then
    notify(string.format('%q is not executable: install advertest or set cmd_path', server_cmd(state.config)[1]), vim.log.levels.ERROR)
    return nil
  end
  local config = make_config(bufnr, root)
  if vim.lsp.start then
    return vim.lsp.start(config, { bufnr = bufnr })
  end
  -- Neovim 0.7: one client per root, attached to each buffer.
  local id = state.clients[root]
  local client = id and vim.lsp.get_client_by_id(id)
  if not client or client.is_stopped() then
    id = vim.lsp.start_client(config)
    if not id then
      notify('the server did not start: ' .. table.concat(config.cmd, ' '), vim.log.levels.ERROR)
      return nil
    end
    state.clients[root] = id
  end
  vim.lsp.buf_attach_client(bufnr, id)
  return id
end

-- The advertest client attached to a buffer.
function M.client(bufnr)
  bufnr = (bufnr == nil or bufnr == 0) and vim.api.nvim_get_current_buf() or bufnr
  local clients
  if vim.lsp.get_clients then
    clients = vim.lsp.get_clients({ bufnr = bufnr, name = SERVER_NAME })
  else
    clients = vim.tbl_values(vim.lsp.buf_get_clients(bufnr))
  end
  for _, client in ipairs(clients) do
    if client.name == SERVER_NAME then
      return client
    end
  end
  return nil
end

-- client:request on 0.11+ (the dot form is deprecated there), client.request before.
local function request(client, method, params, handler, bufnr)
  if vim.fn.has('nvim-0.11') == 1 then
    return client:request(method, params, handler, bufnr)
  end
  return client.request(method, params, handler, bufnr)
end

-- The argument of a method command for the cursor, in the client's encoding (UTF-16).
function M.method_argument(bufnr, client)
  local enc = client and client.offset_encoding or 'utf-16'
  local params = vim.lsp.util.make_position_params(0, enc)
  return { uri = vim.uri_from_bufnr(bufnr), position = params.position }
end

-- Sends a method command for the cursor position; on_done(err, result) is optional.
function M.run(command, on_done)
  local bufnr = vim.api.nvim_get_current_buf()
  local client = M.client(bufnr)
  if not client then
    notify('no advertest server for this buffer (not a Java file, or the server did not start)', vim.log.levels.WARN)
    return
  end
  local arg = M.method_argument(bufnr, client)
  request(client, 'workspace/executeCommand', { command = command, arguments = { arg } }, function(err, result)
    if err then
      -- The server's messages already name the command.
      notify(err.message or vim.inspect(err), vim.log.levels.ERROR)
    else
      local job = type(result) == 'table' and result.job or nil
      if job ~= nil then
        job = tostring(job)
        state.jobs[job] = { command = command, uri = arg.uri, line = arg.position.line + 1 }
        table.insert(state.job_order, job)
        notify(string.format('job %s started (%s, line %d)', job, command, arg.position.line + 1))
      end
    end
    if on_done then
      on_done(err, result)
    end
  end, bufnr)
end

-- Cancels a job (the newest when job is nil).
function M.cancel(job)
  job = job ~= '' and job or state.job_order[#state.job_order]
  local client = M.client(0)
  if not job or not client then
    notify('no job to cancel', vim.log.levels.WARN)
    return
  end
  request(client, 'workspace/executeCommand', { command = M.commands.cancel, arguments = { { job = job } } }, function(err)
    if err then
      notify('cancel: ' .. err.message, vim.log.levels.ERROR)
    end
  end, vim.api.nvim_get_current_buf())
end

-- Takes the user's mark off a mutant of the buffer's module by its id (the quick fix on the
-- ignored mutant's line does the same); on_done(err, result) is optional.
function M.unignore(id, on_done)
  local bufnr = vim.api.nvim_get_current_buf()
  local client = M.client(bufnr)
  if not client then
    notify('no advertest server for this buffer', vim.log.levels.WARN)
    return
  end
  id = vim.trim(id or '')
  if id == '' then
    notify('give the mutant id: :AdverTestUnignore m0123456789ab (hover shows it)', vim.log.levels.WARN)
    return
  end
  local arg = { uri = vim.uri_from_bufnr(bufnr), mutant = id }
  request(client, 'workspace/executeCommand', { command = M.commands.unignore, arguments = { arg } }, function(err, result)
    if err then
      notify(err.message or vim.inspect(err), vim.log.levels.ERROR)
    elseif type(result) == 'table' and result.changed then
      notify(id .. ' is shown again')
    else
      notify(id .. ' was not ignored', vim.log.levels.WARN)
    end
    if on_done then
      on_done(err, result)
    end
  end, bufnr)
end

-- The buffer's surviving mutants, for a statusline: { survivors = N, likely_equivalent = K }
-- (the hints: survivors judged probably equivalent, which still count in the score; the
-- mutants the user ignored have no diagnostic).
function M.survivors(bufnr)
  bufnr = (bufnr == nil or bufnr == 0) and vim.api.nvim_get_current_buf() or bufnr
  local out = { survivors = 0, likely_equivalent = 0 }
  for _, d in ipairs(vim.diagnostic.get(bufnr)) do
    if d.source == SERVER_NAME and d.code ~= 'possible-bug' then
      out.survivors = out.survivors + 1
      if d.severity == vim.diagnostic.severity.HINT then
        out.likely_equivalent = out.likely_equivalent + 1
      end
    end
  end
  return out
end

local function create_commands()
  local function command(name, fn, opts)
    vim.api.nvim_create_user_command(name, fn, opts or {})
  end
  command('AdverTestGenerate', function()
    M.run(M.commands.generate)
  end, { desc = 'AdverTest: generate adversarial tests for the method at the cursor' })
  command('AdverTestAnalyze', function()
    M.run(M.commands.analyze)
  end, { desc = 'AdverTest: mutation analysis of the method at the cursor' })
  command('AdverTestCancel', function(o)
    M.cancel(o.args)
  end, { nargs = '?', desc = 'AdverTest: cancel a job (the newest by default)' })
  command('AdverTestUnignore', function(o)
    M.unignore(o.args)
  end, { nargs = 1, desc = 'AdverTest: show an ignored mutant again (its id)' })
  command('AdverTestLog', function()
    for _, p in ipairs(state.progress) do
      print(string.format('%s %s', p.kind, progress_text(p)))
    end
  end, { desc = 'AdverTest: the progress messages so far' })
end

-- A short text for a statusline: the running job's latest progress, else the last job's
-- result ("AdverTest: `clamp`: score 62% · 9 of 24 mutants survive"), else ''.
function M.status()
  for _, value in pairs(state.running) do
    return progress_text(value)
  end
  local job = state.last_job
  if type(job) == 'table' and type(job.mutationScore) == 'number' then
    local method = type(job.target) == 'table' and job.target.method or 'method'
    return string.format('AdverTest %s: %d%%', method, math.floor(job.mutationScore * 100 + 0.5))
  end
  if state.last_end then
    return progress_text(state.last_end)
  end
  return ''
end

-- setup{...}: options as in `defaults` above. Starts the server for every Java
-- buffer, the open ones included.
function M.setup(opts)
  state.config = vim.tbl_deep_extend('force', vim.deepcopy(defaults), opts or {})
  if opts and opts.settings then
    state.config.settings = opts.settings
  end
  create_commands()
  local group = vim.api.nvim_create_augroup('advertest', { clear = true })
  vim.api.nvim_create_autocmd('FileType', {
    group = group,
    pattern = state.config.filetypes,
    callback = function(args)
      M.start(args.buf)
    end,
  })
  for _, bufnr in ipairs(vim.api.nvim_list_bufs()) do
    if vim.api.nvim_buf_is_loaded(bufnr) and vim.tbl_contains(state.config.filetypes, vim.bo[bufnr].filetype) then
      M.start(bufnr)
    end
  end
  state.setup_done = true
end

-- For nvim-lspconfig users: a config table for
-- require('lspconfig.configs').advertest = { default_config = require('advertest').lspconfig() }.
-- It also defines the :AdverTest* commands.
function M.lspconfig(opts)
  local cfg = vim.tbl_deep_extend('force', vim.deepcopy(defaults), opts or {})
  state.config = cfg
  create_commands()
  local settings = as_json_object(cfg.settings or {})
  return {
    cmd = server_cmd(cfg),
    filetypes = cfg.filetypes,
    root_dir = function(fname)
      local util = require('lspconfig.util')
      return util.root_pattern(unpack(cfg.root_markers))(fname)
    end,
    init_options = settings,
    settings = { advertest = settings },
    handlers = { ['$/progress'] = on_progress, ['workspace/applyEdit'] = on_apply_edit, ['advertest/jobEnded'] = on_job_ended },
  }
end

-- For the plugin's own tests.
M._internal = {
  as_json_object = as_json_object,
  progress_text = progress_text,
  edited_files = edited_files,
  server_cmd = server_cmd,
  make_config = make_config,
}

return M
