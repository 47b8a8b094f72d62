package handlers_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"go.lsp.dev/protocol"

	"github.com/advertest/advertest-lsp/loop/report"
	"github.com/advertest/advertest-lsp/loop/state"
	"github.com/advertest/advertest-lsp/server/lsptest"
)

const verdictsCalc = `package org.acme;

public class Calc {
    public static int clamp(int value, int lo, int hi) {
        if (value < lo) {
            return lo;
        }
        if (value > hi) {
            return hi;
        }
        return value;
    }
}
`

const verdictsCalcTest = `package org.acme;

import org.junit.jupiter.api.Test;

class CalcTest {
    @Test
    void other() {
    }

    @Test
    void inside() {
    }
}
`

// The mutants of the saved state: two survivors and a killed one.
var (
	loMutant = report.Mutant{ID: "m00000000a001", Line: 5, Original: "        if (value < lo) {", Mutated: "        if (value <= lo) {",
		Origin: "rule", Operator: "ROR", Status: report.Survived, CoveredBy: []string{"org.acme.CalcTest.inside"}}
	hiMutant = report.Mutant{ID: "m00000000a002", Line: 8, Original: "        if (value > hi) {", Mutated: "        if (value >= hi) {",
		Origin: "rule", Operator: "ROR", Status: report.Survived, CoveredBy: []string{"org.acme.CalcTest.inside", "org.acme.CalcTest.other"}}
	killedMutant = report.Mutant{ID: "m00000000a003", Line: 6, Original: "            return lo;", Mutated: "            return hi;",
		Origin: "rule", Operator: "RET", Status: report.Killed, KilledBy: []string{"org.acme.CalcTest.inside"}}
)

const searchEvidence = "212 inputs reached this line, 14 changed its value, none changed the result"

// verdictsModule writes a module whose clamp has a saved analysis, and the evidence of a
// search that found `value <= lo` likely equivalent, as an earlier run would leave them.
func verdictsModule(t *testing.T) (module, srcPath, testPath string) {
	t.Helper()
	module = t.TempDir()
	srcPath = filepath.Join(module, "src", "main", "java", "org", "acme", "Calc.java")
	testPath = filepath.Join(module, "src", "test", "java", "org", "acme", "CalcTest.java")
	for path, text := range map[string]string{filepath.Join(module, "pom.xml"): "<project/>\n", srcPath: verdictsCalc, testPath: verdictsCalcTest} {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	rep := &report.Report{Target: report.Target{File: "src/main/java/org/acme/Calc.java", Class: "org.acme.Calc", Method: "clamp",
		Signature: "public static int clamp(int value, int lo, int hi)", StartLine: 4, EndLine: 12},
		Mutants: []report.Mutant{loMutant, hiMutant, killedMutant}}
	rep.Rescore()
	st := &state.Method{Kind: state.KindAnalyze, Query: "clamp(int,int,int)", MethodText: "", Report: rep,
		Covering: map[string][]string{loMutant.ID: loMutant.CoveredBy, hiMutant.ID: hiMutant.CoveredBy}}
	st.Record(state.KindAnalyze, time.Now())
	store := state.Open(module)
	if err := store.Save(st); err != nil {
		t.Fatal(err)
	}
	err := store.UpdateVerdicts(func(v *state.Verdicts) bool {
		v.SetEvidence(loMutant, "org.acme.Calc", "clamp(int,int,int)", &report.Equivalence{Verdict: report.VerdictLikelyEquivalent, By: "search", Evidence: searchEvidence}, time.Now())
		return true
	})
	if err != nil {
		t.Fatal(err)
	}
	return module, srcPath, testPath
}

type publishedDiagnostics struct {
	URI         string                `json:"uri"`
	Diagnostics []protocol.Diagnostic `json:"diagnostics"`
}

// waitPublished waits for a set of diagnostics of uri that accept takes.
func (s *session) waitPublished(from int, uri, what string, accept func([]protocol.Diagnostic) bool) []protocol.Diagnostic {
	s.t.Helper()
	m, _ := s.waitFrom(from, what, func(m lsptest.Message) bool {
		var p publishedDiagnostics
		return m.Method == "textDocument/publishDiagnostics" && json.Unmarshal(m.Params, &p) == nil && p.URI == uri && accept(p.Diagnostics)
	})
	var p publishedDiagnostics
	_ = json.Unmarshal(m.Params, &p)
	return p.Diagnostics
}

func byCode(ds []protocol.Diagnostic) map[string]protocol.Diagnostic {
	out := map[string]protocol.Diagnostic{}
	for _, d := range ds {
		if code, ok := d.Code.(string); ok {
			out[code] = d
		}
	}
	return out
}

func hoverAt(t *testing.T, s *session, uri string, line int) string {
	t.Helper()
	var hover struct {
		Contents struct{ Value string } `json:"contents"`
	}
	if err := s.c.Call("textDocument/hover", map[string]any{"textDocument": map[string]any{"uri": uri}, "position": map[string]any{"line": line, "character": 12}}, &hover); err != nil {
		t.Fatal(err)
	}
	return hover.Contents.Value
}

// runAction executes a code action's command as an editor does, and returns the answer.
func runAction(t *testing.T, s *session, a protocol.CodeAction) map[string]any {
	t.Helper()
	arg, _ := json.Marshal(a.Command.Arguments[0])
	var obj map[string]any
	_ = json.Unmarshal(arg, &obj)
	return s.command(a.Command.Command, obj)
}

func savedScore(t *testing.T, module string) float64 {
	t.Helper()
	st, err := state.Open(module).Load("org.acme.Calc", "clamp(int,int,int)")
	if err != nil || st == nil || st.Report.MutationScore == nil {
		t.Fatalf("saved state %v, %v", st, err)
	}
	return *st.Report.MutationScore
}

// TestMarkEquivalentSurvivesARestart drives the real server through the user's verdicts on a
// module with a saved analysis (no JVM): a survivor that an earlier search found likely
// equivalent is a Hint with its evidence, every survivor lists the tests covering its line as
// relatedInformation; Mark as equivalent through its code action hides the other survivor and
// takes it out of the score, also after a restart; the code action on its line shows it again.
func TestMarkEquivalentSurvivesARestart(t *testing.T) {
	module, srcPath, testPath := verdictsModule(t)
	uri := "file://" + srcPath
	s := startSession(t, module, map[string]any{"agents": "offline"}, editorCaps())
	from := s.mark()
	openDoc(s.c, uri, "java", verdictsCalc)
	ds := byCode(s.waitPublished(from, uri, "the restored diagnostics", func(ds []protocol.Diagnostic) bool { return len(ds) == 2 }))
	lo, hi := ds[loMutant.ID], ds[hiMutant.ID]
	if lo.Severity != protocol.DiagnosticSeverityHint || !strings.Contains(lo.Message, "`if (value < lo) {` → `if (value <= lo) {` survives, probably equivalent: "+searchEvidence) {
		t.Errorf("the likely-equivalent survivor: severity %v, message %q; want a Hint with the evidence", lo.Severity, lo.Message)
	}
	if hi.Severity != protocol.DiagnosticSeverityWarning || !strings.Contains(hi.Message, "survives: no test tells them apart") {
		t.Errorf("the plain survivor: severity %v, %q", hi.Severity, hi.Message)
	}
	// relatedInformation: the covering tests where they are written (the name's position).
	if len(hi.RelatedInformation) != 2 {
		t.Fatalf("relatedInformation %+v, want the two covering tests", hi.RelatedInformation)
	}
	for _, ri := range hi.RelatedInformation {
		want := map[string]uint32{"CalcTest.inside": 10, "CalcTest.other": 6}
		name := ri.Message[1 : strings.Index(ri.Message[1:], "`")+1]
		if line, ok := want[name]; !ok || string(ri.Location.URI) != "file://"+testPath || ri.Location.Range.Start.Line != line || ri.Location.Range.Start.Character != 9 ||
			!strings.HasSuffix(ri.Message, "covers this line and passes on the mutant") {
			t.Errorf("related %+v", ri)
		}
	}
	if v := hoverAt(t, s, uri, 4); !strings.Contains(v, "Probably equivalent, says the search for inputs: "+searchEvidence) || !strings.Contains(v, "`org.acme.CalcTest.inside`") {
		t.Errorf("hover on the likely-equivalent survivor:\n%s", v)
	}

	// Mark as equivalent, through the code action on the diagnostic.
	params := codeActionParams(uri, int(hi.Range.Start.Line), int(hi.Range.Start.Character), "quickfix")
	params["context"].(map[string]any)["diagnostics"] = []any{hi}
	_, actions := codeActions(t, s.c, params)
	if got := strings.Join(titles(actions), "|"); got != "Generate a test that kills this mutant|Mark as equivalent|Ignore this mutant" {
		t.Fatalf("quick fixes %q", got)
	}
	from = s.mark()
	res := runAction(t, s, actions[1])
	if res["status"] != "ignored" || res["changed"] != true || res["mutationScore"] != 0.5 {
		t.Errorf("markEquivalent answered %v, want ignored and the score 1 killed of 2 counted", res)
	}
	left := s.waitPublished(from, uri, "the diagnostics without the marked mutant", func(ds []protocol.Diagnostic) bool { return len(ds) == 1 })
	if _, ok := byCode(left)[loMutant.ID]; !ok {
		t.Errorf("diagnostics %+v, want the likely-equivalent one alone", left)
	}
	if v := hoverAt(t, s, uri, 7); !strings.Contains(v, "is marked equivalent by you") {
		t.Errorf("hover on the marked mutant:\n%s", v)
	}
	if got := savedScore(t, module); got != 0.5 {
		t.Errorf("saved score %v, want 0.5", got)
	}
	s.shutdown()

	// A restarted server: the mark holds.
	s = startSession(t, module, map[string]any{"agents": "offline"}, editorCaps())
	from = s.mark()
	openDoc(s.c, uri, "java", verdictsCalc)
	restored := s.waitPublished(from, uri, "the restored diagnostics", func(ds []protocol.Diagnostic) bool { return len(ds) > 0 })
	if _, shown := byCode(restored)[hiMutant.ID]; shown || len(restored) != 1 {
		t.Errorf("after a restart: %+v, want the marked mutant hidden", restored)
	}
	// Shown again from the code action on its line.
	_, actions = codeActions(t, s.c, codeActionParams(uri, 7, 10, "quickfix"))
	if len(actions) != 1 || actions[0].Title != "Show the ignored mutant `if (value > hi) {` → `if (value >= hi) {` again" || actions[0].Command.Command != "advertest.unignoreMutant" {
		t.Fatalf("actions on the ignored mutant's line: %+v", actions)
	}
	from = s.mark()
	if res := runAction(t, s, actions[0]); res["status"] != "survived" || res["changed"] != true || res["mutationScore"] != 1.0/3 {
		t.Errorf("unignoreMutant answered %v", res)
	}
	back := byCode(s.waitPublished(from, uri, "the mutant shown again", func(ds []protocol.Diagnostic) bool { return len(ds) == 2 }))
	if d, ok := back[hiMutant.ID]; !ok || d.Severity != protocol.DiagnosticSeverityWarning || len(d.RelatedInformation) != 2 {
		t.Errorf("shown again: %+v", back)
	}
	if v, _ := state.Open(module).LoadVerdicts(); v.For(hiMutant) != nil {
		t.Errorf("the mark is still in the verdicts: %+v", v.For(hiMutant))
	}
	s.shutdown()
}
