package state

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/advertest/advertest-lsp/loop/report"
)

func survivor(id, original, mutated string) report.Mutant {
	return report.Mutant{ID: id, Line: 30, Original: original, Mutated: mutated, Status: report.Survived, KilledBy: []string{}}
}

// TestMarksApplyToSurvivorsAndFollowTheirLine: a mark makes a survivor ignored (with the
// user's equivalence when marked equivalent), is undone by Unmark, is lost when the mutant's
// line changes, and never touches a killed mutant; a judge's evidence joins a survivor without
// a verdict of its own.
func TestMarksApplyToSurvivorsAndFollowTheirLine(t *testing.T) {
	s := Open(t.TempDir())
	lo := survivor("m1", "        if (value < lo) {", "        if (value <= lo) {")
	hi := survivor("m2", "        if (value > hi) {", "        if (value >= hi) {")
	killed := survivor("m3", "            return lo;", "            return hi;")
	killed.Status, killed.KilledBy = report.Killed, []string{"T.a"}
	judged := survivor("m4", "        return value;", "        return value + 0;")
	now := time.Unix(100, 0)
	err := s.UpdateVerdicts(func(v *Verdicts) bool {
		v.Mark(lo, "org.acme.C", "clamp(int,int,int)", UserEquivalent, now)
		v.Mark(hi, "org.acme.C", "clamp(int,int,int)", UserIgnored, now)
		v.Mark(killed, "org.acme.C", "clamp(int,int,int)", UserIgnored, now)
		v.SetEvidence(judged, "org.acme.C", "clamp(int,int,int)", &report.Equivalence{Verdict: report.VerdictLikelyEquivalent, By: "llm", Evidence: "adding 0 changes nothing"}, now)
		return true
	})
	if err != nil {
		t.Fatal(err)
	}
	v, err := Open(s.moduleRoot).LoadVerdicts() // another Store of the module: the file itself
	if err != nil {
		t.Fatal(err)
	}
	ms := []report.Mutant{lo, hi, killed, judged}
	if !v.Apply(ms) {
		t.Fatal("Apply changed nothing")
	}
	if ms[0].Status != report.Ignored || ms[0].Equivalence == nil || *ms[0].Equivalence != UserEquivalence {
		t.Errorf("marked equivalent: %s %+v", ms[0].Status, ms[0].Equivalence)
	}
	if ms[1].Status != report.Ignored || ms[1].Equivalence != nil {
		t.Errorf("ignored: %s %+v", ms[1].Status, ms[1].Equivalence)
	}
	if ms[2].Status != report.Killed {
		t.Errorf("a killed mutant's mark made it %s", ms[2].Status)
	}
	if !ms[3].LikelyEquivalent() || ms[3].Equivalence.By != "llm" {
		t.Errorf("judged survivor: %s %+v", ms[3].Status, ms[3].Equivalence)
	}
	if score := report.Score(ms); score == nil || *score != 0.5 {
		t.Errorf("score %v, want killed / (killed + survived) = 1/2, the ignored left out", score)
	}
	if v.Apply(ms) {
		t.Error("a second Apply changed something")
	}
	if got := v.Marked("org.acme.C", "clamp(int,int,int)"); len(got) != 3 || got[0].User == "" {
		t.Errorf("Marked = %+v", got)
	}

	// Unmarked, the ignored survivor is a survivor again; the others keep their marks.
	if err := s.UpdateVerdicts(func(v *Verdicts) bool { return v.Unmark("m2", now) }); err != nil {
		t.Fatal(err)
	}
	v, _ = s.LoadVerdicts()
	v.Apply(ms)
	if ms[1].Status != report.Survived || ms[0].Status != report.Ignored {
		t.Errorf("after unmarking m2: %s, %s", ms[1].Status, ms[0].Status)
	}
	if _, ok := v.Mutants["m2"]; ok {
		t.Error("an entry with neither mark nor evidence was kept")
	}

	// The line changed (same id, as an edit elsewhere on a repeated line could give): the mark
	// no longer holds.
	ms[0].Original = "        if (value < lo - 0) {"
	v.Apply(ms)
	if ms[0].Status != report.Survived || ms[0].Equivalence != nil {
		t.Errorf("a mark on a changed line still holds: %s %+v", ms[0].Status, ms[0].Equivalence)
	}
}

// TestCorruptVerdictsAreMovedAside: a verdicts file that is not JSON is renamed aside with a
// warning; the marks start afresh and the next update writes a good file.
func TestCorruptVerdictsAreMovedAside(t *testing.T) {
	s := Open(t.TempDir())
	if err := os.MkdirAll(s.Dir(), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(s.VerdictsPath(), []byte(`{"schema": 1, "mutants": {`), 0o644); err != nil {
		t.Fatal(err)
	}
	v, err := s.LoadVerdicts()
	var corrupt *CorruptError
	if !errors.As(err, &corrupt) || len(v.Mutants) != 0 {
		t.Fatalf("LoadVerdicts = %v, %v; want an empty set and a CorruptError", v, err)
	}
	if _, err := os.Stat(s.VerdictsPath() + ".corrupt"); err != nil {
		t.Fatalf("not moved aside: %v", err)
	}
	m := survivor("m1", "a();", ";")
	if err := s.UpdateVerdicts(func(v *Verdicts) bool { v.Mark(m, "C", "f()", UserIgnored, time.Now()); return true }); err != nil {
		t.Fatal(err)
	}
	if v, err := s.LoadVerdicts(); err != nil || v.For(m) == nil {
		t.Fatalf("after the update: %v, %v", v, err)
	}
}

// TestVerdictUpdatesFromManyProcesses: two other processes and this one mark mutants at the
// same time; no mark is lost.
func TestVerdictUpdatesFromManyProcesses(t *testing.T) {
	if dir := os.Getenv("ADVERTEST_VERDICTS_WRITER"); dir != "" {
		return // the writer itself runs in TestMain's helper below
	}
	dir := t.TempDir()
	const perWriter = 25
	var wg sync.WaitGroup
	errs := make(chan error, 3)
	for w := 0; w < 2; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			cmd := exec.Command(os.Args[0], "-test.run=^TestVerdictsWriterProcess$")
			cmd.Env = append(os.Environ(), "ADVERTEST_VERDICTS_WRITER="+dir, "ADVERTEST_VERDICTS_WRITER_ID="+strconv.Itoa(w), "ADVERTEST_VERDICTS_COUNT="+strconv.Itoa(perWriter))
			if out, err := cmd.CombinedOutput(); err != nil {
				errs <- fmt.Errorf("writer %d: %v\n%s", w, err, out)
			}
		}()
	}
	wg.Add(1)
	go func() { defer wg.Done(); errs <- writeMarks(dir, "here", perWriter) }()
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	v, err := Open(dir).LoadVerdicts()
	if err != nil {
		t.Fatal(err)
	}
	if len(v.Mutants) != 3*perWriter {
		t.Fatalf("%d marks, want %d: an update was lost", len(v.Mutants), 3*perWriter)
	}
}

// TestVerdictsWriterProcess is the other processes' part of TestVerdictUpdatesFromManyProcesses.
func TestVerdictsWriterProcess(t *testing.T) {
	dir := os.Getenv("ADVERTEST_VERDICTS_WRITER")
	if dir == "" {
		t.Skip("a helper process of TestVerdictUpdatesFromManyProcesses")
	}
	n, _ := strconv.Atoi(os.Getenv("ADVERTEST_VERDICTS_COUNT"))
	if err := writeMarks(dir, "w"+os.Getenv("ADVERTEST_VERDICTS_WRITER_ID"), n); err != nil {
		t.Fatal(err)
	}
}

func writeMarks(dir, who string, n int) error {
	s := Open(dir)
	for i := 0; i < n; i++ {
		m := survivor(fmt.Sprintf("%s-%d", who, i), fmt.Sprintf("x = %d;", i), fmt.Sprintf("x = %d;", i+1))
		if err := s.UpdateVerdicts(func(v *Verdicts) bool { v.Mark(m, "C", "f()", UserIgnored, time.Now()); return true }); err != nil {
			return err
		}
	}
	return nil
}
