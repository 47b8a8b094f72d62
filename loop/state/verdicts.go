package state

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/advertest/advertest-lsp/internal/filelock"
	"github.com/advertest/advertest-lsp/loop/report"
)

// The verdicts file holds what is known of single mutants beyond one run's verdict, by the
// mutant's stable id, for the whole module: the user's verdict (Mark as equivalent, Ignore
// this mutant, `advertest mutate --ignore`) and the evidence of an equivalence judge (the
// LLM's, the search's) from earlier runs. The CLI and the server read and write the same
// file, so a mark survives restarts and is seen by both. Each entry keeps the mutated line's
// text it was given for: a mutant whose line changed no longer matches it, and loses it.

// VerdictsFile is the verdicts file's name in the state folder.
const VerdictsFile = "verdicts.json"

// The user's verdicts.
const (
	// UserEquivalent: the user says the mutant behaves like the original (status ignored,
	// equivalence {equivalent, by user}).
	UserEquivalent = "equivalent"
	// UserIgnored: the user does not want to see the mutant (status ignored, no equivalence).
	UserIgnored = "ignored"
)

// Verdict is what is known of one mutant.
type Verdict struct {
	// Class and Method (the query name, loop.QueryName) name the mutant's method; Line is
	// where the mutant was when the verdict was given (1-based). They are for people reading
	// the file and for listings; matching is by id and Original.
	Class  string `json:"class"`
	Method string `json:"method"`
	Line   int    `json:"line"`
	// Original and Mutated are the mutated line's text before and after, trimmed: the
	// verdict holds while the mutant's original line reads Original.
	Original string `json:"original"`
	Mutated  string `json:"mutated"`
	// User is the user's verdict: UserEquivalent, UserIgnored, or "" for none.
	User string `json:"user,omitempty"`
	// Evidence is a judge's verdict from an earlier run (by "llm" or "search"); nil for none.
	Evidence  *report.Equivalence `json:"evidence,omitempty"`
	UpdatedAt time.Time           `json:"updatedAt"`
}

// Verdicts is the verdicts file.
type Verdicts struct {
	Schema int `json:"schema"`
	// Mutants maps a mutant's id to its verdict.
	Mutants map[string]*Verdict `json:"mutants"`
}

// VerdictsPath is the verdicts file of the module.
func (s *Store) VerdictsPath() string { return filepath.Join(s.Dir(), VerdictsFile) }

// LoadVerdicts reads the verdicts file; an empty set when there is none. A corrupt file is
// moved aside (a *CorruptError, with an empty set): the marks start afresh.
func (s *Store) LoadVerdicts() (*Verdicts, error) {
	path := s.VerdictsPath()
	defer lockMethod(path)()
	return loadVerdictsLocked(path)
}

func loadVerdictsLocked(path string) (*Verdicts, error) {
	empty := &Verdicts{Schema: Schema, Mutants: map[string]*Verdict{}}
	var v Verdicts
	if found, err := readJSONFile(path, "the verdicts", &v); !found || err != nil {
		return empty, err
	}
	if v.Schema != Schema {
		return empty, fmt.Errorf("reading the verdicts %s: schema %d, want %d", path, v.Schema, Schema)
	}
	if v.Mutants == nil {
		v.Mutants = map[string]*Verdict{}
	}
	for id, e := range v.Mutants {
		if e == nil {
			delete(v.Mutants, id)
		}
	}
	return &v, nil
}

// UpdateVerdicts changes the verdicts file as one step: fn gets the verdicts saved last and
// changes them in place; when it returns true they are written (atomically). Updates run one
// at a time in the process, and, where the system has file locks, across processes (the CLI
// and a server), so that neither loses the other's marks. The error is the write's, or else a
// warning from the load (a *CorruptError: fn got an empty set).
func (s *Store) UpdateVerdicts(fn func(*Verdicts) bool) error {
	path := s.VerdictsPath()
	defer lockMethod(path)()
	if err := os.MkdirAll(s.Dir(), 0o755); err != nil {
		return fmt.Errorf("creating %s: %w", s.Dir(), err)
	}
	unlock, err := filelock.Lock(filepath.Join(s.Dir(), ".verdicts.lock"))
	if err != nil {
		return fmt.Errorf("locking the verdicts: %w", err)
	}
	defer unlock()
	v, loadErr := loadVerdictsLocked(path)
	var corrupt *CorruptError
	if loadErr != nil && !errors.As(loadErr, &corrupt) {
		return loadErr // another schema, or unreadable: not overwritten
	}
	if !fn(v) {
		return loadErr
	}
	v.Schema = Schema
	data, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return fmt.Errorf("encoding the verdicts: %w", err)
	}
	if err := report.WriteFileAtomic(path, append(data, '\n')); err != nil {
		return fmt.Errorf("saving the verdicts: %w", err)
	}
	return loadErr
}

// lineText is a mutant line as the verdicts keep it.
func lineText(s string) string { return strings.TrimSpace(s) }

// For returns the verdict that holds for m: the entry of its id, given for the line m's
// original line still reads; nil when there is none.
func (v *Verdicts) For(m report.Mutant) *Verdict {
	if v == nil {
		return nil
	}
	e := v.Mutants[m.ID]
	if e == nil || e.Original != lineText(m.Original) {
		return nil
	}
	return e
}

// entry returns m's entry, made (or remade, when its line changed) for m's current line.
func (v *Verdicts) entry(m report.Mutant, class, query string, now time.Time) *Verdict {
	e := v.For(m)
	if e == nil {
		e = &Verdict{}
		v.Mutants[m.ID] = e
	}
	e.Class, e.Method, e.Line = class, query, m.Line
	e.Original, e.Mutated = lineText(m.Original), lineText(m.Mutated)
	e.UpdatedAt = now
	return e
}

// Mark records the user's verdict (UserEquivalent or UserIgnored) on m, a mutant of the
// method query of class.
func (v *Verdicts) Mark(m report.Mutant, class, query, user string, now time.Time) {
	v.entry(m, class, query, now).User = user
}

// Unmark takes the user's verdict off the mutant id (its judges' evidence stays); it reports
// whether there was one.
func (v *Verdicts) Unmark(id string, now time.Time) bool {
	e := v.Mutants[id]
	if e == nil || e.User == "" {
		return false
	}
	e.User, e.UpdatedAt = "", now
	if e.Evidence == nil {
		delete(v.Mutants, id)
	}
	return true
}

// SetEvidence records a judge's verdict on m (nil: forget it). The user's verdict stays.
func (v *Verdicts) SetEvidence(m report.Mutant, class, query string, eq *report.Equivalence, now time.Time) {
	if eq == nil {
		if e := v.For(m); e != nil && e.Evidence != nil {
			e.Evidence, e.UpdatedAt = nil, now
			if e.User == "" {
				delete(v.Mutants, m.ID)
			}
		}
		return
	}
	c := *eq
	v.entry(m, class, query, now).Evidence = &c
}

// Marked lists the user's verdicts on the mutants of one method (class and query), by line.
func (v *Verdicts) Marked(class, query string) []MarkedMutant {
	var out []MarkedMutant
	for id, e := range v.Mutants {
		if e.User != "" && e.Class == class && e.Method == query {
			out = append(out, MarkedMutant{ID: id, Verdict: *e})
		}
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Line != out[j].Line {
			return out[i].Line < out[j].Line
		}
		return out[i].ID < out[j].ID
	})
	return out
}

// MarkedMutant is a mutant the user gave a verdict, with its id.
type MarkedMutant struct {
	ID string
	Verdict
}

// UserEquivalence is the equivalence a report carries for a mutant the user marked equivalent.
var UserEquivalence = report.Equivalence{Verdict: report.VerdictEquivalent, By: report.ByUser, Evidence: "marked equivalent by the user"}

// Apply brings the verdicts to a report's mutants, in place, and reports whether any changed:
//   - a survivor the user marked becomes ignored (with the user's equivalence when marked
//     equivalent); a mutant that was ignored and no longer is (unmarked, or its line changed)
//     is a survivor again;
//   - a survivor with no equivalence of its own takes the evidence of an earlier run's judge.
//
// A mark applies to survivors only: a mutant a test kills counts as killed.
func (v *Verdicts) Apply(ms []report.Mutant) bool {
	changed := false
	for i := range ms {
		m := &ms[i]
		before := *m
		e := v.For(*m)
		if m.Status == report.Ignored {
			// What the user said is said again below, from the file as it is now.
			m.Status = report.Survived
			if m.Equivalence != nil && m.Equivalence.By == report.ByUser {
				m.Equivalence = nil
			}
		}
		if e != nil && m.Status == report.Survived {
			switch e.User {
			case UserEquivalent:
				eq := UserEquivalence
				m.Status, m.Equivalence = report.Ignored, &eq
			case UserIgnored:
				m.Status, m.Equivalence = report.Ignored, nil
			default:
				if m.Equivalence == nil && e.Evidence != nil {
					c := *e.Evidence
					m.Equivalence = &c
				}
			}
		}
		if m.Status != before.Status || !sameEquivalence(m.Equivalence, before.Equivalence) {
			changed = true
		}
	}
	return changed
}

func sameEquivalence(a, b *report.Equivalence) bool {
	if a == nil || b == nil {
		return a == b
	}
	return *a == *b
}
