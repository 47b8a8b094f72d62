package app

import (
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/advertest/advertest-lsp/loop"
	"github.com/advertest/advertest-lsp/loop/report"
	"github.com/advertest/advertest-lsp/loop/state"
)

// The verdicts of single mutants (loop/state's verdicts file, see docs/state.md): the user's
// (Mark as equivalent, Ignore this mutant, `advertest mutate --ignore`) and the equivalence
// evidence of earlier runs. Every use case brings them to its report; Play records its judge's
// new evidence; SetUserVerdict is the one way the CLI and the server change a mark.

// loadVerdicts reads the module's verdicts; a problem is a warning (the run goes on without
// them, or with what could be read).
func loadVerdicts(root string, ev Events) *state.Verdicts {
	v, err := state.Open(root).LoadVerdicts()
	if err != nil && ev != nil {
		ev.Warning(Warning{Message: err.Error(), Err: err})
	}
	return v
}

// applyVerdicts brings the verdicts to the report's mutants and scores it again when they
// changed something.
func applyVerdicts(v *state.Verdicts, rep *report.Report) {
	if rep != nil && v.Apply(rep.Mutants) {
		rep.Rescore()
	}
}

// latestVerdicts are the module's verdicts as they are now: the user may have marked a mutant
// while the run went on (a problem reading them is a warning; the run's first reading stands).
func (r *run) latestVerdicts() *state.Verdicts {
	v, err := state.Open(r.root()).LoadVerdicts()
	if err != nil {
		r.warnState(err)
		return r.verdicts
	}
	r.verdicts = v
	return v
}

// skipSets are the ids the game leaves alone (the user's marks) and those the judge need not
// be asked about again (judged by an earlier run).
func skipSets(v *state.Verdicts) (ignore, judged map[string]bool) {
	ignore, judged = map[string]bool{}, map[string]bool{}
	for id, e := range v.Mutants {
		if e.User != "" {
			ignore[id] = true
		}
		if e.Evidence != nil {
			judged[id] = true
		}
	}
	return ignore, judged
}

// recordEvidence keeps the equivalence evidence a run's judges gave its survivors for later
// runs of the same mutants (`advertest mutate`, Analyze, a restarted server), and forgets the
// evidence of a mutant a test has killed since. The user's marks are left as they are.
func (r *run) recordEvidence(rep *report.Report) {
	due := false
	for _, mu := range rep.Mutants {
		if _, change := evidenceChange(r.verdicts.For(mu), mu); change {
			due = true
		}
	}
	if !due {
		return // nothing to write: a run leaves no file where it learned nothing
	}
	m := r.req.Method
	err := state.Open(r.root()).UpdateVerdicts(func(v *state.Verdicts) bool {
		changed := false
		now := time.Now()
		for _, mu := range rep.Mutants {
			if eq, change := evidenceChange(v.For(mu), mu); change {
				v.SetEvidence(mu, m.Class, m.Query, eq, now)
				changed = true
			}
		}
		return changed
	})
	r.warnState(err)
}

// evidenceChange says how a run's verdict on mu changes the evidence stored for it: a judge's
// new or different equivalence on a survivor is kept (eq), a killed mutant's evidence is
// forgotten (eq nil); change is false when the stored evidence stands.
func evidenceChange(stored *state.Verdict, mu report.Mutant) (eq *report.Equivalence, change bool) {
	hasStored := stored != nil && stored.Evidence != nil
	switch {
	case mu.Status == report.Killed && hasStored:
		return nil, true
	case mu.Status == report.Survived && mu.Equivalence != nil && mu.Equivalence.By != report.ByUser &&
		(!hasStored || *stored.Evidence != *mu.Equivalence):
		return mu.Equivalence, true
	}
	return nil, false
}

// SetUserVerdict records the user's verdict on m, a mutant of the method (class, query) in the
// module at root: state.UserEquivalent (Mark as equivalent), state.UserIgnored (Ignore this
// mutant), or "" to take the mark off. The method's saved state, when it has one, is brought
// up to date with it (statuses and scores). It reports whether a mark changed and returns the
// saved report as it is now (nil when the method has no state). A problem with the saved state
// after the mark was written is returned with the mark made (changed true).
func SetUserVerdict(root, class, query string, m report.Mutant, verdict string) (changed bool, rep *report.Report, err error) {
	switch verdict {
	case "", state.UserEquivalent, state.UserIgnored:
	default:
		return false, nil, fmt.Errorf("unknown verdict %q: want %q, %q or none", verdict, state.UserEquivalent, state.UserIgnored)
	}
	store := state.Open(root)
	var verdicts *state.Verdicts
	err = store.UpdateVerdicts(func(v *state.Verdicts) bool {
		verdicts = v
		now := time.Now()
		if verdict == "" {
			changed = v.Unmark(m.ID, now)
			return changed
		}
		if e := v.For(m); e != nil && e.User == verdict {
			return false
		}
		v.Mark(m, class, query, verdict, now)
		changed = true
		return true
	})
	if err != nil && verdicts == nil {
		return false, nil, err
	}
	stateErr := store.Update(class, query, func(st *state.Method) *state.Method {
		if st == nil {
			return nil
		}
		rep = st.Report
		if !verdicts.Apply(st.Report.Mutants) {
			return nil
		}
		st.Report.Rescore()
		return st
	})
	if err == nil {
		err = stateErr
	}
	return changed, rep, err
}

// Marks lists the user's marks on the mutants of one method.
func Marks(root, class, query string) ([]state.MarkedMutant, error) {
	v, err := state.Open(root).LoadVerdicts()
	return v.Marked(class, query), err
}

// FindMutant finds the mutant id of the method, as a mark needs it (its line's text): among
// the mutants of the method's saved state, else among the rule-based mutants of its current
// text the settings' operators allow. The error lists the ids there are when it is not found.
func FindMutant(req Request, id string) (report.Mutant, error) {
	m := req.Method
	root, err := ModuleRoot(m.Target.File)
	if err != nil {
		return report.Mutant{}, err
	}
	var known []report.Mutant
	if st, _ := state.Open(root).Load(m.Class, m.Query); st != nil {
		known = append(known, st.Report.Mutants...)
	}
	sel, err := operators(req.Settings)
	if err != nil {
		return report.Mutant{}, err
	}
	for _, rm := range loop.AllRuleMutants(m.Target, sel) {
		known = append(known, report.Mutant{ID: rm.ID, Line: rm.Line, Original: rm.Original, Mutated: rm.Mutated,
			Origin: string(rm.Origin), Operator: rm.Operator, Description: rm.Description})
	}
	for _, k := range known {
		if k.ID == id {
			return k, nil
		}
	}
	ids := map[string]bool{}
	for _, k := range known {
		ids[k.ID] = true
	}
	list := make([]string, 0, len(ids))
	for k := range ids {
		list = append(list, k)
	}
	sort.Strings(list)
	if len(list) > 12 {
		list = append(list[:12], fmt.Sprintf("… %d more", len(ids)-12))
	}
	return report.Mutant{}, fmt.Errorf("no mutant %s in `%s` (its mutants: %s; `advertest mutate --json -` lists them with their lines)",
		id, m.Name(), strings.Join(list, ", "))
}
