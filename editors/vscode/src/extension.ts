// The AdverTest extension: starts `advertest lsp` for Java files, adds the
// palette commands for the method at the cursor, and a status-bar item with
// the last mutation score. Progress ($/progress), diagnostics and
// workspace/applyEdit are shown by vscode-languageclient itself.

import * as vscode from 'vscode';
import {
  ExecuteCommandRequest,
  LanguageClient,
  ResponseError,
  type LanguageClientOptions,
  type ServerOptions,
} from 'vscode-languageclient/node';

import { BinaryNotFoundError, hostEnvironment, resolveServerBinary } from './binary';
import { CLIENT_COMMANDS, JOB_ENDED_NOTIFICATION, SERVER_COMMANDS, isGeneratedTestFile, jobOf, methodArgument, mutantId } from './commands';
import { SECTION, needsRestart, serverArgs, toServerSettings } from './settings';
import { type JobEnded, type ProgressValue, type StatusText, countSurvivors, progressStatus, statusText } from './status';

/** One activation's state; everything is disposed on deactivate. */
class Extension implements vscode.Disposable {
  private client: LanguageClient | undefined;
  private starting: Promise<LanguageClient | undefined> | undefined;
  /** The latest result shown: from advertest/jobEnded or a progress end, whichever came last. */
  private lastResult: StatusText | undefined;
  /** Running jobs' progress by token, the newest last. */
  private readonly running = new Map<string, StatusText>();
  private readonly progressTitles = new Map<string, string>();
  private readonly output: vscode.OutputChannel;
  private readonly status: vscode.StatusBarItem;
  private readonly disposables: vscode.Disposable[] = [];

  constructor() {
    this.output = vscode.window.createOutputChannel('AdverTest');
    this.status = vscode.window.createStatusBarItem(vscode.StatusBarAlignment.Left, 10);
    this.status.command = CLIENT_COMMANDS.showOutput;
    this.disposables.push(this.output, this.status);
  }

  activate(context: vscode.ExtensionContext): void {
    this.disposables.push(
      vscode.commands.registerCommand(CLIENT_COMMANDS.generateTests, () => this.runMethodCommand(SERVER_COMMANDS.generateTests)),
      vscode.commands.registerCommand(CLIENT_COMMANDS.analyzeMutants, () => this.runMethodCommand(SERVER_COMMANDS.analyzeMutants)),
      vscode.commands.registerCommand(CLIENT_COMMANDS.restartServer, () => this.restart()),
      vscode.commands.registerCommand(CLIENT_COMMANDS.showOutput, () => this.output.show(true)),
      vscode.commands.registerCommand(CLIENT_COMMANDS.unignoreMutant, () => this.unignoreMutant()),
      vscode.workspace.onDidChangeConfiguration((e) => this.configurationChanged(e)),
      vscode.workspace.onDidGrantWorkspaceTrust(() => void this.start()),
      vscode.languages.onDidChangeDiagnostics(() => this.updateStatus()),
      vscode.window.onDidChangeActiveTextEditor(() => this.updateStatus()),
      vscode.workspace.onDidCreateFiles((e) => this.filesCreated(e.files)),
    );
    context.subscriptions.push(this);
    this.updateStatus();
    void this.start();
  }

  /** Starts the client once; undefined when it cannot run (untrusted, no binary). */
  start(): Promise<LanguageClient | undefined> {
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

  private async startClient(): Promise<LanguageClient | undefined> {
    const config = vscode.workspace.getConfiguration(SECTION);
    const folder = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
    let command: string;
    try {
      command = resolveServerBinary(config.get<string>('path'), hostEnvironment(folder));
    } catch (err) {
      if (err instanceof BinaryNotFoundError) {
        void vscode.window.showErrorMessage(`AdverTest: ${err.message}`);
        return undefined;
      }
      throw err;
    }
    const serverOptions: ServerOptions = { command, args: serverArgs(config), options: { cwd: folder } };
    const clientOptions: LanguageClientOptions = {
      documentSelector: [{ scheme: 'file', language: 'java' }],
      initializationOptions: toServerSettings(config),
      outputChannel: this.output,
      middleware: {
        // The client shows the progress itself; the status bar follows it.
        handleWorkDoneProgress: (token, params, next) => {
          next(token, params);
          this.progress(String(token), params);
        },
        workspace: {
          // Answer the section "advertest" with the nested settings object
          // (unset values left out), not VS Code's raw view of it.
          configuration: async (params, token, next) => {
            const result: unknown[] | ResponseError = await next(params, token);
            if (result instanceof ResponseError) {
              return result;
            }
            const answers: unknown[] = result;
            return params.items.map((item, i): unknown =>
              item.section === SECTION
                ? toServerSettings(vscode.workspace.getConfiguration(SECTION, item.scopeUri ? vscode.Uri.parse(item.scopeUri) : undefined))
                : answers[i],
            );
          },
        },
      },
    };
    const client = new LanguageClient('advertest', 'AdverTest', serverOptions, clientOptions);
    this.disposables.push(
      client.onNotification(JOB_ENDED_NOTIFICATION, (params: JobEnded) => {
        this.lastResult = statusText(params, undefined);
        this.updateStatus();
      }),
    );
    try {
      await client.start();
    } catch (err) {
      void vscode.window.showErrorMessage(`AdverTest: the server did not start (${command}): ${String(err)}`);
      return undefined;
    }
    this.client = client;
    return client;
  }

  async restart(): Promise<void> {
    const client = this.client;
    this.client = undefined;
    if (client !== undefined) {
      await client.stop();
    }
    await this.start();
  }

  /** Sends a method command for the position of the cursor. */
  async runMethodCommand(command: string): Promise<void> {
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
    const arg = methodArgument(client.code2ProtocolConverter.asUri(editor.document.uri), position.line, position.character);
    try {
      const result: unknown = await client.sendRequest(ExecuteCommandRequest.type, { command, arguments: [arg] });
      const job = jobOf(result);
      this.output.appendLine(`${command} at ${arg.uri}:${arg.position.line + 1}: ${job !== undefined ? `job ${job}` : JSON.stringify(result)}`);
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      void vscode.window.showErrorMessage(`AdverTest: ${message}`);
    }
  }

  /**
   * Takes the user's mark off a mutant of the active file's module by its id (the
   * server's code action does it on the mutant's line; this is for a mutant whose id the
   * user has, from the hover or `advertest mutate --show-ignored`).
   */
  async unignoreMutant(): Promise<void> {
    const editor = vscode.window.activeTextEditor;
    if (editor === undefined || editor.document.languageId !== 'java') {
      void vscode.window.showWarningMessage("AdverTest: open a Java file of the mutant's module first.");
      return;
    }
    const typed = await vscode.window.showInputBox({
      title: 'AdverTest: show an ignored mutant again',
      prompt: "The mutant id (hover an ignored mutant's line, or run `advertest mutate --show-ignored`)",
      placeHolder: 'm0123456789ab',
      validateInput: (v: string) => (mutantId(v) === undefined ? 'a mutant id: m and 12 hex digits' : undefined),
    });
    const id = mutantId(typed);
    if (id === undefined) {
      return;
    }
    const client = await this.start();
    if (client === undefined) {
      return;
    }
    const arg = { uri: client.code2ProtocolConverter.asUri(editor.document.uri), mutant: id };
    try {
      const result: unknown = await client.sendRequest(ExecuteCommandRequest.type, { command: SERVER_COMMANDS.unignoreMutant, arguments: [arg] });
      const changed = typeof result === 'object' && result !== null && 'changed' in result && result.changed === true;
      void vscode.window.showInformationMessage(changed ? `AdverTest: ${id} is shown again` : `AdverTest: ${id} was not ignored`);
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      void vscode.window.showErrorMessage(`AdverTest: ${message}`);
    }
  }

  /**
   * The server's workspace edit creates the test file and leaves its text in
   * an unsaved editor buffer: say so, and offer to open or save it.
   */
  private filesCreated(files: readonly vscode.Uri[]): void {
    for (const uri of files.filter((f) => isGeneratedTestFile(f.path))) {
      const name = vscode.workspace.asRelativePath(uri);
      void vscode.window.showInformationMessage(`AdverTest: generated tests in ${name} (unsaved)`, 'Open', 'Save').then(async (choice) => {
        if (choice === 'Open') {
          await vscode.window.showTextDocument(uri);
        } else if (choice === 'Save') {
          const doc = await vscode.workspace.openTextDocument(uri);
          await doc.save();
        }
      });
    }
  }

  private configurationChanged(e: vscode.ConfigurationChangeEvent): void {
    if (!e.affectsConfiguration(SECTION)) {
      return;
    }
    if (needsRestart((s) => e.affectsConfiguration(s))) {
      void this.restart();
      return;
    }
    // The server pulls the section (workspace/configuration) on this notification.
    void this.client?.sendNotification('workspace/didChangeConfiguration', {
      settings: { [SECTION]: toServerSettings(vscode.workspace.getConfiguration(SECTION)) },
    });
  }

  private progress(token: string, value: ProgressValue): void {
    if (value.kind === 'begin' && value.title !== undefined) {
      this.progressTitles.set(token, value.title);
    }
    const shown = progressStatus(this.progressTitles.get(token), value);
    this.running.delete(token);
    if (value.kind === 'end') {
      this.progressTitles.delete(token);
      this.lastResult = shown;
    } else {
      this.running.set(token, shown);
    }
    this.updateStatus();
  }

  private updateStatus(): void {
    const editor = vscode.window.activeTextEditor;
    const survivors = editor !== undefined ? countSurvivors(vscode.languages.getDiagnostics(editor.document.uri)) : undefined;
    const newestRunning = [...this.running.values()].at(-1);
    const { text, tooltip } = newestRunning ?? this.lastResult ?? statusText(undefined, survivors);
    this.status.text = text;
    this.status.tooltip = tooltip;
    if (editor?.document.languageId === 'java' || this.lastResult !== undefined || newestRunning !== undefined) {
      this.status.show();
    } else {
      this.status.hide();
    }
  }

  async stop(): Promise<void> {
    const client = this.client;
    this.client = undefined;
    if (client !== undefined) {
      await client.stop();
    }
  }

  dispose(): void {
    for (const d of this.disposables.splice(0)) {
      d.dispose();
    }
  }
}

let current: Extension | undefined;

export function activate(context: vscode.ExtensionContext): void {
  current = new Extension();
  current.activate(context);
}

export async function deactivate(): Promise<void> {
  const ext = current;
  current = undefined;
  await ext?.stop();
}
