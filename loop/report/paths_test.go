package report

import (
	"os"
	"path/filepath"
	"testing"
)

func TestRepoRootAndModuleDir(t *testing.T) {
	dir := t.TempDir()
	repo := filepath.Join(dir, "repo")
	mod := filepath.Join(repo, "services", "billing")
	if err := os.MkdirAll(filepath.Join(mod, "src"), 0o755); err != nil {
		t.Fatal(err)
	}
	// No .git anywhere up to the temporary folder: the folder itself.
	if got, err := RepoRoot(filepath.Join(mod, "src")); err != nil || got != filepath.Join(mod, "src") {
		t.Fatalf("RepoRoot without git = %q, %v", got, err)
	}
	// A worktree's .git is a file.
	if err := os.WriteFile(filepath.Join(repo, ".git"), []byte("gitdir: /elsewhere\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	got, err := RepoRoot(filepath.Join(mod, "src"))
	if err != nil || got != repo {
		t.Fatalf("RepoRoot = %q, %v; want %q", got, err, repo)
	}
	if d, err := ModuleDirOf(repo, mod); err != nil || d != "services/billing" {
		t.Fatalf("ModuleDirOf = %q, %v", d, err)
	}
	if d, err := ModuleDirOf(repo, repo); err != nil || d != "" {
		t.Fatalf("ModuleDirOf(root) = %q, %v", d, err)
	}
	if _, err := ModuleDirOf(mod, repo); err == nil {
		t.Fatal("a module outside the repository is accepted")
	}
	r := Report{Target: Target{File: "src/main/java/A.java"}, ModuleDir: "services/billing"}
	if r.RepoPath() != "services/billing/src/main/java/A.java" {
		t.Fatalf("RepoPath %q", r.RepoPath())
	}
	r.ModuleDir = ""
	if r.RepoPath() != "src/main/java/A.java" {
		t.Fatalf("RepoPath %q", r.RepoPath())
	}
}
