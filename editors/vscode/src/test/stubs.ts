// Stand-ins for the `vscode` module and vscode-languageclient/node, which
// need a running VS Code. Installed into Node's module loader before the
// extension is required, they record what the extension asks of VS Code.

import Module from 'node:module';

export interface Recorded {
  commands: Map<string, (...args: unknown[]) => unknown>;
  errors: string[];
  warnings: string[];
  infos: string[];
  shown: string[];
  /** What each input box's validation said of the value typed ('valid' when nothing). */
  inputBoxes: string[];
  clients: FakeLanguageClient[];
  statusItem: { text: string; tooltip: string; visible: boolean };
  listeners: Map<string, ((e: unknown) => void)[]>;
}

export const recorded: Recorded = {
  commands: new Map(),
  errors: [],
  warnings: [],
  infos: [],
  shown: [],
  inputBoxes: [],
  clients: [],
  statusItem: { text: '', tooltip: '', visible: false },
  listeners: new Map(),
};

/** What the tests change between cases. */
export const world = {
  isTrusted: false,
  settings: {} as Record<string, unknown>,
  activeEditor: undefined as undefined | { document: { uri: FakeUri; languageId: string }; selection: { active: { line: number; character: number } } },
  diagnostics: [] as { source?: string; code?: string; severity?: number }[],
  workspaceFolder: '/ws',
  sendRequestResult: { job: 'job-1' } as unknown,
  sendRequestError: undefined as Error | undefined,
  infoChoice: undefined as string | undefined,
  inputBoxValue: undefined as string | undefined,
  };

/** The server's commands, as vscode-languageclient registers them from executeCommandProvider. */
const SERVER_COMMAND_IDS = [
  'advertest.generateTests',
  'advertest.analyzeMutants',
  'advertest.killMutant',
  'advertest.cancel',
  'advertest.markEquivalent',
  'advertest.ignoreMutant',
  'advertest.unignoreMutant',
];

class FakeUri {
  constructor(readonly fsPath: string) {}
  get path(): string {
    return this.fsPath;
  }
  toString(): string {
    return `file://${this.fsPath}`;
  }
  static file(p: string): FakeUri {
    return new FakeUri(p);
  }
  static parse(s: string): FakeUri {
    return new FakeUri(s.replace(/^file:\/\//, ''));
  }
}
export { FakeUri };

function event(name: string) {
  return (listener: (e: unknown) => void) => {
    const list = recorded.listeners.get(name) ?? [];
    list.push(listener);
    recorded.listeners.set(name, list);
    return { dispose: () => undefined };
  };
}

export function fire(name: string, e: unknown): void {
  for (const l of recorded.listeners.get(name) ?? []) {
    l(e);
  }
}

const vscodeStub = {
  StatusBarAlignment: { Left: 1, Right: 2 },
  Uri: FakeUri,
  window: {
    createOutputChannel: () => ({ appendLine: () => undefined, show: () => undefined, dispose: () => undefined }),
    createStatusBarItem: () => {
      const item = recorded.statusItem;
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
    showErrorMessage: (m: string) => {
      recorded.errors.push(m);
      return Promise.resolve(undefined);
    },
    showWarningMessage: (m: string) => {
      recorded.warnings.push(m);
      return Promise.resolve(undefined);
    },
    showInformationMessage: (m: string, ...items: string[]) => {
      recorded.infos.push(`${m} [${items.join('|')}]`);
      return Promise.resolve(world.infoChoice);
    },
    showInputBox: (options: { validateInput?: (v: string) => string | undefined }) => {
      recorded.inputBoxes.push(options.validateInput?.(world.inputBoxValue ?? '') ?? 'valid');
      return Promise.resolve(world.inputBoxValue);
    },
    showTextDocument: (uri: FakeUri) => {
      recorded.shown.push(uri.fsPath);
      return Promise.resolve(undefined);
    },
    get activeTextEditor() {
      return world.activeEditor;
    },
    onDidChangeActiveTextEditor: event('activeEditor'),
  },
  workspace: {
    get isTrusted() {
      return world.isTrusted;
    },
    get workspaceFolders() {
      return [{ uri: FakeUri.file(world.workspaceFolder) }];
    },
    getConfiguration: (section: string) => {
      assert(section === 'advertest', `getConfiguration(${section})`);
      return { get: (key: string) => world.settings[key] };
    },
    onDidChangeConfiguration: event('configuration'),
    onDidCreateFiles: event('createFiles'),
    asRelativePath: (uri: FakeUri) => uri.fsPath.replace(/^\/ws\//, ''),
    onDidGrantWorkspaceTrust: event('trust'),
  },
  languages: {
    getDiagnostics: () => world.diagnostics,
    onDidChangeDiagnostics: event('diagnostics'),
  },
  commands: {
    registerCommand: (id: string, fn: (...args: unknown[]) => unknown) => {
      if (recorded.commands.has(id)) {
        throw new Error(`command '${id}' already exists`);
      }
      recorded.commands.set(id, fn);
      return { dispose: () => recorded.commands.delete(id) };
    },
  },
};

function assert(ok: boolean, what: string): void {
  if (!ok) {
    throw new Error(`unexpected call: ${what}`);
  }
}

export class FakeLanguageClient {
  started = false;
  stopped = false;
  requests: { type: unknown; params: unknown }[] = [];
  notificationHandlers = new Map<string, (p: unknown) => void>();
  notifications: { method: string; params: unknown }[] = [];
  code2ProtocolConverter = { asUri: (u: FakeUri) => u.toString() };

  constructor(
    readonly id: string,
    readonly name: string,
    readonly serverOptions: { command: string; args: string[] },
    readonly clientOptions: {
      documentSelector: unknown;
      initializationOptions: unknown;
      middleware: {
        workspace: { configuration: (params: unknown, token: unknown, next: unknown) => Promise<unknown> };
        handleWorkDoneProgress: (token: string, params: unknown, next: (token: string, params: unknown) => void) => void;
      };
    },
  ) {
    recorded.clients.push(this);
  }
  start(): Promise<void> {
    this.started = true;
    // vscode-languageclient registers the server's commands itself.
    for (const id of SERVER_COMMAND_IDS) {
      vscodeStub.commands.registerCommand(id, () => undefined);
    }
    return Promise.resolve();
  }
  stop(): Promise<void> {
    this.stopped = true;
    for (const id of SERVER_COMMAND_IDS) {
      recorded.commands.delete(id);
    }
    return Promise.resolve();
  }
  onNotification(method: string, handler: (p: unknown) => void) {
    this.notificationHandlers.set(method, handler);
    return { dispose: () => this.notificationHandlers.delete(method) };
  }
  sendNotification(method: string, params: unknown): Promise<void> {
    this.notifications.push({ method, params });
    return Promise.resolve();
  }
  sendRequest(type: unknown, params: unknown): Promise<unknown> {
    this.requests.push({ type, params });
    return world.sendRequestError ? Promise.reject(world.sendRequestError) : Promise.resolve(world.sendRequestResult);
  }
}

export const ExecuteCommandRequest = { type: { method: 'workspace/executeCommand' } };

export class ResponseError extends Error {}

const languageClientStub = { LanguageClient: FakeLanguageClient, ExecuteCommandRequest, ResponseError };

type Loader = (request: string, parent: unknown, isMain: boolean) => unknown;
const moduleWithLoad = Module as unknown as { _load: Loader };
const originalLoad = moduleWithLoad._load;
moduleWithLoad._load = function (request: string, parent: unknown, isMain: boolean): unknown {
  if (request === 'vscode') {
    return vscodeStub;
  }
  if (request === 'vscode-languageclient/node') {
    return languageClientStub;
  }
  return originalLoad.call(this, request, parent, isMain);
};
