package sandbox

import (
	"fmt"
	"io/fs"
	"os"
	"os/user"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
)

// systemDirs are what a JVM needs from the host's root: programs, libraries and configuration.
// Each is bound read-only, or re-created as the same symlink (merged-/usr systems).
var systemDirs = []string{"/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/etc"}

// reserved are sandbox mounts that no bind may replace.
var reserved = []string{"/", "/proc", "/dev", "/dev/shm", "/tmp"}

// homeTmpfsSize bounds the private home; it is read-only, so it only holds mount points.
const homeTmpfsSize = 1 << 20

// entryKind is how one path appears inside the sandbox.
type entryKind int

const (
	roBind   entryKind = iota // the host path, read-only
	rwBind                    // the host path, writable (the scratch folder)
	symlink                   // a symlink with the host's target
	hideFile                  // an empty file (/dev/null bound read-only)
	hideDir                   // an empty read-only tmpfs
	homeDir                   // the private home: an empty read-only tmpfs
	tmpDir                    // the private, bounded, writable /tmp
)

type entry struct {
	kind   entryKind
	path   string
	target string // symlink target
}

// layout is one sandbox's file system and flags, turned into bwrap's argv by args.
type layout struct {
	feat    features
	tmpSize int64
	system  []entry // systemDirs, then the hidden entries of /etc
	user    []entry // the private home, the read-only paths and the scratch folder, parents first
	scratch string
	chdir   string // the working directory inside; "" is the scratch folder
}

// newLayout builds the layout for the read-only paths and the scratch folder (may be "").
func newLayout(feat features, readOnly []string, scratch string, tmpSize int64) (*layout, error) {
	l := &layout{feat: feat, tmpSize: tmpSize, scratch: scratch}
	for _, d := range systemDirs {
		fi, err := os.Lstat(d)
		switch {
		case err != nil:
			continue
		case fi.Mode()&fs.ModeSymlink != 0:
			target, err := os.Readlink(d)
			if err != nil {
				return nil, fmt.Errorf("sandbox: read link %s: %w", d, err)
			}
			l.system = append(l.system, entry{kind: symlink, path: d, target: target})
		case fi.IsDir():
			l.system = append(l.system, entry{kind: roBind, path: d})
		}
	}
	l.system = append(l.system, etcHidden()...)

	var user []entry
	if home := passwdHome(); home != "" && !covered(home, l.system) && !isReserved(home) {
		user = append(user, entry{kind: homeDir, path: home})
	}
	if scratch != "" {
		p, err := absClean(scratch)
		if err != nil {
			return nil, err
		}
		if isReserved(p) || p == "/dev" || strings.HasPrefix(p, "/proc/") || strings.HasPrefix(p, "/dev/") {
			return nil, fmt.Errorf("sandbox: the scratch folder %s would replace a mount of the sandbox", p)
		}
		if err := refuseHome("the scratch folder", p); err != nil {
			return nil, err
		}
		l.scratch = p
		user = append(user, entry{kind: rwBind, path: p})
	}
	for _, ro := range readOnly {
		p, err := absClean(ro)
		if err != nil {
			return nil, err
		}
		if isReserved(p) || strings.HasPrefix(p, "/proc/") || strings.HasPrefix(p, "/dev/") {
			return nil, fmt.Errorf("sandbox: refusing to bind %s into the sandbox: it would replace one of its own mounts or expose the host's", p)
		}
		if _, err := os.Lstat(p); err != nil {
			continue // nothing to see; the JVM skips missing class path entries too
		}
		if err := refuseHome("", p); err != nil {
			return nil, err
		}
		user = append(user, entry{kind: roBind, path: p})
	}
	sort.SliceStable(user, func(i, j int) bool {
		di, dj := depth(user[i].path), depth(user[j].path)
		if di != dj {
			return di < dj
		}
		return user[i].path < user[j].path
	})
	// Drop a read-only path whose nearest enclosing mount already shows it read-only (a jar
	// under ~/.m2/repository, a project's class folder), and repeats of one path.
	for _, e := range user {
		if e.kind == roBind {
			if enc, ok := enclosing(e.path, l.system, l.user); ok && (enc.kind == roBind || enc.kind == symlink) {
				continue
			}
		}
		if n := len(l.user); n > 0 && l.user[n-1].path == e.path {
			if rank(e.kind) > rank(l.user[n-1].kind) {
				l.user[n-1] = e // a bind the caller asked for wins; the scratch folder stays writable
			}
			continue
		}
		l.user = append(l.user, e)
	}
	return l, nil
}

// rank orders the kinds one user path may be given as: the writable scratch folder over a
// read-only bind over the private home.
func rank(k entryKind) int {
	switch k {
	case rwBind:
		return 2
	case roBind:
		return 1
	}
	return 0
}

// args is bwrap's argv (without the command) for the layout.
//
// The namespaces: a new user namespace for every user, root included (inside it root keeps its
// uid but holds no capability, and with --disable-userns cannot make another one), and new
// IPC, PID, network (only its own loopback), UTS and cgroup namespaces. --cap-drop ALL empties
// the bounding set, so no exec regains a capability; --new-session detaches from the
// controlling terminal (no TIOCSTI into the user's shell); --die-with-parent ends the sandbox
// with its bwrap. See docs/sandbox.md.
func (l *layout) args() []string {
	a := []string{"--unshare-user", "--unshare-ipc", "--unshare-pid", "--unshare-net", "--unshare-uts",
		"--unshare-cgroup-try"}
	if l.feat.disableUserns {
		a = append(a, "--disable-userns")
	}
	a = append(a, "--cap-drop", "ALL", "--die-with-parent", "--new-session")
	var remount []string // made read-only once everything below them is mounted
	add := func(e entry) {
		switch e.kind {
		case roBind:
			a = append(a, "--ro-bind", e.path, e.path)
		case rwBind:
			a = append(a, "--bind", e.path, e.path)
		case symlink:
			a = append(a, "--symlink", e.target, e.path)
		case hideFile:
			a = append(a, "--ro-bind", "/dev/null", e.path)
		case hideDir:
			a = append(a, l.sized(4096)...)
			a = append(a, "--tmpfs", e.path)
			remount = append(remount, e.path)
		case homeDir:
			a = append(a, l.sized(homeTmpfsSize)...)
			a = append(a, "--tmpfs", e.path)
			remount = append(remount, e.path)
		case tmpDir:
			a = append(a, l.sized(l.tmpSize)...)
			a = append(a, "--tmpfs", e.path)
		}
	}
	for _, e := range l.system {
		add(e)
	}
	a = append(a, "--proc", "/proc", "--dev", "/dev")
	add(entry{kind: tmpDir, path: "/dev/shm"})
	add(entry{kind: tmpDir, path: "/tmp"})
	for _, e := range l.user {
		add(e)
	}
	// Deepest first, so that a parent's remount never hides a child's mount point.
	for i := len(remount) - 1; i >= 0; i-- {
		a = append(a, "--remount-ro", remount[i])
	}
	a = append(a, "--remount-ro", "/dev", "--remount-ro", "/proc", "--remount-ro", "/")
	switch {
	case l.chdir != "":
		a = append(a, "--chdir", l.chdir)
	case l.scratch != "":
		a = append(a, "--chdir", l.scratch)
	}
	return a
}

// sized is the --size flag for the next tmpfs, where this bwrap has it.
func (l *layout) sized(n int64) []string {
	if !l.feat.size || n <= 0 {
		return nil
	}
	return []string{"--size", strconv.FormatInt(n, 10)}
}

// enclosing is the deepest entry strictly above p, among the system entries (and /tmp) and the
// user entries kept so far.
func enclosing(p string, system, user []entry) (entry, bool) {
	best, found := entry{}, false
	consider := func(e entry) {
		if within(e.path, p) && e.path != p && (!found || depth(e.path) > depth(best.path)) {
			best, found = e, true
		}
	}
	for _, e := range system {
		consider(e)
	}
	consider(entry{kind: tmpDir, path: "/tmp"})
	for _, e := range user {
		consider(e)
	}
	return best, found
}

// visible reports whether p is at or under a bound folder (a system folder, a read-only path
// or the scratch folder), where it can be a working directory.
func (l *layout) visible(p string) bool {
	for _, e := range append(append([]entry(nil), l.system...), l.user...) {
		if (e.kind == roBind || e.kind == rwBind) && within(e.path, p) {
			return true
		}
	}
	return false
}

// covered reports whether p is at or under a system entry (it needs no bind of its own).
func covered(p string, system []entry) bool {
	for _, e := range system {
		if within(e.path, p) {
			return true
		}
	}
	return false
}

func isReserved(p string) bool {
	for _, r := range reserved {
		if p == r {
			return true
		}
	}
	return false
}

// within reports whether p is dir or inside it.
func within(dir, p string) bool {
	return p == dir || strings.HasPrefix(p, strings.TrimSuffix(dir, "/")+"/")
}

func depth(p string) int {
	if p == "/" {
		return 0
	}
	return strings.Count(p, "/")
}

func absClean(p string) (string, error) {
	if p == "" {
		return "", fmt.Errorf("sandbox: empty path")
	}
	abs, err := filepath.Abs(p)
	if err != nil {
		return "", fmt.Errorf("sandbox: %s: %w", p, err)
	}
	return abs, nil
}

// refuseHome refuses to bind p (the scratch folder when what says so, else a read-only path:
// the project, a class path entry) where p is a home folder or a folder above one, either
// definition: the passwd entry's, where the private home goes, and $HOME. That bind would show
// the whole home, ~/.ssh and ~/.m2/settings.xml included; mounting the private home over it
// instead would hide the project inside with it. See docs/sandbox.md.
func refuseHome(what, p string) error {
	for _, h := range homes() {
		if !within(p, h) {
			continue
		}
		if what == "" {
			what = "the folder"
		}
		held := "it is the home folder"
		if p != h {
			held = "it holds the home folder " + h
		}
		return fmt.Errorf("sandbox: refusing to bind %s %s into the sandbox: %s, whose private files "+
			"(~/.ssh, ~/.m2/settings.xml, credentials) the sandbox keeps out; keep the project in a folder "+
			"of its own below the home, or set sandbox.mode to off", what, p, held)
	}
	return nil
}

// homes are the home folders code inside must not see: the passwd entry's and $HOME, where
// they differ; "/" is never one (it is the sandbox's own root).
func homes() []string {
	var out []string
	for _, h := range []string{passwdHome(), os.Getenv("HOME")} {
		if h == "" {
			continue
		}
		h = filepath.Clean(h)
		if h != "/" && (len(out) == 0 || out[0] != h) {
			out = append(out, h)
		}
	}
	return out
}

// passwdHome is the home the JVM takes user.home from: the passwd entry of the current user
// (getpwuid), not $HOME; $HOME when there is no entry.
func passwdHome() string {
	if u, err := user.Current(); err == nil && u.HomeDir != "" {
		return filepath.Clean(u.HomeDir)
	}
	if h := os.Getenv("HOME"); h != "" {
		return filepath.Clean(h)
	}
	return ""
}

var (
	etcOnce      sync.Once
	etcHideCache []entry
)

// etcHidden lists what of /etc is hidden inside: every file and folder that not every user of
// the machine may read (shadow files, private keys, database credentials). Code inside runs with
// the user's uid, and as root the owner's rights would open them. Scanned once per process.
func etcHidden() []entry {
	etcOnce.Do(func() {
		_ = filepath.WalkDir("/etc", func(p string, d fs.DirEntry, err error) error {
			if err != nil || p == "/etc" {
				return nil
			}
			if d.Type()&fs.ModeSymlink != 0 {
				return nil
			}
			fi, err := d.Info()
			if err != nil {
				return nil
			}
			perm := fi.Mode().Perm()
			switch {
			case fi.IsDir() && perm&0o005 != 0o005:
				etcHideCache = append(etcHideCache, entry{kind: hideDir, path: p})
				return fs.SkipDir
			case fi.Mode().IsRegular() && perm&0o004 == 0:
				etcHideCache = append(etcHideCache, entry{kind: hideFile, path: p})
			}
			return nil
		})
	})
	return etcHideCache
}
