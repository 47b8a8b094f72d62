package mutants

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/advertest/advertest-lsp/javaparse"
)

var update = flag.Bool("update", false, "rewrite testdata/pinned.txt from the current generator")

// pinnedSources are the Java files whose mutants testdata/pinned.txt pins: the corpus and
// the examples' main sources.
var pinnedSources = []string{
	"testdata/Corpus.java",
	"../../examples/maven-calculator/src/main/java/org/acme/PriceCalculator.java",
	"../../examples/gradle-inventory/src/main/java/org/acme/inventory/Pricing.java",
	"../../examples/gradle-inventory/src/main/java/org/acme/inventory/Inventory.java",
}

// TestPinnedMutants pins every mutant, both groups, of every method of the corpus and the
// examples: id, line, operator, mutated line and description. A change to an operator
// that changes what it makes shows here line by line; rewrite the file with
// `go test -run TestPinnedMutants -update` only when the change is meant.
func TestPinnedMutants(t *testing.T) {
	var b strings.Builder
	for _, path := range pinnedSources {
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		f, err := javaparse.Parse(src)
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&b, "## %s\n", filepath.Base(path))
		for _, m := range f.Methods() {
			for _, strong := range []bool{false, true} {
				group := "default"
				if strong {
					group = "strong"
				}
				for _, mu := range Generate(f, m, Options{Strong: strong}) {
					fmt.Fprintf(&b, "%s %s %s %d %s %q %s\n", m.Name, group, mu.ID, mu.Line, mu.Operator, strings.TrimSpace(mu.Mutated), mu.Description)
				}
			}
		}
	}
	got := b.String()
	const golden = "testdata/pinned.txt"
	if *update {
		if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (create it with -update)", err)
	}
	if got != string(want) {
		gl, wl := strings.Split(got, "\n"), strings.Split(string(want), "\n")
		wantSet, gotSet := map[string]bool{}, map[string]bool{}
		for _, l := range wl {
			wantSet[l] = true
		}
		for _, l := range gl {
			gotSet[l] = true
			if !wantSet[l] {
				t.Errorf("new:  %s", l)
			}
		}
		for _, l := range wl {
			if !gotSet[l] {
				t.Errorf("gone: %s", l)
			}
		}
		if !t.Failed() {
			t.Errorf("the same mutants in another order")
		}
	}
}
