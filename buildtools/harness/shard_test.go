package harness

import (
	"context"
	"strings"
	"testing"
	"time"
)

// TestShardedRunHasTheSameUnion runs one suite of two test classes as one run and sharded over
// two workers: the same outcomes and per-test coverage, each class's results together, and the
// same exact coverage union, which neither part's own union is (CalcTest covers clamp and sumTo,
// OldStyleTest add).
func TestShardedRunHasTheSameUnion(t *testing.T) {
	cfg := fx.j4.config()
	cfg.Workers = 2
	p := openPool(t, cfg)
	calc := []string{"org.acme.Calc"}
	tests := []TestID{
		{Class: "org.acme.CalcTest", Method: "clampsLow"},
		{Class: "org.acme.OldStyleTest"},
		{Class: "org.acme.CalcTest", Method: "sums"},
	}
	// An override makes the runs compile in memory, as the engine's baseline does.
	override := []Source{{ClassName: "org.acme.Calc", Text: readSource(t, fx.j4, "org/acme/Calc.java")}}
	whole := run(t, p, RunSpec{Overrides: override, Tests: tests, Coverage: true, CoverClasses: calc})
	parts := p.shards(RunSpec{Tests: tests, Sharded: true})
	if len(parts) != 2 {
		t.Fatalf("parts = %v, want 2", parts)
	}
	sharded := run(t, p, RunSpec{Overrides: override, Tests: tests, Coverage: true, CoverClasses: calc, Sharded: true})

	var order []string
	for _, tr := range sharded.Tests {
		order = append(order, tr.Test.String())
	}
	if got, want := strings.Join(order, " "), "org.acme.CalcTest.clampsLow org.acme.CalcTest.sums org.acme.OldStyleTest.testAdds"; got != want {
		t.Errorf("sharded order = %s, want %s", got, want)
	}
	if len(sharded.Tests) != len(whole.Tests) {
		t.Fatalf("sharded ran %d tests, whole %d", len(sharded.Tests), len(whole.Tests))
	}
	for _, w := range whole.Tests {
		s := find(t, sharded, w.Test.String())
		if s.Outcome != w.Outcome {
			t.Errorf("%s: sharded %s, whole %s", w.Test, s.Outcome, w.Outcome)
		}
		if s.Coverage == nil || w.Coverage == nil {
			t.Fatalf("%s: no per-test coverage (sharded %v, whole %v)", w.Test, s.Coverage != nil, w.Coverage != nil)
		}
		if got, want := formatCoverage("Calc", s.Coverage.Classes["org.acme.Calc"]), formatCoverage("Calc", w.Coverage.Classes["org.acme.Calc"]); got != want {
			t.Errorf("%s: per-test coverage differs\nsharded:\n%s\nwhole:\n%s", w.Test, got, want)
		}
	}
	if whole.Coverage == nil || sharded.Coverage == nil {
		t.Fatalf("no union (whole %v, sharded %v)", whole.Coverage != nil, sharded.Coverage != nil)
	}
	union := formatCoverage("Calc", sharded.Coverage.Classes["org.acme.Calc"])
	if want := formatCoverage("Calc", whole.Coverage.Classes["org.acme.Calc"]); union != want {
		t.Errorf("sharded union differs\nsharded:\n%s\nwhole:\n%s", union, want)
	}
	// Each part alone covers less: the union really is merged.
	for _, part := range parts {
		r := run(t, p, RunSpec{Overrides: override, Tests: part, Coverage: true, CoverClasses: calc})
		if r.Coverage == nil || formatCoverage("Calc", r.Coverage.Classes["org.acme.Calc"]) == union {
			t.Errorf("part %v alone has the whole union", part)
		}
	}
}

// TestShardedCoverageNeedsTheSameBytes: probes of one class recorded on other bytes are not
// merged, and a worker refuses to analyse them rather than read them as "not covered".
func TestShardedCoverageNeedsTheSameBytes(t *testing.T) {
	if _, err := mergeProbes([][]wireProbes{{{Class: "a.B", ID: "1", Probes: "10"}}, {{Class: "a.B", ID: "2", Probes: "01"}}}); err == nil {
		t.Error("probes of two class ids merged")
	}
	got, err := mergeProbes([][]wireProbes{{{Class: "a.B", ID: "1", Probes: "100"}}, {{Class: "a.B", ID: "1", Probes: "001"}, {Class: "a.C", ID: "3", Probes: "1"}}})
	if err != nil || len(got) != 2 || got[0].Probes != "101" || got[1].Class != "a.C" {
		t.Errorf("merge = %+v, %v", got, err)
	}

	p := openPool(t, fx.j4.config())
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	spec := RunSpec{Tests: []TestID{{Class: "org.acme.CalcTest", Method: "sums"}}, Coverage: true, CoverClasses: []string{"org.acme.Calc"}}
	spec.exportProbes = true
	r, err := p.Run(ctx, spec)
	if err != nil || !r.probesOK || len(r.probes) != 1 || !strings.Contains(r.probes[0].Probes, "1") {
		t.Fatalf("exported probes = %+v (ok %v), %v", r.probes, r.probesOK, err)
	}
	// The exported probes analysed again give the run's union.
	cov, err := p.analyzeProbes(ctx, spec, r.probes)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := formatCoverage("Calc", cov.Classes["org.acme.Calc"]), formatCoverage("Calc", r.Coverage.Classes["org.acme.Calc"]); got != want {
		t.Errorf("analysed probes\n%s\nwant the run's union\n%s", got, want)
	}
	forged := append([]wireProbes(nil), r.probes...)
	forged[0].ID = "123"
	if _, err := p.analyzeProbes(ctx, spec, forged); err == nil || !strings.Contains(err.Error(), "other bytes") {
		t.Errorf("probes of other bytes analysed: %v", err)
	}
}

// TestWhenAcquiredCallsBackOncePerRequest: a request made with WhenAcquired's context calls back
// when it holds its worker, before its answer.
func TestWhenAcquiredCallsBackOncePerRequest(t *testing.T) {
	p := openPool(t, fx.j4.config())
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	var calls []string
	ctx = WhenAcquired(ctx, func() { calls = append(calls, "acquired") })
	cr, err := p.Compile(ctx, []Source{{ClassName: "org.acme.Calc", Text: readSource(t, fx.j4, "org/acme/Calc.java")}})
	if err != nil || !cr.OK {
		t.Fatalf("compile: %v %+v", err, cr)
	}
	calls = append(calls, "answered")
	if got := strings.Join(calls, " "); got != "acquired answered" {
		t.Errorf("calls = %s", got)
	}
}
