package sandbox

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

var allFeatures = features{size: true, disableUserns: true}

// mounts lists the layout's mount flags as "FLAG PATH" (the destination), in order.
func mounts(args []string) []string {
	var out []string
	for i := 0; i < len(args); i++ {
		switch args[i] {
		case "--ro-bind", "--bind", "--symlink":
			out = append(out, args[i]+" "+args[i+2])
			i += 2
		case "--tmpfs", "--remount-ro", "--proc", "--dev", "--chdir":
			out = append(out, args[i]+" "+args[i+1])
			i++
		}
	}
	return out
}

func index(t *testing.T, list []string, item string) int {
	t.Helper()
	i := slices.Index(list, item)
	if i < 0 {
		t.Fatalf("%q is not in the layout:\n%s", item, strings.Join(list, "\n"))
	}
	return i
}

func TestLayoutOrderAndDedupe(t *testing.T) {
	root := t.TempDir()
	project := filepath.Join(root, "project")
	classes := filepath.Join(project, "target", "classes")
	scratch := filepath.Join(project, "target", "advertest-scratch")
	jar := filepath.Join(root, "libs", "a.jar")
	mustMkdir(t, classes, scratch, filepath.Dir(jar))
	mustWrite(t, jar, "")
	home := passwdHome()
	if home == "" {
		t.Skip("no passwd home")
	}
	homeDir, err := os.MkdirTemp(home, ".advertest-sandbox-test-")
	if err != nil {
		t.Skipf("cannot make a folder in the home: %v", err)
	}
	defer os.RemoveAll(homeDir)
	repo := filepath.Join(homeDir, "repository")
	repoJar := filepath.Join(repo, "x", "x.jar")
	mustMkdir(t, filepath.Dir(repoJar))
	mustWrite(t, repoJar, "")

	l, err := newLayout(allFeatures, []string{classes, project, jar, "/usr/share/java/junit4.jar", repo, repoJar, project,
		filepath.Join(root, "does-not-exist")}, scratch, 1<<20)
	if err != nil {
		t.Fatal(err)
	}
	m := mounts(l.args())
	// Covered paths need no bind of their own: a project's class folder, a jar of /usr, a jar in a bound repository.
	for _, p := range []string{classes, "/usr/share/java/junit4.jar", repoJar, filepath.Join(root, "does-not-exist")} {
		if slices.Contains(m, "--ro-bind "+p) {
			t.Errorf("%s is bound although its parent is", p)
		}
	}
	if n := strings.Count(strings.Join(m, "\n"), "--ro-bind "+project+"\n"); n != 1 {
		t.Errorf("the project is bound %d times", n)
	}
	// Parents before children: the scratch folder inside the read-only project stays writable;
	// the repository comes back after the empty home hides the rest of it.
	if index(t, m, "--ro-bind "+project) > index(t, m, "--bind "+scratch) {
		t.Error("the scratch folder is bound before the project that holds it")
	}
	if index(t, m, "--tmpfs "+home) > index(t, m, "--ro-bind "+repo) {
		t.Error("the repository under the home is bound before the home is hidden")
	}
	// The home is made read-only after its mount points exist; the root last.
	if index(t, m, "--remount-ro "+home) < index(t, m, "--ro-bind "+repo) {
		t.Error("the home is made read-only before the repository's mount point exists in it")
	}
	if m[len(m)-2] != "--remount-ro /" || m[len(m)-1] != "--chdir "+scratch {
		t.Errorf("the layout ends with %v", m[len(m)-2:])
	}
	// The private /tmp comes before any bind that lives under the host's /tmp (t.TempDir).
	if index(t, m, "--tmpfs /tmp") > index(t, m, "--ro-bind "+project) {
		t.Error("the private /tmp would hide the project")
	}
	if index(t, m, "--ro-bind "+jar) < 0 {
		t.Error("a jar outside every bound folder is not bound")
	}
}

func TestLayoutRefusesSandboxMounts(t *testing.T) {
	for _, p := range []string{"/", "/tmp", "/proc", "/proc/1/root", "/dev", "/dev/shm"} {
		if _, err := newLayout(allFeatures, []string{p}, "", 0); err == nil {
			t.Errorf("binding %s was accepted", p)
		}
	}
	if _, err := newLayout(allFeatures, nil, "/tmp", 0); err == nil {
		t.Error("/tmp as the scratch folder was accepted")
	}
}

// TestLayoutRefusesTheHome: a read-only path or scratch folder that is a home folder (the
// passwd entry's or $HOME) or holds one is refused with a message that names it; a project
// below the home is not.
func TestLayoutRefusesTheHome(t *testing.T) {
	root := t.TempDir()
	home := filepath.Join(root, "home", "user")
	project := filepath.Join(home, "project")
	mustMkdir(t, project)
	t.Setenv("HOME", home)
	refused := []struct{ readOnly, scratch string }{
		{readOnly: home}, {readOnly: filepath.Dir(home)}, {readOnly: filepath.Dir(filepath.Dir(home))}, {scratch: home},
	}
	if pw := passwdHome(); pw != "" && pw != "/" {
		refused = append(refused, struct{ readOnly, scratch string }{readOnly: pw})
	}
	for _, c := range refused {
		var readOnly []string
		if c.readOnly != "" {
			readOnly = []string{c.readOnly}
		}
		_, err := newLayout(allFeatures, readOnly, c.scratch, 0)
		named := c.readOnly + c.scratch
		if err == nil || !strings.Contains(err.Error(), named+" into the sandbox") || !strings.Contains(err.Error(), "home folder") {
			t.Errorf("binding %s: %v", named, err)
		}
	}
	l, err := newLayout(allFeatures, []string{project}, filepath.Join(project, "scratch"), 0)
	if err != nil {
		t.Fatalf("a project below the home: %v", err)
	}
	if !slices.Contains(mounts(l.args()), "--ro-bind "+project) {
		t.Errorf("the project below the home is not bound")
	}
}

func TestLayoutHidesEtcSecrets(t *testing.T) {
	l, err := newLayout(allFeatures, nil, "", 0)
	if err != nil {
		t.Fatal(err)
	}
	m := mounts(l.args())
	for _, f := range []string{"/etc/shadow", "/etc/gshadow"} {
		if fi, err := os.Stat(f); err == nil && fi.Mode().Perm()&0o004 == 0 && !slices.Contains(m, "--ro-bind "+f) {
			t.Errorf("%s is not hidden", f)
		}
	}
	if fi, err := os.Stat("/etc/ssl/private"); err == nil && fi.Mode().Perm()&0o005 != 0o005 && !slices.Contains(m, "--tmpfs /etc/ssl/private") {
		t.Error("/etc/ssl/private is not hidden")
	}
	if slices.Contains(m, "--ro-bind /etc/passwd") {
		t.Error("/etc/passwd is hidden; the JVM needs it for user.home")
	}
}

func TestLayoutWithoutOptionalFlags(t *testing.T) {
	l, err := newLayout(features{}, nil, "", 1<<20)
	if err != nil {
		t.Fatal(err)
	}
	a := strings.Join(l.args(), " ")
	if strings.Contains(a, "--size") || strings.Contains(a, "--disable-userns") {
		t.Errorf("flags this bwrap lacks are used: %s", a)
	}
	if !strings.Contains(a, "--cap-drop ALL") || !strings.Contains(a, "--unshare-net") {
		t.Errorf("the mandatory flags are missing: %s", a)
	}
}
