-- Headless end-to-end script, run by nvim_test.go:
--   nvim --headless -n -i NONE -u testdata/init.lua -c 'luafile testdata/e2e.lua'
-- Environment:
--   ADVERTEST_FILE        the Java file to open
--   ADVERTEST_LINE        1-based line inside the method to put the cursor on
--   ADVERTEST_OUTSIDE     1-based line outside any method (phase "commands")
--   ADVERTEST_PHASES      "commands" or "e2e"
--   ADVERTEST_EXPECT      e2e: the surviving mutants' lines, "26,29,30" (from `advertest mutate --json -`)
--   ADVERTEST_TEST_SUFFIX e2e: how the path of the test file :AdverTestGenerate creates ends
--   ADVERTEST_TIMEOUT_MS  the deadline of each wait
--   ADVERTEST_RESULT      where the JSON result goes
-- It records what it saw and quits with status 0 (the Go test judges) or 1
-- when the script itself broke.

local advertest = require('advertest')
local timeout = tonumber(vim.env.ADVERTEST_TIMEOUT_MS or '120000')
local result = { phases = {}, nvim = tostring(vim.version().major) .. '.' .. tostring(vim.version().minor) .. '.' .. tostring(vim.version().patch) }

local function phase(name, fields)
  fields = fields or {}
  fields.name = name
  table.insert(result.phases, fields)
  return fields
end

local function write_result()
  local f = assert(io.open(vim.env.ADVERTEST_RESULT, 'w'))
  f:write(vim.fn.json_encode(result))
  f:close()
end

local function advertest_diagnostics(bufnr)
  local out = {}
  for _, d in ipairs(vim.diagnostic.get(bufnr)) do
    if d.source == 'advertest' then
      table.insert(out, { line = d.lnum + 1, col = d.col, severity = d.severity, code = d.code, message = d.message })
    end
  end
  table.sort(out, function(a, b)
    return a.line < b.line or (a.line == b.line and tostring(a.code) < tostring(b.code))
  end)
  return out
end

local function line_set(diags)
  local seen, lines = {}, {}
  for _, d in ipairs(diags) do
    if d.code ~= 'possible-bug' and not seen[d.line] then
      seen[d.line] = true
      table.insert(lines, d.line)
    end
  end
  table.sort(lines)
  return table.concat(vim.tbl_map(tostring, lines), ',')
end

-- Runs a command and waits for its answer.
local function command(name, line)
  vim.api.nvim_win_set_cursor(0, { line, 0 })
  vim.cmd('normal! ^')
  local answered, err, res = false, nil, nil
  advertest.run(name, function(e, r)
    answered, err, res = true, e, r
  end)
  local ok = vim.wait(timeout, function()
    return answered
  end, 50)
  return { answered = ok, error = err and err.message or nil, result = res }
end

local function main()
  vim.cmd('edit ' .. vim.fn.fnameescape(vim.env.ADVERTEST_FILE))
  local bufnr = vim.api.nvim_get_current_buf()
  local attached = vim.wait(timeout, function()
    local c = advertest.client(bufnr)
    return c ~= nil and c.initialized ~= false and c.server_capabilities ~= nil
  end, 50)
  local client = advertest.client(bufnr)
  phase('attach', {
    ok = attached,
    filetype = vim.bo[bufnr].filetype,
    commands = client and client.server_capabilities and client.server_capabilities.executeCommandProvider or vim.NIL,
  })
  if not attached then
    return
  end
  local line = tonumber(vim.env.ADVERTEST_LINE)

  if vim.env.ADVERTEST_PHASES == 'commands' then
    phase('analyze', command(advertest.commands.analyze, line))
    phase('generate', command(advertest.commands.generate, line))
    phase('outside', command(advertest.commands.analyze, tonumber(vim.env.ADVERTEST_OUTSIDE)))
    return
  end

  -- :AdverTestAnalyze through the user command, then wait for the diagnostics.
  vim.api.nvim_win_set_cursor(0, { line, 0 })
  vim.cmd('normal! ^')
  local jobs_before = #advertest.state.job_order
  local analyze_progress = #advertest.state.progress
  vim.cmd('AdverTestAnalyze')
  local want = vim.env.ADVERTEST_EXPECT
  -- Until the diagnostics are on the expected lines, or the job has ended (the server
  -- publishes before it ends the progress); the Go test judges what is there.
  vim.wait(timeout, function()
    if line_set(advertest_diagnostics(bufnr)) == want then
      return true
    end
    for i = analyze_progress + 1, #advertest.state.progress do
      if advertest.state.progress[i].kind == 'end' then
        return true
      end
    end
    return false
  end, 100)
  local got = line_set(advertest_diagnostics(bufnr))
  local p = phase('analyze', { ok = got == want, want = want, got = got })
  p.diagnostics = advertest_diagnostics(bufnr)
  p.jobs = #advertest.state.job_order - jobs_before
  p.lines = vim.empty_dict()
  for _, d in ipairs(p.diagnostics) do
    p.lines[tostring(d.line)] = vim.api.nvim_buf_get_lines(bufnr, d.line - 1, d.line, false)[1]
  end
  -- The job's progress ends after its last diagnostics.
  p.progress_ended = vim.wait(timeout, function()
    for _, v in ipairs(advertest.state.progress) do
      if v.kind == 'end' then
        return true
      end
    end
    return false
  end, 100)
  p.progress = vim.deepcopy(advertest.state.progress)
  -- A second look once the job has ended: its last diagnostics are in.
  p.diagnostics = advertest_diagnostics(bufnr)
  p.got = line_set(p.diagnostics)
  p.ok = p.got == want
  for _, d in ipairs(p.diagnostics) do
    p.lines[tostring(d.line)] = vim.api.nvim_buf_get_lines(bufnr, d.line - 1, d.line, false)[1]
  end
  if #p.diagnostics == 0 then
    return
  end

  -- The quick fixes on a surviving mutant's warning; Ignore this mutant through them hides it,
  -- :AdverTestUnignore shows it again.
  local target
  for _, d in ipairs(vim.diagnostic.get(bufnr)) do
    if d.source == 'advertest' and d.code ~= 'possible-bug' and d.severity == vim.diagnostic.severity.WARN then
      target = d
      break
    end
  end
  local v = phase('verdicts', { titles = {} })
  if target then
    local function shown(code)
      for _, d in ipairs(vim.diagnostic.get(bufnr)) do
        if d.code == code then
          return true
        end
      end
      return false
    end
    local range = { start = { line = target.lnum, character = target.col }, ['end'] = { line = target.end_lnum, character = target.end_col } }
    local lsp_diagnostic = { range = range, severity = 2, code = target.code, source = target.source, message = target.message }
    v.code = target.code
    local lsp = target.user_data and target.user_data.lsp or {}
    v.related = #(lsp.relatedInformation or {})
    local responses = vim.lsp.buf_request_sync(bufnr, 'textDocument/codeAction', {
      textDocument = { uri = vim.uri_from_bufnr(bufnr) }, range = range,
      context = { diagnostics = { lsp_diagnostic }, only = { 'quickfix' } },
    }, timeout)
    local ignore
    for _, r in pairs(responses or {}) do
      for _, a in ipairs(r.result or {}) do
        table.insert(v.titles, a.title)
        if a.title == 'Ignore this mutant' then
          ignore = a
        end
      end
    end
    if ignore then
      local answers = vim.lsp.buf_request_sync(bufnr, 'workspace/executeCommand', { command = ignore.command.command, arguments = ignore.command.arguments }, timeout)
      for _, r in pairs(answers or {}) do
        v.result = r.result
        v.error = r.error and r.error.message or nil
      end
      v.hidden = vim.wait(timeout, function()
        return not shown(target.code)
      end, 50)
      local done = false
      advertest.unignore(target.code, function()
        done = true
      end)
      v.back = vim.wait(timeout, function()
        return done and shown(target.code)
      end, 50)
    end
  end

  -- :AdverTestGenerate: the suite arrives as a workspace edit creating the test file.
  local suffix = vim.env.ADVERTEST_TEST_SUFFIX
  local progress_before = #advertest.state.progress
  local testfile
  vim.cmd('AdverTestGenerate')
  local created = vim.wait(timeout, function()
    for _, path in ipairs(advertest.state.test_files) do
      if path:sub(-#suffix) == suffix then
        testfile = path
        return true
      end
    end
    return false
  end, 100)
  local g = phase('generate', { ok = created, test_files = vim.deepcopy(advertest.state.test_files), test_file = testfile })
  if created then
    local tb = vim.fn.bufnr(testfile)
    g.buffer = table.concat(vim.api.nvim_buf_get_lines(tb, 0, -1, false), '\n')
    g.on_disk = vim.fn.filereadable(testfile) == 1 and table.concat(vim.fn.readfile(testfile), '\n') or vim.NIL
  end
  g.progress_ended = vim.wait(timeout, function()
    for i = progress_before + 1, #advertest.state.progress do
      if advertest.state.progress[i].kind == 'end' then
        return true
      end
    end
    return false
  end, 100)
  g.progress = {}
  for i = progress_before + 1, #advertest.state.progress do
    table.insert(g.progress, advertest.state.progress[i])
  end
  g.diagnostics = advertest_diagnostics(bufnr)
end

local ok, err = xpcall(main, debug.traceback)
if not ok then
  result.error = err
end
local write_ok, write_err = pcall(write_result)
if not write_ok then
  io.stderr:write('e2e.lua: ' .. tostring(write_err) .. '\n')
  vim.cmd('cquit 1')
end
vim.cmd(ok and 'qa!' or 'cquit 1')
