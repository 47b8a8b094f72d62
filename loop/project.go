package loop

import (
	"path/filepath"
	"strings"

	"github.com/advertest/advertest-lsp/loop/engine"
)

// Project is what the game needs of an opened module: a runner that compiles and runs Java for
// the engine (the warm worker pool), the module's test classes, where its generated test file
// goes, and what the agents must know of its test libraries. *buildtools.Project is the
// product's; the unit tests give a fake.
type Project interface {
	engine.Runner
	// ModuleRoot is the module's root folder: the report's paths are relative to it.
	ModuleRoot() string
	// TestClassNames are the module's own test classes (binary names): the suite the game
	// starts from.
	TestClassNames() []string
	// TestFileFor is the path of the test class simple of package pkg ("" for the default
	// package) under the module's first test source root.
	TestFileFor(pkg, simple string) string
	// JUnitVersion is the JUnit major version the tests are written for (4 or 5).
	JUnitVersion() int
	// MockitoVersion is the Mockito version on the test class path, "" without Mockito.
	MockitoVersion() string
}

// relPath is file relative to the project's module root with forward slashes, or file itself
// when it is not below the root.
func relPath(p Project, file string) string {
	rel, err := filepath.Rel(p.ModuleRoot(), file)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return file
	}
	return filepath.ToSlash(rel)
}

// projectSuite is the module's test classes, less skip (the generated class, which runs from
// its text in memory), as suite entries that stand for every test of a class.
func projectSuite(p Project, skip string) []engine.TestID {
	var tests []engine.TestID
	for _, c := range p.TestClassNames() {
		if c != skip {
			tests = append(tests, engine.TestID{Class: c})
		}
	}
	return tests
}
