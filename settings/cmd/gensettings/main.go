// Command gensettings writes what the settings table (settings/schema) generates: the
// settings of the VS Code extension's package.json and docs/settings.md. Run it with
// `go generate ./settings/...`; settings/schema's tests fail while the committed files differ.
package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/advertest/advertest-lsp/settings/schema"
)

func main() {
	if err := generate(); err != nil {
		fmt.Fprintln(os.Stderr, "gensettings:", err)
		os.Exit(1)
	}
}

func generate() error {
	root, err := moduleRoot()
	if err != nil {
		return err
	}
	manifest := filepath.Join(root, "editors", "vscode", "package.json")
	pkg, err := os.ReadFile(manifest)
	if err != nil {
		return err
	}
	updated, err := schema.UpdateManifest(pkg)
	if err != nil {
		return err
	}
	if err := os.WriteFile(manifest, updated, 0o644); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(root, "docs", "settings.md"), schema.Markdown(), 0o644)
}

// moduleRoot is the nearest folder at or above the working directory with a go.mod.
func moduleRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("no go.mod at or above the working directory")
		}
		dir = parent
	}
}
