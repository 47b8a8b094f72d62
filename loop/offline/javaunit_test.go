package offline

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/advertest/advertest-lsp/buildtools/harness/javaunit"
	"github.com/advertest/advertest-lsp/internal/testenv"
)

// TestJavaUnit runs the explorer's Java unit tests (testdata/javaunit: input generation, the
// combinations, Java expressions and names, whole explorations of small methods) against the
// explorer as the agent builds it, with the JUnit console launcher; a failing Java test fails
// this test.
func TestJavaUnit(t *testing.T) {
	testenv.NeedsJVM(t)
	a, err := New(nil, Options{CacheDir: filepath.Join(t.TempDir(), "cache")})
	if err != nil {
		t.Fatal(err)
	}
	dir, err := a.explorerClasses(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	javaunit.Run(t, filepath.Join("testdata", "javaunit"), []string{dir})
}
