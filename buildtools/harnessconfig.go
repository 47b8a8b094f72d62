package buildtools

import "github.com/advertest/advertest-lsp/buildtools/harness"

// HarnessConfig returns the harness configuration for running the module's tests: the dependency
// jars as the shared library classpath, the main and test output folders as the reloaded project
// classes, the source roots, the language level and flags, and JaCoCo includes for the module's
// packages. The caller adds what is not the build's business (Workers, timeouts, JavaHome,
// JacocoAgentJar, CacheDir, Logger). Call EnsureCompiled first: the output folders must exist.
func (m *Module) HarnessConfig() harness.Config {
	return harness.Config{
		LibraryClasspath: append([]string(nil), m.TestClasspath...),
		ProjectClassDirs: m.ClassDirs(),
		SourceRoots:      m.SourceRoots(),
		Release:          m.Release,
		CompilerArgs:     append([]string(nil), m.CompilerArgs...),
		CoverageIncludes: m.CoverageIncludes(),
		Logger:           m.opts.Logger,
	}
}
