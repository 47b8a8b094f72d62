"use strict";
// The AdverTest extension: starts `advertest lsp` for Java files, adds the
// palette commands for the method at the cursor, and a status-bar item with
// the last mutation score. Progress ($/progress), diagnostics and
// workspace/applyEdit are shown by vscode-languageclient itself.
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
exports.activate = activate;
exports.deactivate = deactivate;
const vscode = __importStar(require("vscode"));
const node_1 = require("vscode-languageclient/node");
const binary_1 = require("./binary");
const commands_1 = require("./commands");
const settings_1 = require("./settings");
const status_1 = require("./status");
/** One activation's state; everything is disposed on deactivate. */
class Extension {
    client;
    starting;
    lastJob;
    output;
    status;
    disposables = [];
    constructor() {
        this.output = vscode.window.createOutputChannel('AdverTest');
        this.status = vscode.window.createStatusBarItem(vscode.StatusBarAlignment.Left, 10);
        this.status.command = commands_1.CLIENT_COMMANDS.showOutput;
        this.disposables.push(this.output, this.status);
    }
    activate(context) {
        this.disposables.push(vscode.commands.registerCommand(commands_1.CLIENT_COMMANDS.generateTests, () => this.runMethodCommand(commands_1.SERVER_COMMANDS.generateTests)), vscode.commands.registerCommand(commands_1.CLIENT_COMMANDS.analyzeMutants, () => this.runMethodCommand(commands_1.SERVER_COMMANDS.analyzeMutants)), vscode.commands.registerCommand(commands_1.CLIENT_COMMANDS.restartServer, () => this.restart()), vscode.commands.registerCommand(commands_1.CLIENT_COMMANDS.showOutput, () => this.output.show(true)), vscode.workspace.onDidChangeConfiguration((e) => this.configurationChanged(e)), vscode.workspace.onDidGrantWorkspaceTrust(() => void this.start()), vscode.languages.onDidChangeDiagnostics(() => this.updateStatus()), vscode.window.onDidChangeActiveTextEditor(() => this.updateStatus()));
        context.subscriptions.push(this);
        this.updateStatus();
        void this.start();
    }
    /** Starts the client once; undefined when it cannot run (untrusted, no binary). */
    start() {
        if (this.client !== undefined) {
            return Promise.resolve(this.client);
        }
        if (!vscode.workspace.isTrusted) {
            // Generated tests and the project's build are code that runs.
            return Promise.resolve(undefined);
        }
        if (this.starting === undefined) {
            this.starting = this.startClient().finally(() => {
                this.starting = undefined;
            });
        }
        return this.starting;
    }
    async startClient() {
        const config = vscode.workspace.getConfiguration(settings_1.SECTION);
        const folder = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
        let command;
        try {
            command = (0, binary_1.resolveServerBinary)(config.get('path'), (0, binary_1.hostEnvironment)(folder));
        }
        catch (err) {
            if (err instanceof binary_1.BinaryNotFoundError) {
                void vscode.window.showErrorMessage(`AdverTest: ${err.message}`);
                return undefined;
            }
            throw err;
        }
        const serverOptions = { command, args: (0, settings_1.serverArgs)(config), options: { cwd: folder } };
        const clientOptions = {
            documentSelector: [{ scheme: 'file', language: 'java' }],
            initializationOptions: (0, settings_1.toServerSettings)(config),
            outputChannel: this.output,
            middleware: {
                workspace: {
                    // Answer the section "advertest" with the nested settings object
                    // (unset values left out), not VS Code's raw view of it.
                    configuration: async (params, token, next) => {
                        const result = await next(params, token);
                        if (!Array.isArray(result)) {
                            return result;
                        }
                        return params.items.map((item, i) => item.section === settings_1.SECTION
                            ? (0, settings_1.toServerSettings)(vscode.workspace.getConfiguration(settings_1.SECTION, item.scopeUri ? vscode.Uri.parse(item.scopeUri) : undefined))
                            : result[i]);
                    },
                },
            },
        };
        const client = new node_1.LanguageClient('advertest', 'AdverTest', serverOptions, clientOptions);
        this.disposables.push(client.onNotification(commands_1.JOB_ENDED_NOTIFICATION, (params) => {
            this.lastJob = params;
            this.updateStatus();
        }));
        try {
            await client.start();
        }
        catch (err) {
            void vscode.window.showErrorMessage(`AdverTest: the server did not start (${command}): ${String(err)}`);
            return undefined;
        }
        this.client = client;
        return client;
    }
    async restart() {
        const client = this.client;
        this.client = undefined;
        if (client !== undefined) {
            await client.stop();
        }
        await this.start();
    }
    /** Sends a method command for the position of the cursor. */
    async runMethodCommand(command) {
        const editor = vscode.window.activeTextEditor;
        if (editor === undefined || editor.document.languageId !== 'java') {
            void vscode.window.showWarningMessage('AdverTest: put the cursor in a method of a Java file.');
            return;
        }
        if (!vscode.workspace.isTrusted) {
            void vscode.window.showWarningMessage('AdverTest runs code of the workspace: trust the workspace first.');
            return;
        }
        const client = await this.start();
        if (client === undefined) {
            return;
        }
        const position = editor.selection.active;
        const arg = (0, commands_1.methodArgument)(client.code2ProtocolConverter.asUri(editor.document.uri), position.line, position.character);
        try {
            const result = await client.sendRequest(node_1.ExecuteCommandRequest.type, { command, arguments: [arg] });
            const job = (0, commands_1.jobOf)(result);
            this.output.appendLine(`${command} at ${arg.uri}:${arg.position.line + 1}: ${job !== undefined ? `job ${job}` : JSON.stringify(result)}`);
        }
        catch (err) {
            const message = err instanceof Error ? err.message : String(err);
            void vscode.window.showErrorMessage(`AdverTest: ${message}`);
        }
    }
    configurationChanged(e) {
        if (!e.affectsConfiguration(settings_1.SECTION)) {
            return;
        }
        if ((0, settings_1.needsRestart)((s) => e.affectsConfiguration(s))) {
            void this.restart();
            return;
        }
        // The server pulls the section (workspace/configuration) on this notification.
        void this.client?.sendNotification('workspace/didChangeConfiguration', {
            settings: { [settings_1.SECTION]: (0, settings_1.toServerSettings)(vscode.workspace.getConfiguration(settings_1.SECTION)) },
        });
    }
    updateStatus() {
        const editor = vscode.window.activeTextEditor;
        const survivors = editor !== undefined ? (0, status_1.countSurvivors)(vscode.languages.getDiagnostics(editor.document.uri)) : undefined;
        const { text, tooltip } = (0, status_1.statusText)(this.lastJob, survivors);
        this.status.text = text;
        this.status.tooltip = tooltip;
        if (editor?.document.languageId === 'java' || this.lastJob !== undefined) {
            this.status.show();
        }
        else {
            this.status.hide();
        }
    }
    async stop() {
        const client = this.client;
        this.client = undefined;
        if (client !== undefined) {
            await client.stop();
        }
    }
    dispose() {
        for (const d of this.disposables.splice(0)) {
            d.dispose();
        }
    }
}
let current;
function activate(context) {
    current = new Extension();
    current.activate(context);
}
async function deactivate() {
    const ext = current;
    current = undefined;
    await ext?.stop();
}
//# sourceMappingURL=extension.js.map