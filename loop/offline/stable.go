package offline

import "fmt"

// The original is explored twice; an outcome is compared between the two runs part by part
// (the kind and exception, the result, each observer of the receiver, each argument after the
// call). A part that differs is dropped from that input, and an observer that differs on any
// input is dropped from every input: it is never asserted, and never compared with a mutant's.
// Only a different kind or exception drops the whole input.

// unstableResult marks a result that differed between the two runs of the original.
const unstableResult = "unstable"

// stability counts what the two runs of the original disagreed on.
type stability struct {
	inputs   int            // inputs seen in both runs with the same kind of outcome
	dropped  int            // inputs dropped: a different kind of outcome or exception
	unstable map[string]int // observation → inputs where it differed ("the result", "getX()")
}

func newStability() *stability { return &stability{unstable: map[string]int{}} }

// compareRuns compares one input's two outcomes; false when the input must be dropped (the
// kind of outcome or the exception differs). The observations that differ are counted.
func (st *stability) compareRuns(a, b *outcome) bool {
	if a.K != b.K || a.X != b.X {
		st.dropped++
		return false
	}
	st.inputs++
	if a.Ret != nil && !sameValue(a.Ret, b.Ret) {
		st.unstable["the result"]++
	}
	for _, o := range a.State {
		if mv, ok := findObserved(b.State, o.M); !ok || !sameValue(&o.R, &mv.R) {
			st.unstable[o.M]++
		}
	}
	for _, af := range a.After {
		if mv, ok := findAfter(b.After, af.A); !ok || !sameValue(&af.R, &mv.R) {
			st.unstable[argName(af.A)]++
		}
	}
	return true
}

func argName(i int) string { return fmt.Sprintf("argument %d after the call", i+1) }

// clean removes from o the observations that differed: the result when it differed on this
// input (twin is the other run's outcome), every observer or argument that differed anywhere.
// It reports whether anything is left to assert.
func (st *stability) clean(o, twin *outcome) bool {
	if o.Ret != nil && !sameValue(o.Ret, twin.Ret) {
		o.Ret = &value{K: unstableResult}
	}
	var state []observed
	for _, ob := range o.State {
		if st.unstable[ob.M] == 0 {
			state = append(state, ob)
		}
	}
	o.State = state
	var after []argAfter
	for _, af := range o.After {
		if st.unstable[argName(af.A)] == 0 {
			after = append(after, af)
		}
	}
	o.After = after
	if o.K == "throw" || o.Ret == nil || o.Ret.K != unstableResult {
		return true
	}
	return len(o.State) > 0 || len(o.After) > 0
}

// outcomesDiffer compares the original's (stable) outcome o with a mutant's u on one input,
// looking only at what o still holds. When the result agrees and the state does not, em names
// the observers and arguments that differ.
func outcomesDiffer(o, u *outcome) (emphasis, bool) {
	em := emphasis{}
	if o.K != u.K || o.X != u.X {
		return em, true
	}
	if o.K == "ret" && o.Ret != nil && o.Ret.K != unstableResult && !sameValue(o.Ret, u.Ret) {
		return em, true
	}
	for _, ob := range o.State {
		if ob.R.K == "throws" {
			continue
		}
		if mv, ok := findObserved(u.State, ob.M); !ok || !sameValue(&ob.R, &mv.R) {
			em.state = append(em.state, ob.M)
		}
	}
	for _, af := range o.After {
		if mv, ok := findAfter(u.After, af.A); !ok || !sameValue(&af.R, &mv.R) {
			em.afterArgs = append(em.afterArgs, af.A)
		}
	}
	if len(em.state) == 0 && len(em.afterArgs) == 0 {
		return em, false
	}
	if len(em.state) > 3 {
		em.state = em.state[:3]
	}
	return em, true
}
