package main

import (
	"slices"
	"strings"
	"testing"
)

const seedFixture = `package p;

public class Text {
    public static int clamp(int v, int lo, int hi) {
        if (lo > hi) {
            throw new IllegalArgumentException("lo > hi");
        }
        if (v < lo) return lo;
        return Math.min(v, hi) - 1 + Math.abs(lo - hi) * 0;
    }

    static boolean prefixed(String s, String p) {
        Runnable r = () -> System.out.println(s.length() < 3);
        StringBuilder b = new StringBuilder();
        b.append(p);
        return !s.startsWith(p) && "a" + b.append(s).toString() != null;
    }
}
`

func TestSeedCandidatesCoverTheKinds(t *testing.T) {
	faults, err := SeedCandidates([]byte(seedFixture), 4, "k|p.Text|clamp")
	if err != nil {
		t.Fatal(err)
	}
	got := map[string][]string{}
	for _, f := range faults {
		got[f.Kind] = append(got[f.Kind], f.Original+" → "+f.Replacement)
		if f.Line < 4 || f.Line > 10 {
			t.Errorf("fault %s on line %d, outside clamp (lines 4–10)", f.Description(), f.Line)
		}
	}
	for _, want := range []struct{ kind, change string }{
		{"boundary", "> → >="},
		{"boundary", "< → <="},
		{"swapped-operands", "lo > hi → hi > lo"},
		{"swapped-operands", "v, hi → hi, v"},
		{"swapped-operands", "Math.min(v, hi) - 1 → 1 - Math.min(v, hi)"},
		{"missing-check", "(lo > hi) → (false)"},
		{"wrong-call", "min → max"},
		{"missing-abs", "Math.abs(lo - hi) → (lo - hi)"},
		{"off-by-one", "Math.min(v, hi) - 1 → Math.min(v, hi)"},
		{"wrong-operator", "* → /"},
		{"wrong-constant", "0 → 1"},
	} {
		if !slices.Contains(got[want.kind], want.change) {
			t.Errorf("no %s fault %q; got %q", want.kind, want.change, got[want.kind])
		}
	}
	// The guard `if (v < lo) return lo;` is one line: its fault carries the line before and after.
	for _, f := range faults {
		if f.Kind == "missing-check" && f.Original == "(v < lo)" {
			if f.Before != "        if (v < lo) return lo;" || f.After != "        if (false) return lo;" {
				t.Errorf("one-line fault's lines: %q → %q", f.Before, f.After)
			}
		}
	}
}

func TestSeedLeavesLambdasAndStringsAlone(t *testing.T) {
	faults, err := SeedCandidates([]byte(seedFixture), 12, "k|p.Text|prefixed")
	if err != nil {
		t.Fatal(err)
	}
	var kinds []string
	for _, f := range faults {
		kinds = append(kinds, f.Kind+": "+f.Description())
		if strings.Contains(f.Original, "length()") || strings.Contains(f.Original, "println") || f.Original == "3" {
			t.Errorf("fault inside the lambda: %s", f.Description())
		}
		if f.Kind == "wrong-operator" && f.Original == "+" {
			t.Errorf("arithmetic fault on a string concatenation: %s", f.Description())
		}
	}
	for _, want := range []string{"missing-negation: `!s.startsWith(p)` → `s.startsWith(p)`", "wrong-call: `startsWith` → `endsWith`", "wrong-operator: `&&` → `||`",
		"missing-call: `b.append(p);` → `;`", "missing-call: `b.append(s)` → `b`"} {
		if !slices.Contains(kinds, want) {
			t.Errorf("missing %q in %q", want, kinds)
		}
	}
}

func TestSeedOrderIsFixedAndSpreadsKinds(t *testing.T) {
	a, _ := SeedCandidates([]byte(seedFixture), 4, "k|p.Text|clamp")
	b, _ := SeedCandidates([]byte(seedFixture), 4, "k|p.Text|clamp")
	if len(a) != len(b) {
		t.Fatalf("two seedings differ in length: %d, %d", len(a), len(b))
	}
	for i := range a {
		if a[i].ID != b[i].ID {
			t.Fatalf("two seedings differ at %d: %s, %s", i, a[i].ID, b[i].ID)
		}
	}
	seen := map[string]bool{}
	for _, f := range a[:4] {
		if seen[f.Kind] {
			t.Errorf("the first four faults repeat kind %s while others wait: %v", f.Kind, a[:4])
		}
		seen[f.Kind] = true
	}
	src := []byte(seedFixture)
	out, err := a[0].Apply(src)
	if err != nil || string(out) == seedFixture {
		t.Fatalf("Apply: %v, changed %v", err, string(out) != seedFixture)
	}
	if _, err := a[0].Apply(out); err == nil && a[0].Original != a[0].Replacement {
		t.Errorf("a fault applied twice: want an error, the source changed")
	}
}
