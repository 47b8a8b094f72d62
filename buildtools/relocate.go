package buildtools

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// A model is relocatable when it is the same model wherever the build lives: a fresh clone or
// copy of an unchanged project at a new path reuses the model of the first one, its paths moved
// from the first build's anchor (the top folder of its build) to the new one. See
// docs/architecture.md, "Caches".

// buildAnchor is the top folder of the build that owns the module at root: the highest folder at
// or above root that holds one of its build files (a parent or aggregator pom, Gradle's settings)
// or Maven's .mvn folder. Every path the build derives from its own location lies under it.
func buildAnchor(root string, bs BuildSystem, files []string) string {
	anchor := root
	consider := func(dir string) {
		if isWithin(dir, root) && len(dir) < len(anchor) {
			anchor = dir
		}
	}
	for _, f := range files {
		consider(filepath.Dir(f))
	}
	if bs == Gradle {
		consider(gradleSettingsDir(root))
	} else {
		consider(mavenTopDir(root))
	}
	return anchor
}

// movePath rewrites p from under the folder from to under the folder to; a path elsewhere
// stays as it is.
func movePath(p, from, to string) string {
	if p == from {
		return to
	}
	if strings.HasPrefix(p, from+string(filepath.Separator)) {
		return to + p[len(from):]
	}
	return p
}

// moveArg rewrites a compiler argument that is a path, or ends in one after '=' (-Akey=PATH).
func moveArg(a, from, to string) string {
	if i := strings.IndexByte(a, '='); i >= 0 && !strings.HasPrefix(a, from) {
		return a[:i+1] + movePath(a[i+1:], from, to)
	}
	return movePath(a, from, to)
}

// relocated returns a copy of m with every path under from moved under to (the model of the
// same build at another place); m itself is left alone. The copy goes through the model's
// cached form, so a field added to Module is copied without a change here.
func (m *Module) relocated(from, to string) (*Module, error) {
	b, err := json.Marshal(m)
	if err != nil {
		return nil, fmt.Errorf("copy the module model: %w", err)
	}
	n := &Module{}
	if err := json.Unmarshal(b, n); err != nil {
		return nil, fmt.Errorf("copy the module model: %w", err)
	}
	for _, p := range []*string{&n.Root, &n.MainOutput, &n.TestOutput, &n.Anchor, &n.ReactorRoot} {
		*p = movePath(*p, from, to)
	}
	for _, ps := range [][]string{n.BuildFiles, n.MainSourceRoots, n.TestSourceRoots, n.TestClasspath} {
		for i := range ps {
			ps[i] = movePath(ps[i], from, to)
		}
	}
	for i, a := range n.CompilerArgs {
		n.CompilerArgs[i] = moveArg(a, from, to)
	}
	return n, nil
}

// canRelocate reports whether the model of a build anchored at anchor stays true when the build
// is copied elsewhere: each path outside the anchor must be one that a copy does not carry
// along, and the test class path holds nothing of the build itself (a multi-module build's
// sibling outputs are left to the path-keyed cache). A jar in a repository (the user's ~/.m2 or ~/.gradle, Debian's /usr/share) or far from
// the build is one; a path beside the build (../lib/x.jar, a system-scope dependency) is not,
// since a copy would have its own.
func canRelocate(m *Module, anchor string) bool {
	near := filepath.Dir(anchor)
	var repos []string
	if home, err := os.UserHomeDir(); err == nil {
		repos = append(repos, filepath.Join(home, ".m2"), filepath.Join(home, ".gradle"))
	}
	if g := os.Getenv("GRADLE_USER_HOME"); g != "" {
		repos = append(repos, g)
	}
	repos = append(repos, "/usr/share/maven-repo", "/usr/share/java")
	paths := append(append(append([]string{}, m.TestClasspath...), m.BuildFiles...), m.MainSourceRoots...)
	paths = append(append(paths, m.TestSourceRoots...), m.MainOutput, m.TestOutput)
	for _, p := range m.TestClasspath {
		if isWithin(anchor, p) {
			return false // a sibling module's output: a copy would need its build, not its cache
		}
	}
	for _, p := range paths {
		if p == "" || isWithin(anchor, p) {
			continue
		}
		inRepo := false
		for _, r := range repos {
			if isWithin(r, p) {
				inRepo = true
				break
			}
		}
		if !inRepo && isWithin(near, p) {
			return false
		}
	}
	return true
}
