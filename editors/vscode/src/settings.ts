// Maps the extension's flat `advertest.*` settings to the nested JSON object
// the server reads from initializationOptions and from the
// workspace/configuration section "advertest" (see docs/settings.md).
// Pure: no `vscode` import, so it is unit-tested without VS Code.

/** The configuration section the server asks for. */
export const SECTION = 'advertest';

/**
 * Settings that only the client reads (how to start the server). They are
 * never sent to the server.
 */
export const CLIENT_SETTINGS = ['path', 'logFile', 'logLevel'] as const;

/**
 * Settings of the server, as dotted paths under `advertest`: the names of the
 * server's settings table (settings/schema/table.go), from which package.json's
 * settings are generated; the tests check that the two agree.
 */
export const SERVER_SETTINGS = [
  'agents',
  'llm.baseURL',
  'llm.model',
  'llm.apiKeyEnv',
  'llm.temperature',
  'llm.maxConcurrency',
  'llm.requestTimeoutSeconds',
  'llm.maxReplyTokens',
  'llm.allowInsecureHTTP',
  'llm.contextTokens',
  'llm.pricing.inputPerMTok',
  'llm.pricing.outputPerMTok',
  'budget.maxTokens',
  'budget.maxUSD',
  'budget.methodRequests',
  'budget.methodTokens',
  'suite.minimal',
  'rounds',
  'repairAttempts',
  'mutantTimeout.factor',
  'mutantTimeout.constantMs',
  'mutantTimeout.stepFactor',
  'mutantTimeout.stepConstant',
  'originalTestTimeoutMs',
  'mutants.operators',
  'workers',
  'worker.heapMB',
  'worker.maxLeakedThreads',
  'sandbox.mode',
  'sandbox.env',
  'jobs.max',
  'onSave',
  'onSaveDelayMs',
  'maven.args',
  'jacoco.agentPath',
] as const;

/** The part of vscode.WorkspaceConfiguration this module needs. */
export interface ConfigurationReader {
  get<T>(section: string): T | undefined;
}

/** A JSON object of settings, nested by the dotted paths. */
export type SettingsObject = { [key: string]: unknown };

/**
 * Builds the server's settings object. A setting left unset (undefined,
 * null, or an empty string) is left out, so that the server applies its own
 * default, which may come from the environment (OPENAI_BASE_URL,
 * ADVERTEST_MODEL, the number of cores, …).
 */
export function toServerSettings(config: ConfigurationReader): SettingsObject {
  const settings: SettingsObject = {};
  for (const key of SERVER_SETTINGS) {
    const value = config.get<unknown>(key);
    if (value === undefined || value === null || value === '') {
      continue;
    }
    setPath(settings, key.split('.'), value);
  }
  return settings;
}

function setPath(target: SettingsObject, path: string[], value: unknown): void {
  let node = target;
  for (const name of path.slice(0, -1)) {
    const next = node[name];
    if (typeof next === 'object' && next !== null && !Array.isArray(next)) {
      node = next as SettingsObject;
    } else {
      const created: SettingsObject = {};
      node[name] = created;
      node = created;
    }
  }
  node[path[path.length - 1]] = value;
}

/** The command line of `advertest lsp` for the client-only settings. */
export function serverArgs(config: ConfigurationReader): string[] {
  const args = ['lsp'];
  const logFile = config.get<string>('logFile');
  if (logFile) {
    args.push('--log', logFile);
  }
  const logLevel = config.get<string>('logLevel');
  if (logLevel) {
    args.push('--log-level', logLevel);
  }
  return args;
}

/** Whether a configuration change needs the server restarted. */
export function needsRestart(affects: (section: string) => boolean): boolean {
  return CLIENT_SETTINGS.some((key) => affects(`${SECTION}.${key}`));
}
