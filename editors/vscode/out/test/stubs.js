"use strict";
// Stand-ins for the `vscode` module and vscode-languageclient/node, which
// need a running VS Code. Installed into Node's module loader before the
// extension is required, they record what the extension asks of VS Code.
Object.defineProperty(exports, "__esModule", { value: true });
exports.ExecuteCommandRequest = exports.FakeLanguageClient = exports.FakeUri = exports.world = exports.recorded = void 0;
exports.fire = fire;
const Module = require("node:module");
exports.recorded = {
    commands: new Map(),
    errors: [],
    warnings: [],
    clients: [],
    statusItem: { text: '', tooltip: '', visible: false },
    listeners: new Map(),
};
/** What the tests change between cases. */
exports.world = {
    isTrusted: false,
    settings: {},
    activeEditor: undefined,
    diagnostics: [],
    workspaceFolder: '/ws',
    sendRequestResult: { job: 'job-1' },
    sendRequestError: undefined,
};
class FakeUri {
    fsPath;
    constructor(fsPath) {
        this.fsPath = fsPath;
    }
    toString() {
        return `file://${this.fsPath}`;
    }
    static file(p) {
        return new FakeUri(p);
    }
    static parse(s) {
        return new FakeUri(s.replace(/^file:\/\//, ''));
    }
}
exports.FakeUri = FakeUri;
function event(name) {
    return (listener) => {
        const list = exports.recorded.listeners.get(name) ?? [];
        list.push(listener);
        exports.recorded.listeners.set(name, list);
        return { dispose: () => undefined };
    };
}
function fire(name, e) {
    for (const l of exports.recorded.listeners.get(name) ?? []) {
        l(e);
    }
}
const vscodeStub = {
    StatusBarAlignment: { Left: 1, Right: 2 },
    Uri: FakeUri,
    window: {
        createOutputChannel: () => ({ appendLine: () => undefined, show: () => undefined, dispose: () => undefined }),
        createStatusBarItem: () => {
            const item = exports.recorded.statusItem;
            return Object.assign(item, {
                command: '',
                show: () => {
                    item.visible = true;
                },
                hide: () => {
                    item.visible = false;
                },
                dispose: () => undefined,
            });
        },
        showErrorMessage: (m) => {
            exports.recorded.errors.push(m);
            return Promise.resolve(undefined);
        },
        showWarningMessage: (m) => {
            exports.recorded.warnings.push(m);
            return Promise.resolve(undefined);
        },
        get activeTextEditor() {
            return exports.world.activeEditor;
        },
        onDidChangeActiveTextEditor: event('activeEditor'),
    },
    workspace: {
        get isTrusted() {
            return exports.world.isTrusted;
        },
        get workspaceFolders() {
            return [{ uri: FakeUri.file(exports.world.workspaceFolder) }];
        },
        getConfiguration: (section) => {
            assert(section === 'advertest', `getConfiguration(${section})`);
            return { get: (key) => exports.world.settings[key] };
        },
        onDidChangeConfiguration: event('configuration'),
        onDidGrantWorkspaceTrust: event('trust'),
    },
    languages: {
        getDiagnostics: () => exports.world.diagnostics,
        onDidChangeDiagnostics: event('diagnostics'),
    },
    commands: {
        registerCommand: (id, fn) => {
            if (exports.recorded.commands.has(id)) {
                throw new Error(`command '${id}' already exists`);
            }
            exports.recorded.commands.set(id, fn);
            return { dispose: () => exports.recorded.commands.delete(id) };
        },
    },
};
function assert(ok, what) {
    if (!ok) {
        throw new Error(`unexpected call: ${what}`);
    }
}
class FakeLanguageClient {
    id;
    name;
    serverOptions;
    clientOptions;
    started = false;
    stopped = false;
    requests = [];
    notificationHandlers = new Map();
    notifications = [];
    code2ProtocolConverter = { asUri: (u) => u.toString() };
    constructor(id, name, serverOptions, clientOptions) {
        this.id = id;
        this.name = name;
        this.serverOptions = serverOptions;
        this.clientOptions = clientOptions;
        exports.recorded.clients.push(this);
    }
    start() {
        this.started = true;
        // vscode-languageclient registers the server's commands itself.
        for (const id of ['advertest.generateTests', 'advertest.analyzeMutants']) {
            vscodeStub.commands.registerCommand(id, () => undefined);
        }
        return Promise.resolve();
    }
    stop() {
        this.stopped = true;
        exports.recorded.commands.delete('advertest.generateTests');
        exports.recorded.commands.delete('advertest.analyzeMutants');
        return Promise.resolve();
    }
    onNotification(method, handler) {
        this.notificationHandlers.set(method, handler);
        return { dispose: () => this.notificationHandlers.delete(method) };
    }
    sendNotification(method, params) {
        this.notifications.push({ method, params });
        return Promise.resolve();
    }
    sendRequest(type, params) {
        this.requests.push({ type, params });
        return exports.world.sendRequestError ? Promise.reject(exports.world.sendRequestError) : Promise.resolve(exports.world.sendRequestResult);
    }
}
exports.FakeLanguageClient = FakeLanguageClient;
exports.ExecuteCommandRequest = { type: { method: 'workspace/executeCommand' } };
const languageClientStub = { LanguageClient: FakeLanguageClient, ExecuteCommandRequest: exports.ExecuteCommandRequest };
const moduleWithLoad = Module;
const originalLoad = moduleWithLoad._load;
moduleWithLoad._load = function (request, parent, isMain) {
    if (request === 'vscode') {
        return vscodeStub;
    }
    if (request === 'vscode-languageclient/node') {
        return languageClientStub;
    }
    return originalLoad.call(this, request, parent, isMain);
};
//# sourceMappingURL=stubs.js.map