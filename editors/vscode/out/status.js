"use strict";
// What the status-bar item says. Pure: no `vscode` import.
Object.defineProperty(exports, "__esModule", { value: true });
exports.countSurvivors = countSurvivors;
exports.percent = percent;
exports.statusText = statusText;
/** Surviving mutants: the server's diagnostics other than possible bugs. */
function countSurvivors(diagnostics) {
    let n = 0;
    for (const d of diagnostics) {
        if (d.source !== 'advertest') {
            continue;
        }
        const code = typeof d.code === 'object' && d.code !== null ? d.code.value : d.code;
        if (code === 'possible-bug') {
            continue;
        }
        n++;
    }
    return n;
}
/** A ratio 0..1 as a whole percentage. */
function percent(ratio) {
    return `${Math.round(ratio * 100)}%`;
}
/**
 * The item's text: the last job's mutation score when the server told it,
 * else the number of surviving mutants in the active file's diagnostics.
 */
function statusText(last, survivorsInActiveFile) {
    const icon = '$(beaker)';
    if (last !== undefined) {
        const method = last.target?.method ?? 'method';
        if (last.status === 'failed') {
            return { text: `${icon} ${method}: failed`, tooltip: `AdverTest: ${last.message ?? 'the job failed'}` };
        }
        if (last.status === 'canceled') {
            return { text: `${icon} ${method}: canceled`, tooltip: 'AdverTest: the last job was canceled' };
        }
        const parts = [];
        if (typeof last.mutationScore === 'number') {
            parts.push(`mutation score ${percent(last.mutationScore)}`);
        }
        else if (last.mutationScore === null) {
            parts.push('no valid mutants');
        }
        if (typeof last.mutants?.survived === 'number') {
            parts.push(`${last.mutants.survived} surviving`);
        }
        if (typeof last.lineCoverage === 'number') {
            parts.push(`line coverage ${percent(last.lineCoverage)}`);
        }
        if (typeof last.branchCoverage === 'number') {
            parts.push(`branch coverage ${percent(last.branchCoverage)}`);
        }
        const score = typeof last.mutationScore === 'number' ? percent(last.mutationScore) : '–';
        const signature = last.target?.signature ?? method;
        return { text: `${icon} ${method}: ${score}`, tooltip: `AdverTest, ${signature}: ${parts.join(', ') || 'done'}` };
    }
    if (survivorsInActiveFile !== undefined && survivorsInActiveFile > 0) {
        const noun = survivorsInActiveFile === 1 ? 'mutant survives' : 'mutants survive';
        return { text: `${icon} ${survivorsInActiveFile} ${noun}`, tooltip: 'AdverTest: surviving mutants in this file (Problems view)' };
    }
    return { text: `${icon} AdverTest`, tooltip: 'AdverTest: run "Analyze mutants" or "Generate adversarial tests" on a method' };
}
//# sourceMappingURL=status.js.map