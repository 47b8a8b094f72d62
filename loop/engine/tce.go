package engine

import (
	"sync"

	"github.com/advertest/advertest-lsp/buildtools/harness"
	"github.com/advertest/advertest-lsp/loop/mutants"
	"github.com/advertest/advertest-lsp/loop/report"
)

// Trivial compiler equivalence: a mutant whose class compiles to the original's bytecode is
// equivalent, one that compiles to another mutant's is a duplicate (docs/contracts.md). The
// worker digests what it compiles (harness.Digest: debug attributes, frames and block layout
// left out; for a schema, the code each active mutant runs); the engine compares.

// The evidence of the bytecode verdicts.
const (
	evidenceSameClass   = "the mutated class compiles to the original's bytecode (line numbers and debug attributes aside)"
	evidenceSameArm     = "the mutated site compiles to the original's bytecode"
	evidenceCompiledOut = "javac compiled the site away: dead code under a compile-time constant condition"
)

// pending marks a mutant whose tests the worker skipped: its bytecode is that of another mutant
// of the evaluation, whose verdict it takes (resolve).
const pending report.Status = ""

// bytecode is what one evaluation knows of its mutants' bytecode.
type bytecode struct {
	// original holds the digests that behave as the original: the baseline's and the schema's
	// with no mutant active.
	original map[string]bool

	mu sync.Mutex
	// digest is each mutant's digest by its index in the evaluation, "" when unknown; evidence
	// says why a schema mutant is equivalent before any run.
	digest   []string
	evidence []string
	// known are digests whose verdict the evaluation has or will have: a run of a mutant with
	// one of them (or an original digest) runs no test.
	known map[string]bool
	// prior maps the digests of mutants outside the evaluation (Options.Known) to their ids.
	prior map[string]string
}

func newBytecode(base *Baseline, sch *schema, n int, prior map[string]string) *bytecode {
	b := &bytecode{original: map[string]bool{}, digest: make([]string, n), evidence: make([]string, n), known: map[string]bool{}, prior: prior}
	for d := range prior {
		b.known[d] = true
	}
	if base != nil && base.digest != "" {
		b.original[base.digest] = true
	}
	if sch != nil && sch.digest != nil {
		b.original[sch.digest.Original] = true
	}
	return b
}

// planSchema gives the schema's mutants their digests before any run: the code a run with
// the mutant active executes, or, for a site javac compiled away, the original's. It returns
// the indexes that need no run of their own: equivalent ones, and those whose digest an
// earlier schema mutant has (the earlier one runs).
func (b *bytecode) planSchema(ms []mutants.Mutant, sch *schema) map[int]bool {
	skip := map[int]bool{}
	if sch == nil || sch.digest == nil || sch.digest.Opaque || sch.digest.Original == "" {
		return skip
	}
	unknown := map[int]bool{}
	for _, k := range sch.digest.Unknown {
		unknown[k] = true
	}
	first := map[string]bool{}
	for i, m := range ms {
		k := sch.id(m.ID)
		if k == 0 || unknown[k] {
			continue
		}
		d, ok := sch.digest.Mutants[k]
		switch {
		case !ok:
			d = sch.digest.Original
			b.evidence[i] = evidenceCompiledOut
		case b.original[d]:
			b.evidence[i] = evidenceSameArm
		}
		b.digest[i] = d
		if b.original[d] || first[d] || b.prior[d] != "" {
			skip[i] = true
			continue
		}
		first[d] = true
		b.known[d] = true
	}
	return skip
}

// skipList is what a run of a mutant compiled alone may skip: the bytecode of the original and
// of the mutants with a verdict (or one on its way).
func (b *bytecode) skipList() []string {
	b.mu.Lock()
	defer b.mu.Unlock()
	out := make([]string, 0, len(b.original)+len(b.known))
	for d := range b.original {
		out = append(out, d)
	}
	for d := range b.known {
		out = append(out, d)
	}
	return out
}

// record keeps the digest of mutant i's own compile; ran says whether its tests ran (a verdict
// other mutants with its bytecode can take).
func (b *bytecode) record(i int, d string, ran bool) {
	if d == "" {
		return
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	b.digest[i] = d
	if ran {
		b.known[d] = true
	}
}

// subjectDigest is the subject's digest in a compile result, "" without one.
func subjectDigest(cr *harness.CompileResult, class string) string {
	if cr == nil || !cr.OK {
		return ""
	}
	return cr.Digests[class].Original
}

// resolve gives the bytecode verdicts, in the order of the mutants so that they do not depend
// on which run ended first: a mutant with an original digest is equivalent; among mutants
// with one digest the first keeps (or takes, when its tests were skipped) the verdict and the
// others are duplicates of it. A mutant left pending without anyone's verdict (the evaluation
// was cut short) is dropped, with its duplicates.
func (b *bytecode) resolve(ms []mutants.Mutant, results []*report.Mutant, st *Stats) {
	rep := map[string]int{}
	st.Digests = map[string]string{}
	for i, v := range results {
		d := b.digest[i]
		if v == nil || d == "" {
			continue
		}
		st.Digests[ms[i].ID] = d
		if b.original[d] {
			ev := b.evidence[i]
			if ev == "" {
				ev = evidenceSameClass
			}
			*v = bytecodeVerdict(*v, report.Equivalent)
			v.Equivalence = &report.Equivalence{Verdict: report.VerdictEquivalent, By: report.ByBytecode, Evidence: ev}
			st.Equivalent++
			continue
		}
		if id := b.prior[d]; id != "" && !b.original[d] {
			*v = bytecodeVerdict(*v, report.Duplicate)
			v.DuplicateOf = id
			st.Duplicate++
			continue
		}
		j, seen := rep[d]
		if !seen {
			rep[d] = i
			continue
		}
		first := results[j]
		if first != nil && first.Status == pending && v.Status != pending {
			first.Status, first.KilledBy = v.Status, append([]string{}, v.KilledBy...)
		}
		*v = bytecodeVerdict(*v, report.Duplicate)
		v.DuplicateOf = ms[j].ID
		st.Duplicate++
	}
	// A representative comes before its duplicates: one pass drops both.
	for i, v := range results {
		if v != nil && v.Status == pending {
			results[i] = nil
		}
		if v != nil && v.Status == report.Duplicate && results[rep[b.digest[i]]] == nil {
			results[i] = nil
		}
	}
}

// bytecodeVerdict is v with a status that no test decided.
func bytecodeVerdict(v report.Mutant, s report.Status) report.Mutant {
	v.Status = s
	v.KilledBy = []string{}
	return v
}
