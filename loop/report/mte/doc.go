// Package mte writes advertest reports in the mutation-testing-elements report schema
// (`--mte PATH`), the JSON that Stryker's HTML report and the Stryker dashboard read: the files
// with their source, each mutant with its location, replacement, coveredBy, killedBy and
// status (killed → Killed, survived → Survived or NoCoverage, timeout → Timeout, uncompilable
// → CompileError, equivalent/duplicate/ignored → Ignored), and the tests by file. See
// docs/reports.md.
package mte
