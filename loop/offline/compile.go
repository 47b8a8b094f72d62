package offline

import (
	"context"
	"embed"
	"fmt"

	"github.com/advertest/advertest-lsp/buildtools/harness"
)

// explorerSources is the explorer's Java code (java/advertest/offline), compiled once per content
// hash with the JDK's javac.
//
//go:embed java
var explorerSources embed.FS

// explorerClasses returns the folder with the compiled explorer, building it on first use (under
// Options.CacheDir/explorer/, by content hash, see harness.BuildJava).
func (a *Agent) explorerClasses(ctx context.Context) (string, error) {
	a.compileMu.Lock()
	defer a.compileMu.Unlock()
	if a.classDir != "" {
		return a.classDir, nil
	}
	_, javac, err := harness.FindJDK(a.opts.JavaHome)
	if err != nil {
		return "", fmt.Errorf("offline: compiling the explorer: %w", err)
	}
	var env []string // nil: the default policy's allowlist
	if a.pool != nil {
		env = a.pool.ToolEnv()
	}
	dir, built, err := harness.BuildJava(ctx, harness.JavaBuild{Name: "explorer", Sources: explorerSources, Root: "java", Javac: javac, CacheDir: a.cacheDir, Env: env})
	if err != nil {
		return "", fmt.Errorf("offline: compiling the explorer: %w", err)
	}
	if built {
		a.log.Debug("offline: compiled the explorer")
	}
	if a.pool != nil {
		// The driver test loads the explorer from dir: the sandboxed workers must see it.
		a.pool.AllowRead(dir)
	}
	a.classDir = dir
	return dir, nil
}
