package formats

import (
	"errors"
	"fmt"

	"github.com/advertest/advertest-lsp/loop/report"
	"github.com/advertest/advertest-lsp/loop/report/html"
	"github.com/advertest/advertest-lsp/loop/report/mte"
	"github.com/advertest/advertest-lsp/loop/report/sarif"
)

// Paths are the files to write; an empty path skips its format.
type Paths struct {
	SARIF, MTE, HTML string
}

// Options say what the formats need besides the reports.
type Options struct {
	// RepoRoot is the repository root's absolute path (report.RepoRoot of the current
	// directory): SARIF locations are relative to it and the mte and HTML reports read the
	// sources under it.
	RepoRoot string
	// ToolVersion is advertest's version.
	ToolVersion string
}

// Write writes each format that has a path, from the methods' reports (one method's report,
// or a Multi's Methods). It returns the warnings of the mte and HTML reports (a source file it
// could not read) and the errors of the formats that failed, joined.
func Write(methods []report.Report, p Paths, opts Options) ([]string, error) {
	var warnings []string
	var errs []error
	mopts := mte.Options{ReadSource: mte.SourcesUnder(opts.RepoRoot), ProjectRoot: opts.RepoRoot, ToolVersion: opts.ToolVersion}
	if p.SARIF != "" {
		if err := sarif.WriteFile(p.SARIF, methods, sarif.Options{RepoRoot: opts.RepoRoot, ToolVersion: opts.ToolVersion}); err != nil {
			errs = append(errs, fmt.Errorf("--sarif %s: %w", p.SARIF, err))
		}
	}
	if p.MTE != "" {
		w, err := mte.WriteFile(p.MTE, methods, mopts)
		warnings = append(warnings, w...)
		if err != nil {
			errs = append(errs, fmt.Errorf("--mte %s: %w", p.MTE, err))
		}
	}
	if p.HTML != "" {
		w, err := html.WriteFile(p.HTML, methods, html.Options{MTE: mopts})
		if p.MTE == "" { // the same warnings as the mte report's: say them once
			warnings = append(warnings, w...)
		}
		if err != nil {
			errs = append(errs, fmt.Errorf("--html %s: %w", p.HTML, err))
		}
	}
	return warnings, errors.Join(errs...)
}
