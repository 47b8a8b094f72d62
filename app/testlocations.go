package app

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/advertest/advertest-lsp/javaparse"
)

// TestLocation is where a test method is written: its file and the position of its name
// (0-based line, UTF-16 column, as editors count).
type TestLocation struct {
	Path         string
	Line, Column int
}

// TestLocations finds the tests named Class.method (a nested class as Outer$Inner) in the
// module at moduleRoot: each class's file under the module's test source roots (the warm
// project's when one is open, else the conventional src/test/java), read from the editor's
// buffer when it is open, and the method's name in it. A test whose file is not found is left
// out; one whose method is not found points at the file's start.
func (c *Core) TestLocations(moduleRoot string, tests []string) map[string]TestLocation {
	roots := c.projects.testRoots(moduleRoot)
	if len(roots) == 0 {
		roots = []string{filepath.Join(moduleRoot, "src", "test", "java")}
	}
	parsed := map[string]*javaparse.File{} // by path; nil when unreadable
	out := map[string]TestLocation{}
	for _, test := range tests {
		i := strings.LastIndexByte(test, '.')
		if i <= 0 {
			continue
		}
		class, method := test[:i], test[i+1:]
		top, _, _ := strings.Cut(class, "$")
		rel := filepath.FromSlash(strings.ReplaceAll(top, ".", "/")) + ".java"
		for _, root := range roots {
			path := filepath.Join(root, rel)
			f, seen := parsed[path]
			if !seen {
				f = c.parseTestFile(path)
				parsed[path] = f
			}
			if f == nil {
				continue
			}
			loc := TestLocation{Path: path}
			for _, m := range f.Methods() {
				if m.Name == method && m.BinaryClassName == class {
					loc.Line, loc.Column = f.Lines().Position(m.NameStartByte)
					break
				}
			}
			out[test] = loc
			break
		}
	}
	return out
}

// parseTestFile parses the editor's buffer of path, or the file on disk; nil when neither can
// be read.
func (c *Core) parseTestFile(path string) *javaparse.File {
	text, ok := c.buffer(path)
	if !ok {
		data, err := os.ReadFile(path)
		if err != nil {
			return nil
		}
		text = data
	}
	f, err := javaparse.Parse(text)
	if err != nil {
		return nil
	}
	return f
}
