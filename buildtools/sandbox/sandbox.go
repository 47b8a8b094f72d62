package sandbox

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
)

// Spec is one worker JVM's sandbox: the process-wide decision and policy, and the paths this
// worker may see.
type Spec struct {
	Status Status // from Policy.Decide: bwrap wraps the command, none only filters its environment
	Policy Policy
	// ReadOnly are shown read-only at the same paths: the project (its class folders included),
	// every class path entry, the local Maven and Gradle repositories (LocalRepositories),
	// AdverTest's cache, support jars. Paths under /usr, /etc and the other system folders are
	// there already; missing paths are skipped.
	ReadOnly []string
	// Scratch is this worker's writable folder and its working directory (created if missing).
	Scratch string
	// Dir, when set, is the working directory instead of Scratch. It must be visible inside:
	// Scratch, a ReadOnly path or a folder under one (tests that read files by relative path
	// from the module's root, as Maven and Gradle run them).
	Dir string
}

// Apply rewrites cmd, a command made with exec.Command(java, args...) that has not started,
// so that it runs in the sandbox: Path and Args become bwrap's (the JDK of java is bound
// read-only and its resolved path runs inside), Env becomes the allowlist (cmd.Env, or this
// process's environment when nil) with HOME the private home, and the working directory is
// Scratch. Stdin, Stdout, Stderr, ExtraFiles (fd 3 and up) and SysProcAttr are kept: bwrap
// passes the descriptors through. With kind none only Env (and Dir, when Scratch is set)
// change. Either way every other descriptor of this process is marked close-on-exec
// (SealDescriptors): call Apply right before Start.
func (s Spec) Apply(cmd *exec.Cmd) error {
	if cmd.Err != nil {
		return cmd.Err
	}
	if cmd.Process != nil {
		return errors.New("sandbox: the command has already started")
	}
	if err := SealDescriptors(); err != nil {
		return err
	}
	environ := cmd.Env
	if environ == nil {
		environ = os.Environ()
	}
	env := s.Policy.Environ(environ)
	if s.Scratch != "" {
		if err := os.MkdirAll(s.Scratch, 0o755); err != nil {
			return fmt.Errorf("sandbox: scratch folder: %w", err)
		}
	}
	if !s.Status.Contained() {
		if h := lookup(environ, "HOME"); h != "" {
			env = withEnv(env, "HOME", h)
		}
		cmd.Env = env
		if d := s.workDir(); d != "" {
			cmd.Dir = d
		}
		return nil
	}
	a := Probe()
	if !a.OK {
		return fmt.Errorf("sandbox: %w: %s", ErrUnavailable, a.Reason)
	}
	if cmd.Path == a.bwrap {
		return errors.New("sandbox: the command already runs in bwrap")
	}
	l, java, err := s.layout(a, cmd.Path)
	if err != nil {
		return err
	}
	if home := passwdHome(); home != "" {
		env = withEnv(env, "HOME", home)
	}
	args := append([]string{a.bwrap}, l.args()...)
	args = append(args, "--", java)
	if len(cmd.Args) > 1 {
		args = append(args, cmd.Args[1:]...)
	}
	cmd.Path = a.bwrap
	cmd.Args = args
	cmd.Env = env
	switch {
	case l.chdir != "":
		cmd.Dir = l.chdir
	case l.scratch != "":
		cmd.Dir = l.scratch
	}
	return nil
}

// Check returns the error Apply would return for a command of the java launcher java: a path it
// refuses to bind (a home folder or a folder above one, a mount of the sandbox), a working
// directory outside. It starts nothing, so that a pool can refuse a layout when it opens rather
// than at its first worker. Without a sandbox (kind none) there is nothing to refuse.
func (s Spec) Check(java string) error {
	if !s.Status.Contained() {
		return nil
	}
	a := Probe()
	if !a.OK {
		return fmt.Errorf("sandbox: %w: %s", ErrUnavailable, a.Reason)
	}
	_, _, err := s.layout(a, java)
	return err
}

// layout is the sandbox's layout for the launcher java, and java resolved (the path that runs
// inside).
func (s Spec) layout(a Availability, java string) (*layout, string, error) {
	resolved, err := filepath.EvalSymlinks(java)
	if err != nil {
		return nil, "", fmt.Errorf("sandbox: resolve %s: %w", java, err)
	}
	// The JDK's own folder: java.home is bin/java's parent, wherever a symlink pointed.
	readOnly := append([]string{filepath.Dir(filepath.Dir(resolved))}, s.ReadOnly...)
	l, err := newLayout(a.features, readOnly, s.Scratch, s.Policy.tmpSize())
	if err != nil {
		return nil, "", err
	}
	if s.Dir != "" {
		if l.chdir, err = absClean(s.Dir); err != nil {
			return nil, "", err
		}
		if !l.visible(l.chdir) {
			return nil, "", fmt.Errorf("sandbox: the working directory %s is not inside the sandbox", l.chdir)
		}
	}
	return l, resolved, nil
}

// workDir is the working directory the command gets: Dir, else Scratch ("" keeps cmd.Dir).
func (s Spec) workDir() string {
	if s.Dir != "" {
		return s.Dir
	}
	return s.Scratch
}

// lookup returns the value of name in environ ("" when unset).
func lookup(environ []string, name string) string {
	v := ""
	for _, kv := range filterEnv(environ, func(n string) bool { return sameName(n, name) }) {
		v = kv[len(name)+1:]
	}
	return v
}

// LocalRepositories are the local Maven and Gradle repositories that exist: jars a project's
// class path names live there (~/.m2/repository, $GRADLE_USER_HOME/caches or ~/.gradle/caches).
// Only the repositories are listed, not ~/.m2/settings.xml or ~/.gradle/gradle.properties,
// which may hold credentials.
func LocalRepositories() []string {
	var out []string
	homes := []string{passwdHome()}
	if h := os.Getenv("HOME"); h != "" && filepath.Clean(h) != homes[0] {
		homes = append(homes, filepath.Clean(h))
	}
	var candidates []string
	for _, h := range homes {
		if h != "" {
			candidates = append(candidates, filepath.Join(h, ".m2", "repository"), filepath.Join(h, ".gradle", "caches"))
		}
	}
	if g := os.Getenv("GRADLE_USER_HOME"); g != "" {
		candidates = append(candidates, filepath.Join(g, "caches"))
	}
	seen := map[string]bool{}
	for _, c := range candidates {
		if fi, err := os.Stat(c); err == nil && fi.IsDir() && !seen[c] {
			seen[c] = true
			out = append(out, c)
		}
	}
	return out
}
