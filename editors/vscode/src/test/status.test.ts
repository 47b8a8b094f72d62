import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { isGeneratedTestFile, jobOf, methodArgument, mutantId } from '../commands';
import { countSurvivors, progressStatus, shortTitle, statusText } from '../status';

describe('statusText', () => {
  it('shows the last mutation score with the method', () => {
    const s = statusText(
      {
        job: '1',
        status: 'done',
        target: { method: 'clamp', signature: 'public static int clamp(int value, int lo, int hi)' },
        mutationScore: 0.625,
        lineCoverage: 1,
        mutants: { survived: 3 },
      },
      { survivors: 5, likelyEquivalent: 0 },
    );
    assert.equal(s.text, '$(beaker) clamp: 63%');
    assert.match(s.tooltip, /mutation score 63%, 3 surviving, line coverage 100%/);
  });

  it('says when nothing was valid, failed or canceled', () => {
    assert.equal(statusText({ job: '1', target: { method: 'f' }, mutationScore: null }, undefined).text, '$(beaker) f: –');
    assert.equal(statusText({ job: '1', target: { method: 'f' }, status: 'failed', message: 'no build' }, undefined).tooltip, 'AdverTest: no build');
    assert.equal(statusText({ job: '1', target: { method: 'f' }, status: 'canceled' }, undefined).text, '$(beaker) f: canceled');
  });

  it('falls back to the surviving mutants of the active file', () => {
    assert.equal(statusText(undefined, { survivors: 1, likelyEquivalent: 0 }).text, '$(beaker) 1 mutant survives');
    assert.equal(statusText(undefined, { survivors: 4, likelyEquivalent: 0 }).text, '$(beaker) 4 mutants survive');
    assert.equal(statusText(undefined, { survivors: 0, likelyEquivalent: 0 }).text, '$(beaker) AdverTest');
    const soft = statusText(undefined, { survivors: 3, likelyEquivalent: 2 });
    assert.equal(soft.text, '$(beaker) 3 mutants survive');
    assert.match(soft.tooltip, /2 probably equivalent, shown as hints/);
  });

  it('names probably equivalent and ignored mutants of the last job', () => {
    const s = statusText({ job: '1', status: 'done', target: { method: 'clamp' }, mutationScore: 0.5, mutants: { survived: 2, likelyEquivalent: 1, ignored: 1 } }, undefined);
    assert.match(s.tooltip, /2 surviving \(1 probably equivalent\), 1 ignored/);
  });
});

describe('countSurvivors', () => {
  it("counts the server's diagnostics but not possible bugs, the hints as probably equivalent", () => {
    assert.deepEqual(
      countSurvivors([
        { source: 'advertest', code: 'm1', severity: 1 },
        { source: 'advertest', code: { value: 'm2' }, severity: 3 },
        { source: 'advertest', code: 'possible-bug', severity: 2 },
        { source: 'javac', code: 'x', severity: 3 },
      ]),
      { survivors: 2, likelyEquivalent: 1 },
    );
  });
});

describe('method commands', () => {
  it('builds the command argument of docs/contracts.md and reads the job id', () => {
    assert.deepEqual(methodArgument('file:///a/B.java', 24, 4), { uri: 'file:///a/B.java', position: { line: 24, character: 4 } });
    assert.equal(jobOf({ job: 'j7' }), 'j7');
    assert.equal(jobOf({ target: {} }), undefined);
    assert.equal(jobOf(null), undefined);
    assert.equal(isGeneratedTestFile('/p/src/test/java/org/acme/PriceCalculatorAdverTest.java'), true);
    assert.equal(isGeneratedTestFile('/p/src/test/java/AdverTest.java'), false);
    assert.equal(isGeneratedTestFile('/p/src/test/java/CalcAdverTest.kt'), false);
    assert.equal(mutantId(' m0123456789ab '), 'm0123456789ab');
    assert.equal(mutantId('m0123456789ab-2'), 'm0123456789ab-2');
    assert.equal(mutantId('m0123'), undefined);
    assert.equal(mutantId(undefined), undefined);
  });
});

describe('progressStatus', () => {
  it('spins while running and shows the score at the end', () => {
    assert.equal(shortTitle('AdverTest: `clamp`'), 'clamp');
    assert.equal(shortTitle(undefined), 'AdverTest');
    assert.equal(progressStatus('AdverTest: `clamp`', { kind: 'report', message: 'round 1/1', percentage: 40.4 }).text, '$(sync~spin) clamp 40%');
    assert.equal(progressStatus('AdverTest: `clamp`', { kind: 'end', message: 'score 62% · 9 of 24 mutants survive' }).text, '$(beaker) clamp: 62%');
    assert.equal(progressStatus('AdverTest: `clamp`', { kind: 'end', message: 'canceled' }).text, '$(beaker) clamp: canceled');
    assert.equal(progressStatus('AdverTest: `clamp`', { kind: 'end', message: 'failed: the project does not build' }).text, '$(beaker) clamp: failed');
    assert.equal(progressStatus('AdverTest: `clamp`', { kind: 'end', message: 'no valid mutant · 0 of 0 mutants survive' }).text, '$(beaker) clamp: no valid mutant');
  });
});
