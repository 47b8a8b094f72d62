import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, describe, it } from 'node:test';

import { BinaryNotFoundError, resolveServerBinary, searchPath, type ResolveEnvironment } from '../binary';

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'advertest-binary-'));
after(() => fs.rmSync(root, { recursive: true, force: true }));

function file(rel: string, mode: number): string {
  const p = path.join(root, rel);
  fs.mkdirSync(path.dirname(p), { recursive: true });
  fs.writeFileSync(p, '#!/bin/sh\n');
  fs.chmodSync(p, mode);
  return p;
}

const notExecutable = file('plain/advertest', 0o644);
const onPath = file('bin/advertest', 0o755);
const inWorkspace = file('ws/bin/advertest', 0o755);
fs.mkdirSync(path.join(root, 'dironly/advertest'), { recursive: true });

function env(over: Partial<ResolveEnvironment> = {}): ResolveEnvironment {
  return { pathVariable: '', platform: 'linux', workspaceFolder: path.join(root, 'ws'), home: root, ...over };
}

describe('resolveServerBinary', () => {
  it('finds the binary on PATH, skipping a non-executable file and a directory', () => {
    const pathVariable = [path.join(root, 'plain'), path.join(root, 'dironly'), path.join(root, 'missing'), path.join(root, 'bin')].join(':');
    assert.equal(resolveServerBinary('', env({ pathVariable })), onPath);
    assert.equal(resolveServerBinary(undefined, env({ pathVariable })), onPath);
    assert.equal(resolveServerBinary('   ', env({ pathVariable })), onPath);
  });

  it('prefers the setting over PATH', () => {
    assert.equal(resolveServerBinary(inWorkspace, env({ pathVariable: path.join(root, 'bin') })), inWorkspace);
  });

  it('takes a relative setting from the workspace folder, and expands ${workspaceFolder} and ~', () => {
    assert.equal(resolveServerBinary('bin/advertest', env()), inWorkspace);
    assert.equal(resolveServerBinary('${workspaceFolder}/bin/advertest', env()), inWorkspace);
    assert.equal(resolveServerBinary('~/bin/advertest', env()), onPath);
  });

  it('says what is wrong with a bad setting', () => {
    assert.throws(() => resolveServerBinary(notExecutable, env()), (err: unknown) => {
      assert.ok(err instanceof BinaryNotFoundError);
      assert.match(err.message, /advertest\.path is ".*plain\/advertest", but .* is not an executable file/);
      return true;
    });
  });

  it('says how to install when nothing is on PATH', () => {
    assert.throws(() => resolveServerBinary('', env({ pathVariable: path.join(root, 'plain') })), /No `advertest` on PATH/);
  });

  it('tries PATHEXT on Windows', () => {
    const exe = file('win/advertest.EXE', 0o644);
    assert.equal(searchPath('advertest', env({ platform: 'win32', pathVariable: path.join(root, 'win'), pathExt: '.COM;.EXE' })), exe);
  });
});
