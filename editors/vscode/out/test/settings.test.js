"use strict";
var __createBinding = (this && this.__createBinding) || (Object.create ? (function(o, m, k, k2) {
    if (k2 === undefined) k2 = k;
    var desc = Object.getOwnPropertyDescriptor(m, k);
    if (!desc || ("get" in desc ? !m.__esModule : desc.writable || desc.configurable)) {
      desc = { enumerable: true, get: function() { return m[k]; } };
    }
    Object.defineProperty(o, k2, desc);
}) : (function(o, m, k, k2) {
    if (k2 === undefined) k2 = k;
    o[k2] = m[k];
}));
var __setModuleDefault = (this && this.__setModuleDefault) || (Object.create ? (function(o, v) {
    Object.defineProperty(o, "default", { enumerable: true, value: v });
}) : function(o, v) {
    o["default"] = v;
});
var __importStar = (this && this.__importStar) || (function () {
    var ownKeys = function(o) {
        ownKeys = Object.getOwnPropertyNames || function (o) {
            var ar = [];
            for (var k in o) if (Object.prototype.hasOwnProperty.call(o, k)) ar[ar.length] = k;
            return ar;
        };
        return ownKeys(o);
    };
    return function (mod) {
        if (mod && mod.__esModule) return mod;
        var result = {};
        if (mod != null) for (var k = ownKeys(mod), i = 0; i < k.length; i++) if (k[i] !== "default") __createBinding(result, mod, k[i]);
        __setModuleDefault(result, mod);
        return result;
    };
})();
Object.defineProperty(exports, "__esModule", { value: true });
const assert = __importStar(require("node:assert/strict"));
const fs = __importStar(require("node:fs"));
const path = __importStar(require("node:path"));
const node_test_1 = require("node:test");
const settings_1 = require("../settings");
/** A WorkspaceConfiguration over flat dotted keys, as VS Code's get() reads them. */
function config(values) {
    return { get: (key) => values[key] };
}
const manifest = JSON.parse(fs.readFileSync(path.join(__dirname, '..', '..', 'package.json'), 'utf8'));
const properties = manifest.contributes.configuration.properties;
/** The manifest's defaults, as VS Code would answer get() with nothing set. */
function defaults() {
    const values = {};
    for (const [key, prop] of Object.entries(properties)) {
        values[key.replace(/^advertest\./, '')] = prop.default;
    }
    return config(values);
}
(0, node_test_1.describe)('toServerSettings', () => {
    (0, node_test_1.it)('nests dotted settings as DESIGN names them', () => {
        const got = (0, settings_1.toServerSettings)(config({
            agents: 'offline',
            'llm.model': 'gpt-x',
            'llm.temperature': 0,
            'llm.pricing.inputPerMTok': 2.5,
            'llm.pricing.outputPerMTok': 10,
            'budget.maxUSD': 1.5,
            rounds: 3,
            'mutantTimeout.factor': 2,
            'jobs.max': 1,
            onSave: 'off',
            'maven.args': ['-o'],
        }));
        assert.deepEqual(got, {
            agents: 'offline',
            llm: { model: 'gpt-x', temperature: 0, pricing: { inputPerMTok: 2.5, outputPerMTok: 10 } },
            budget: { maxUSD: 1.5 },
            rounds: 3,
            mutantTimeout: { factor: 2 },
            jobs: { max: 1 },
            onSave: 'off',
            maven: { args: ['-o'] },
        });
    });
    (0, node_test_1.it)('leaves out unset values so the server applies its defaults and the environment', () => {
        const got = (0, settings_1.toServerSettings)(config({ 'llm.baseURL': '', 'llm.model': undefined, 'budget.maxTokens': null, workers: null, rounds: 7 }));
        assert.deepEqual(got, { rounds: 7 });
    });
    (0, node_test_1.it)('never sends the client-only settings', () => {
        const got = (0, settings_1.toServerSettings)(config({ path: '/x/advertest', logFile: '/tmp/log', logLevel: 'debug' }));
        assert.deepEqual(got, {});
    });
    (0, node_test_1.it)('sends the manifest defaults that are values, with their DESIGN defaults', () => {
        const got = (0, settings_1.toServerSettings)(defaults());
        assert.deepEqual(got, {
            agents: 'auto',
            llm: { apiKeyEnv: 'OPENAI_API_KEY', temperature: 0, maxConcurrency: 4, requestTimeoutSeconds: 120, pricing: { inputPerMTok: 0, outputPerMTok: 0 } },
            rounds: 5,
            repairAttempts: 10,
            mutantTimeout: { factor: 1.25, constantMs: 4000 },
            jobs: { max: 2 },
            onSave: 'analyze',
            onSaveDelayMs: 500,
            maven: { args: [] },
        });
    });
});
(0, node_test_1.describe)('package.json contributes', () => {
    (0, node_test_1.it)('every setting, each with a description and a default, and nothing else', () => {
        const want = [...settings_1.CLIENT_SETTINGS, ...settings_1.SERVER_SETTINGS].map((k) => `advertest.${k}`).sort();
        assert.deepEqual(Object.keys(properties).sort(), want);
        for (const [key, prop] of Object.entries(properties)) {
            assert.ok((prop.markdownDescription ?? prop.description ?? '').length > 10, `${key} has no description`);
            assert.ok('default' in prop, `${key} has no default`);
        }
    });
    (0, node_test_1.it)('palette commands with their own ids, not the server commands', () => {
        const pkg = JSON.parse(fs.readFileSync(path.join(__dirname, '..', '..', 'package.json'), 'utf8'));
        const titles = pkg.contributes.commands.map((c) => `${c.category}: ${c.title}`);
        assert.ok(titles.includes('AdverTest: Generate adversarial tests'));
        assert.ok(titles.includes('AdverTest: Analyze mutants'));
        for (const c of pkg.contributes.commands) {
            assert.match(c.command, /^advertest\.client\./);
        }
        assert.equal(pkg.capabilities.untrustedWorkspaces.supported, false);
        assert.ok(pkg.activationEvents.includes('onLanguage:java'));
    });
});
(0, node_test_1.describe)('serverArgs and needsRestart', () => {
    (0, node_test_1.it)('passes the log settings as flags of `advertest lsp`', () => {
        assert.deepEqual((0, settings_1.serverArgs)(config({})), ['lsp']);
        assert.deepEqual((0, settings_1.serverArgs)(config({ logFile: '/tmp/a.log', logLevel: 'debug' })), ['lsp', '--log', '/tmp/a.log', '--log-level', 'debug']);
    });
    (0, node_test_1.it)('restarts for the client settings only', () => {
        assert.equal((0, settings_1.needsRestart)((s) => s === 'advertest.path'), true);
        assert.equal((0, settings_1.needsRestart)((s) => s === 'advertest.logLevel'), true);
        assert.equal((0, settings_1.needsRestart)((s) => s === 'advertest.rounds'), false);
    });
});
//# sourceMappingURL=settings.test.js.map