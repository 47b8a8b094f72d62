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
const os = __importStar(require("node:os"));
const path = __importStar(require("node:path"));
const node_test_1 = require("node:test");
const stubs_1 = require("./stubs");
// After the stubs: the extension's imports of vscode resolve to them.
const extension = __importStar(require("../extension"));
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'advertest-ext-'));
const binary = path.join(dir, 'advertest');
fs.writeFileSync(binary, '#!/bin/sh\n');
fs.chmodSync(binary, 0o755);
(0, node_test_1.after)(() => fs.rmSync(dir, { recursive: true, force: true }));
const context = { subscriptions: [] };
function flush() {
    return new Promise((resolve) => setImmediate(resolve));
}
(0, node_test_1.describe)('the extension with vscode stubbed', () => {
    (0, node_test_1.it)('starts nothing in an untrusted workspace, but registers its own commands', async () => {
        stubs_1.world.isTrusted = false;
        stubs_1.world.settings = { path: binary, rounds: 3 };
        extension.activate(context);
        await flush();
        assert.equal(stubs_1.recorded.clients.length, 0);
        for (const id of ['advertest.client.generateTests', 'advertest.client.analyzeMutants']) {
            assert.ok(stubs_1.recorded.commands.has(id), id);
        }
        stubs_1.world.activeEditor = { document: { uri: stubs_1.FakeUri.file('/ws/A.java'), languageId: 'java' }, selection: { active: { line: 3, character: 2 } } };
        await stubs_1.recorded.commands.get('advertest.client.analyzeMutants')();
        assert.equal(stubs_1.recorded.clients.length, 0);
        assert.match(stubs_1.recorded.warnings.at(-1) ?? '', /trust the workspace/);
    });
    (0, node_test_1.it)('starts `advertest lsp` once trust is granted, beside the server commands', async () => {
        stubs_1.world.isTrusted = true;
        (0, stubs_1.fire)('trust', undefined);
        await flush();
        assert.equal(stubs_1.recorded.clients.length, 1);
        const client = stubs_1.recorded.clients[0];
        assert.ok(client.started);
        assert.equal(client.serverOptions.command, binary);
        assert.deepEqual(client.serverOptions.args, ['lsp']);
        assert.deepEqual(client.clientOptions.documentSelector, [{ scheme: 'file', language: 'java' }]);
        assert.deepEqual(client.clientOptions.initializationOptions, { rounds: 3 });
        // The server's ids are registered by the language client, ours beside them.
        assert.ok(stubs_1.recorded.commands.has('advertest.generateTests'));
        assert.ok(stubs_1.recorded.commands.has('advertest.client.generateTests'));
    });
    (0, node_test_1.it)('sends the method command for the cursor position', async () => {
        await stubs_1.recorded.commands.get('advertest.client.generateTests')();
        const client = stubs_1.recorded.clients[0];
        assert.deepEqual(client.requests.at(-1), {
            type: { method: 'workspace/executeCommand' },
            params: { command: 'advertest.generateTests', arguments: [{ uri: 'file:///ws/A.java', position: { line: 3, character: 2 } }] },
        });
        stubs_1.world.sendRequestError = new Error('advertest.analyzeMutants: no method or constructor at 0:0');
        await stubs_1.recorded.commands.get('advertest.client.analyzeMutants')();
        stubs_1.world.sendRequestError = undefined;
        assert.match(stubs_1.recorded.errors.at(-1) ?? '', /^AdverTest: advertest\.analyzeMutants: no method/);
    });
    (0, node_test_1.it)('answers workspace/configuration for "advertest" with the nested settings', async () => {
        stubs_1.world.settings = { path: binary, rounds: 3, 'llm.model': 'm', 'llm.baseURL': '' };
        const client = stubs_1.recorded.clients[0];
        const got = await client.clientOptions.middleware.workspace.configuration({ items: [{ section: 'advertest' }, { section: 'java.home' }] }, undefined, () => Promise.resolve([{ raw: true }, '/jdk']));
        assert.deepEqual(got, [{ rounds: 3, llm: { model: 'm' } }, '/jdk']);
    });
    (0, node_test_1.it)('pushes changed settings and restarts for a new binary path', async () => {
        const client = stubs_1.recorded.clients[0];
        (0, stubs_1.fire)('configuration', { affectsConfiguration: (s) => s === 'advertest' || s === 'advertest.rounds' });
        assert.deepEqual(client.notifications.at(-1), {
            method: 'workspace/didChangeConfiguration',
            params: { settings: { advertest: { rounds: 3, llm: { model: 'm' } } } },
        });
        (0, stubs_1.fire)('configuration', { affectsConfiguration: (s) => s === 'advertest' || s === 'advertest.path' });
        await flush();
        await flush();
        assert.ok(client.stopped);
        assert.equal(stubs_1.recorded.clients.length, 2);
        assert.ok(stubs_1.recorded.clients[1].started);
    });
    (0, node_test_1.it)('shows surviving mutants, then the last mutation score, in the status bar', () => {
        stubs_1.world.diagnostics = [
            { source: 'advertest', code: 'm1' },
            { source: 'advertest', code: 'm2' },
        ];
        (0, stubs_1.fire)('diagnostics', {});
        assert.equal(stubs_1.recorded.statusItem.text, '$(beaker) 2 mutants survive');
        assert.ok(stubs_1.recorded.statusItem.visible);
        const client = stubs_1.recorded.clients[1];
        client.notificationHandlers.get('advertest/jobEnded')({ job: 'job-1', status: 'done', target: { method: 'clamp' }, mutationScore: 0.5 });
        assert.equal(stubs_1.recorded.statusItem.text, '$(beaker) clamp: 50%');
    });
    (0, node_test_1.it)('stops the server on deactivate', async () => {
        await extension.deactivate();
        assert.ok(stubs_1.recorded.clients[1].stopped);
    });
});
//# sourceMappingURL=extension.test.js.map