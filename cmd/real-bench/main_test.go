package main

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/advertest/advertest-lsp/cmd/internal/benchkit"
)

// TestUnfetchableAndUnbuildableLibrariesAreSkipped: a library whose source package does not
// exist, and one whose build needs what Debian's repository lacks, are each reported with the
// reason and left out; the run goes on with the others.
func TestUnfetchableAndUnbuildableLibrariesAreSkipped(t *testing.T) {
	if testing.Short() {
		t.Skip("downloads a source package and runs Maven")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	csv, _ := LibraryByName("csv")
	broken := csv
	broken.Name = "csv-unbuildable"
	broken.Build.Deps = append([]Dep{{Group: "org.example.nowhere", Artifact: "missing", Version: "1.0"}}, csv.Build.Deps...)
	missing := Library{Name: "nowhere", Package: "libno-such-package-advertest-java", Kind: "text", JUnit: 5,
		Packages: []string{"org.nowhere"}, Build: BuildFacts{Upstream: "1.0", Release: 8, Encoding: "UTF-8"}}
	var log strings.Builder
	tools := benchkit.JavaTools{JUnitJar: benchkit.DefaultJUnitJar}
	lays, _, names, skipped, err := layOut(ctx, defaultCache(), []Library{missing, broken}, PrepareOptions{}, tools, &log)
	if err != nil {
		t.Fatalf("layOut: %v", err)
	}
	if IsNetworkError(errorOf(skipped, "nowhere")) || IsNetworkError(errorOf(skipped, "csv-unbuildable")) {
		t.Skipf("the registry cannot be reached: %s", reasonOf(skipped, "nowhere"))
	}
	if len(lays) != 0 || len(names) != 0 || len(skipped) != 2 {
		t.Fatalf("laid out %v, skipped %+v; want both skipped\n%s", names, skipped, log.String())
	}
	t.Logf("skipped: %+v", skipped)
	if r := reasonOf(skipped, "nowhere"); !strings.Contains(r, "libno-such-package-advertest-java") {
		t.Errorf("the unfetchable library's reason does not name the package: %q", r)
	}
	if r := reasonOf(skipped, "csv-unbuildable"); !strings.Contains(r, "missing") {
		t.Errorf("the unbuildable library's reason does not name what is missing: %q", r)
	}
	if !strings.Contains(log.String(), "skipping nowhere:") || !strings.Contains(log.String(), "skipping csv-unbuildable:") {
		t.Errorf("the log does not report the skipped libraries:\n%s", log.String())
	}
}

func reasonOf(skipped []SkippedLib, name string) string {
	for _, s := range skipped {
		if s.Library == name {
			return s.Reason
		}
	}
	return ""
}

func errorOf(skipped []SkippedLib, name string) error {
	for _, s := range skipped {
		if s.Library == name {
			return s.Err
		}
	}
	return nil
}

func TestCauseGroupsMessagesByShape(t *testing.T) {
	a := Cause("the test agent cannot drive `Foo.bar`: the method is private at /tmp/x/Foo.java:12\nmore")
	b := Cause("the test agent cannot drive `Baz.qux`: the method is private at /work/y/Baz.java:340")
	if a != b {
		t.Errorf("same shape, two causes: %q and %q", a, b)
	}
	x := Cause("offline test agent: cannot drive org.apache.commons.codec.digest.MurmurHash2.getLittleEndianLong: the method is private")
	y := Cause("offline test agent: cannot drive org.joda.time.base.BasePeriod$Inner.set: the method is private")
	if x != y || x != "offline test agent: cannot drive NAME: the method is private" {
		t.Errorf("qualified names are not blanked: %q, %q", x, y)
	}
	compile := Cause("advertest run: the test agent's first move: offline: the initial suite does not compile: [{org.acme.FooAdverTestInitial2 15 32 error ')' expected} {org.acme.FooAdverTestInitial2 16 57 error ';' expected}] (exit status 1)")
	if want := "advertest run: the test agent's first move: offline: the initial suite does not compile: [diagnostics] (exit status N)"; compile != want {
		t.Errorf("a compiler's diagnostics: %q, want %q", compile, want)
	}
	if c := Cause("advertest run: exit status 1"); c == a {
		t.Errorf("different messages, one cause: %q", c)
	}
}
