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
	"time"

	"github.com/advertest/advertest-lsp/loop/report"
)

// DirName is the state folder's name at the module root.
const DirName = ".advertest"

// Schema is the version of the files this package writes.
const Schema = 1

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

// Save writes a method's state atomically (readers see the old or the new file, never half).
func (s *Store) Save(m *Method) error {
	if m.Report == nil {
		return errors.New("saving method state: no report")
	}
	m.Schema = Schema
	m.Report.Normalize()
	data, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return fmt.Errorf("encoding the state of %s: %w", m.Query, err)
	}
	if err := report.WriteFileAtomic(s.Path(m.Report.Target.Class, m.Query), append(data, '\n')); err != nil {
		return fmt.Errorf("saving the state of %s: %w", m.Query, err)
	}
	return nil
}

// Load reads a method's state; nil and no error when there is none.
func (s *Store) Load(class, query string) (*Method, error) {
	return readMethod(s.Path(class, query))
}

func readMethod(path string) (*Method, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("reading state %s: %w", path, err)
	}
	var m Method
	if err := json.Unmarshal(data, &m); err != nil {
		return nil, fmt.Errorf("reading state %s: %w", path, err)
	}
	if m.Schema != Schema || m.Report == nil {
		return nil, fmt.Errorf("reading state %s: schema %d, want %d", path, m.Schema, Schema)
	}
	return &m, nil
}

// ForFile returns the states of the methods of one source file (relFile relative to the
// module root, forward slashes), sorted by the method's start line. Unreadable files are
// skipped and reported in the error, with the readable states still returned.
func (s *Store) ForFile(relFile string) ([]*Method, error) {
	var (
		out  []*Method
		errs []error
	)
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
		m, err := readMethod(path)
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
	m.History = append(m.History, Entry{Time: now, Kind: kind, MutationScore: m.Report.MutationScore,
		Mutants: len(m.Report.Mutants), Survived: c[report.Survived], Tests: len(m.Report.Tests.Methods)})
	m.UpdatedAt = now
}
