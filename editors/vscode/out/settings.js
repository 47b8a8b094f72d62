"use strict";
// Maps the extension's flat `advertest.*` settings to the nested JSON object
// the server reads from initializationOptions and from the
// workspace/configuration section "advertest" (DESIGN, "Settings").
// Pure: no `vscode` import, so it is unit-tested without VS Code.
Object.defineProperty(exports, "__esModule", { value: true });
exports.SERVER_SETTINGS = exports.CLIENT_SETTINGS = exports.SECTION = void 0;
exports.toServerSettings = toServerSettings;
exports.serverArgs = serverArgs;
exports.needsRestart = needsRestart;
/** The configuration section the server asks for. */
exports.SECTION = 'advertest';
/**
 * Settings that only the client reads (how to start the server). They are
 * never sent to the server.
 */
exports.CLIENT_SETTINGS = ['path', 'logFile', 'logLevel'];
/** Settings of the server, as dotted paths under `advertest`. */
exports.SERVER_SETTINGS = [
    'agents',
    'llm.baseURL',
    'llm.model',
    'llm.apiKeyEnv',
    'llm.temperature',
    'llm.maxConcurrency',
    'llm.requestTimeoutSeconds',
    'llm.pricing.inputPerMTok',
    'llm.pricing.outputPerMTok',
    'budget.maxTokens',
    'budget.maxUSD',
    'rounds',
    'repairAttempts',
    'mutantTimeout.factor',
    'mutantTimeout.constantMs',
    'workers',
    'jobs.max',
    'onSave',
    'onSaveDelayMs',
    'maven.args',
    'jacoco.agentPath',
];
/**
 * Builds the server's settings object. A setting left unset (undefined,
 * null, or an empty string) is left out, so that the server applies its own
 * default, which may come from the environment (OPENAI_BASE_URL,
 * ADVERTEST_MODEL, the number of cores, …).
 */
function toServerSettings(config) {
    const settings = {};
    for (const key of exports.SERVER_SETTINGS) {
        const value = config.get(key);
        if (value === undefined || value === null || value === '') {
            continue;
        }
        setPath(settings, key.split('.'), value);
    }
    return settings;
}
function setPath(target, path, value) {
    let node = target;
    for (const name of path.slice(0, -1)) {
        const next = node[name];
        if (typeof next === 'object' && next !== null && !Array.isArray(next)) {
            node = next;
        }
        else {
            const created = {};
            node[name] = created;
            node = created;
        }
    }
    node[path[path.length - 1]] = value;
}
/** The command line of `advertest lsp` for the client-only settings. */
function serverArgs(config) {
    const args = ['lsp'];
    const logFile = config.get('logFile');
    if (logFile) {
        args.push('--log', logFile);
    }
    const logLevel = config.get('logLevel');
    if (logLevel) {
        args.push('--log-level', logLevel);
    }
    return args;
}
/** Whether a configuration change needs the server restarted. */
function needsRestart(affects) {
    return exports.CLIENT_SETTINGS.some((key) => affects(`${exports.SECTION}.${key}`));
}
//# sourceMappingURL=settings.js.map