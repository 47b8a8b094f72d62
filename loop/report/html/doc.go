// Package html writes the HTML mutation report (`--html PATH`): one self-contained file that
// a person opens from disk with no network, built the way Stryker builds its report: the
// mutation-testing-elements web component (embedded from third_party/) with the mte report
// inlined, plus a section with the generated tests. See docs/reports.md.
package html
