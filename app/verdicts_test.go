package app

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/advertest/advertest-lsp/loop"
	"github.com/advertest/advertest-lsp/loop/mutants"
	"github.com/advertest/advertest-lsp/loop/report"
	"github.com/advertest/advertest-lsp/loop/state"
	"github.com/advertest/advertest-lsp/settings"
)

const verdictsJava = `package p;

public class C {
    public static int clamp(int value, int lo, int hi) {
        if (value < lo) {
            return lo;
        }
        return value;
    }
}
`

// module writes a Maven module with C.java and the saved state of clamp: two survivors and a
// killed mutant.
func module(t *testing.T) (root, file string, lo, ret report.Mutant) {
	t.Helper()
	root = t.TempDir()
	file = filepath.Join(root, "src", "main", "java", "p", "C.java")
	if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
		t.Fatal(err)
	}
	for path, text := range map[string]string{filepath.Join(root, "pom.xml"): "<project/>", file: verdictsJava} {
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	lo = report.Mutant{ID: "m1", Line: 5, Original: "        if (value < lo) {", Mutated: "        if (value <= lo) {", Status: report.Survived}
	ret = report.Mutant{ID: "m2", Line: 8, Original: "        return value;", Mutated: "        return 0;", Status: report.Survived}
	killed := report.Mutant{ID: "m3", Line: 6, Original: "            return lo;", Mutated: "            return hi;", Status: report.Killed, KilledBy: []string{"p.CTest.a"}}
	rep := &report.Report{Target: report.Target{File: "src/main/java/p/C.java", Class: "p.C", Method: "clamp", StartLine: 4, EndLine: 9},
		Mutants: []report.Mutant{lo, ret, killed}}
	rep.Rescore()
	st := &state.Method{Kind: state.KindAnalyze, Query: "clamp(int,int,int)", Report: rep, Covering: map[string][]string{"m1": {"p.CTest.a"}, "m2": {"p.CTest.a"}}}
	st.Record(state.KindAnalyze, time.Now())
	if err := state.Open(root).Save(st); err != nil {
		t.Fatal(err)
	}
	return root, file, lo, ret
}

func statusesOf(t *testing.T, file string) (map[string]report.Mutant, *float64) {
	t.Helper()
	_, states, err := States(file)
	if err != nil || len(states) != 1 {
		t.Fatalf("States = %v, %v", states, err)
	}
	out := map[string]report.Mutant{}
	for _, m := range states[0].Report.Mutants {
		out[m.ID] = m
	}
	return out, states[0].Report.MutationScore
}

// TestUserVerdictsReachTheSavedState: a mark made with SetUserVerdict is in the method's saved
// state at once (status, score) and in what States reads (as a restarted server does), and so
// is one written to the verdicts file by another process after the state was saved (the CLI);
// taking a mark off makes the mutant a survivor again.
func TestUserVerdictsReachTheSavedState(t *testing.T) {
	root, file, lo, ret := module(t)
	changed, rep, err := SetUserVerdict(root, "p.C", "clamp(int,int,int)", lo, state.UserEquivalent)
	if err != nil || !changed || rep == nil {
		t.Fatalf("SetUserVerdict = %v, %v, %v", changed, rep, err)
	}
	if rep.MutationScore == nil || *rep.MutationScore != 0.5 || rep.RawMutationScore == nil || *rep.RawMutationScore != 1.0/3 {
		t.Errorf("scores %v, %v; want 1/2 (the ignored mutant left out) and 1/3", *rep.MutationScore, *rep.RawMutationScore)
	}
	got, score := statusesOf(t, file)
	if m := got["m1"]; m.Status != report.Ignored || m.Equivalence == nil || m.Equivalence.By != "user" || m.Equivalence.Verdict != report.VerdictEquivalent {
		t.Errorf("marked equivalent: %s %+v", m.Status, m.Equivalence)
	}
	if score == nil || *score != 0.5 {
		t.Errorf("the saved score %v, want 0.5", score)
	}
	if changed, _, _ := SetUserVerdict(root, "p.C", "clamp(int,int,int)", lo, state.UserEquivalent); changed {
		t.Error("marking again changed something")
	}

	// Another process marks m2 straight in the verdicts file: the saved state knows nothing of
	// it, what States reads does.
	err = state.Open(root).UpdateVerdicts(func(v *state.Verdicts) bool {
		v.Mark(ret, "p.C", "clamp(int,int,int)", state.UserIgnored, time.Now())
		return true
	})
	if err != nil {
		t.Fatal(err)
	}
	got, score = statusesOf(t, file)
	if got["m2"].Status != report.Ignored || got["m2"].Equivalence != nil || score == nil || *score != 1 {
		t.Errorf("m2 %s %+v, score %v; want ignored without equivalence, score 1", got["m2"].Status, got["m2"].Equivalence, score)
	}
	if marks, err := Marks(root, "p.C", "clamp(int,int,int)"); err != nil || len(marks) != 2 || marks[0].ID != "m1" || marks[1].User != state.UserIgnored {
		t.Errorf("Marks = %+v, %v", marks, err)
	}

	// Unmarked: survivors again.
	for _, m := range []report.Mutant{lo, ret} {
		if changed, _, err := SetUserVerdict(root, "p.C", "clamp(int,int,int)", m, ""); err != nil || !changed {
			t.Fatalf("unmarking %s: %v, %v", m.ID, changed, err)
		}
	}
	got, score = statusesOf(t, file)
	if got["m1"].Status != report.Survived || got["m1"].Equivalence != nil || got["m2"].Status != report.Survived || *score != 1.0/3 {
		t.Errorf("after unmarking: %+v, score %v", got, *score)
	}
	if changed, _, _ := SetUserVerdict(root, "p.C", "clamp(int,int,int)", lo, ""); changed {
		t.Error("unmarking an unmarked mutant changed something")
	}
	if _, _, err := SetUserVerdict(root, "p.C", "clamp(int,int,int)", lo, "maybe"); err == nil {
		t.Error("an unknown verdict was taken")
	}
}

// TestFindMutant: a mutant is found by id among the saved state's mutants and the rule-based
// mutants of the method's current text; an unknown id lists some that exist.
func TestFindMutant(t *testing.T) {
	_, file, _, _ := module(t)
	target, err := loop.ResolveTargetInText(file, []byte(verdictsJava), 0, "clamp")
	if err != nil {
		t.Fatal(err)
	}
	req := Request{Method: MethodOf(target), Settings: settings.Default(noEnv)}
	if m, err := FindMutant(req, "m2"); err != nil || m.Mutated != "        return 0;" {
		t.Errorf("FindMutant(m2) from the state = %+v, %v", m, err)
	}
	rule := loop.AllRuleMutants(target, mustSelection(t))[0]
	if m, err := FindMutant(req, rule.ID); err != nil || m.Original != rule.Original || m.Mutated != rule.Mutated {
		t.Errorf("FindMutant(%s) from the rules = %+v, %v", rule.ID, m, err)
	}
	if _, err := FindMutant(req, "mnope"); err == nil || !strings.Contains(err.Error(), "no mutant mnope in `clamp`") || !strings.Contains(err.Error(), "m1, ") {
		t.Errorf("FindMutant(mnope) = %v", err)
	}
}

func mustSelection(t *testing.T) mutants.Selection {
	t.Helper()
	sel, err := mutants.Select(settings.Default(noEnv).Operators)
	if err != nil {
		t.Fatal(err)
	}
	return sel
}

// TestEvidenceChange: a judge's new or different verdict on a survivor is kept, a killed
// mutant's stored evidence is forgotten, the rest stands (and no file is written for it).
func TestEvidenceChange(t *testing.T) {
	llmEq := &report.Equivalence{Verdict: report.VerdictLikelyEquivalent, By: "llm", Evidence: "same"}
	other := &report.Equivalence{Verdict: report.VerdictLikelyEquivalent, By: "llm", Evidence: "other"}
	stored := &state.Verdict{Evidence: llmEq}
	for _, tc := range []struct {
		name   string
		stored *state.Verdict
		m      report.Mutant
		eq     *report.Equivalence
		change bool
	}{
		{"new evidence", nil, report.Mutant{Status: report.Survived, Equivalence: llmEq}, llmEq, true},
		{"the same evidence", stored, report.Mutant{Status: report.Survived, Equivalence: llmEq}, nil, false},
		{"other evidence", stored, report.Mutant{Status: report.Survived, Equivalence: other}, other, true},
		{"killed since", stored, report.Mutant{Status: report.Killed}, nil, true},
		{"killed, nothing stored", nil, report.Mutant{Status: report.Killed}, nil, false},
		{"the user's verdict is no evidence", nil, report.Mutant{Status: report.Survived, Equivalence: &state.UserEquivalence}, nil, false},
		{"a survivor without a verdict", stored, report.Mutant{Status: report.Survived}, nil, false},
	} {
		eq, change := evidenceChange(tc.stored, tc.m)
		if change != tc.change || eq != tc.eq {
			t.Errorf("%s: %+v, %v; want %+v, %v", tc.name, eq, change, tc.eq, tc.change)
		}
	}
}
