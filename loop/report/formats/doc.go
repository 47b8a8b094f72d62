// Package formats writes the report formats that a run or a merge asks for with --sarif,
// --mte and --html, in one call, so the CLI's commands share one path: every requested file
// is written even when another fails. See docs/reports.md.
package formats
