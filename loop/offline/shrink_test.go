package offline

import (
	"testing"
)

// A mutant's test is written from the simplest input it differs on, whatever the explorer's
// order; a looping input stays last; the limit holds.
func TestDifferencesSimplestFirst(t *testing.T) {
	line := func(i, args, ret string) string {
		return `{"i":` + i + `,"args":[` + args + `],"out":{"k":"ret","ret":{"k":"prim","v":"` + ret + `","t":"int"}}}`
	}
	origLines := []string{
		line("0", `"1","1","1"`, "0"),
		line("1", `"1820250139","66","Integer.MIN_VALUE"`, "-122575114"),
		line("2", `"-7","3","2"`, "-14"),
		line("3", `"5","0","3"`, "0"),
		line("4", `"4","12","5"`, "40"),
	}
	mutLines := []string{
		line("0", `"1","1","1"`, "0"), // the same outcome: no difference
		line("1", `"1820250139","66","Integer.MIN_VALUE"`, "1"),
		line("2", `"-7","3","2"`, "-21"),
		line("3", `"5","0","3"`, "0"),
		line("4", `"4","12","5"`, "48"),
	}
	orig := &original{byIndex: map[int]*record{}}
	for _, l := range origLines {
		r := recordOf(t, l)
		orig.records = append(orig.records, r)
		orig.byIndex[r.I] = r
	}
	mut := &exploration{}
	for _, l := range mutLines {
		mut.records = append(mut.records, recordOf(t, l))
	}
	got := differences(orig, mut, 2)
	if len(got) != 2 || got[0].rec.I != 2 || got[1].rec.I != 4 {
		var is []int
		for _, c := range got {
			is = append(is, c.rec.I)
		}
		t.Fatalf("differences = inputs %v, want the two simplest that differ, [2 4]", is)
	}

	// a looping input ends the list, after the simpler ones
	mut.records[3] = recordOf(t, `{"i":3,"args":["5","0","3"],"out":{"k":"timeout","stopped":true}}`)
	mut.records = mut.records[:4]
	got = differences(orig, mut, 5)
	if len(got) != 3 || got[0].rec.I != 2 || got[1].rec.I != 1 || !got[2].em.timeout || got[2].rec.I != 3 {
		t.Fatalf("differences with a looping input = %+v", got)
	}
}

// The initial suite's input for an outcome is the simplest with it.
func TestSimplestPerOutcome(t *testing.T) {
	var recs []*record
	for _, l := range []string{
		`{"i":0,"args":["1820250139","0","Integer.MIN_VALUE"],"out":{"k":"ret","ret":{"k":"prim","v":"0","t":"int"}}}`,
		`{"i":1,"args":["\"abcdefgh\"","-2147483647","3"],"out":{"k":"throw","x":"IllegalArgumentException"}}`,
		`{"i":2,"args":["1","0","0"],"out":{"k":"ret","ret":{"k":"prim","v":"0","t":"int"}}}`,
		`{"i":3,"args":["\"\"","-1","0"],"out":{"k":"throw","x":"IllegalArgumentException"}}`,
		`{"i":4,"args":["3","1","0"],"out":{"k":"ret","ret":{"k":"prim","v":"3","t":"int"}}}`,
	} {
		recs = append(recs, recordOf(t, l))
	}
	got := simplestPerOutcome(recs, 2)
	if len(got) != 2 || got[0].I != 2 || got[1].I != 3 {
		t.Fatalf("simplestPerOutcome = %v, want inputs 2 and 3 (the outcome of input 4 past the limit)", got)
	}
	// a null does not stand for a value: the shape of the input stays
	recs = append(recs[:1], recordOf(t, `{"i":5,"args":["null","0","0"],"out":{"k":"ret","ret":{"k":"prim","v":"0","t":"int"}}}`))
	if got := simplestPerOutcome(recs, 1); got[0].I != 0 {
		t.Errorf("simplestPerOutcome picked input %d, a null for a number", got[0].I)
	}
	if complexity(recs[0]) <= complexity(recs[1]) {
		t.Errorf("complexity(%v) = %d, not above complexity(%v) = %d", recs[0].Args, complexity(recs[0]), recs[1].Args, complexity(recs[1]))
	}
}

// A receiver's state of another kind (a list of three keys, not one) is no simpler input for
// the same result: LruCache.get's hit after three puts, which reorders the keys, stays.
func TestSimplestPerOutcomeKeepsTheKindOfState(t *testing.T) {
	hit := func(i, setup, keys string) string {
		return `{"i":` + i + `,"args":["1"],"recv":"new LruCache<>(3)","setup":[` + setup + `],` +
			`"out":{"k":"ret","ret":{"k":"prim","v":"1","t":"int"},"state":[{"m":"keys()","r":{"k":"equals","v":"` + keys + `"}}]}}`
	}
	recs := []*record{
		recordOf(t, hit("0", `"put(1, 1)","put(2, 2)","put(3, 3)"`, "Arrays.asList(2, 3, 1)")),
		recordOf(t, hit("1", `"put(1, 1)"`, "Arrays.asList(1)")),
		recordOf(t, hit("2", `"put(1, 1)","put(2, 2)"`, "Arrays.asList(2, 1)")),
	}
	got := simplestPerOutcome(recs, 3)
	if len(got) != 1 || got[0].I != 2 {
		var is []int
		for _, r := range got {
			is = append(is, r.I)
		}
		t.Fatalf("simplestPerOutcome = inputs %v, want [2]: the simplest with several keys, not input 1's one key", is)
	}
	if sameStateShape(recs[0].outcome, recs[1].outcome) || !sameStateShape(recs[0].outcome, recs[2].outcome) {
		t.Errorf("sameStateShape: three keys against one said the same, or three against two not")
	}
}
