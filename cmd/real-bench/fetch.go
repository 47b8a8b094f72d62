package main

import (
	"bufio"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"time"
)

// FetchError is why a library's source package could not be had. Network separates "the
// registry cannot be reached" (DNS, a refused or timed-out connection: a smoke test skips) from
// everything else (the package or its orig tarball is not there, a checksum does not match, a
// command failed: a test fails).
type FetchError struct {
	// Package is the package asked for ("libcommons-text-java").
	Package string
	// Reason says what went wrong, in words.
	Reason string
	// Network: the registry could not be reached.
	Network bool
	// Err is the underlying error, if any.
	Err error
}

func (e *FetchError) Error() string {
	kind := ""
	if e.Network {
		kind = " (network)"
	}
	if e.Err != nil {
		return fmt.Sprintf("fetching %s%s: %s: %v", e.Package, kind, e.Reason, e.Err)
	}
	return fmt.Sprintf("fetching %s%s: %s", e.Package, kind, e.Reason)
}

func (e *FetchError) Unwrap() error { return e.Err }

// IsNetworkError reports whether err is (or wraps) a FetchError that is a network failure.
func IsNetworkError(err error) bool {
	var fe *FetchError
	return errors.As(err, &fe) && fe.Network
}

// Fetched is a library's source package in the cache: downloaded and extracted once, reused by
// later runs.
type Fetched struct {
	// Package is the package asked for; Source the Debian source package it is ("commons-csv")
	// and Version its Debian version ("1.9.0-1"), both from the .dsc.
	Package, Source, Version string
	// Dir is the package's folder in the cache; Orig the orig tarball in it; Upstream the
	// extracted upstream tree (read-only for the benchmark).
	Dir, Orig, Upstream string
}

// fetchRecord is fetched.json, written last into a package's folder: its presence means the
// folder is complete. Paths are relative to the folder, so a moved cache still works.
type fetchRecord struct {
	Package, Source, Version string
	Orig, Upstream           string
}

const fetchRecordName = "fetched.json"

// aptListsMaxAge is how long the private apt lists are trusted before `apt-get update` runs
// again.
const aptListsMaxAge = 24 * time.Hour

// debianSources is the machine's apt source list (deb822), turned into a deb-src list.
const debianSources = "/etc/apt/sources.list.d/debian.sources"

// runner runs one external command in dir and returns its combined output. Prepare's tests
// replace it to count the commands run (a cached Prepare runs none).
type runner func(ctx context.Context, dir, name string, args ...string) ([]byte, error)

func execRunner(ctx context.Context, dir, name string, args ...string) ([]byte, error) {
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir = dir
	cmd.WaitDelay = 10 * time.Second
	return cmd.CombinedOutput()
}

// fetcher holds what one fetch uses; tests point sources at a registry that cannot be reached.
type fetcher struct {
	cache string
	run   runner
	// sources is the apt source list (deb822 or one-line format) whose deb entries become
	// deb-src entries.
	sources string
}

// Fetch downloads lib's Debian source package into cache (once: a later call, in this run or a
// later one, finds it there and runs nothing) and extracts its orig tarball. Errors are
// *FetchError. Safe to call from several goroutines; two processes sharing a cache each
// download, and the first to finish wins.
func Fetch(ctx context.Context, cache string, lib Library) (*Fetched, error) {
	return fetcher{cache: cache, run: execRunner, sources: debianSources}.fetch(ctx, lib)
}

func (f fetcher) fetch(ctx context.Context, lib Library) (*Fetched, error) {
	pkg := lib.Package
	fail := func(reason string, err error) (*Fetched, error) {
		return nil, &FetchError{Package: pkg, Reason: reason, Err: err}
	}
	if pkg == "" || strings.ContainsAny(pkg, "/ \t\n") {
		return fail(fmt.Sprintf("%q is not a package name", pkg), nil)
	}
	root := filepath.Join(f.cache, "sources")
	dir := filepath.Join(root, pkg)
	if got, err := readFetched(dir); err == nil {
		return got, checkUpstream(got, lib)
	}
	if err := f.aptLists(ctx); err != nil {
		var fe *FetchError
		if errors.As(err, &fe) {
			own := *fe
			own.Package, own.Reason = pkg, "apt-get update: "+fe.Reason
			return nil, &own
		}
		return nil, err
	}
	if err := os.MkdirAll(root, 0o755); err != nil {
		return fail("making the cache folder", err)
	}
	tmp, err := os.MkdirTemp(root, ".tmp-"+pkg+"-")
	if err != nil {
		return fail("making a temporary folder", err)
	}
	defer os.RemoveAll(tmp)

	out, runErr := f.run(ctx, tmp, "apt-get", append(f.aptOptions(), "--download-only", "source", pkg)...)
	if ctx.Err() != nil {
		return fail("interrupted", ctx.Err())
	}
	// apt-get exits non-zero when any file of the package is missing, the Debian patches
	// included, which the workbench does not use: judge by the .dsc and the orig tarball.
	dsc, err := findDsc(tmp)
	if err != nil {
		return nil, aptFailure(pkg, "no .dsc came", ".dsc", out, runErr)
	}
	info, err := parseDsc(dsc)
	if err != nil {
		return fail("reading "+filepath.Base(dsc), err)
	}
	if info.orig == "" {
		return fail(filepath.Base(dsc)+" names no orig tarball", nil)
	}
	orig := filepath.Join(tmp, info.orig)
	if _, err := os.Stat(orig); err != nil {
		return nil, aptFailure(pkg, "the orig tarball "+info.orig+" did not come", info.orig, out, runErr)
	}
	if sum, err := sha256File(orig); err != nil {
		return fail("reading "+info.orig, err)
	} else if sum != info.origSHA256 {
		return fail(fmt.Sprintf("%s: sha256 %s, the .dsc says %s", info.orig, sum, info.origSHA256), nil)
	}

	extract := filepath.Join(tmp, "extract")
	if err := os.Mkdir(extract, 0o755); err != nil {
		return fail("making the extract folder", err)
	}
	if out, err := f.run(ctx, tmp, "tar", "-xf", orig, "-C", extract); err != nil {
		return fail("extracting "+info.orig+": "+firstLine(string(out)), err)
	}
	upstream, err := singleTop(extract)
	if err != nil {
		return fail("reading the extracted "+info.orig, err)
	}
	rec := fetchRecord{Package: pkg, Source: info.source, Version: info.version, Orig: info.orig}
	if rec.Upstream, err = filepath.Rel(tmp, upstream); err != nil {
		return fail("placing the upstream tree", err)
	}
	if err := writeJSON(filepath.Join(tmp, fetchRecordName), rec); err != nil {
		return fail("writing "+fetchRecordName, err)
	}
	if err := os.Rename(tmp, dir); err != nil {
		// Another process finished first (or a stale incomplete folder is in the way).
		if got, rerr := readFetched(dir); rerr == nil {
			return got, checkUpstream(got, lib)
		}
		if rmErr := os.RemoveAll(dir); rmErr != nil {
			return fail("removing the incomplete "+dir, rmErr)
		}
		if err := os.Rename(tmp, dir); err != nil {
			return fail("moving the download into place", err)
		}
	}
	got, err := readFetched(dir)
	if err != nil {
		return fail("reading back "+fetchRecordName, err)
	}
	return got, checkUpstream(got, lib)
}

// checkUpstream fails when Debian's version is not the upstream version lib's facts were
// checked on.
func checkUpstream(got *Fetched, lib Library) error {
	if lib.Build.Upstream == "" || upstreamVersion(got.Version) == lib.Build.Upstream {
		return nil
	}
	return &FetchError{Package: lib.Package, Reason: fmt.Sprintf(
		"Debian has version %s; the workbench's facts for %s were checked on upstream %s (update library.go)",
		got.Version, lib.Name, lib.Build.Upstream)}
}

// upstreamVersion is a Debian version's upstream part: no epoch, no Debian revision.
func upstreamVersion(v string) string {
	if _, after, ok := strings.Cut(v, ":"); ok {
		v = after
	}
	if i := strings.LastIndex(v, "-"); i > 0 {
		v = v[:i]
	}
	return v
}

func readFetched(dir string) (*Fetched, error) {
	var rec fetchRecord
	b, err := os.ReadFile(filepath.Join(dir, fetchRecordName))
	if err != nil {
		return nil, err
	}
	if err := json.Unmarshal(b, &rec); err != nil {
		return nil, fmt.Errorf("reading %s: %w", fetchRecordName, err)
	}
	got := &Fetched{Package: rec.Package, Source: rec.Source, Version: rec.Version, Dir: dir,
		Orig: filepath.Join(dir, rec.Orig), Upstream: filepath.Join(dir, rec.Upstream)}
	if _, err := os.Stat(got.Upstream); err != nil {
		return nil, err
	}
	return got, nil
}

// aptOptions point apt-get at the cache's private deb-src list and lists, leaving the
// machine's own apt state alone (and its lock: Debug::NoLocking).
func (f fetcher) aptOptions() []string {
	apt := filepath.Join(f.cache, "apt")
	opts := []string{
		"-o", "Dir::Etc::SourceList=/dev/null",
		"-o", "Dir::Etc::SourceParts=" + filepath.Join(apt, "parts"),
		"-o", "Dir::State::Lists=" + filepath.Join(apt, "lists"),
		"-o", "Debug::NoLocking=1",
	}
	if os.Geteuid() == 0 {
		// As root apt downloads as user _apt, who cannot write into the cache.
		opts = append(opts, "-o", "APT::Sandbox::User=root")
	}
	return opts
}

// aptUpdates remembers, per cache folder, the outcome of this process's `apt-get update`, so
// that a run updates the private lists at most once (and does not retry a registry it could
// not reach for every library).
var aptUpdates = struct {
	sync.Mutex
	done map[string]error
}{done: map[string]error{}}

// aptLists makes the cache's private deb-src lists: `apt-get update` when they are missing or
// older than aptListsMaxAge, at most once per process and cache.
func (f fetcher) aptLists(ctx context.Context) error {
	aptUpdates.Lock()
	defer aptUpdates.Unlock()
	key := f.cache + "\x00" + f.sources
	if err, ok := aptUpdates.done[key]; ok {
		return err
	}
	apt := filepath.Join(f.cache, "apt")
	stamp := filepath.Join(apt, "updated")
	if st, err := os.Stat(stamp); err == nil && time.Since(st.ModTime()) < aptListsMaxAge {
		aptUpdates.done[key] = nil
		return nil
	}
	err := f.aptUpdate(ctx, apt, stamp)
	if ctx.Err() == nil {
		aptUpdates.done[key] = err
	}
	return err
}

func (f fetcher) aptUpdate(ctx context.Context, apt, stamp string) error {
	fail := func(reason string, err error) error {
		return &FetchError{Package: "apt-get update", Reason: reason, Err: err}
	}
	for _, d := range []string{"parts", "lists/partial"} {
		if err := os.MkdirAll(filepath.Join(apt, d), 0o755); err != nil {
			return fail("making the private apt folders", err)
		}
	}
	src, err := os.ReadFile(f.sources)
	if err != nil {
		return fail("reading the machine's apt sources", err)
	}
	name, list := debSrcList(f.sources, string(src))
	if !strings.Contains(list, "deb-src") {
		return fail(f.sources+" has no deb entry to turn into deb-src", nil)
	}
	if err := os.WriteFile(filepath.Join(apt, "parts", name), []byte(list), 0o644); err != nil {
		return fail("writing the deb-src list", err)
	}
	_ = os.Remove(stamp)
	out, runErr := f.run(ctx, apt, "apt-get", append(f.aptOptions(), "update")...)
	if ctx.Err() != nil {
		return fail("interrupted", ctx.Err())
	}
	// apt-get update can exit 0 with every index failed ("W: Failed to fetch"): judge by the
	// Sources indexes being there.
	lists, _ := filepath.Glob(filepath.Join(apt, "lists", "*_Sources*"))
	if runErr != nil || len(lists) == 0 || networkFailure(string(out)) {
		return aptFailure("apt-get update", "the private deb-src lists could not be updated", "", out, runErr)
	}
	if err := os.WriteFile(stamp, []byte(time.Now().UTC().Format(time.RFC3339)+"\n"), 0o644); err != nil {
		return fail("writing the lists' stamp", err)
	}
	return nil
}

// debSrcList turns an apt source list into the same list of deb-src entries: deb822
// ("Types: deb") or one-line ("deb URI SUITE…"). It returns the file name apt wants for it.
func debSrcList(path, src string) (name, list string) {
	if strings.HasSuffix(path, ".sources") {
		return "src.sources", regexp.MustCompile(`(?m)^Types: deb$`).ReplaceAllString(src, "Types: deb-src")
	}
	var b strings.Builder
	for _, line := range strings.Split(src, "\n") {
		if rest, ok := strings.CutPrefix(strings.TrimSpace(line), "deb "); ok {
			b.WriteString("deb-src " + rest + "\n")
		}
	}
	return "src.list", b.String()
}

// networkPatterns are apt's words for a registry it cannot reach.
var networkPatterns = regexp.MustCompile(`(?i)temporary failure resolving|could not resolve|` +
	`connection refused|connection timed out|could not connect|unable to connect|failed to connect|` +
	`network is unreachable|no route to host|connection failed|timed out|name or service not known`)

// networkFailure reports whether apt's output says the registry could not be reached.
func networkFailure(out string) bool { return networkPatterns.MatchString(out) }

// aptFailure is the FetchError for an apt-get run that did not bring what was asked (file, when
// it is one file), with the reason taken from its output: the registry unreachable (Network),
// the file missing (404), no such source package, or apt's last error line.
func aptFailure(pkg, what, file string, out []byte, runErr error) error {
	text := string(out)
	e := &FetchError{Package: pkg, Err: runErr}
	missing := regexp.MustCompile(`\b404\b`)
	if file != "" {
		missing = regexp.MustCompile(regexp.QuoteMeta(file) + `.*\b404\b`)
	}
	switch {
	case networkFailure(text):
		e.Network = true
		e.Reason = what + ": the registry cannot be reached: " + matchingLine(text, networkPatterns)
	case strings.Contains(text, "Unable to find a source package"):
		e.Reason = "Debian has no source package of that name"
	case missing.MatchString(text):
		e.Reason = what + ": not on the registry (404): " + matchingLine(text, missing)
	default:
		e.Reason = what + ": " + lastErrorLine(text)
	}
	return e
}

// matchingLine is the first line of out that re matches, trimmed.
func matchingLine(out string, re *regexp.Regexp) string {
	for _, line := range strings.Split(out, "\n") {
		if re.MatchString(line) {
			return strings.TrimSpace(line)
		}
	}
	return ""
}

// lastErrorLine is apt's last "E:" line, else its last line.
func lastErrorLine(out string) string {
	last, lastE := "", ""
	for _, line := range strings.Split(out, "\n") {
		if line = strings.TrimSpace(line); line == "" {
			continue
		}
		last = line
		if strings.HasPrefix(line, "E:") {
			lastE = line
		}
	}
	switch {
	case lastE != "":
		return lastE
	case last != "":
		return last
	}
	return "apt-get said nothing"
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(strings.TrimSpace(s), "\n")
	return s
}

func findDsc(dir string) (string, error) {
	m, err := filepath.Glob(filepath.Join(dir, "*.dsc"))
	if err != nil || len(m) == 0 {
		return "", fmt.Errorf("no .dsc in %s", dir)
	}
	return m[0], nil
}

// dscInfo is what the workbench reads from a .dsc.
type dscInfo struct {
	source, version  string
	orig, origSHA256 string
}

// parseDsc reads a Debian source control file: Source, Version, and the orig tarball from
// Checksums-Sha256 (a possibly PGP-signed deb822 paragraph).
func parseDsc(path string) (dscInfo, error) {
	var d dscInfo
	f, err := os.Open(path)
	if err != nil {
		return d, err
	}
	defer f.Close()
	inSums := false
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if inSums && strings.HasPrefix(line, " ") {
			fields := strings.Fields(line)
			if len(fields) == 3 && strings.Contains(fields[2], ".orig.tar.") && !strings.HasSuffix(fields[2], ".asc") {
				d.origSHA256, d.orig = fields[0], fields[2]
			}
			continue
		}
		inSums = false
		key, val, ok := strings.Cut(line, ":")
		if !ok {
			continue
		}
		switch key {
		case "Source":
			d.source = strings.TrimSpace(val)
		case "Version":
			d.version = strings.TrimSpace(val)
		case "Checksums-Sha256":
			inSums = true
		}
	}
	if err := sc.Err(); err != nil {
		return d, err
	}
	if d.version == "" || d.source == "" {
		return d, fmt.Errorf("no Source or Version field")
	}
	if strings.ContainsAny(d.orig, "/\\") {
		return d, fmt.Errorf("odd orig tarball name %q", d.orig)
	}
	return d, nil
}

func sha256File(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// singleTop is the one folder a tarball was extracted into, or dir itself when it holds more
// than one entry.
func singleTop(dir string) (string, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return "", err
	}
	if len(entries) == 1 && entries[0].IsDir() {
		return filepath.Join(dir, entries[0].Name()), nil
	}
	if len(entries) == 0 {
		return "", fmt.Errorf("the tarball is empty")
	}
	return dir, nil
}

// writeJSON writes v to path through a temporary file and a rename, so a reader never sees
// half of it.
func writeJSON(path string, v any) error {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, append(b, '\n'), 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}
