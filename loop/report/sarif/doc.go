// Package sarif writes the SARIF 2.1.0 log of advertest reports (`--sarif PATH`), the format
// GitHub code scanning reads: one result per surviving mutant, a rule per mutation operator,
// level `warning` (`note` for a survivor judged likely equivalent), the stable mutant id as a
// partial fingerprint, and locations relative to the repository root (uriBaseId SRCROOT), so
// pull requests of multi-module repositories are annotated on the right files. See
// docs/reports.md.
package sarif
