package main

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestUnfetchablePackagesAreFetchErrors fetches, from Debian's registry, a package whose orig
// tarball is missing there (commons-text's, 404) and a package that does not exist: both are
// FetchErrors that are not network failures, with the reason. It skips only when the registry
// cannot be reached.
func TestUnfetchablePackagesAreFetchErrors(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cache := t.TempDir()
	text, ok := LibraryByName("text")
	if !ok {
		t.Fatal("no library text in the table")
	}
	cases := []struct {
		lib    Library
		reason string
	}{
		{text, "404"},
		{Library{Name: "nowhere", Package: "libno-such-package-advertest-java"}, "no source package"},
	}
	for _, c := range cases {
		got, err := Fetch(ctx, cache, c.lib)
		if IsNetworkError(err) {
			t.Skipf("Debian's registry cannot be reached: %v", err)
		}
		var fe *FetchError
		if !errors.As(err, &fe) {
			t.Fatalf("Fetch(%s) = %+v, %v; want a *FetchError", c.lib.Package, got, err)
		}
		if fe.Network || fe.Package != c.lib.Package || !strings.Contains(fe.Reason, c.reason) {
			t.Errorf("Fetch(%s): %+v; want a non-network FetchError of that package saying %q", c.lib.Package, fe, c.reason)
		}
		// Nothing half-made is left where a later run would trust it.
		if _, err := os.Stat(filepath.Join(cache, "sources", c.lib.Package)); !os.IsNotExist(err) {
			t.Errorf("Fetch(%s) failed but left %s/sources/%s (%v)", c.lib.Package, cache, c.lib.Package, err)
		}
	}
}

// TestUnreachableRegistryIsANetworkError points the private apt list at a loopback port nothing
// listens on: the FetchError says network, which a smoke test may skip on.
func TestUnreachableRegistryIsANetworkError(t *testing.T) {
	dir := t.TempDir()
	sources := filepath.Join(dir, "debian.sources")
	list := "Types: deb\nURIs: http://127.0.0.1:9/debian\nSuites: bookworm\nComponents: main\nTrusted: yes\n"
	if err := os.WriteFile(sources, []byte(list), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	f := fetcher{cache: filepath.Join(dir, "cache"), run: execRunner, sources: sources}
	csv, _ := LibraryByName("csv")
	_, err := f.fetch(ctx, csv)
	var fe *FetchError
	if !errors.As(err, &fe) || !fe.Network || fe.Package != csv.Package {
		t.Fatalf("fetch with an unreachable registry = %v; want a network FetchError of %s", err, csv.Package)
	}
	if !strings.Contains(fe.Reason, "apt-get update") {
		t.Errorf("reason %q does not say the lists' update failed", fe.Reason)
	}
	// The run does not try the unreachable registry again for the next library.
	var calls []string
	f.run = func(ctx context.Context, dir, name string, args ...string) ([]byte, error) {
		calls = append(calls, name)
		return execRunner(ctx, dir, name, args...)
	}
	codec, _ := LibraryByName("codec")
	if _, err := f.fetch(ctx, codec); !IsNetworkError(err) {
		t.Errorf("second fetch = %v; want the same network FetchError", err)
	}
	if len(calls) != 0 {
		t.Errorf("second fetch ran %v; want the first update's outcome reused", calls)
	}
}

func TestAptFailureSaysWhy(t *testing.T) {
	cases := []struct {
		out     string
		file    string
		network bool
		reason  string
	}{
		{"Err:2 http://deb.debian.org/debian bookworm/main commons-text 1.10.0-1 (tar)\n  404  Not Found [IP: 203.0.113.80 80]\n" +
			"E: Failed to fetch http://deb.debian.org/debian/pool/main/c/commons-text/commons-text_1.10.0.orig.tar.gz  404  Not Found [IP: 203.0.113.80 80]\n",
			"commons-text_1.10.0.orig.tar.gz", false, "not on the registry (404): E: Failed to fetch http://deb.debian.org/debian/pool/main/c/commons-text/commons-text_1.10.0.orig.tar.gz"},
		{"E: Unable to find a source package for libnothing-java\n", ".dsc", false, "no source package"},
		{"Ign:1 http://deb.debian.org/debian bookworm InRelease\nErr:1 http://deb.debian.org/debian bookworm InRelease\n  Temporary failure resolving 'deb.debian.org'\n",
			"", true, "Temporary failure resolving 'deb.debian.org'"},
		{"Err:1 http://127.0.0.1:9/debian bookworm InRelease\n  Could not connect to 127.0.0.1:9 (127.0.0.1). - connect (111: Connection refused)\n",
			"", true, "Connection refused"},
		{"W: something\nE: Sub-process tar returned an error code (2)\n", "x.orig.tar.xz", false, "E: Sub-process tar returned an error code (2)"},
	}
	for _, c := range cases {
		err := aptFailure("pkg", "what", c.file, []byte(c.out), errors.New("exit status 100"))
		var fe *FetchError
		if !errors.As(err, &fe) || fe.Network != c.network || !strings.Contains(fe.Reason, c.reason) {
			t.Errorf("aptFailure(%q) = %+v; want network %v, a reason with %q", c.out, err, c.network, c.reason)
		}
	}
}

// A debian.tar.xz that is 404 while the orig tarball came is not the orig tarball missing.
func TestAptFailureNamesTheMissingFile(t *testing.T) {
	out := "E: Failed to fetch http://x/pool/c/commons-csv/commons-csv_1.9.0-1.debian.tar.xz  404  Not Found\n"
	err := aptFailure("p", "the orig tarball did not come", "commons-csv_1.9.0.orig.tar.xz", []byte(out), nil)
	if fe := (*FetchError)(nil); !errors.As(err, &fe) || strings.Contains(fe.Reason, "not on the registry") {
		t.Errorf("a missing debian.tar.xz was blamed on the orig tarball: %v", err)
	}
}

const sampleDsc = `-----BEGIN PGP SIGNED MESSAGE-----
Hash: SHA512

Format: 3.0 (quilt)
Source: commons-csv
Binary: libcommons-csv-java
Version: 1.9.0-1
Checksums-Sha1:
 0d5d0e2a5c7de2d3cd2fb1d22aa2e8ab7d8d9e6a 2072100 commons-csv_1.9.0.orig.tar.xz
Checksums-Sha256:
 3a9d8f2d7e1d4b0b4b1e1f9d6b7a0c2f1e2d3c4b5a6978877665544332211000 2072100 commons-csv_1.9.0.orig.tar.xz
 1111111111111111111111111111111111111111111111111111111111111111 3140 commons-csv_1.9.0-1.debian.tar.xz
Files:
 8d2b7d1e4c35a0f6b0e2c3d4e5f60718 2072100 commons-csv_1.9.0.orig.tar.xz
-----BEGIN PGP SIGNATURE-----
`

func TestParseDsc(t *testing.T) {
	path := filepath.Join(t.TempDir(), "commons-csv_1.9.0-1.dsc")
	if err := os.WriteFile(path, []byte(sampleDsc), 0o644); err != nil {
		t.Fatal(err)
	}
	d, err := parseDsc(path)
	if err != nil {
		t.Fatal(err)
	}
	want := dscInfo{source: "commons-csv", version: "1.9.0-1", orig: "commons-csv_1.9.0.orig.tar.xz",
		origSHA256: "3a9d8f2d7e1d4b0b4b1e1f9d6b7a0c2f1e2d3c4b5a6978877665544332211000"}
	if d != want {
		t.Errorf("parseDsc = %+v; want %+v", d, want)
	}
}

func TestDebSrcList(t *testing.T) {
	name, list := debSrcList("/etc/apt/sources.list.d/debian.sources",
		"Types: deb\nURIs: http://deb.debian.org/debian\nSuites: bookworm\n\nTypes: deb\nURIs: http://x\n")
	if name != "src.sources" || strings.Contains(list, "Types: deb\n") || strings.Count(list, "Types: deb-src\n") != 2 {
		t.Errorf("deb822: %s\n%s", name, list)
	}
	name, list = debSrcList("/etc/apt/sources.list", "# c\ndeb http://deb.debian.org/debian bookworm main\ndeb-src http://y z main\n")
	if name != "src.list" || list != "deb-src http://deb.debian.org/debian bookworm main\n" {
		t.Errorf("one-line: %s\n%q", name, list)
	}
}

func TestUpstreamVersionMustMatchTheFacts(t *testing.T) {
	for v, want := range map[string]string{"3.12.0-2+deb12u1": "3.12.0", "1:2.10.14-1": "2.10.14", "4.2": "4.2", "1.15-1": "1.15"} {
		if got := upstreamVersion(v); got != want {
			t.Errorf("upstreamVersion(%q) = %q; want %q", v, got, want)
		}
	}
	lib := Library{Name: "x", Package: "libx-java", Build: BuildFacts{Upstream: "1.9.0"}}
	if err := checkUpstream(&Fetched{Version: "1.9.0-1"}, lib); err != nil {
		t.Errorf("same version: %v", err)
	}
	err := checkUpstream(&Fetched{Version: "1.10.0-1"}, lib)
	var fe *FetchError
	if !errors.As(err, &fe) || fe.Network || !strings.Contains(fe.Reason, "1.9.0") {
		t.Errorf("another upstream version: %v; want a FetchError naming the checked version", err)
	}
}
