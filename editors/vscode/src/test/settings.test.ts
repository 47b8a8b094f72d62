import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';

import { CLIENT_SETTINGS, SERVER_SETTINGS, needsRestart, serverArgs, toServerSettings, type ConfigurationReader } from '../settings';

/** A WorkspaceConfiguration over flat dotted keys, as VS Code's get() reads them. */
function config(values: Record<string, unknown>): ConfigurationReader {
  return { get: <T>(key: string) => values[key] as T | undefined };
}

interface ManifestProperty {
  default?: unknown;
  scope?: string;
  markdownDescription?: string;
  description?: string;
  type?: string | string[];
}

const manifest = JSON.parse(fs.readFileSync(path.join(__dirname, '..', '..', 'package.json'), 'utf8')) as {
  contributes: { configuration: { properties: Record<string, ManifestProperty> } };
};
const properties = manifest.contributes.configuration.properties;

/** The manifest's defaults, as VS Code would answer get() with nothing set. */
function defaults(): ConfigurationReader {
  const values: Record<string, unknown> = {};
  for (const [key, prop] of Object.entries(properties)) {
    values[key.replace(/^advertest\./, '')] = prop.default;
  }
  return config(values);
}

describe('toServerSettings', () => {
  it('nests dotted settings as docs/settings.md names them', () => {
    const got = toServerSettings(
      config({
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
      }),
    );
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

  it('leaves out unset values so the server applies its defaults and the environment', () => {
    const got = toServerSettings(config({ 'llm.baseURL': '', 'llm.model': undefined, 'budget.maxTokens': null, workers: null, rounds: 7 }));
    assert.deepEqual(got, { rounds: 7 });
  });

  it('never sends the client-only settings', () => {
    const got = toServerSettings(config({ path: '/x/advertest', logFile: '/tmp/log', logLevel: 'debug' }));
    assert.deepEqual(got, {});
  });

  it('sends the manifest defaults that are values, with the server table\'s defaults', () => {
    const got = toServerSettings(defaults());
    assert.deepEqual(got, {
      agents: 'auto',
      llm: {
        apiKeyEnv: 'OPENAI_API_KEY',
        temperature: 0,
        maxConcurrency: 4,
        requestTimeoutSeconds: 120,
        maxReplyTokens: 4096,
        allowInsecureHTTP: false,
        contextTokens: 8000,
        pricing: { inputPerMTok: 0, outputPerMTok: 0 },
      },
      budget: { maxTokens: 0, maxUSD: 0, methodRequests: 60, methodTokens: 200000 },
      suite: { minimal: 'auto' },
      rounds: 5,
      repairAttempts: 10,
      mutantTimeout: { factor: 1.25, constantMs: 4000, stepFactor: 10, stepConstant: 1000 },
      originalTestTimeoutMs: 60000,
      mutants: { operators: ['default', 'strong'] },
      workers: 0,
      worker: { heapMB: 512, maxLeakedThreads: 32 },
      sandbox: { mode: 'auto', env: [] },
      jobs: { max: 2 },
      onSave: 'analyze',
      onSaveDelayMs: 500,
      maven: { args: [] },
    });
  });
});

describe('package.json contributes', () => {
  it('every setting, each with a description and a default, and nothing else', () => {
    const want = [...CLIENT_SETTINGS, ...SERVER_SETTINGS].map((k) => `advertest.${k}`).sort();
    assert.deepEqual(Object.keys(properties).sort(), want);
    for (const [key, prop] of Object.entries(properties)) {
      assert.ok((prop.markdownDescription ?? prop.description ?? '').length > 10, `${key} has no description`);
      assert.ok('default' in prop, `${key} has no default`);
    }
  });

  it('settings that could send a secret elsewhere or lower the sandbox are the user\'s', () => {
    // A repository's .vscode/settings.json cannot set a machine setting.
    for (const key of ['llm.baseURL', 'llm.apiKeyEnv', 'llm.allowInsecureHTTP', 'sandbox.mode', 'sandbox.env']) {
      assert.equal(properties[`advertest.${key}`].scope, 'machine', key);
    }
    for (const key of ['jacoco.agentPath', 'maven.args']) {
      assert.ok(['machine', 'machine-overridable'].includes(properties[`advertest.${key}`].scope ?? ''), key);
    }
    for (const key of SERVER_SETTINGS) {
      assert.ok(properties[`advertest.${key}`].scope, `${key} has no scope`);
    }
  });

  it('palette commands with their own ids, not the server commands', () => {
    const pkg = JSON.parse(fs.readFileSync(path.join(__dirname, '..', '..', 'package.json'), 'utf8')) as {
      contributes: { commands: { command: string; title: string; category: string }[] };
      capabilities: { untrustedWorkspaces: { supported: boolean } };
      activationEvents: string[];
    };
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

describe('serverArgs and needsRestart', () => {
  it('passes the log settings as flags of `advertest lsp`', () => {
    assert.deepEqual(serverArgs(config({})), ['lsp']);
    assert.deepEqual(serverArgs(config({ logFile: '/tmp/a.log', logLevel: 'debug' })), ['lsp', '--log', '/tmp/a.log', '--log-level', 'debug']);
  });

  it('restarts for the client settings only', () => {
    assert.equal(needsRestart((s) => s === 'advertest.path'), true);
    assert.equal(needsRestart((s) => s === 'advertest.logLevel'), true);
    assert.equal(needsRestart((s) => s === 'advertest.rounds'), false);
  });
});
