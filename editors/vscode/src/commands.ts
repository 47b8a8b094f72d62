// The palette commands and the server commands they send. Pure: no
// `vscode` import.

/**
 * The extension's own command ids. They differ from the server's, because
 * vscode-languageclient registers the server's executeCommandProvider ids in
 * VS Code itself and a second registration would fail.
 */
export const CLIENT_COMMANDS = {
  generateTests: 'advertest.client.generateTests',
  analyzeMutants: 'advertest.client.analyzeMutants',
  restartServer: 'advertest.client.restartServer',
  showOutput: 'advertest.client.showOutput',
} as const;

/** The server's workspace/executeCommand ids (docs/contracts.md, "Commands"). */
export const SERVER_COMMANDS = {
  generateTests: 'advertest.generateTests',
  analyzeMutants: 'advertest.analyzeMutants',
} as const;

/** The server's notification at the end of a job (requested; see README). */
export const JOB_ENDED_NOTIFICATION = 'advertest/jobEnded';

/** The argument of the server's method commands: an LSP position, 0-based. */
export interface MethodArgument {
  uri: string;
  position: { line: number; character: number };
}

export function methodArgument(uri: string, line: number, character: number): MethodArgument {
  return { uri, position: { line, character } };
}

/** The job id in a method command's answer ({"job": "ID"}), if any. */
export function jobOf(result: unknown): string | undefined {
  if (typeof result === 'object' && result !== null && 'job' in result) {
    const job = result.job;
    if (typeof job === 'string' || typeof job === 'number') {
      return String(job);
    }
  }
  return undefined;
}

/** Whether a path is a suite the server generates: <Class>AdverTest.java (docs/contracts.md, "Test files"). */
export function isGeneratedTestFile(path: string): boolean {
  return /[^/\\]AdverTest\.java$/.test(path);
}
