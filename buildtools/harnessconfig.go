package buildtools

import "github.com/advertest/advertest-lsp/buildtools/harness"

// HarnessConfig returns the harness configuration for running the module's tests: the dependency
// jars as the shared library classpath, the main and test output folders as the reloaded project
// classes, the source roots, the language level and flags, and JaCoCo includes for the module's
// packages. The time limits are the settings table's defaults (docs/settings.md), for the
// caller to change with the rest that is not the build's business (Workers, JavaHome,
// JacocoAgentJar, CacheDir, Logger). Call EnsureCompiled first: the output folders must exist.
func (m *Module) HarnessConfig() harness.Config {
	mutantBudget, originalTimeout := ProjectOptions{}.budgets()
	return harness.Config{
		MutantBudget:     mutantBudget,
		OriginalTimeout:  originalTimeout,
		LibraryClasspath: append([]string(nil), m.TestClasspath...),
		ProjectClassDirs: m.ClassDirs(),
		SourceRoots:      m.SourceRoots(),
		Release:          m.Release,
		CompilerArgs:     append([]string(nil), m.CompilerArgs...),
		CoverageIncludes: m.CoverageIncludes(),
		Logger:           m.opts.Logger,
	}
}
