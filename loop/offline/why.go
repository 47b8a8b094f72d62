package offline

import (
	"fmt"
	"sort"
	"strings"

	"github.com/advertest/advertest-lsp/loop/agent"
)

var _ agent.Explainer = (*Agent)(nil)

// noStableInput says why the original's exploration left no input to write a test from: what
// the inputs' outcomes were, in one sentence.
func (o *original) noStableInput() agent.Evidence {
	facts := []string{fmt.Sprintf("%d inputs tried", o.inputs)}
	for _, kw := range kindWords {
		if n := o.kinds[kw.kind]; n > 0 {
			facts = append(facts, fmt.Sprintf("%d %s", n, kw.words))
		}
	}
	calls := o.kinds["ret"] + o.kinds["throw"]
	switch {
	case o.inputs == 0:
		return agent.Evidence{Why: "the search ran no input: its time budget ran out before the first call", Facts: facts}
	case o.kinds["arrange"] == o.inputs:
		why := "every input failed before the call: making the receiver or an argument threw"
		if o.arrangeX != "" {
			why += " " + lastDot(o.arrangeX)
		}
		return agent.Evidence{Why: why, Facts: facts}
	case o.kinds["timeout"]+o.kinds["bound"] == o.inputs:
		return agent.Evidence{Why: fmt.Sprintf("every call hit a bound (%d ms per call, %d MiB allocated, or the stack)", o.params.perCall.Milliseconds(), o.params.maxAlloc>>20), Facts: facts}
	case calls > 0 && len(o.stab.unstable) > 0:
		return agent.Evidence{Why: "every input's outcome differed between two runs of the original, in " + o.stab.mostUnstable(), Facts: facts}
	case calls > 0 && o.stab.dropped > 0:
		return agent.Evidence{Why: "every input's outcome (its kind or exception) differed between two runs of the original", Facts: facts}
	}
	return agent.Evidence{Why: "no input gave an outcome a test can assert", Facts: facts}
}

// kindWords are the explorer's outcome kinds in words, in the order a why says them: Go's list
// of Output.java's OUT_ kinds (contract_test.go checks that they are the same).
var kindWords = []struct{ kind, words string }{
	{"ret", "returned"}, {"throw", "threw"}, {"arrange", "failed before the call"}, {"timeout", "timed out"},
	{"bound", "past the memory or stack bound"}, {"crash", "crashed the explorer"},
}

// mostUnstable names the observations that differed between the two runs, most often first.
func (st *stability) mostUnstable() string {
	var names []string
	for n := range st.unstable {
		names = append(names, n)
	}
	sort.Slice(names, func(i, j int) bool {
		if st.unstable[names[i]] != st.unstable[names[j]] {
			return st.unstable[names[i]] > st.unstable[names[j]]
		}
		return names[i] < names[j]
	})
	if len(names) > 3 {
		names = append(names[:3], "...")
	}
	return strings.Join(names, ", ")
}

// noDifference says why no input told the mutant apart from the original.
func noDifference(o *original, mut *exploration) agent.Evidence {
	if len(o.records) == 0 {
		return o.noStableInput()
	}
	facts := []string{fmt.Sprintf("%d inputs tried", o.inputs), fmt.Sprintf("%d with a stable outcome", len(o.records))}
	if !mut.complete {
		facts = append(facts, fmt.Sprintf("the mutant's exploration stopped after %d inputs", len(mut.records)))
	}
	return agent.Evidence{Why: "no input the search tried told the mutant apart from the original: it is likely equivalent, or needs inputs the search does not make", Facts: facts}
}
