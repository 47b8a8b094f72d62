package app

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/advertest/advertest-lsp/buildtools"
	"github.com/advertest/advertest-lsp/javaparse"
	"github.com/advertest/advertest-lsp/loop"
	"github.com/advertest/advertest-lsp/loop/report"
	"github.com/advertest/advertest-lsp/settings"
)

// TargetSpec is one target of a run: a Java file or a folder, and for a file, optionally,
// the one method a line or a name picks.
type TargetSpec struct {
	// Path is a .java file or a folder, absolute or relative to Targets.Dir.
	Path string
	// Line (1-based, any line of the method) or Query (loop.ResolveTarget's names) pick one
	// method of the file; neither: every method with a body in the file, or under the folder.
	Line  int
	Query string
}

// OneMethod reports whether the spec names exactly one method.
func (s TargetSpec) OneMethod() bool { return s.Line > 0 || s.Query != "" }

// Targets say which methods a run covers: the methods of its specs, less those unchanged since
// Diff when it is set.
type Targets struct {
	Specs []TargetSpec
	// Diff, when set, keeps only the methods whose lines differ between the working tree and
	// this git revision (renames followed). Without Specs it takes every changed method of the
	// repository that holds Dir, in its modules' main sources.
	Diff string
	// Dir is where relative paths and git start ("": the current directory).
	Dir string
}

// Single reports whether the targets are exactly one method, named by line or name, with no
// diff: the run then gives the one-method report, every other target the report over many.
func (t Targets) Single() bool {
	return len(t.Specs) == 1 && t.Specs[0].OneMethod() && t.Diff == ""
}

// Resolved are the methods a run covers.
type Resolved struct {
	// Methods are distinct (by their identity, report.MethodKey), ordered by file and line.
	Methods []*Method
	// Notes say what was left out and why (Java files outside the main sources).
	Notes []string
}

// Resolver finds the methods of targets. Its zero value is not usable: MainSourceRoots is
// required (Core.Resolve gives the build model's).
type Resolver struct {
	// MainSourceRoots returns the main source roots (absolute) of the module whose root is
	// moduleRoot. It is called once per module.
	MainSourceRoots func(ctx context.Context, moduleRoot string) ([]string, error)
	// Git runs git with args in dir and returns its stdout (nil: the git on PATH, with GitEnv).
	Git func(ctx context.Context, dir string, args ...string) ([]byte, error)
	// GitEnv is the environment of the git on PATH (nil: the default policy's allowlist,
	// sandbox.Policy.ToolEnv): never the API key variable.
	GitEnv []string
}

// Resolve finds the methods of t (Resolver.Resolve), with each module's main source roots
// from its build model under the settings s (cached on disk, as the projects' models are).
func (c *Core) Resolve(ctx context.Context, t Targets, s settings.Settings) (*Resolved, error) {
	loader := c.loader(s)
	policy, err := policyOf(s)
	if err != nil {
		return nil, err
	}
	r := &Resolver{MainSourceRoots: func(ctx context.Context, moduleRoot string) ([]string, error) {
		mod, err := loader.Load(ctx, moduleRoot)
		if err != nil {
			return nil, err
		}
		return mod.MainSourceRoots, nil
	}, GitEnv: policy.ToolEnv(os.Environ())}
	return r.Resolve(ctx, t)
}

// loader is a build model loader under the settings s (the model cache on disk is shared).
func (c *Core) loader(s settings.Settings) *buildtools.Loader {
	return buildtools.NewLoader(buildtools.Options{MavenArgs: s.LoopConfig().MavenArgs, Logger: c.log, CacheDir: c.opts.CacheDir, APIKeyEnv: s.LLM.APIKeyEnv})
}

// resolution is the state of one Resolve: the modules' main source roots, by module root.
type resolution struct {
	r     *Resolver
	ctx   context.Context
	roots map[string][]string
	out   *Resolved
	seen  map[string]bool
	// skipped are Java files left out because they are outside the main sources.
	skipped []string
}

// Resolve finds the methods of t. A path that does not exist, a line or name that picks no
// method (or several), a spec that is neither a Java file nor a folder, and a revision git
// does not know are mistakes of the request (loop.RequestError); a module whose build model cannot be
// read is an error.
func (r *Resolver) Resolve(ctx context.Context, t Targets) (*Resolved, error) {
	res := &resolution{r: r, ctx: ctx, roots: map[string][]string{}, out: &Resolved{}, seen: map[string]bool{}}
	dir := t.Dir
	if dir == "" {
		dir = "."
	}
	var changes map[string]*fileChange
	if t.Diff != "" {
		var err error
		if changes, err = r.changes(ctx, dir, t.Diff); err != nil {
			return nil, err
		}
	}
	if len(t.Specs) == 0 && t.Diff != "" {
		files := make([]string, 0, len(changes))
		for f := range changes {
			files = append(files, f)
		}
		slices.Sort(files)
		for _, f := range files {
			in, err := res.inMainSources(f)
			if err != nil {
				return nil, err
			}
			if !in {
				res.skipped = append(res.skipped, f)
				continue
			}
			if err := res.addFile(f, changes[f]); err != nil {
				return nil, err
			}
		}
	}
	for _, s := range t.Specs {
		if err := res.addSpec(dir, s, changes); err != nil {
			return nil, err
		}
	}
	res.finish(t.Diff != "")
	return res.out, nil
}

// addSpec adds the methods of one spec (those changes touch, when diffing).
func (res *resolution) addSpec(dir string, s TargetSpec, changes map[string]*fileChange) error {
	path := s.Path
	if !filepath.IsAbs(path) {
		path = filepath.Join(dir, path)
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return fmt.Errorf("resolving %s: %w", s.Path, err)
	}
	fi, err := os.Stat(abs)
	if err != nil {
		return &loop.RequestError{Msg: fmt.Sprintf("cannot read %s: %v", s.Path, err)}
	}
	if fi.IsDir() {
		if s.OneMethod() {
			return &loop.RequestError{Msg: fmt.Sprintf("%s is a folder: a line or a name picks a method of a file", s.Path)}
		}
		return res.addFolder(abs, changes)
	}
	if !strings.HasSuffix(abs, ".java") {
		return &loop.RequestError{Msg: fmt.Sprintf("%s is neither a Java file nor a folder", s.Path)}
	}
	var change *fileChange
	if changes != nil {
		if change = changes[canonical(abs)]; change == nil {
			return nil // unchanged since the revision
		}
	}
	if !s.OneMethod() {
		return res.addFile(abs, change)
	}
	target, err := loop.ResolveTarget(abs, s.Line, s.Query)
	if err != nil {
		return err
	}
	if change == nil || change.touches(target.Method) {
		res.add(MethodOf(target))
	}
	return nil
}

// addFolder adds the methods of every Java file under dir, recursively, that lies in its
// module's main sources. Hidden folders (.git, .advertest) are not entered.
func (res *resolution) addFolder(dir string, changes map[string]*fileChange) error {
	var files []string
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if path != dir && strings.HasPrefix(d.Name(), ".") {
				return filepath.SkipDir
			}
			return nil
		}
		if strings.HasSuffix(path, ".java") && d.Type().IsRegular() {
			files = append(files, path)
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("walking %s: %w", dir, err)
	}
	for _, f := range files {
		var change *fileChange
		if changes != nil {
			if change = changes[canonical(f)]; change == nil {
				continue
			}
		}
		in, err := res.inMainSources(f)
		if err != nil {
			return err
		}
		if !in {
			res.skipped = append(res.skipped, f)
			continue
		}
		if err := res.addFile(f, change); err != nil {
			return err
		}
	}
	return nil
}

// inMainSources reports whether the Java file lies under a main source root of its module
// (false for a file outside any module).
func (res *resolution) inMainSources(file string) (bool, error) {
	root, _, err := buildtools.FindModuleRoot(file)
	if err != nil {
		return false, nil
	}
	roots, ok := res.roots[root]
	if !ok {
		if roots, err = res.r.MainSourceRoots(res.ctx, root); err != nil {
			return false, fmt.Errorf("reading the main source roots of the module %s: %w", root, err)
		}
		res.roots[root] = roots
	}
	f := canonical(file)
	for _, r := range roots {
		if within(canonical(r), f) {
			return true, nil
		}
	}
	return false, nil
}

// addFile adds every method with a body of the file (those change touches, when set).
func (res *resolution) addFile(file string, change *fileChange) error {
	src, err := os.ReadFile(file)
	if err != nil {
		return &loop.RequestError{Msg: fmt.Sprintf("cannot read %s: %v", file, err)}
	}
	parsed, err := javaparse.Parse(src)
	if err != nil {
		return fmt.Errorf("parsing %s: %w", file, err)
	}
	for _, m := range parsed.Methods() {
		if m.BodyStartByte < 0 || (change != nil && !change.touches(m)) {
			continue
		}
		res.add(NewMethod(file, parsed, m))
	}
	return nil
}

// add keeps m unless a method of the same identity is there already.
func (res *resolution) add(m *Method) {
	key := m.Key()
	if res.seen[key] {
		return
	}
	res.seen[key] = true
	res.out.Methods = append(res.out.Methods, m)
}

// finish orders the methods and notes what was skipped.
func (res *resolution) finish(diff bool) {
	slices.SortStableFunc(res.out.Methods, func(a, b *Method) int {
		if c := strings.Compare(a.Target.File, b.Target.File); c != 0 {
			return c
		}
		return a.Target.Method.StartByte - b.Target.Method.StartByte
	})
	if len(res.skipped) == 0 {
		return
	}
	what := "Java files"
	if diff {
		what = "changed Java files"
	}
	cwd, _ := os.Getwd()
	names := make([]string, 0, len(res.skipped))
	for i, f := range res.skipped {
		if i == 5 {
			names = append(names, fmt.Sprintf("and %d more", len(res.skipped)-5))
			break
		}
		if rel, err := filepath.Rel(cwd, f); err == nil && !strings.HasPrefix(rel, "..") {
			f = rel
		}
		names = append(names, filepath.ToSlash(f))
	}
	res.out.Notes = append(res.out.Notes, fmt.Sprintf("skipped %d %s outside the modules' main sources: %s", len(res.skipped), what, strings.Join(names, ", ")))
}

// Key is the method's identity (report.MethodKey): its class's binary name and its signature
// reduced to name and parameter types. Shards are cut by it.
func (m *Method) Key() string { return report.MethodKey(m.Class, m.Target.Method.Signature) }

// canonical is path made absolute with its symbolic links resolved (git names files by the
// real path of its top level), or just absolute when it cannot be resolved.
func canonical(path string) string {
	abs, err := filepath.Abs(path)
	if err != nil {
		return path
	}
	if real, err := filepath.EvalSymlinks(abs); err == nil {
		return real
	}
	return abs
}

// within reports whether path is dir or lies below it.
func within(dir, path string) bool {
	rel, err := filepath.Rel(dir, path)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}
