package offline

import (
	"math"
	"sort"
	"strings"
)

// Shrinking (issue 32, item 5): a test's input should be the simplest one that shows its
// behaviour. The explorer runs each input once and Go keeps every record, so the simplest input
// with the same effect is picked among those already run: no input is run again for it, and
// the verification run that follows (verify.go) checks the picked inputs as before. Inputs the
// explorer did not generate (a number halved, a string cut) are not tried: the explorer takes
// no input from Go.

// complexity measures how simple an input is to read: a number by its digits (a sign counts
// one, a type's MAX_VALUE or MIN_VALUE ten), a string by its length, any other argument by its
// expression's length, plus the receiver's construction, its mutator calls and the graph's
// lines. Smaller is simpler.
func complexity(rec *record) int {
	n := 0
	for _, a := range rec.Args {
		n += argComplexity(a)
	}
	if rec.Recv != nil {
		n += len(*rec.Recv) / 4
	}
	for _, s := range rec.Setup {
		n += 2 + len(s)/4
	}
	for _, g := range rec.Graph {
		n += 1 + len(g)/8
	}
	return n
}

func argComplexity(expr string) int {
	f := classify(expr, "")
	switch {
	case f.null, f.boolean != "":
		return 0
	case f.num && f.special != "":
		return 10
	case f.num:
		d := 0
		if f.n < 0 {
			d++
		}
		if a := math.Abs(f.n); a >= 1 {
			d += int(math.Log10(a)) + 1
		} else if a > 0 {
			d += 2 // a fraction
		}
		return d
	case f.str:
		return len([]rune(f.s))
	case f.char:
		return 1
	}
	return len(strings.TrimSpace(expr)) / 4
}

// simplestFirst orders the candidates by their inputs' complexity, keeping the explorer's order
// between equals; candidates under a time limit (a looping mutant) stay last, as
// differences ends with them.
func simplestFirst(cands []candidate) {
	sort.SliceStable(cands, func(i, j int) bool {
		if cands[i].em.timeout != cands[j].em.timeout {
			return !cands[i].em.timeout
		}
		return complexity(cands[i].rec) < complexity(cands[j].rec)
	})
}

// simplestPerOutcome picks, for each of the first limit distinct outcomes of the records (in
// the order the explorer first met them), the simplest record with that outcome and the first
// one's shape (sameShape): a stream argument is not shrunk to null, which only its signature
// would not tell apart.
func simplestPerOutcome(records []*record, limit int) []*record {
	var out []*record
	at := map[string]int{}
	for _, rec := range records {
		sig := outcomeSignature(rec.outcome) + writtenSignature(rec)
		i, ok := at[sig]
		switch {
		case ok && sameShape(rec, out[i]) && complexity(rec) < complexity(out[i]):
			out[i] = rec
		case !ok && len(out) < limit:
			at[sig] = len(out)
			out = append(out, rec)
		}
	}
	return out
}

// sameShape says two inputs differ only in their values: the same arguments null, the same
// graph, a receiver made or not.
func sameShape(a, b *record) bool {
	if len(a.Args) != len(b.Args) || a.GraphToken != b.GraphToken || (a.Recv == nil) != (b.Recv == nil) {
		return false
	}
	for i := range a.Args {
		if (a.Args[i] == "null") != (b.Args[i] == "null") {
			return false
		}
	}
	return true
}
