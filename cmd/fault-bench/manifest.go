package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/advertest/advertest-lsp/javaparse"
)

// Half is one side of the benchmark's fixed split.
type Half string

const (
	// Dev is the half a developer looks at while changing the agents.
	Dev Half = "dev"
	// Holdout is the half that is only measured.
	Holdout Half = "holdout"
)

// HalfOf is the split rule: a fault is in the dev half when the first byte of the SHA-256 of
// its name ("Class.method") is even, else in the holdout half. The rule looks at the name
// only, so adding a fault never moves another one.
func HalfOf(name string) Half {
	if sum := sha256.Sum256([]byte(name)); sum[0]%2 == 0 {
		return Dev
	}
	return Holdout
}

// Manifest is faults.json: the faults of the benchmark's Java project, which is the folder
// that holds the manifest.
type Manifest struct {
	// Dir is the project's root, the manifest's folder.
	Dir string `json:"-"`
	// Comment says what the file is, for a reader of the JSON.
	Comment string  `json:"comment,omitempty"`
	Faults  []Fault `json:"faults"`
}

// Fault is one seeded single-line fault.
type Fault struct {
	// File is the class's source, relative to the project's root.
	File string `json:"file"`
	// Method picks the method as `advertest run --method` does: a name, with a parameter
	// list for an overload ("clamp(int,int,int)"), the class's name for a constructor,
	// "Inner.name" in a nested class.
	Method string `json:"method"`
	// Kind is the fault's shape: boundary, off-by-one, wrong-variable, overflow, ...
	Kind string `json:"kind"`
	// Fixed is the method's line as committed and Buggy the faulty line that replaces it;
	// both compared and written without their indentation (the line's own is kept).
	Fixed string `json:"fixed"`
	Buggy string `json:"buggy"`
	// Description says what goes wrong, as a bug report would.
	Description string `json:"description"`
	// Witness names a static method of witness/Witnesses.java that returns on the fixed
	// code and throws on the buggy one: the proof that the fault can be detected.
	Witness string `json:"witness"`
}

// Name is "Class.method", the fault's name in the output and the input of the split rule;
// Class is the file's name without .java.
func (f Fault) Name() string {
	return strings.TrimSuffix(filepath.Base(f.File), ".java") + "." + f.Method
}

// Half is the fault's side of the split.
func (f Fault) Half() Half { return HalfOf(f.Name()) }

// LoadManifest reads and checks faults.json: every field present, names unique, each fault's
// fixed line found exactly once in its method (ApplyTo's checks).
func LoadManifest(path string) (*Manifest, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("reading the fault manifest: %w", err)
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	var m Manifest
	if err := dec.Decode(&m); err != nil {
		return nil, fmt.Errorf("parsing %s: %w", path, err)
	}
	m.Dir = filepath.Dir(path)
	if len(m.Faults) == 0 {
		return nil, fmt.Errorf("%s lists no faults", path)
	}
	seen := map[string]bool{}
	var errs []error
	for i, f := range m.Faults {
		if err := f.validate(); err != nil {
			errs = append(errs, fmt.Errorf("fault %d (%s): %w", i+1, f.Name(), err))
			continue
		}
		if seen[f.Name()] {
			errs = append(errs, fmt.Errorf("fault %d: a second fault in %s: one fault per method", i+1, f.Name()))
			continue
		}
		seen[f.Name()] = true
		if _, err := m.Buggy(f); err != nil {
			errs = append(errs, fmt.Errorf("fault %d: %w", i+1, err))
		}
	}
	if err := errors.Join(errs...); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return &m, nil
}

func (f Fault) validate() error {
	var missing []string
	for _, fld := range []struct{ name, value string }{
		{"file", f.File}, {"method", f.Method}, {"kind", f.Kind}, {"fixed", f.Fixed},
		{"buggy", f.Buggy}, {"description", f.Description}, {"witness", f.Witness},
	} {
		if strings.TrimSpace(fld.value) == "" {
			missing = append(missing, fld.name)
		}
	}
	if len(missing) > 0 {
		return fmt.Errorf("missing %s", strings.Join(missing, ", "))
	}
	if strings.ContainsAny(f.Fixed+f.Buggy, "\r\n") {
		return errors.New("fixed and buggy must be single lines")
	}
	if strings.TrimSpace(f.Fixed) == strings.TrimSpace(f.Buggy) {
		return errors.New("the buggy line is the fixed line")
	}
	return nil
}

// Path is the fault's source file in the project at root.
func (f Fault) Path(root string) string { return filepath.Join(root, filepath.FromSlash(f.File)) }

// Buggy is the text of f's file in the manifest's project with the fault applied.
func (m *Manifest) Buggy(f Fault) ([]byte, error) {
	src, err := os.ReadFile(f.Path(m.Dir))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", f.Name(), err)
	}
	return f.ApplyTo(src)
}

// ApplyTo returns src with the fault applied: the one line of f's method whose text, without
// indentation, is f.Fixed becomes f.Buggy with that line's indentation. It fails when the
// method is not found or ambiguous, or when the fixed line is not in it exactly once.
func (f Fault) ApplyTo(src []byte) ([]byte, error) {
	parsed, err := javaparse.Parse(src)
	if err != nil {
		return nil, fmt.Errorf("%s: parsing %s: %w", f.Name(), f.File, err)
	}
	found := parsed.FindMethods(f.Method)
	switch {
	case len(found) == 0:
		return nil, fmt.Errorf("%s: no method %q in %s", f.Name(), f.Method, f.File)
	case len(found) > 1:
		return nil, fmt.Errorf("%s: %q is ambiguous in %s: give its parameter types", f.Name(), f.Method, f.File)
	}
	m := found[0]
	lines := strings.SplitAfter(string(src), "\n")
	want := strings.TrimSpace(f.Fixed)
	var at []int
	for i := m.StartLine - 1; i < m.EndLine && i < len(lines); i++ {
		if strings.TrimSpace(lines[i]) == want {
			at = append(at, i)
		}
	}
	switch len(at) {
	case 0:
		return nil, fmt.Errorf("%s: the fixed line %q is not in the method (%s lines %d-%d)", f.Name(), want, f.File, m.StartLine, m.EndLine)
	case 1:
	default:
		return nil, fmt.Errorf("%s: the fixed line %q is in the method %d times (lines %s): make it unique", f.Name(), want, len(at), lineList(at))
	}
	line := lines[at[0]]
	indent := line[:len(line)-len(strings.TrimLeft(line, " \t"))]
	end := line[len(strings.TrimRight(line, " \t\r\n")):]
	lines[at[0]] = indent + strings.TrimSpace(f.Buggy) + end
	return []byte(strings.Join(lines, "")), nil
}

func lineList(idx []int) string {
	s := make([]string, len(idx))
	for i, n := range idx {
		s[i] = fmt.Sprint(n + 1)
	}
	return strings.Join(s, ", ")
}

// Select returns the faults of half (all for ""), or only the named ones when names is not
// empty; an unknown name is an error that lists the names.
func (m *Manifest) Select(half Half, names []string) ([]Fault, error) {
	if len(names) > 0 {
		byName := map[string]Fault{}
		for _, f := range m.Faults {
			byName[f.Name()] = f
		}
		var out []Fault
		for _, n := range names {
			f, ok := byName[n]
			if !ok {
				return nil, fmt.Errorf("no fault %q; the faults are: %s", n, strings.Join(m.names(), " "))
			}
			out = append(out, f)
		}
		return out, nil
	}
	var out []Fault
	for _, f := range m.Faults {
		if half == "" || f.Half() == half {
			out = append(out, f)
		}
	}
	return out, nil
}

func (m *Manifest) names() []string {
	out := make([]string, len(m.Faults))
	for i, f := range m.Faults {
		out[i] = f.Name()
	}
	return out
}
