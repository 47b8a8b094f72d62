package report

import (
	"bytes"
	"encoding/json"
	"errors"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// loadTestReports reads the real single-method reports under testdata/reports (see its
// README for how they were made).
func loadTestReports(t *testing.T) []Report {
	t.Helper()
	paths, err := filepath.Glob("testdata/reports/*.json")
	if err != nil || len(paths) < 5 {
		t.Fatalf("test reports: %v (%d found)", err, len(paths))
	}
	var out []Report
	for _, p := range paths {
		d, err := ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if d.Single == nil {
			t.Fatalf("%s: want a single-method report", p)
		}
		out = append(out, *d.Single)
	}
	return out
}

func TestSummaryCountsOverAllMutantsNotAverages(t *testing.T) {
	reps := loadTestReports(t)
	m := NewMulti(reps, nil, nil)
	s := m.Summary

	var killed, survived, lines, covered, branches, coveredBranches, mutants int
	var totalMs int64
	var avg float64
	for _, r := range reps {
		c := Counts(r.Mutants)
		killed += c[Killed]
		survived += c[Survived]
		mutants += len(r.Mutants)
		lines += r.Coverage.Lines.Total
		covered += r.Coverage.Lines.Covered
		branches += r.Coverage.Branches.Total
		coveredBranches += r.Coverage.Branches.Covered
		totalMs += r.Timing.TotalMs
		if r.MutationScore != nil {
			avg += *r.MutationScore / float64(len(reps))
		}
	}
	if s.Methods != len(reps) || s.Mutants != mutants || s.Killed != killed || s.Survived != survived {
		t.Fatalf("summary counts %+v; want %d methods, %d mutants, %d killed, %d survived", s, len(reps), mutants, killed, survived)
	}
	want := float64(killed) / float64(killed+survived)
	if s.MutationScore == nil || math.Abs(*s.MutationScore-want) > 1e-12 {
		t.Fatalf("mutationScore %v, want %v (killed over all mutants)", s.MutationScore, want)
	}
	if math.Abs(want-avg) < 1e-3 {
		t.Fatalf("test data cannot tell a pooled score (%v) from an average (%v)", want, avg)
	}
	if s.Lines != (Count{covered, lines}) || s.Branches != (Count{coveredBranches, branches}) {
		t.Fatalf("coverage counts %+v %+v, want %d/%d lines %d/%d branches", s.Lines, s.Branches, covered, lines, coveredBranches, branches)
	}
	if math.Abs(s.LineCoverage-float64(covered)/float64(lines)) > 1e-12 ||
		math.Abs(s.BranchCoverage-float64(coveredBranches)/float64(branches)) > 1e-12 {
		t.Fatalf("coverage %v %v", s.LineCoverage, s.BranchCoverage)
	}
	if s.Timing.TotalMs != totalMs {
		t.Fatalf("timing %d, want the sum %d", s.Timing.TotalMs, totalMs)
	}
	if len(s.Warnings) != 0 {
		t.Fatalf("warnings %v", s.Warnings)
	}
}

func TestSummaryStatusesAndScores(t *testing.T) {
	mut := func(s Status, eq string) Mutant {
		m := Mutant{Status: s}
		if eq != "" {
			m.Equivalence = &Equivalence{Verdict: eq, By: "search"}
		}
		return m
	}
	a := Report{Target: Target{File: "A.java", Class: "A", Signature: "void a()"}, Mutants: []Mutant{
		mut(Killed, ""), mut(Killed, ""), mut(Survived, VerdictLikelyEquivalent), mut(Timeout, ""),
	}, Coverage: &Coverage{Lines: Count{2, 2}}}
	b := Report{Target: Target{File: "B.java", Class: "B", Signature: "void b()"}, Mutants: []Mutant{
		mut(Killed, ""), mut(Survived, ""), mut(Uncompilable, ""), mut(Equivalent, VerdictEquivalent),
		mut(Duplicate, ""), mut(Ignored, ""),
	}}
	s := NewMulti([]Report{b, a}, []Failure{{Target: Target{Class: "C"}, Error: "does not compile"}}, nil).Summary
	want := StatusCounts{Killed: 3, Survived: 2, Timeout: 1, Uncompilable: 1, Equivalent: 1, Duplicate: 1, Ignored: 1}
	if s.StatusCounts != want || s.LikelyEquivalent != 1 || s.Mutants != 10 || s.FailedMethods != 1 {
		t.Fatalf("counts %+v likely %d mutants %d failed %d", s.StatusCounts, s.LikelyEquivalent, s.Mutants, s.FailedMethods)
	}
	// mutationScore: killed / (killed + survived), the likely-equivalent survivor included.
	if s.MutationScore == nil || *s.MutationScore != 3.0/5 {
		t.Fatalf("mutationScore %v, want 0.6", s.MutationScore)
	}
	// rawMutationScore: killed over every valid mutant (all but timeout and uncompilable).
	if s.RawMutationScore == nil || *s.RawMutationScore != 3.0/8 {
		t.Fatalf("rawMutationScore %v, want 0.375", s.RawMutationScore)
	}
	// A method without branches whose lines are all covered counts as fully branch-covered;
	// b carries no counts, which the summary says.
	if s.LineCoverage != 1 || s.BranchCoverage != 1 || len(s.Warnings) != 1 || !strings.Contains(s.Warnings[0], "1 of 2") {
		t.Fatalf("coverage %v %v warnings %v", s.LineCoverage, s.BranchCoverage, s.Warnings)
	}
}

func TestSummaryOfNothingHasNullScores(t *testing.T) {
	b, err := NewMulti(nil, nil, nil).Marshal()
	if err != nil {
		t.Fatal(err)
	}
	var v struct{ Summary map[string]any }
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"mutationScore", "rawMutationScore"} {
		if x, ok := v.Summary[k]; !ok || x != nil {
			t.Fatalf("summary.%s = %v (present %v), want null", k, x, ok)
		}
	}
	for _, s := range Statuses {
		if x, ok := v.Summary[string(s)]; !ok || x != 0.0 {
			t.Fatalf("summary.%s = %v, want 0", s, x)
		}
	}
	if !bytes.Contains(b, []byte(`"methods": []`)) {
		t.Fatalf("methods not an empty list:\n%s", b)
	}
}

func TestDecodeBothFormsRoundTrip(t *testing.T) {
	reps := loadTestReports(t)
	m := NewMulti(reps, nil, &Shard{Index: 1, Count: 1, MethodSetHash: "x"})
	b, err := m.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	d, err := Decode(b)
	if err != nil || d.Multi == nil || d.Single != nil {
		t.Fatalf("decode multi: %v %+v", err, d)
	}
	again, _ := d.Multi.Marshal()
	if !bytes.Equal(b, again) {
		t.Fatal("multi report does not survive a round trip")
	}
	single, _ := reps[0].Marshal()
	d, err = Decode(single)
	if err != nil || d.Single == nil || len(d.Methods()) != 1 {
		t.Fatalf("decode single: %v %+v", err, d)
	}
	// The new fields are in the real data and survive.
	if d.Single.Coverage == nil || len(d.Single.Mutants[0].CoveredBy) == 0 {
		t.Fatalf("coverage or coveredBy lost: %+v", d.Single)
	}
	if _, err := Decode([]byte(`{"files":{}}`)); !errors.Is(err, ErrNotAReport) {
		t.Fatalf("want ErrNotAReport, got %v", err)
	}
	if _, err := Decode([]byte(`[1,2]`)); !errors.Is(err, ErrNotAReport) {
		t.Fatalf("want ErrNotAReport, got %v", err)
	}
}

func TestMutantFieldsOmittedWhenAbsent(t *testing.T) {
	r := Report{Mutants: []Mutant{{ID: "m1", Status: Survived}}}
	b, _ := r.Marshal()
	for _, k := range []string{"equivalence", "coveredBy", "coverage", "moduleDir"} {
		if bytes.Contains(b, []byte(`"`+k+`"`)) {
			t.Fatalf("%s present though absent:\n%s", k, b)
		}
	}
	r.Mutants[0].Equivalence = &Equivalence{Verdict: VerdictLikelyEquivalent, By: "llm", Evidence: "same output on 200 inputs"}
	r.Mutants[0].CoveredBy = []string{"a.BTest.c"}
	b, _ = r.Marshal()
	if !bytes.Contains(b, []byte(`"equivalence": {`)) || !bytes.Contains(b, []byte(`"verdict": "likelyEquivalent"`)) || !bytes.Contains(b, []byte(`"coveredBy": [`)) {
		t.Fatalf("fields missing:\n%s", b)
	}
}

func TestMultiOrderIsIndependentOfInputOrder(t *testing.T) {
	reps := loadTestReports(t)
	rev := slices.Clone(reps)
	slices.Reverse(rev)
	a, _ := NewMulti(reps, nil, nil).Marshal()
	b, _ := NewMulti(rev, nil, nil).Marshal()
	if !bytes.Equal(a, b) {
		t.Fatal("the order of the methods depends on the input order")
	}
}

func TestWriteFileWritesTheMultiReport(t *testing.T) {
	p := filepath.Join(t.TempDir(), "out", "report.json")
	if err := NewMulti(loadTestReports(t), nil, nil).WriteFile(p); err != nil {
		t.Fatal(err)
	}
	d, err := ReadFile(p)
	if err != nil || d.Multi == nil {
		t.Fatalf("%v %+v", err, d)
	}
	if _, err := os.Stat(p); err != nil {
		t.Fatal(err)
	}
}
