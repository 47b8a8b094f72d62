package jobs

import (
	"context"

	"go.uber.org/zap"

	"github.com/advertest/advertest-lsp/buildtools"
	"github.com/advertest/advertest-lsp/settings"
)

// ModuleRoot is the root folder of the Maven or Gradle module that owns javaFile: the key
// of its warm project and the home of its .advertest/ state.
func ModuleRoot(javaFile string) (string, error) {
	root, _, err := buildtools.FindModuleRoot(javaFile)
	return root, err
}

// ProjectOpener returns the OpenFunc of a server: it opens a module's project with the
// settings current at the time of the opening (current is read then, not now), the build
// models and the compiled worker cached in cacheDir ("": the user's cache folder).
func ProjectOpener(current func() settings.Settings, cacheDir string, logger *zap.Logger) OpenFunc {
	if logger == nil {
		logger = zap.NewNop()
	}
	return func(ctx context.Context, javaFile string) (*buildtools.Project, error) {
		cfg := current().LoopConfig()
		loader := buildtools.NewLoader(buildtools.Options{MavenArgs: cfg.MavenArgs, Logger: logger, CacheDir: cacheDir})
		return buildtools.OpenProject(ctx, loader, javaFile, buildtools.ProjectOptions{
			Workers:         cfg.Workers,
			TimeoutFactor:   cfg.MutantTimeoutFactor,
			TimeoutConstant: cfg.MutantTimeoutConstant,
			JacocoAgentJar:  cfg.JacocoAgentPath,
			CacheDir:        cacheDir,
			Logger:          logger,
		})
	}
}

// TestFileFor is the path of the test class simple of package pkg ("" for the default
// package) in the warm project's module: where its generated suite lives.
func (w *Warm) TestFileFor(pkg, simple string) string {
	return w.Project.Module.TestFileFor(pkg, simple)
}
