// Finds the `advertest` binary: the `advertest.path` setting, else the
// binary on PATH. Pure apart from file-system checks, so it is unit-tested
// without VS Code.

import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

/** What resolution needs from the environment; tests pass their own. */
export interface ResolveEnvironment {
  /** The PATH variable (the extension host's). */
  pathVariable: string | undefined;
  /** The first workspace folder, for relative paths and ${workspaceFolder}. */
  workspaceFolder?: string;
  /** process.platform. */
  platform: NodeJS.Platform;
  /** PATHEXT on Windows. */
  pathExt?: string;
  /** The home directory, for a leading ~. */
  home?: string;
}

/** The binary's name on PATH. */
export const BINARY_NAME = 'advertest';

/** Why no usable binary was found; the message is shown to the user. */
export class BinaryNotFoundError extends Error {}

/** The environment of this extension host. */
export function hostEnvironment(workspaceFolder?: string): ResolveEnvironment {
  return {
    pathVariable: process.env.PATH,
    workspaceFolder,
    platform: process.platform,
    pathExt: process.env.PATHEXT,
    home: os.homedir(),
  };
}

/**
 * Returns the absolute path of the binary to start. A configured path may
 * start with ~ or ${workspaceFolder}; a relative one is taken from the
 * workspace folder. Throws BinaryNotFoundError with a message saying what was
 * tried.
 */
export function resolveServerBinary(configured: string | undefined, env: ResolveEnvironment): string {
  const setting = (configured ?? '').trim();
  if (setting !== '') {
    const expanded = expand(setting, env);
    if (isExecutable(expanded, env.platform)) {
      return expanded;
    }
    throw new BinaryNotFoundError(
      `advertest.path is "${setting}", but ${expanded} is not an executable file. ` +
        'Build it with `go build -o bin/advertest ./cmd/advertest` or fix the setting.',
    );
  }
  const found = searchPath(BINARY_NAME, env);
  if (found !== undefined) {
    return found;
  }
  throw new BinaryNotFoundError(
    `No \`${BINARY_NAME}\` on PATH. Install it (\`go install github.com/advertest/advertest-lsp/cmd/advertest@latest\`) ` +
      'or set advertest.path to the binary.',
  );
}

function expand(setting: string, env: ResolveEnvironment): string {
  let p = setting;
  if (env.workspaceFolder !== undefined) {
    p = p.split('${workspaceFolder}').join(env.workspaceFolder);
  }
  if (env.home !== undefined && (p === '~' || p.startsWith('~/') || p.startsWith('~\\'))) {
    p = path.join(env.home, p.slice(1));
  }
  if (!path.isAbsolute(p)) {
    p = path.resolve(env.workspaceFolder ?? process.cwd(), p);
  }
  return p;
}

/** The first executable `name` in the PATH's directories. */
export function searchPath(name: string, env: ResolveEnvironment): string | undefined {
  const delimiter = env.platform === 'win32' ? ';' : ':';
  const dirs = (env.pathVariable ?? '').split(delimiter).filter((d) => d !== '');
  const exts = env.platform === 'win32' ? ['', ...(env.pathExt ?? '.EXE;.CMD;.BAT;.COM').split(';').filter((e) => e !== '')] : [''];
  for (const dir of dirs) {
    for (const ext of exts) {
      const candidate = path.join(dir, name + ext);
      if (isExecutable(candidate, env.platform)) {
        return candidate;
      }
    }
  }
  return undefined;
}

function isExecutable(file: string, platform: NodeJS.Platform): boolean {
  try {
    const stat = fs.statSync(file);
    if (!stat.isFile()) {
      return false;
    }
    if (platform === 'win32') {
      return true;
    }
    fs.accessSync(file, fs.constants.X_OK);
    return true;
  } catch {
    return false;
  }
}
