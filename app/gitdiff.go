package app

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"

	"github.com/advertest/advertest-lsp/buildtools/sandbox"
	"github.com/advertest/advertest-lsp/javaparse"
	"github.com/advertest/advertest-lsp/loop"
)

// fileChange is what differs in one Java file of the working tree from the revision, in the
// working tree's lines (1-based).
type fileChange struct {
	// whole: the revision does not have the file (an untracked file).
	whole bool
	// ranges are the changed or added lines, inclusive.
	ranges [][2]int
	// removedAfter are the lines after which the revision had lines that are gone (0: before
	// the first line).
	removedAfter []int
}

// touches reports whether the change touches the method's lines: a changed line among them,
// or lines removed between two of them.
func (c *fileChange) touches(m *javaparse.Method) bool {
	if c.whole {
		return true
	}
	for _, r := range c.ranges {
		if r[0] <= m.EndLine && m.StartLine <= r[1] {
			return true
		}
	}
	for _, at := range c.removedAfter {
		if m.StartLine <= at && at < m.EndLine {
			return true
		}
	}
	return false
}

// RevisionError is a failure to read what changed since the revision Rev (Targets.Diff). It
// wraps a loop.RequestError when the revision, or the folder, is the mistake.
type RevisionError struct {
	Rev string
	Err error
}

func (e *RevisionError) Error() string { return fmt.Sprintf("the changes since %s: %v", e.Rev, e.Err) }

func (e *RevisionError) Unwrap() error { return e.Err }

// changes returns the Java files of the repository that holds dir that differ between the
// working tree and rev, by canonical path: `git diff -M` against rev (tracked files, staged
// or not; renamed files are followed, so only their changed lines count) and the untracked
// files that git does not ignore (wholly new).
func (r *Resolver) changes(ctx context.Context, dir, rev string) (map[string]*fileChange, error) {
	git := r.Git
	if git == nil {
		git = func(ctx context.Context, dir string, args ...string) ([]byte, error) {
			return runGit(ctx, r.GitEnv, dir, args...)
		}
	}
	out, err := git(ctx, dir, "rev-parse", "--show-toplevel")
	if err != nil {
		return nil, &RevisionError{Rev: rev, Err: &loop.RequestError{Msg: fmt.Sprintf("%s is not in a git repository: %v", dir, err)}}
	}
	top := strings.TrimRight(string(out), "\r\n")
	if strings.HasPrefix(rev, "-") {
		return nil, &RevisionError{Rev: rev, Err: &loop.RequestError{Msg: "want a git revision (a commit, a branch, HEAD~1)"}}
	}
	if _, err := git(ctx, top, "rev-parse", "--verify", "--quiet", rev+"^{commit}"); err != nil {
		return nil, &RevisionError{Rev: rev, Err: &loop.RequestError{Msg: fmt.Sprintf("not a commit of the repository %s", top)}}
	}
	// Renames, explicit prefixes, no colour, no external diff or text conversion, no
	// diff.relative: the user's git configuration (diff.renames=false, diff.noprefix,
	// diff.mnemonicPrefix, color.diff=always) must not change what is parsed.
	out, err = git(ctx, top, "-c", "core.quotePath=false", "diff", "--no-color", "--no-ext-diff", "--no-textconv",
		"--find-renames", "--unified=0", "--src-prefix=a/", "--dst-prefix=b/", "--no-relative", rev, "--")
	if err != nil {
		return nil, &RevisionError{Rev: rev, Err: err}
	}
	byPath, err := parseDiff(string(out))
	if err != nil {
		return nil, &RevisionError{Rev: rev, Err: fmt.Errorf("reading git's diff: %w", err)}
	}
	untracked, err := git(ctx, top, "ls-files", "--others", "--exclude-standard", "-z")
	if err != nil {
		return nil, &RevisionError{Rev: rev, Err: fmt.Errorf("listing the untracked files: %w", err)}
	}
	for _, p := range strings.Split(string(untracked), "\x00") {
		if p != "" {
			byPath[p] = &fileChange{whole: true}
		}
	}
	changes := map[string]*fileChange{}
	for p, c := range byPath {
		if strings.HasSuffix(p, ".java") {
			changes[canonical(filepath.Join(top, filepath.FromSlash(p)))] = c
		}
	}
	return changes, nil
}

// runGit runs git in dir with the environment env (nil: the default policy's allowlist, see
// sandbox.Policy.ToolEnv) and returns its stdout; a failure carries git's message. git runs
// helpers the repository's configuration names (fsmonitor, askpass, credential helpers): they
// get no API key and no descriptor this process did not open for them.
func runGit(ctx context.Context, env []string, dir string, args ...string) ([]byte, error) {
	cmd := exec.CommandContext(ctx, "git", append([]string{"-C", dir}, args...)...)
	cmd.Env = env
	if cmd.Env == nil {
		cmd.Env = sandbox.Policy{}.ToolEnv(os.Environ())
	}
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := sandbox.SealDescriptors()
	if err == nil {
		err = cmd.Run()
	}
	if err != nil {
		if msg := strings.TrimSpace(stderr.String()); msg != "" {
			return nil, fmt.Errorf("git %s: %s", args[0], msg)
		}
		return nil, fmt.Errorf("git %s: %w", args[0], err)
	}
	return stdout.Bytes(), nil
}

var hunkHeader = regexp.MustCompile(`^@@ -\d+(?:,(\d+))? \+(\d+)(?:,(\d+))? @@`)

// parseDiff reads a unified diff with zero lines of context (git diff --unified=0, prefixes
// a/ and b/) into the changes of each file of the new side, by its path as the diff gives it
// (relative to the top level). Deleted files are left out; a file renamed without a change
// has no hunk and no entry.
func parseDiff(text string) (map[string]*fileChange, error) {
	out := map[string]*fileChange{}
	var cur *fileChange
	lines := strings.Split(text, "\n")
	for i := 0; i < len(lines); i++ {
		l := lines[i]
		switch {
		case strings.HasPrefix(l, "diff --git "):
			cur = nil
		case strings.HasPrefix(l, "+++ "):
			name := strings.TrimPrefix(l, "+++ ")
			if name == "/dev/null" {
				cur = nil
				continue
			}
			p, err := unquoteGitPath(name)
			if err != nil {
				return nil, err
			}
			p, ok := strings.CutPrefix(p, "b/")
			if !ok {
				return nil, fmt.Errorf("unexpected new file name %q", name)
			}
			cur = &fileChange{}
			out[p] = cur
		case strings.HasPrefix(l, "@@ "):
			m := hunkHeader.FindStringSubmatch(l)
			if m == nil {
				return nil, fmt.Errorf("unexpected hunk header %q", l)
			}
			oldCount, newStart, newCount := count(m[1]), atoi(m[2]), count(m[3])
			if cur != nil {
				if newCount == 0 {
					cur.removedAfter = append(cur.removedAfter, newStart)
				} else {
					cur.ranges = append(cur.ranges, [2]int{newStart, newStart + newCount - 1})
				}
			}
			// Skip the hunk's lines: a removed or added line may itself start with "+++ " or
			// "diff --git ".
			for n := oldCount + newCount; i+1 < len(lines) && (n > 0 || strings.HasPrefix(lines[i+1], `\`)); i++ {
				if !strings.HasPrefix(lines[i+1], `\`) {
					n--
				}
			}
		}
	}
	return out, nil
}

// count is a hunk's line count: 1 when the header leaves it out.
func count(s string) int {
	if s == "" {
		return 1
	}
	return atoi(s)
}

func atoi(s string) int {
	n, _ := strconv.Atoi(s)
	return n
}

// unquoteGitPath undoes git's quoting of a path with special characters: "a/b\"c\t\303\244"
// (C escapes, octal bytes). A path without quotes is returned as it is.
func unquoteGitPath(s string) (string, error) {
	if !strings.HasPrefix(s, `"`) {
		return s, nil
	}
	if len(s) < 2 || !strings.HasSuffix(s, `"`) {
		return "", fmt.Errorf("badly quoted path %s", s)
	}
	body := s[1 : len(s)-1]
	var b strings.Builder
	for i := 0; i < len(body); i++ {
		c := body[i]
		if c != '\\' {
			b.WriteByte(c)
			continue
		}
		i++
		if i >= len(body) {
			return "", fmt.Errorf("badly quoted path %s", s)
		}
		switch e := body[i]; e {
		case 'a':
			b.WriteByte('\a')
		case 'b':
			b.WriteByte('\b')
		case 'f':
			b.WriteByte('\f')
		case 'n':
			b.WriteByte('\n')
		case 'r':
			b.WriteByte('\r')
		case 't':
			b.WriteByte('\t')
		case 'v':
			b.WriteByte('\v')
		case '"', '\\':
			b.WriteByte(e)
		default:
			if i+3 > len(body) {
				return "", fmt.Errorf("badly quoted path %s", s)
			}
			v, err := strconv.ParseUint(body[i:i+3], 8, 8)
			if err != nil {
				return "", errors.Join(fmt.Errorf("badly quoted path %s", s), err)
			}
			b.WriteByte(byte(v))
			i += 2
		}
	}
	return b.String(), nil
}
