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
  unignoreMutant: 'advertest.client.unignoreMutant',
} as const;

/** The server's workspace/executeCommand ids (docs/contracts.md, "Commands"). */
export const SERVER_COMMANDS = {
  generateTests: 'advertest.generateTests',
  analyzeMutants: 'advertest.analyzeMutants',
  // The user's verdicts on a surviving mutant; the server offers the first two as quick
  // fixes on a mutant's diagnostic, and the third on an ignored mutant's line.
  markEquivalent: 'advertest.markEquivalent',
  ignoreMutant: 'advertest.ignoreMutant',
  unignoreMutant: 'advertest.unignoreMutant',
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

/** The argument of the server's mutant commands: the document and the mutant's id. */
export interface MutantArgument {
  uri: string;
  mutant: string;
}

/** A mutant id as the server writes them ("m" and 12 hex digits, "-K" for a repeated line), trimmed; undefined when it is not one. */
export function mutantId(text: string | undefined): string | undefined {
  const id = (text ?? '').trim();
  return /^m[0-9a-f]{12}(-\d+)?$/.test(id) ? id : undefined;
}
