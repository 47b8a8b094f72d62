package report

import (
	"fmt"
	"os"
	"path"
	"path/filepath"
	"strings"
)

// RepoPath is the method's file relative to the repository root: ModuleDir/Target.File.
func (r *Report) RepoPath() string {
	if r.ModuleDir == "" || r.ModuleDir == "." {
		return r.Target.File
	}
	return path.Join(r.ModuleDir, r.Target.File)
}

// RepoRoot returns the repository root for dir: the nearest folder at or above dir that holds
// `.git` (a folder, or the file of a worktree or submodule), as `git rev-parse --show-toplevel`
// finds it; dir itself, made absolute, when there is none.
func RepoRoot(dir string) (string, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", fmt.Errorf("resolving %s: %w", dir, err)
	}
	for d := abs; ; {
		if _, err := os.Lstat(filepath.Join(d, ".git")); err == nil {
			return d, nil
		}
		parent := filepath.Dir(d)
		if parent == d {
			return abs, nil
		}
		d = parent
	}
}

// ModuleDirOf returns moduleRoot relative to repoRoot with forward slashes ("" when they are
// one): the value of Report.ModuleDir. A module outside the repository is an error.
func ModuleDirOf(repoRoot, moduleRoot string) (string, error) {
	rel, err := filepath.Rel(repoRoot, moduleRoot)
	if err != nil {
		return "", fmt.Errorf("module %s relative to the repository %s: %w", moduleRoot, repoRoot, err)
	}
	rel = filepath.ToSlash(rel)
	if rel == ".." || strings.HasPrefix(rel, "../") {
		return "", fmt.Errorf("module %s lies outside the repository %s", moduleRoot, repoRoot)
	}
	if rel == "." {
		return "", nil
	}
	return rel, nil
}
