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
const binary_1 = require("../binary");
const root = fs.mkdtempSync(path.join(os.tmpdir(), 'advertest-binary-'));
(0, node_test_1.after)(() => fs.rmSync(root, { recursive: true, force: true }));
function file(rel, mode) {
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
function env(over = {}) {
    return { pathVariable: '', platform: 'linux', workspaceFolder: path.join(root, 'ws'), home: root, ...over };
}
(0, node_test_1.describe)('resolveServerBinary', () => {
    (0, node_test_1.it)('finds the binary on PATH, skipping a non-executable file and a directory', () => {
        const pathVariable = [path.join(root, 'plain'), path.join(root, 'dironly'), path.join(root, 'missing'), path.join(root, 'bin')].join(':');
        assert.equal((0, binary_1.resolveServerBinary)('', env({ pathVariable })), onPath);
        assert.equal((0, binary_1.resolveServerBinary)(undefined, env({ pathVariable })), onPath);
        assert.equal((0, binary_1.resolveServerBinary)('   ', env({ pathVariable })), onPath);
    });
    (0, node_test_1.it)('prefers the setting over PATH', () => {
        assert.equal((0, binary_1.resolveServerBinary)(inWorkspace, env({ pathVariable: path.join(root, 'bin') })), inWorkspace);
    });
    (0, node_test_1.it)('takes a relative setting from the workspace folder, and expands ${workspaceFolder} and ~', () => {
        assert.equal((0, binary_1.resolveServerBinary)('bin/advertest', env()), inWorkspace);
        assert.equal((0, binary_1.resolveServerBinary)('${workspaceFolder}/bin/advertest', env()), inWorkspace);
        assert.equal((0, binary_1.resolveServerBinary)('~/bin/advertest', env()), onPath);
    });
    (0, node_test_1.it)('says what is wrong with a bad setting', () => {
        assert.throws(() => (0, binary_1.resolveServerBinary)(notExecutable, env()), (err) => {
            assert.ok(err instanceof binary_1.BinaryNotFoundError);
            assert.match(err.message, /advertest\.path is ".*plain\/advertest", but .* is not an executable file/);
            return true;
        });
    });
    (0, node_test_1.it)('says how to install when nothing is on PATH', () => {
        assert.throws(() => (0, binary_1.resolveServerBinary)('', env({ pathVariable: path.join(root, 'plain') })), /No `advertest` on PATH/);
    });
    (0, node_test_1.it)('tries PATHEXT on Windows', () => {
        const exe = file('win/advertest.EXE', 0o644);
        assert.equal((0, binary_1.searchPath)('advertest', env({ platform: 'win32', pathVariable: path.join(root, 'win'), pathExt: '.COM;.EXE' })), exe);
    });
});
//# sourceMappingURL=binary.test.js.map