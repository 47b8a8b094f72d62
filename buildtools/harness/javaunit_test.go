package harness

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/advertest/advertest-lsp/buildtools/harness/javaunit"
)

// TestJavaUnit runs the worker's Java unit tests (testdata/javaunit: the JSON codec, the
// protocol's messages, the output capture, the rewriter) against the worker as BuildJava makes
// it, with the JUnit console launcher; a failing Java test fails this test.
func TestJavaUnit(t *testing.T) {
	support, err := supportJars()
	if err != nil {
		t.Fatal(err)
	}
	jar, _, err := BuildJava(context.Background(), JavaBuild{Name: "worker", Sources: workerSources, Root: "java", Classpath: support, Jar: true, CacheDir: fx.cache})
	if err != nil {
		t.Fatal(err)
	}
	javaunit.Run(t, filepath.Join("testdata", "javaunit"), append([]string{jar}, support...))
}
