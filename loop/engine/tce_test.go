package engine_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/advertest/advertest-lsp/buildtools/harness"
	"github.com/advertest/advertest-lsp/loop/engine"
	"github.com/advertest/advertest-lsp/loop/mutants"
	"github.com/advertest/advertest-lsp/loop/report"
)

// tceCase is one mutant of the corpus testdata/tce/Folding.java: the line holding contains,
// from replaced by to, and the status it must get compiled alone and in the schema.
type tceCase struct {
	contains, from, to, operator string
	alone, inSchema              report.Status
	// duplicateOf is the index of the case whose bytecode it has, for a duplicate.
	duplicateOf int
}

var tceCorpus = []tceCase{
	// constant folding: 2 * 3, 3 * 2, 6 and 1 + 4 + 1 are all the constant 6
	{contains: "return x * (2 * 3);", from: "(2 * 3)", to: "(3 * 2)", operator: "AOR", alone: report.Equivalent, inSchema: report.Equivalent},
	{contains: "return x * (2 * 3);", from: "(2 * 3)", to: "6", operator: "AOR", alone: report.Equivalent, inSchema: report.Equivalent},
	{contains: "return x * (2 * 3);", from: "(2 * 3)", to: "(2 + 3)", operator: "AOR", alone: report.Killed, inSchema: report.Killed},
	{contains: "return x * (2 * 3);", from: "(2 * 3)", to: "(1 + 4)", operator: "AOR", alone: report.Duplicate, inSchema: report.Duplicate, duplicateOf: 2},
	// javac does not fold x * 1: equivalent in behaviour, not in bytecode; no test kills it
	{contains: "return x * (2 * 3);", from: "x * (2 * 3)", to: "x * (2 * 3) * 1", operator: "AOR", alone: report.Survived, inSchema: report.Survived},
	// code under a compile-time constant condition is compiled away
	{contains: `System.out.println("traced " + x);`, from: `"traced "`, to: `"trace "`, operator: "ARG", alone: report.Equivalent, inSchema: report.Equivalent},
	// a static final constant is inlined
	{contains: "return calls + SCALE;", from: "SCALE", to: "4", operator: "AOR", alone: report.Equivalent, inSchema: report.Equivalent},
	{contains: "return calls + SCALE;", from: "+ SCALE", to: "- SCALE", operator: "AOR", alone: report.Killed, inSchema: report.Killed},
	// the dead arm of a conditional with a constant condition
	{contains: "return DEBUG ? x - 1 : x + 1;", from: "x - 1", to: "x - 2", operator: "AOR", alone: report.Equivalent, inSchema: report.Equivalent},
	{contains: "return DEBUG ? x - 1 : x + 1;", from: "x + 1", to: "x + 2", operator: "AOR", alone: report.Killed, inSchema: report.Killed},
	// false && …: the right operand and the body are never compiled
	{contains: "if (DEBUG && x > 10) {", from: "x > 10", to: "x >= 10", operator: "ROR", alone: report.Equivalent, inSchema: report.Equivalent},
	{contains: "return -1;", from: "-1", to: "-2", operator: "RET", alone: report.Equivalent, inSchema: report.Equivalent},
	// a String constant is inlined
	{contains: "String tag = PREFIX + x;", from: "PREFIX", to: `"id-"`, operator: "AOR", alone: report.Equivalent, inSchema: report.Equivalent},
	{contains: "String tag = PREFIX + x;", from: "+ x", to: "+ (x + 1)", operator: "AOR", alone: report.Killed, inSchema: report.Killed},
	// a lambda's body: equivalent alone; in the schema both arms get a lambda method of their
	// own, whose bytecode the comparison does not match, so it stays a plain survivor there
	{contains: "return v -> v + (1 + 1);", from: "(1 + 1)", to: "2", operator: "AOR", alone: report.Equivalent, inSchema: report.Survived},
	// a nested class is part of the digest
	{contains: "return x + (1 + 1);", from: "(1 + 1)", to: "2", operator: "AOR", alone: report.Equivalent, inSchema: report.Equivalent},
	{contains: "return x + (1 + 1);", from: "(1 + 1)", to: "(1 + 2)", operator: "AOR", alone: report.Killed, inSchema: report.Killed},
}

func readTestdata(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "tce", name))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// openCorpus is the corpus's class and tests on the example project's pool, with their baseline.
func openCorpus(t *testing.T) (*fixture, string, engine.Subject, engine.Suite, *engine.Baseline) {
	t.Helper()
	f := openExample(t, "maven-calculator")
	src := readTestdata(t, "Folding.java")
	test := harness.Source{ClassName: "org.acme.FoldingTest", Text: readTestdata(t, "FoldingTest.java")}
	subj := engine.Subject{Class: "org.acme.Folding", Source: []byte(src), StartLine: 1, EndLine: strings.Count(src, "\n")}
	suite := engine.Suite{Tests: []harness.TestID{{Class: test.ClassName}}, Extra: []harness.Source{test}}
	base, err := engine.RunBaseline(context.Background(), f.proj.Pool, subj, suite)
	if err != nil {
		t.Fatal(err)
	}
	return f, src, subj, suite, base
}

// corpusMutant builds case c's mutant of src.
func corpusMutant(t *testing.T, src string, c tceCase) mutants.Mutant {
	t.Helper()
	lines := strings.Split(src, "\n")
	for i, l := range lines {
		if strings.Contains(l, c.contains) {
			if !strings.Contains(l, c.from) {
				t.Fatalf("line %d %q has no %q", i+1, l, c.from)
			}
			mutated := strings.Replace(l, c.from, c.to, 1)
			return mutants.Mutant{
				ID: mutants.NewID("org.acme.Folding", "corpus", l, mutated), Line: i + 1,
				Original: l, Mutated: mutated, Origin: mutants.OriginRule, Operator: c.operator,
			}
		}
	}
	t.Fatalf("no line with %q in the corpus", c.contains)
	return mutants.Mutant{}
}

// TestBytecodeEquivalenceCorpus: the corpus's mutants come out equivalent by bytecode (constant
// folding, code under a constant condition), duplicates are dropped with the id of the mutant
// they copy, neither runs a test nor counts in the score, and a killable mutant (and x * 1,
// which javac does not fold) is not marked — compiled one by one and in a mutant schema.
func TestBytecodeEquivalenceCorpus(t *testing.T) {
	f, src, subj, suite, base := openCorpus(t)
	ctx := context.Background()
	if len(base.Passing) != 7 || len(base.Failing) != 0 {
		t.Fatalf("the corpus's tests on the original: passing %v, failing %v", base.Passing, base.Failing)
	}
	var ms []mutants.Mutant
	for _, c := range tceCorpus {
		ms = append(ms, corpusMutant(t, src, c))
	}
	sch, err := mutants.BuildSchema(subj.Source, ms)
	if err != nil {
		t.Fatal(err)
	}
	if len(sch.IDs) != len(ms) {
		t.Fatalf("only %d of the %d corpus mutants fit the schema: %v", len(sch.IDs), len(ms), sch.Out)
	}
	for _, mode := range []struct {
		name string
		opts engine.Options
	}{
		{"alone", engine.Options{Parallelism: 2, PerMutant: true}},
		{"in the schema", engine.Options{Parallelism: 2}},
	} {
		verdicts, st, err := engine.Evaluate(ctx, f.proj.Pool, subj, suite, base, ms, mode.opts)
		if err != nil {
			t.Fatal(err)
		}
		if len(verdicts) != len(ms) {
			t.Fatalf("%s: %d verdicts for %d mutants", mode.name, len(verdicts), len(ms))
		}
		want := map[report.Status]int{}
		for i, c := range tceCorpus {
			v := verdicts[i]
			w := c.alone
			if mode.name != "alone" {
				w = c.inSchema
			}
			want[w]++
			if v.Status != w {
				t.Errorf("%s: %q → %q: %s, want %s (%+v)", mode.name, strings.TrimSpace(v.Original), strings.TrimSpace(v.Mutated), v.Status, w, v.Equivalence)
				continue
			}
			switch w {
			case report.Equivalent:
				if v.Equivalence == nil || v.Equivalence.Verdict != report.VerdictEquivalent || v.Equivalence.By != "bytecode" || v.Equivalence.Evidence == "" {
					t.Errorf("%s: %q → %q: equivalence %+v, want equivalent by bytecode with evidence", mode.name, c.from, c.to, v.Equivalence)
				}
			case report.Duplicate:
				if v.DuplicateOf != ms[c.duplicateOf].ID {
					t.Errorf("%s: %q → %q: duplicateOf %q, want %q", mode.name, c.from, c.to, v.DuplicateOf, ms[c.duplicateOf].ID)
				}
			}
			if (w == report.Equivalent || w == report.Duplicate) && len(v.KilledBy) != 0 {
				t.Errorf("%s: %q → %q is %s yet killed by %v", mode.name, c.from, c.to, w, v.KilledBy)
			}
			if w != report.Equivalent && v.Equivalence != nil {
				t.Errorf("%s: %q → %q (%s) has an equivalence %+v", mode.name, c.from, c.to, w, v.Equivalence)
			}
		}
		if st.Equivalent != want[report.Equivalent] || st.Duplicate != want[report.Duplicate] {
			t.Errorf("%s: stats say %d equivalent, %d duplicate; want %d, %d", mode.name, st.Equivalent, st.Duplicate, want[report.Equivalent], want[report.Duplicate])
		}
		// Equivalent mutants run no test: only the others do, one test each (the corpus's
		// tests each cover one method). A duplicate runs none either, unless its twin was
		// still running when it compiled.
		if n := len(ms) - st.Equivalent; st.TestExecutions > n {
			t.Errorf("%s: %d test executions for %d mutants that needed a run", mode.name, st.TestExecutions, n)
		}
		rep := report.Report{Mutants: verdicts}
		rep.Rescore()
		killed, survived := want[report.Killed], want[report.Survived]
		if rep.MutationScore == nil || *rep.MutationScore != float64(killed)/float64(killed+survived) {
			t.Errorf("%s: score %v, want %d/%d (equivalent and duplicate mutants not counted)", mode.name, rep.MutationScore, killed, killed+survived)
		}
		t.Logf("%s: %v; %d in the schema, compile %v, digests %v, wall %v", mode.name, report.Counts(verdicts), st.InSchema, st.CompileTime, st.DigestTime, st.Wall)
	}
}

// TestKnownBytecodeMakesDuplicates: a mutant that compiles to the bytecode of a mutant an
// earlier evaluation decided (Options.Known, from that evaluation's Stats.Digests) is its
// duplicate and runs no test — in the schema and alone.
func TestKnownBytecodeMakesDuplicates(t *testing.T) {
	f, src, subj, suite, base := openCorpus(t)
	ctx := context.Background()
	first := corpusMutant(t, src, tceCorpus[2])  // (2 * 3) → (2 + 3): killed
	twin := corpusMutant(t, src, tceCorpus[3])   // (2 * 3) → (1 + 4): the same bytecode
	other := corpusMutant(t, src, tceCorpus[16]) // (1 + 1) → (1 + 2) in Box: killed, another bytecode
	vs, st, err := engine.Evaluate(ctx, f.proj.Pool, subj, suite, base, []mutants.Mutant{first}, engine.Options{PerMutant: true})
	if err != nil || len(vs) != 1 || vs[0].Status != report.Killed || st.Digests[first.ID] == "" {
		t.Fatalf("the first round: %v %+v digests %v", err, vs, st.Digests)
	}
	known := map[string]string{st.Digests[first.ID]: first.ID}
	for _, perMutant := range []bool{true, false} {
		vs, st2, err := engine.Evaluate(ctx, f.proj.Pool, subj, suite, base, []mutants.Mutant{twin, other}, engine.Options{PerMutant: perMutant, Known: known})
		if err != nil || len(vs) != 2 {
			t.Fatalf("perMutant %v: %v %+v", perMutant, err, vs)
		}
		if vs[0].Status != report.Duplicate || vs[0].DuplicateOf != first.ID {
			t.Errorf("perMutant %v: the twin is %s of %q, want a duplicate of %s", perMutant, vs[0].Status, vs[0].DuplicateOf, first.ID)
		}
		if vs[1].Status != report.Killed || st2.TestExecutions != 1 {
			t.Errorf("perMutant %v: the other mutant is %s after %d test executions, want killed by the one test it runs", perMutant, vs[1].Status, st2.TestExecutions)
		}
	}
}
