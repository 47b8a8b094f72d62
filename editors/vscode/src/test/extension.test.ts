import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, describe, it } from 'node:test';

import { FakeUri, fire, recorded, world } from './stubs';
// After the stubs: the extension's imports of vscode resolve to them.
import * as extension from '../extension';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'advertest-ext-'));
const binary = path.join(dir, 'advertest');
fs.writeFileSync(binary, '#!/bin/sh\n');
fs.chmodSync(binary, 0o755);
after(() => fs.rmSync(dir, { recursive: true, force: true }));

const context = { subscriptions: [] as { dispose(): void }[] };

function flush(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

describe('the extension with vscode stubbed', () => {
  it('starts nothing in an untrusted workspace, but registers its own commands', async () => {
    world.isTrusted = false;
    world.settings = { path: binary, rounds: 3 };
    extension.activate(context as never);
    await flush();
    assert.equal(recorded.clients.length, 0);
    for (const id of ['advertest.client.generateTests', 'advertest.client.analyzeMutants']) {
      assert.ok(recorded.commands.has(id), id);
    }
    world.activeEditor = { document: { uri: FakeUri.file('/ws/A.java'), languageId: 'java' }, selection: { active: { line: 3, character: 2 } } };
    await recorded.commands.get('advertest.client.analyzeMutants')!();
    assert.equal(recorded.clients.length, 0);
    assert.match(recorded.warnings.at(-1) ?? '', /trust the workspace/);
  });

  it('starts `advertest lsp` once trust is granted, beside the server commands', async () => {
    world.isTrusted = true;
    fire('trust', undefined);
    await flush();
    assert.equal(recorded.clients.length, 1);
    const client = recorded.clients[0];
    assert.ok(client.started);
    assert.equal(client.serverOptions.command, binary);
    assert.deepEqual(client.serverOptions.args, ['lsp']);
    assert.deepEqual(client.clientOptions.documentSelector, [{ scheme: 'file', language: 'java' }]);
    assert.deepEqual(client.clientOptions.initializationOptions, { rounds: 3 });
    // The server's ids are registered by the language client, ours beside them.
    assert.ok(recorded.commands.has('advertest.generateTests'));
    assert.ok(recorded.commands.has('advertest.client.generateTests'));
  });

  it('sends the method command for the cursor position', async () => {
    await recorded.commands.get('advertest.client.generateTests')!();
    const client = recorded.clients[0];
    assert.deepEqual(client.requests.at(-1), {
      type: { method: 'workspace/executeCommand' },
      params: { command: 'advertest.generateTests', arguments: [{ uri: 'file:///ws/A.java', position: { line: 3, character: 2 } }] },
    });
    world.sendRequestError = new Error('advertest.analyzeMutants: no method or constructor at 0:0');
    await recorded.commands.get('advertest.client.analyzeMutants')!();
    world.sendRequestError = undefined;
    assert.match(recorded.errors.at(-1) ?? '', /^AdverTest: advertest\.analyzeMutants: no method/);
  });

  it('answers workspace/configuration for "advertest" with the nested settings', async () => {
    world.settings = { path: binary, rounds: 3, 'llm.model': 'm', 'llm.baseURL': '' };
    const client = recorded.clients[0];
    const got = await client.clientOptions.middleware.workspace.configuration(
      { items: [{ section: 'advertest' }, { section: 'java.home' }] },
      undefined,
      () => Promise.resolve([{ raw: true }, '/jdk']),
    );
    assert.deepEqual(got, [{ rounds: 3, llm: { model: 'm' } }, '/jdk']);
  });

  it('pushes changed settings and restarts for a new binary path', async () => {
    const client = recorded.clients[0];
    fire('configuration', { affectsConfiguration: (s: string) => s === 'advertest' || s === 'advertest.rounds' });
    assert.deepEqual(client.notifications.at(-1), {
      method: 'workspace/didChangeConfiguration',
      params: { settings: { advertest: { rounds: 3, llm: { model: 'm' } } } },
    });
    fire('configuration', { affectsConfiguration: (s: string) => s === 'advertest' || s === 'advertest.path' });
    await flush();
    await flush();
    assert.ok(client.stopped);
    assert.equal(recorded.clients.length, 2);
    assert.ok(recorded.clients[1].started);
  });

  it('shows surviving mutants, then the last mutation score, in the status bar', () => {
    world.diagnostics = [
      { source: 'advertest', code: 'm1', severity: 1 },
      { source: 'advertest', code: 'm2', severity: 3 },
    ];
    fire('diagnostics', {});
    assert.equal(recorded.statusItem.text, '$(beaker) 2 mutants survive');
    assert.match(recorded.statusItem.tooltip, /1 probably equivalent, shown as hints/);
    assert.ok(recorded.statusItem.visible);
    const client = recorded.clients[1];
    client.notificationHandlers.get('advertest/jobEnded')!({ job: 'job-1', status: 'done', target: { method: 'clamp' }, mutationScore: 0.5 });
    assert.equal(recorded.statusItem.text, '$(beaker) clamp: 50%');
  });

  it('shows an ignored mutant again by its id, from the palette', async () => {
    const client = recorded.clients[1];
    world.activeEditor = { document: { uri: FakeUri.file('/ws/A.java'), languageId: 'java' }, selection: { active: { line: 3, character: 2 } } };
    world.inputBoxValue = 'not an id';
    const before = client.requests.length;
    await recorded.commands.get('advertest.client.unignoreMutant')!();
    assert.equal(client.requests.length, before, 'no request for a value that is not a mutant id');
    assert.match(recorded.inputBoxes.at(-1) ?? '', /a mutant id/);
    world.inputBoxValue = 'm0123456789ab';
    world.sendRequestResult = { mutant: 'm0123456789ab', status: 'survived', changed: true, mutationScore: 0.5 };
    await recorded.commands.get('advertest.client.unignoreMutant')!();
    world.sendRequestResult = { job: 'job-1' };
    assert.deepEqual(client.requests.at(-1), {
      type: { method: 'workspace/executeCommand' },
      params: { command: 'advertest.unignoreMutant', arguments: [{ uri: 'file:///ws/A.java', mutant: 'm0123456789ab' }] },
    });
    assert.deepEqual(recorded.infos.splice(0), ['AdverTest: m0123456789ab is shown again []']);
  });

  it("follows the server's progress and still lets the client show it", () => {
    const progress = recorded.clients[1].clientOptions.middleware.handleWorkDoneProgress;
    const forwarded: unknown[] = [];
    const next = (_token: string, params: unknown) => forwarded.push(params);
    progress('advertest/job/2', { kind: 'begin', title: 'AdverTest: `total`', message: 'loading the project', percentage: 0 }, next);
    assert.equal(recorded.statusItem.text, '$(sync~spin) total 0%');
    progress('advertest/job/2', { kind: 'report', message: 'evaluating 7/14', percentage: 75 }, next);
    assert.equal(recorded.statusItem.text, '$(sync~spin) total 75%');
    assert.match(recorded.statusItem.tooltip, /AdverTest: `total`: evaluating 7\/14/);
    progress('advertest/job/2', { kind: 'end', message: 'score 62% · 9 of 24 mutants survive' }, next);
    assert.equal(recorded.statusItem.text, '$(beaker) total: 62%');
    assert.equal(forwarded.length, 3);
  });

  it('names the generated test file the server created, and opens it on request', async () => {
    world.infoChoice = 'Open';
    fire('createFiles', { files: [FakeUri.file('/ws/src/test/java/org/acme/PriceCalculatorAdverTest.java'), FakeUri.file('/ws/Other.java')] });
    await flush();
    assert.deepEqual(recorded.infos, ['AdverTest: generated tests in src/test/java/org/acme/PriceCalculatorAdverTest.java (unsaved) [Open|Save]']);
    assert.deepEqual(recorded.shown, ['/ws/src/test/java/org/acme/PriceCalculatorAdverTest.java']);
  });

  it('stops the server on deactivate', async () => {
    await extension.deactivate();
    assert.ok(recorded.clients[1].stopped);
  });
});
