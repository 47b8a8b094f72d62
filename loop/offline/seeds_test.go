package offline

import (
	"regexp"
	"slices"
	"strings"
	"testing"
)

// TestMergeSeedsBoundedInOrder: a seeding pass's tokens join the literals in the order seen,
// without the ones the method's text holds, twice, empty or too long, at most maxSeeds; its
// characters and ints the literals lack are added once each, bounded too, apart from the
// method's own literals, which stay as they were.
func TestMergeSeedsBoundedInOrder(t *testing.T) {
	lits := literals{ints: []int64{3}, strings: []string{"lit"}, chars: ":"}
	var many []string
	for i := 0; i < 30; i++ {
		many = append(many, "t"+strings.Repeat("x", i%5)+string(rune('a'+i%26)))
	}
	seen := seedsLine{
		Seeds:     append([]string{"zq:", "lit", "", strings.Repeat("y", maxSeedLength+1), "~wv", "zq:"}, many...),
		SeedChars: ":~7",
		SeedInts:  []int64{3, 58, 126, 1, 2, 4, 5, 6, 7, 8},
	}
	got := mergeSeeds(lits, seen)
	if len(got.seeds) != maxSeeds || got.seeds[0] != "zq:" || got.seeds[1] != "~wv" {
		t.Errorf("seeds %q", got.seeds)
	}
	if slices.Contains(got.seeds, "lit") || slices.Contains(got.seeds, "") {
		t.Errorf("seeds hold a literal or an empty string: %q", got.seeds)
	}
	if got.seedChars != "~7" || got.chars != ":" {
		t.Errorf("chars %q, seed chars %q", got.chars, got.seedChars)
	}
	if want := []int64{58, 126, 1, 2, 4, 5}; !slices.Equal(got.seedInts, want) || !slices.Equal(got.ints, []int64{3}) {
		t.Errorf("ints %v, seed ints %v, want %v", got.ints, got.seedInts, want)
	}
	if again := mergeSeeds(lits, seen); !slices.Equal(again.seeds, got.seeds) {
		t.Errorf("the same pass gives other seeds: %q, %q", again.seeds, got.seeds)
	}
}

// TestDriverSendsSeedsAndTheSeedingSwitch: the driver hands the explorer the seeds and, for the
// seeding pass alone, the seeding switch; the seeds line is parsed back.
func TestDriverSendsSeedsAndTheSeedingSwitch(t *testing.T) {
	p := explorerParams{className: "p.C", methodName: "f", lits: literals{seeds: []string{"zq:", "~wv"}, seedChars: "7", seedInts: []int64{58}}}
	d := driverSource("p", "D", 5, p, "/c", 1)
	for _, want := range []string{`k.getField("seeds").set(e, new String[]{"zq:", "~wv"});`, `k.getField("seedChars").set(e, "7");`,
		`k.getField("seedInts").set(e, new long[]{58L});`} {
		if !strings.Contains(d, want) {
			t.Errorf("the driver lacks %s", want)
		}
	}
	if strings.Contains(d, `"seeding"`) {
		t.Errorf("driver:\n%s", d)
	}
	p.seeding = true
	if d := driverSource("p", "D", 5, p, "/c", 1); !strings.Contains(d, `k.getField("seeding").set(e, true);`) {
		t.Errorf("the seeding pass's driver does not switch seeding on:\n%s", d)
	}
	e, err := parseExploration([]byte("{\"header\":true}\n{\"seeds\":[\"zq:\"],\"seedChars\":\"7\",\"seedInts\":[58]}\n{\"end\":true,\"inputs\":3}\n"))
	if err != nil {
		t.Fatal(err)
	}
	if e.seeds == nil || !slices.Equal(e.seeds.Seeds, []string{"zq:"}) || e.seeds.SeedChars != "7" || !slices.Equal(e.seeds.SeedInts, []int64{58}) {
		t.Errorf("seeds line read as %+v", e.seeds)
	}
}

var wholeCommand = regexp.MustCompile(`"run \d+"`)

// TestSeedingFindsAnInventedGrammar: Commands.run parses commands of an invented grammar
// ("zq:" digits "~wv") whose tokens no literal of the method and no dictionary holds. With
// seeding the initial suite pins a whole command's result ("run 42"); without it, no input
// gets past the head and no test does.
func TestSeedingFindsAnInventedGrammar(t *testing.T) {
	proj, _ := calculator(t)
	for _, c := range []struct {
		name string
		off  bool
	}{{"seeded", false}, {"unseeded", true}} {
		t.Run(c.name, func(t *testing.T) {
			a := newAgent(t, proj)
			a.opts.NoSeeding = c.off
			tests := fixtureSuite(t, a, proj, "Commands", "run", "")
			var all []string
			found := false
			for _, tc := range tests {
				all = append(all, tc.Source)
				found = found || wholeCommand.MatchString(tc.Source)
			}
			if found == c.off {
				t.Errorf("seeding off=%v: a test pins a whole command: %v\n%s", c.off, found, strings.Join(all, "\n"))
			}
		})
	}
}
