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
// the order the explorer first met them), the simplest record with that outcome, the first
// one's shape (sameShape: a stream argument is not shrunk to null, which only its signature
// would not tell apart) and the first one's kind of state (sameStateShape: a cache's hit after
// three puts, its keys reordered, is not shrunk to a hit after one put, which returns the same
// and shows no order; a fault that keeps the order went unseen so).
func simplestPerOutcome(records []*record, limit int) []*record {
	var out []*record
	at := map[string]int{}
	for _, rec := range records {
		sig := outcomeSignature(rec.outcome) + writtenSignature(rec)
		i, ok := at[sig]
		switch {
		case ok && sameShape(rec, out[i]) && sameStateShape(rec.outcome, out[i].outcome) && complexity(rec) < complexity(out[i]):
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

// sameStateShape says two outcomes leave the receiver in the same kind of state: each observer
// reads the same kind of value, numbers of the same sign, collections, arrays and strings of
// the same size class (none, one, several).
func sameStateShape(a, b outcome) bool {
	if len(a.State) != len(b.State) {
		return false
	}
	shapes := map[string]string{}
	for _, o := range a.State {
		shapes[o.M] = valueShape(o.R)
	}
	for _, o := range b.State {
		if s, ok := shapes[o.M]; !ok || s != valueShape(o.R) {
			return false
		}
	}
	return true
}

// valueShape is a value's kind and a coarse measure of it (read as the conditions of a test's
// name read an argument, classify): a number's sign or its type's bound, a boolean's value, the
// size class of a string, an array or a collection.
func valueShape(v value) string {
	f := classify(v.V, "")
	switch {
	case f.null:
		return "null"
	case f.boolean != "":
		return f.boolean
	case f.num && f.special != "":
		return v.K + ":" + f.special
	case f.num && f.n > 0:
		return v.K + ":+"
	case f.num && f.n < 0:
		return v.K + ":-"
	case f.num:
		return v.K + ":0"
	case f.str:
		return v.K + ":" + sizeClass(len([]rune(f.s)))
	case f.size >= 0:
		return v.K + ":" + sizeClass(f.size)
	}
	return v.K
}

func sizeClass(n int) string {
	switch {
	case n <= 0:
		return "0"
	case n == 1:
		return "1"
	}
	return "n"
}
