package offline

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// explorerClasses returns the folder with the compiled explorer, compiling the embedded source
// with javac once per content hash (under Options.CacheDir, written atomically).
func (a *Agent) explorerClasses(ctx context.Context) (string, error) {
	a.compileMu.Lock()
	defer a.compileMu.Unlock()
	if a.classDir != "" {
		return a.classDir, nil
	}
	sum := sha256.Sum256([]byte(explorerSource))
	dir := filepath.Join(a.cacheDir, "explorer", hex.EncodeToString(sum[:8]))
	if _, err := os.Stat(filepath.Join(dir, "advertest", "offline", "Explorer.class")); err == nil {
		a.classDir = dir
		return dir, nil
	}
	if err := os.MkdirAll(filepath.Dir(dir), 0o755); err != nil {
		return "", fmt.Errorf("offline: making the explorer's cache folder: %w", err)
	}
	tmp, err := os.MkdirTemp(filepath.Dir(dir), "build-")
	if err != nil {
		return "", fmt.Errorf("offline: making the explorer's build folder: %w", err)
	}
	defer os.RemoveAll(tmp)
	srcFile := filepath.Join(tmp, "Explorer.java")
	if err := os.WriteFile(srcFile, []byte(explorerSource), 0o644); err != nil {
		return "", fmt.Errorf("offline: writing the explorer's source: %w", err)
	}
	out := filepath.Join(tmp, "classes")
	cmd := exec.CommandContext(ctx, a.javac(), "--release", "11", "-nowarn", "-encoding", "UTF-8", "-d", out, srcFile)
	if msg, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("offline: compiling the explorer: %w: %s", err, strings.TrimSpace(string(msg)))
	}
	if err := os.Rename(out, dir); err != nil {
		if _, statErr := os.Stat(dir); statErr != nil {
			return "", fmt.Errorf("offline: installing the compiled explorer: %w", err)
		}
		// another process installed it first
	}
	a.classDir = dir
	return dir, nil
}

// javac is Options.JavaHome's javac, else $JAVA_HOME's, else the one on PATH.
func (a *Agent) javac() string {
	for _, home := range []string{a.opts.JavaHome, os.Getenv("JAVA_HOME")} {
		if home == "" {
			continue
		}
		p := filepath.Join(home, "bin", "javac")
		if _, err := os.Stat(p); err == nil {
			return p
		}
	}
	return "javac"
}
