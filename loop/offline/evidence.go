package offline

import (
	"fmt"
	"slices"
	"strings"

	"github.com/advertest/advertest-lsp/javaparse"
	"github.com/advertest/advertest-lsp/loop/agent"
)

// Search evidence in words: what the probes' counts (infect.go) say about a mutant no test
// killed, and when they are no evidence at all (a kind of argument the search can build and
// never tried, too few inputs that changed the value).

// paramKinds is the explorer's "kinds" line for one parameter: the kinds of value its pool
// holds (String, StringBuilder, an implementation, a lambda; an array's elements after "[]")
// and those the inputs it ran had.
type paramKinds struct {
	Can   []string `json:"can"`
	Tried []string `json:"tried"`
}

// maxUntried bounds the untried kinds named.
const maxUntried = 5

// untriedKinds names, per parameter, the kinds of value the explorer can build that no input it
// ran had ("cs2 as StringBuilder"): the search's counts are no evidence of equivalence then.
func untriedKinds(kinds []paramKinds, m *javaparse.Method) []string {
	var out []string
	for i, k := range kinds {
		name := fmt.Sprintf("argument %d", i+1)
		if i < len(m.Params) && m.Params[i].Name != "" {
			name = m.Params[i].Name
		}
		for _, c := range k.Can {
			if !slices.Contains(k.Tried, c) && len(out) < maxUntried {
				out = append(out, name+" as "+c)
			}
		}
	}
	return out
}

// infectionEvidence says why no test came out, given what the probes saw.
func infectionEvidence(base agent.Evidence, inf *agent.Infection) agent.Evidence {
	e := agent.Evidence{Facts: base.Facts, Infection: inf}
	switch {
	case inf.LikelyEquivalent():
		e.Why = "probably equivalent: " + inf.Summary()
	case len(inf.Untried) > 0 && inf.Reached > 0 && inf.Infected > 0 && inf.Propagated == 0:
		e.Why = "not evidence of equivalence: the search did not try every kind of argument it can build (" +
			strings.Join(inf.Untried, ", ") + "); " + inf.Summary()
	case inf.Infected > 0 && inf.Propagated == 0 && len(inf.Untried) == 0:
		// infected on too few inputs to count (agent.MinInfectedForEquivalence)
		e.Why = "not evidence of equivalence: too few inputs changed its value; " + inf.Summary()
	case inf.Reached == 0:
		e.Why = "no input the search tried reached the mutated expression"
	case inf.Infected == 0:
		e.Why = fmt.Sprintf("the search did not reach the distinguishing state: %s reached the mutated expression, none changed its value", inputsText(inf.Reached))
	default:
		// infected and propagated on the probed runs, yet not on the plain ones: the outcome
		// is not stable enough to say anything
		e.Why = base.Why
	}
	return e
}

func inputsText(n int) string {
	if n == 1 {
		return "1 input"
	}
	return fmt.Sprintf("%d inputs", n)
}
