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
const node_test_1 = require("node:test");
const commands_1 = require("../commands");
const status_1 = require("../status");
(0, node_test_1.describe)('statusText', () => {
    (0, node_test_1.it)('shows the last mutation score with the method', () => {
        const s = (0, status_1.statusText)({
            job: '1',
            status: 'done',
            target: { method: 'clamp', signature: 'public static int clamp(int value, int lo, int hi)' },
            mutationScore: 0.625,
            lineCoverage: 1,
            mutants: { survived: 3 },
        }, 5);
        assert.equal(s.text, '$(beaker) clamp: 63%');
        assert.match(s.tooltip, /mutation score 63%, 3 surviving, line coverage 100%/);
    });
    (0, node_test_1.it)('says when nothing was valid, failed or canceled', () => {
        assert.equal((0, status_1.statusText)({ job: '1', target: { method: 'f' }, mutationScore: null }, undefined).text, '$(beaker) f: –');
        assert.equal((0, status_1.statusText)({ job: '1', target: { method: 'f' }, status: 'failed', message: 'no build' }, undefined).tooltip, 'AdverTest: no build');
        assert.equal((0, status_1.statusText)({ job: '1', target: { method: 'f' }, status: 'canceled' }, undefined).text, '$(beaker) f: canceled');
    });
    (0, node_test_1.it)('falls back to the surviving mutants of the active file', () => {
        assert.equal((0, status_1.statusText)(undefined, 1).text, '$(beaker) 1 mutant survives');
        assert.equal((0, status_1.statusText)(undefined, 4).text, '$(beaker) 4 mutants survive');
        assert.equal((0, status_1.statusText)(undefined, 0).text, '$(beaker) AdverTest');
    });
});
(0, node_test_1.describe)('countSurvivors', () => {
    (0, node_test_1.it)("counts the server's diagnostics but not possible bugs", () => {
        assert.equal((0, status_1.countSurvivors)([
            { source: 'advertest', code: 'm1' },
            { source: 'advertest', code: { value: 'm2' } },
            { source: 'advertest', code: 'possible-bug' },
            { source: 'javac', code: 'x' },
        ]), 2);
    });
});
(0, node_test_1.describe)('method commands', () => {
    (0, node_test_1.it)('builds the DESIGN argument and reads the job id', () => {
        assert.deepEqual((0, commands_1.methodArgument)('file:///a/B.java', 24, 4), { uri: 'file:///a/B.java', position: { line: 24, character: 4 } });
        assert.equal((0, commands_1.jobOf)({ job: 'j7' }), 'j7');
        assert.equal((0, commands_1.jobOf)({ target: {} }), undefined);
        assert.equal((0, commands_1.jobOf)(null), undefined);
    });
});
//# sourceMappingURL=status.test.js.map