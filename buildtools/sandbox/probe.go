package sandbox

import (
	"bytes"
	"context"
	"fmt"
	"os/exec"
	"runtime"
	"strings"
	"sync"
	"time"
)

// Availability is what a probe found: whether bwrap can start a sandbox here, and if not why,
// in words a user can act on.
type Availability struct {
	OK bool
	// Reason says why not when !OK; when OK it names the bwrap found and any bound it cannot
	// set on this system.
	Reason string

	bwrap    string   // the bwrap executable
	features features // the optional flags this bwrap has
}

// features are the bwrap flags that not every version has.
type features struct {
	size          bool // --size (bounds a tmpfs)
	disableUserns bool // --disable-userns (0.8.0)
}

var (
	probeOnce sync.Once
	probed    Availability
)

// Probe tries once per process to start the sandbox this package builds (the whole layout,
// running true) and says whether it works.
func Probe() Availability {
	probeOnce.Do(func() { probed = probeBwrap("bwrap") })
	return probed
}

// probeTimeout bounds the probe's runs; a working bwrap answers in milliseconds.
const probeTimeout = 20 * time.Second

// installHint is the fix for a missing bwrap.
const installHint = "Debian/Ubuntu: apt-get install bubblewrap; Fedora: dnf install bubblewrap"

func probeBwrap(name string) Availability {
	if runtime.GOOS != "linux" {
		return Availability{Reason: fmt.Sprintf("not Linux (%s): the sandbox is bubblewrap, which needs Linux namespaces", runtime.GOOS)}
	}
	path, err := exec.LookPath(name)
	if err != nil {
		return Availability{Reason: fmt.Sprintf("bwrap is not installed (%s)", installHint)}
	}
	ctx, cancel := context.WithTimeout(context.Background(), probeTimeout)
	defer cancel()
	help, _ := exec.CommandContext(ctx, path, "--help").CombinedOutput()
	version, _ := exec.CommandContext(ctx, path, "--version").Output()
	a := Availability{bwrap: path, features: features{
		size:          bytes.Contains(help, []byte("--size")),
		disableUserns: bytes.Contains(help, []byte("--disable-userns")),
	}}
	truePath, err := exec.LookPath("true")
	if err != nil {
		return Availability{Reason: "cannot probe bwrap: no true program on PATH"}
	}
	l, err := newLayout(a.features, nil, "", DefaultTmpSize)
	if err != nil {
		return Availability{Reason: fmt.Sprintf("cannot probe bwrap: %v", err)}
	}
	cmd := exec.CommandContext(ctx, path, append(l.args(), "--", truePath)...)
	cmd.Env = []string{"PATH=/usr/bin:/bin"}
	if err := SealDescriptors(); err != nil {
		return Availability{Reason: fmt.Sprintf("cannot probe bwrap: %v", err)}
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		return Availability{Reason: refusal(err, stderr.String())}
	}
	v := strings.TrimSpace(string(version))
	if v == "" {
		v = "bwrap"
	}
	notes := []string{fmt.Sprintf("%s (%s)", v, path)}
	if !a.features.size {
		notes = append(notes, "this bwrap has no --size: the private /tmp is not bounded")
	}
	if !a.features.disableUserns {
		notes = append(notes, "this bwrap has no --disable-userns: code inside may create nested user namespaces")
	}
	a.OK = true
	a.Reason = strings.Join(notes, "; ")
	return a
}

// refusal turns a failed probe into words: most systems that refuse are ones that forbid
// unprivileged user namespaces.
func refusal(err error, stderr string) string {
	msg := strings.TrimSpace(stderr)
	if msg == "" {
		msg = err.Error()
	}
	if i := strings.IndexByte(msg, '\n'); i >= 0 {
		msg = msg[:i]
	}
	lower := strings.ToLower(msg)
	for _, sign := range []string{"uid map", "gid map", "operation not permitted", "permission denied",
		"no permissions to creat", "creating new namespace failed", "unshare", "setgroups"} {
		if strings.Contains(lower, sign) {
			return fmt.Sprintf("user namespaces are refused: %s (Ubuntu 23.10 and later: AppArmor's "+
				"kernel.apparmor_restrict_unprivileged_userns; Debian before 11: kernel.unprivileged_userns_clone; "+
				"containers: their seccomp profile; see docs/sandbox.md)", msg)
		}
	}
	return fmt.Sprintf("bwrap cannot start a sandbox: %s", msg)
}
