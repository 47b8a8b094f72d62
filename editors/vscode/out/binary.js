"use strict";
// Finds the `advertest` binary: the `advertest.path` setting, else the
// binary on PATH. Pure apart from file-system checks, so it is unit-tested
// without VS Code.
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
exports.BinaryNotFoundError = exports.BINARY_NAME = void 0;
exports.hostEnvironment = hostEnvironment;
exports.resolveServerBinary = resolveServerBinary;
exports.searchPath = searchPath;
const fs = __importStar(require("node:fs"));
const os = __importStar(require("node:os"));
const path = __importStar(require("node:path"));
/** The binary's name on PATH. */
exports.BINARY_NAME = 'advertest';
/** Why no usable binary was found; the message is shown to the user. */
class BinaryNotFoundError extends Error {
}
exports.BinaryNotFoundError = BinaryNotFoundError;
/** The environment of this extension host. */
function hostEnvironment(workspaceFolder) {
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
function resolveServerBinary(configured, env) {
    const setting = (configured ?? '').trim();
    if (setting !== '') {
        const expanded = expand(setting, env);
        if (isExecutable(expanded, env.platform)) {
            return expanded;
        }
        throw new BinaryNotFoundError(`advertest.path is "${setting}", but ${expanded} is not an executable file. ` +
            'Build it with `go build -o bin/advertest ./cmd/advertest` or fix the setting.');
    }
    const found = searchPath(exports.BINARY_NAME, env);
    if (found !== undefined) {
        return found;
    }
    throw new BinaryNotFoundError(`No \`${exports.BINARY_NAME}\` on PATH. Install it (\`go install github.com/advertest/advertest-lsp/cmd/advertest@latest\`) ` +
        'or set advertest.path to the binary.');
}
function expand(setting, env) {
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
function searchPath(name, env) {
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
function isExecutable(file, platform) {
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
    }
    catch {
        return false;
    }
}
//# sourceMappingURL=binary.js.map