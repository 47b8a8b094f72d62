package benchkit

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
)

// FirstLine is s up to its first newline, trimmed.
func FirstLine(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	return strings.TrimSpace(s)
}

// Tail is the end of s, at most n bytes, for error messages.
func Tail(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return "…" + s[len(s)-n:]
}

var packageDecl = regexp.MustCompile(`(?m)^\s*package\s+([\w.]+)\s*;`)

// JavaClassName is the binary name of the top-level class a source file declares: its
// package plus the file's name.
func JavaClassName(file string) (string, error) {
	b, err := os.ReadFile(file)
	if err != nil {
		return "", fmt.Errorf("reading %s: %w", file, err)
	}
	name := strings.TrimSuffix(filepath.Base(file), ".java")
	if m := packageDecl.FindSubmatch(b); m != nil {
		return string(m[1]) + "." + name, nil
	}
	return name, nil
}

// JavaSources lists the .java files under dir, sorted.
func JavaSources(dir string) ([]string, error) {
	var out []string
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(path, ".java") {
			out = append(out, path)
		}
		return err
	})
	sort.Strings(out)
	return out, err
}

// LoadAverage is /proc/loadavg's first three fields ("" where there is none): times are only
// comparable at a similar load.
func LoadAverage() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return ""
	}
	f := strings.Fields(string(b))
	if len(f) < 3 {
		return ""
	}
	return strings.Join(f[:3], " ")
}

// Median is the middle value, or the mean of the two middle ones; 0 for none.
func Median(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}

// Max is the largest value; 0 for none.
func Max(xs []float64) float64 {
	m := 0.0
	for _, x := range xs {
		m = max(m, x)
	}
	return m
}

// GoCommand is $GO, else "go".
func GoCommand() string {
	if g := os.Getenv("GO"); g != "" {
		return g
	}
	return "go"
}

// BuildAdvertest builds the advertest CLI into bin.
func BuildAdvertest(ctx context.Context, bin string) error {
	build := exec.CommandContext(ctx, GoCommand(), "build", "-o", bin, "github.com/advertest/advertest-lsp/cmd/advertest")
	if out, err := build.CombinedOutput(); err != nil {
		return fmt.Errorf("building advertest: %w\n%s", err, out)
	}
	return nil
}
