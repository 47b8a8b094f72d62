"use strict";
// The palette commands and the server commands they send. Pure: no
// `vscode` import.
Object.defineProperty(exports, "__esModule", { value: true });
exports.JOB_ENDED_NOTIFICATION = exports.SERVER_COMMANDS = exports.CLIENT_COMMANDS = void 0;
exports.methodArgument = methodArgument;
exports.jobOf = jobOf;
/**
 * The extension's own command ids. They differ from the server's, because
 * vscode-languageclient registers the server's executeCommandProvider ids in
 * VS Code itself and a second registration would fail.
 */
exports.CLIENT_COMMANDS = {
    generateTests: 'advertest.client.generateTests',
    analyzeMutants: 'advertest.client.analyzeMutants',
    restartServer: 'advertest.client.restartServer',
    showOutput: 'advertest.client.showOutput',
};
/** The server's workspace/executeCommand ids (DESIGN, "Commands"). */
exports.SERVER_COMMANDS = {
    generateTests: 'advertest.generateTests',
    analyzeMutants: 'advertest.analyzeMutants',
};
/** The server's notification at the end of a job (requested; see README). */
exports.JOB_ENDED_NOTIFICATION = 'advertest/jobEnded';
function methodArgument(uri, line, character) {
    return { uri, position: { line, character } };
}
/** The job id in a method command's answer ({"job": "ID"}), if any. */
function jobOf(result) {
    if (typeof result === 'object' && result !== null && 'job' in result) {
        const job = result.job;
        if (typeof job === 'string' || typeof job === 'number') {
            return String(job);
        }
    }
    return undefined;
}
//# sourceMappingURL=commands.js.map