package sarif

import (
	"encoding/json"
	"fmt"
	"net/url"
	"path/filepath"
	"slices"
	"strings"

	"github.com/advertest/advertest-lsp/loop/report"
)

// SchemaURI is the SARIF 2.1.0 schema the log names.
const SchemaURI = "https://json.schemastore.org/sarif-2.1.0.json"

// SrcRoot is the uriBaseId of every location: the repository root.
const SrcRoot = "SRCROOT"

// FingerprintKey names the partial fingerprint that carries the stable mutant id, versioned as
// GitHub's own ("primaryLocationLineHash/v1") so a change of id scheme can take a new key.
const FingerprintKey = "advertestMutantId/v1"

// Options say what the log cannot read from the reports.
type Options struct {
	// RepoRoot is the absolute path of the repository root (report.RepoRoot), SRCROOT's value.
	// Each location is the report's ModuleDir/Target.File relative to it.
	RepoRoot string
	// ToolVersion is advertest's version; empty leaves it out.
	ToolVersion string
}

// Build returns the SARIF log of the reports: one run of tool "AdverTest", one rule per
// operator that has a survivor, one result per surviving mutant.
func Build(methods []report.Report, opts Options) (*Log, error) {
	if !filepath.IsAbs(opts.RepoRoot) {
		return nil, fmt.Errorf("SARIF: the repository root %q is not an absolute path", opts.RepoRoot)
	}
	root := (&url.URL{Scheme: "file", Path: filepath.ToSlash(opts.RepoRoot)}).String()
	if !strings.HasSuffix(root, "/") {
		root += "/" // SARIF: a base URI ends with a slash
	}
	run := Run{
		Tool:               Tool{Driver: Driver{Name: "AdverTest", Version: opts.ToolVersion, Rules: []Rule{}}},
		OriginalURIBaseIDs: map[string]ArtifactLocation{SrcRoot: {URI: root}},
		ColumnKind:         "utf16CodeUnits",
		Results:            []Result{},
	}
	ruleIndex := map[string]int{}
	var ops []string
	for i := range methods {
		for _, m := range methods[i].Mutants {
			if m.Status == report.Survived && !slices.Contains(ops, ruleID(m.Operator)) {
				ops = append(ops, ruleID(m.Operator))
			}
		}
	}
	slices.Sort(ops)
	for _, op := range ops {
		ruleIndex[op] = len(run.Tool.Driver.Rules)
		run.Tool.Driver.Rules = append(run.Tool.Driver.Rules, ruleFor(op))
	}
	for i := range methods {
		r := &methods[i]
		uri := r.RepoPath()
		if uri == "" || strings.HasPrefix(uri, "/") || strings.HasPrefix(uri, "../") {
			return nil, fmt.Errorf("SARIF: %s.%s: file %q is not relative to the module root", r.Target.Class, r.Target.Method, r.Target.File)
		}
		for _, m := range r.Mutants {
			if m.Status != report.Survived {
				continue
			}
			run.Results = append(run.Results, result(r, &m, uri, ruleIndex[ruleID(m.Operator)]))
		}
	}
	return &Log{Schema: SchemaURI, Version: "2.1.0", Runs: []Run{run}}, nil
}

func result(r *report.Report, m *report.Mutant, uri string, rule int) Result {
	sp := m.Span()
	level, msg := "warning", m.Describe()+" survives: no test tells them apart"
	props := map[string]any{
		"mutantId": m.ID, "original": m.Original, "mutated": m.Mutated, "origin": m.Origin,
	}
	if m.Equivalence != nil {
		props["equivalence"] = m.Equivalence
	}
	if m.LikelyEquivalent() {
		level = "note"
		msg = m.Describe() + " survives, but is likely equivalent (" + string(m.Equivalence.By) + ")"
		if e := strings.TrimSpace(m.Equivalence.Evidence); e != "" {
			msg += ": " + e
		}
	}
	name := r.Target.Class + "." + r.Target.Method
	return Result{
		RuleID:    ruleID(m.Operator),
		RuleIndex: rule,
		Level:     level,
		Message:   Message{Text: msg},
		Locations: []Location{{
			PhysicalLocation: PhysicalLocation{
				ArtifactLocation: ArtifactLocation{URI: uri, URIBaseID: SrcRoot},
				Region: Region{
					StartLine: m.Line, StartColumn: sp.StartColumn,
					EndLine: m.Line, EndColumn: sp.EndColumn,
					Snippet: &Snippet{Text: sp.Original},
				},
			},
			LogicalLocations: []LogicalLocation{{FullyQualifiedName: name, Kind: "function"}},
		}},
		PartialFingerprints: map[string]string{FingerprintKey: m.ID},
		Properties:          props,
	}
}

// Marshal returns the indented JSON of the log.
func (l *Log) Marshal() ([]byte, error) {
	b, err := json.MarshalIndent(l, "", "  ")
	if err != nil {
		return nil, fmt.Errorf("encoding the SARIF log: %w", err)
	}
	return append(b, '\n'), nil
}

// WriteFile builds the log of the reports and writes it to path atomically.
func WriteFile(path string, methods []report.Report, opts Options) error {
	l, err := Build(methods, opts)
	if err != nil {
		return err
	}
	b, err := l.Marshal()
	if err != nil {
		return err
	}
	return report.WriteFileAtomic(path, b)
}

// ruleID is the rule of an operator; a mutant without one (none is written so) gets "mutant".
func ruleID(op string) string {
	if op == "" {
		return "mutant"
	}
	return op
}

func ruleFor(op string) Rule {
	name, text := report.OperatorName(op), report.OperatorDescription(op)
	return Rule{
		ID:               op,
		Name:             name,
		ShortDescription: Message{Text: "Surviving mutant: " + strings.TrimSuffix(text, ".")},
		FullDescription:  Message{Text: text + " The mutant survives: no test fails on it, so the tests do not pin down this behaviour."},
		Help: Message{Text: "Write a test that passes on the original code and fails on the mutated line, " +
			"or mark the mutant with `advertest mutate --ignore ID` when the change cannot matter."},
		DefaultConfiguration: &Configuration{Level: "warning"},
		Properties:           map[string]any{"tags": []string{"mutation-testing", "test-quality"}},
	}
}
