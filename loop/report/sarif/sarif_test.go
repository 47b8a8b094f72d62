package sarif

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf16"

	"github.com/advertest/advertest-lsp/loop/report"
	"github.com/advertest/advertest-lsp/loop/report/internal/reporttest"
)

func build(t *testing.T, methods []report.Report) (*Log, []byte) {
	t.Helper()
	root, err := filepath.Abs(reporttest.RepoRoot())
	if err != nil {
		t.Fatal(err)
	}
	l, err := Build(methods, Options{RepoRoot: root, ToolVersion: "test"})
	if err != nil {
		t.Fatal(err)
	}
	b, err := l.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	return l, b
}

func TestLogValidatesAgainstTheSARIFSchema(t *testing.T) {
	schema, err := reporttest.Compile("testdata/sarif-schema-2.1.0.json")
	if err != nil {
		t.Fatal(err)
	}
	methods := reporttest.Reports(t)
	// A likely-equivalent survivor, as the equivalence check will mark them.
	methods[0].Mutants = append([]report.Mutant(nil), methods[0].Mutants...)
	for i := range methods[0].Mutants {
		if methods[0].Mutants[i].Status == report.Survived {
			methods[0].Mutants[i].Equivalence = &report.Equivalence{Verdict: report.VerdictLikelyEquivalent, By: "search", Evidence: "same result on 500 inputs"}
			break
		}
	}
	_, b := build(t, methods)
	if err := reporttest.Validate(schema, b); err != nil {
		t.Fatalf("the SARIF log does not validate: %v", err)
	}
	_, empty := build(t, nil)
	if err := reporttest.Validate(schema, empty); err != nil {
		t.Fatalf("the empty SARIF log does not validate: %v", err)
	}
	// The validator does reject a broken log.
	broken := strings.Replace(string(b), `"level": "warning"`, `"level": "fatal"`, 1)
	if err := reporttest.Validate(schema, []byte(broken)); err == nil {
		t.Fatal("a log with level \"fatal\" validates: the schema check checks nothing")
	}
}

func TestOneResultPerSurvivorAtItsPlaceInTheRepository(t *testing.T) {
	methods := reporttest.Reports(t)
	l, _ := build(t, methods)
	run := l.Runs[0]
	survivors := 0
	for _, r := range methods {
		survivors += report.Counts(r.Mutants)[report.Survived]
	}
	if len(run.Results) != survivors {
		t.Fatalf("%d results, want one per surviving mutant (%d)", len(run.Results), survivors)
	}
	if base := run.OriginalURIBaseIDs[SrcRoot].URI; !strings.HasPrefix(base, "file:///") || !strings.HasSuffix(base, "/") {
		t.Fatalf("SRCROOT %q: want an absolute file URI ending in /", base)
	}
	rules := map[string]bool{}
	for i, r := range run.Tool.Driver.Rules {
		if rules[r.ID] {
			t.Fatalf("rule %s twice", r.ID)
		}
		rules[r.ID] = true
		if r.ShortDescription.Text == "" || r.Name == r.ID {
			t.Errorf("rule %d %+v lacks a name or description", i, r)
		}
	}
	ids := map[string]bool{}
	modules := map[string]bool{}
	for _, res := range run.Results {
		if run.Tool.Driver.Rules[res.RuleIndex].ID != res.RuleID {
			t.Fatalf("result %s: ruleIndex %d is rule %s", res.RuleID, res.RuleIndex, run.Tool.Driver.Rules[res.RuleIndex].ID)
		}
		id := res.PartialFingerprints[FingerprintKey]
		if id == "" || ids[id] {
			t.Fatalf("fingerprint %q missing or repeated", id)
		}
		ids[id] = true
		loc := res.Locations[0].PhysicalLocation
		if loc.ArtifactLocation.URIBaseID != SrcRoot {
			t.Fatalf("location %+v not relative to SRCROOT", loc)
		}
		modules[strings.SplitN(loc.ArtifactLocation.URI, "/", 3)[1]] = true
		// The location is the repository's real file, and the region marks the changed text.
		src, err := os.ReadFile(filepath.Join(reporttest.RepoRoot(), filepath.FromSlash(loc.ArtifactLocation.URI)))
		if err != nil {
			t.Fatalf("result %s: %v", id, err)
		}
		line := strings.Split(string(src), "\n")[loc.Region.StartLine-1]
		u := utf16.Encode([]rune(line))
		marked := string(utf16.Decode(u[loc.Region.StartColumn-1 : loc.Region.EndColumn-1]))
		if marked != loc.Region.Snippet.Text || marked == "" {
			t.Fatalf("result %s: columns %d..%d of %q mark %q, snippet %q", id, loc.Region.StartColumn, loc.Region.EndColumn, line, marked, loc.Region.Snippet.Text)
		}
		if res.Level != "warning" || !strings.HasSuffix(res.Message.Text, "survives: no test tells them apart") {
			t.Fatalf("result %s: level %s message %q", id, res.Level, res.Message.Text)
		}
	}
	if !modules["maven-calculator"] || !modules["gradle-inventory"] {
		t.Fatalf("results cover modules %v, want both example modules", modules)
	}
}

func TestLikelyEquivalentSurvivorIsANote(t *testing.T) {
	r := report.Report{
		Target: report.Target{File: "src/main/java/a/A.java", Class: "a.A", Method: "f", Signature: "int f(int x)", StartLine: 3, EndLine: 5},
		Mutants: []report.Mutant{
			{ID: "m1", Line: 4, Original: "    return x < 0 ? 0 : x;", Mutated: "    return x <= 0 ? 0 : x;", Operator: "ROR", Status: report.Survived,
				Equivalence: &report.Equivalence{Verdict: report.VerdictLikelyEquivalent, By: "search", Evidence: "x = 0 returns 0 either way"}},
			{ID: "m2", Line: 4, Original: "    return x < 0 ? 0 : x;", Mutated: "    return 0;", Operator: "RET", Status: report.Killed},
			{ID: "m3", Line: 4, Original: "    return x < 0 ? 0 : x;", Mutated: "    return x;", Operator: "RET", Status: report.Equivalent,
				Equivalence: &report.Equivalence{Verdict: report.VerdictEquivalent, By: "bytecode"}},
		},
		ModuleDir: "services/billing",
	}
	l, b := build(t, []report.Report{r})
	res := l.Runs[0].Results
	if len(res) != 1 || res[0].Level != "note" || !strings.Contains(res[0].Message.Text, "likely equivalent (search): x = 0") {
		t.Fatalf("results %+v", res)
	}
	if got := res[0].Locations[0].PhysicalLocation.ArtifactLocation.URI; got != "services/billing/src/main/java/a/A.java" {
		t.Fatalf("uri %q: want the module's folder before the file", got)
	}
	if len(l.Runs[0].Tool.Driver.Rules) != 1 {
		t.Fatalf("rules %+v: want only the survivors' operators", l.Runs[0].Tool.Driver.Rules)
	}
	var v map[string]any
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatal(err)
	}
}

func TestBuildRejectsBadInput(t *testing.T) {
	if _, err := Build(nil, Options{RepoRoot: "relative/dir"}); err == nil {
		t.Fatal("a relative repository root is accepted")
	}
	r := report.Report{Target: report.Target{File: "../x/A.java"}, Mutants: []report.Mutant{{Status: report.Survived}}}
	if _, err := Build([]report.Report{r}, Options{RepoRoot: "/repo"}); err == nil {
		t.Fatal("a file outside the module is accepted")
	}
}

func TestWriteFile(t *testing.T) {
	p := filepath.Join(t.TempDir(), "out.sarif")
	if err := WriteFile(p, reporttest.Reports(t), Options{RepoRoot: "/repo"}); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(p)
	if err != nil || !strings.Contains(string(b), `"version": "2.1.0"`) {
		t.Fatalf("%v\n%s", err, b)
	}
}
