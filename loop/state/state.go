package state

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/advertest/advertest-lsp/loop/report"
)

// DirName is the state folder's name at the module root.
const DirName = ".advertest"

// Schema is the version of the files this package writes.
const Schema = 1

// MaxHistory bounds a method's history: beyond it the oldest entries are dropped, so that a
// method saved on every keystroke's save does not grow its file without end.
const MaxHistory = 100

// Kinds of run that leave state.
const (
	KindGenerate = "generateTests"
	KindAnalyze  = "analyzeMutants"
)

// Method is everything kept about one method.
type Method struct {
	Schema int `json:"schema"`
	// Kind is the run that made the state (KindGenerate or KindAnalyze); an on-save round
	// keeps it.
	Kind string `json:"kind"`
	// Query is the name that finds the method again in its file (loop.QueryName: the class
	// path below the top-level class, the name, the parameter types).
	Query string `json:"query"`
	// MethodText is the method's text when it was last evaluated: a save whose text differs
	// triggers an on-save round.
	MethodText string `json:"methodText"`
	// Report is the last run's report (target, mutants with verdicts, the generated suite).
	Report *report.Report `json:"report"`
	// Covering maps a mutant id to the tests that execute its line on the original.
	Covering map[string][]string `json:"coveringTests,omitempty"`
	// History has one entry per run, oldest first.
	History   []Entry   `json:"history"`
	UpdatedAt time.Time `json:"updatedAt"`
}

// Entry is one run in a method's history.
type Entry struct {
	Time          time.Time `json:"time"`
	Kind          string    `json:"kind"` // generateTests, analyzeMutants, onSave:analyze, onSave:round, killMutant
	MutationScore *float64  `json:"mutationScore"`
	Mutants       int       `json:"mutants"`
	Survived      int       `json:"survived"`
	Tests         int       `json:"tests"`
}

// Store is the state folder of one module.
type Store struct {
	moduleRoot string
}

// Open returns the store of a module root; nothing is created until Save.
func Open(moduleRoot string) *Store { return &Store{moduleRoot: moduleRoot} }

// Dir is the state folder.
func (s *Store) Dir() string { return filepath.Join(s.moduleRoot, DirName) }

// Path is the file that holds a method's state: methods/<class>/<query>-<hash>.json.
func (s *Store) Path(class, query string) string {
	sum := sha256.Sum256([]byte(class + "\x00" + query))
	name := sanitize(query)
	if len(name) > 60 {
		name = name[:60]
	}
	return filepath.Join(s.Dir(), "methods", sanitize(class), name+"-"+hex.EncodeToString(sum[:4])+".json")
}

func sanitize(s string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '.', r == '$', r == '_', r == '-':
			return r
		}
		return '_'
	}, s)
}

// CorruptError reports a state file that did not hold a method's state: it was renamed
// aside to MovedTo (or could not be), and that method starts afresh. It is a warning to show
// the user; the operation that met it went on.
type CorruptError struct {
	Path    string
	MovedTo string // "" when the rename failed
	Err     error  // why the file was unreadable (and, if so, why the rename failed)
}

func (e *CorruptError) Error() string {
	if e.MovedTo == "" {
		return fmt.Sprintf("the AdverTest state file %s is corrupt (%v); its method starts afresh", e.Path, e.Err)
	}
	return fmt.Sprintf("the AdverTest state file %s was corrupt (%v): moved to %s; its method starts afresh", e.Path, e.Err, filepath.Base(e.MovedTo))
}

func (e *CorruptError) Unwrap() error { return e.Err }

// methodLocks serialises the reads and writes of one method's file within the process (by
// absolute path: every Store of a module shares them), so that concurrent updates of a
// method neither interleave nor lose one another.
var methodLocks sync.Map // string → *sync.Mutex

func lockMethod(path string) func() {
	if abs, err := filepath.Abs(path); err == nil {
		path = abs
	}
	mu, _ := methodLocks.LoadOrStore(path, new(sync.Mutex))
	mu.(*sync.Mutex).Lock()
	return mu.(*sync.Mutex).Unlock
}

// Save writes a method's state atomically (readers see the old or the new file, never half),
// its history cut to the MaxHistory latest entries. Update is the way to change what is
// there: Save replaces it.
func (s *Store) Save(m *Method) error {
	if m.Report == nil {
		return errors.New("saving method state: no report")
	}
	path := s.Path(m.Report.Target.Class, m.Query)
	defer lockMethod(path)()
	return s.saveLocked(path, m)
}

func (s *Store) saveLocked(path string, m *Method) error {
	m.Schema = Schema
	m.Report.Normalize()
	m.History = capHistory(m.History)
	data, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return fmt.Errorf("encoding the state of %s: %w", m.Query, err)
	}
	if err := report.WriteFileAtomic(path, append(data, '\n')); err != nil {
		return fmt.Errorf("saving the state of %s: %w", m.Query, err)
	}
	s.index().record(path, m.Report.Target.File)
	return nil
}

// Update changes a method's state as one step: fn gets the state saved last (nil when there
// is none) and returns the state to save (nil: save nothing). Updates of one method run one
// at a time, so none is lost. The error is the save's, or else a warning from the load (a
// *CorruptError: the old file was moved aside and fn got nil).
func (s *Store) Update(class, query string, fn func(prev *Method) *Method) error {
	path := s.Path(class, query)
	defer lockMethod(path)()
	prev, loadErr := loadLocked(path)
	next := fn(prev)
	if next == nil {
		return loadErr
	}
	if next.Report == nil {
		return errors.New("saving method state: no report")
	}
	if err := s.saveLocked(path, next); err != nil {
		return err
	}
	return loadErr
}

// Load reads a method's state; nil and no error when there is none. A corrupt file is moved
// aside and reported with a *CorruptError (and a nil state).
func (s *Store) Load(class, query string) (*Method, error) {
	path := s.Path(class, query)
	defer lockMethod(path)()
	return loadLocked(path)
}

// loadLocked reads path, whose method lock is held, moving it aside when corrupt.
func loadLocked(path string) (*Method, error) {
	var m Method
	if found, err := readJSONFile(path, "state", &m); !found || err != nil {
		return nil, err
	}
	if m.Schema != Schema {
		// Another version's file, not a broken one: left alone.
		return nil, fmt.Errorf("reading state %s: schema %d, want %d", path, m.Schema, Schema)
	}
	if m.Report == nil {
		return nil, moveAside(path, errors.New("no report in it"))
	}
	return &m, nil
}

// readJSONFile decodes the file at path into v; found is false when there is none. A file that
// does not decode is moved aside (moveAside's *CorruptError).
func readJSONFile(path, what string, v any) (found bool, err error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("reading %s %s: %w", what, path, err)
	}
	if err := json.Unmarshal(data, v); err != nil {
		return false, moveAside(path, err)
	}
	return true, nil
}

// moveAside renames a corrupt state file to <name>.corrupt (replacing an older one), where
// it no longer hides the method's state and the user can still look at it.
func moveAside(path string, why error) *CorruptError {
	to := path + ".corrupt"
	if err := os.Rename(path, to); err != nil {
		return &CorruptError{Path: path, Err: errors.Join(why, fmt.Errorf("renaming it aside: %w", err))}
	}
	return &CorruptError{Path: path, MovedTo: to, Err: why}
}

// ForFile returns the states of the methods of one source file (relFile relative to the
// module root, forward slashes), sorted by the method's start line. Unreadable files are
// skipped and reported in the error (corrupt ones moved aside, each a *CorruptError), with
// the readable states still returned. The method files already indexed (index.go) and
// unchanged since are read only when they belong to relFile.
func (s *Store) ForFile(relFile string) ([]*Method, error) {
	var (
		out  []*Method
		errs []error
	)
	ix := s.index()
	root := filepath.Join(s.Dir(), "methods")
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				return nil
			}
			return err
		}
		if d.IsDir() || !strings.HasSuffix(path, ".json") {
			return nil
		}
		if info, err := d.Info(); err == nil {
			if source, ok := ix.source(path, info); ok && source != relFile {
				return nil
			}
		}
		unlock := lockMethod(path)
		m, err := loadLocked(path)
		if m != nil {
			ix.record(path, m.Report.Target.File)
		} else {
			ix.forget(path)
		}
		unlock()
		if err != nil {
			errs = append(errs, err)
			return nil
		}
		if m != nil && m.Report.Target.File == relFile {
			out = append(out, m)
		}
		return nil
	})
	if err != nil {
		errs = append(errs, err)
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Report.Target.StartLine < out[j].Report.Target.StartLine })
	return out, errors.Join(errs...)
}

// Record appends a run to the history from its report.
func (m *Method) Record(kind string, now time.Time) {
	c := report.Counts(m.Report.Mutants)
	m.History = capHistory(append(m.History, Entry{Time: now, Kind: kind, MutationScore: m.Report.MutationScore,
		Mutants: len(m.Report.Mutants), Survived: c[report.Survived], Tests: len(m.Report.Tests.Methods)}))
	m.UpdatedAt = now
}

// capHistory keeps the MaxHistory latest entries.
func capHistory(h []Entry) []Entry {
	if len(h) <= MaxHistory {
		return h
	}
	return append([]Entry(nil), h[len(h)-MaxHistory:]...)
}
