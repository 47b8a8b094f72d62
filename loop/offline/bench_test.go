package offline

import (
	"testing"
	"time"

	"github.com/advertest/advertest-lsp/buildtools/harness"
)

// BenchmarkExplore measures one exploration of PriceCalculator.clamp on a warm worker:
// go test -run '^$' -bench Explore ./loop/offline/
func BenchmarkExplore(b *testing.B) {
	proj, file := calculator(b)
	a, err := New(proj.Pool, Options{CacheDir: b.TempDir()})
	if err != nil {
		b.Fatal(err)
	}
	s := subject(b, proj, file, "clamp")
	src := harness.Source{ClassName: s.Method.TopLevelClass, Text: string(s.Source)}
	ctx := b.Context()
	var inputs int
	var testTime time.Duration
	for i := 0; i < 3; i++ { // warm up the worker
		if _, err := a.explore(ctx, src, "org.acme", 5, a.params(s)); err != nil {
			b.Fatal(err)
		}
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		e, err := a.explore(ctx, src, "org.acme", 5, a.params(s))
		if err != nil {
			b.Fatal(err)
		}
		inputs += len(e.records)
		testTime += e.testTime
	}
	b.ReportMetric(float64(inputs)/testTime.Seconds(), "inputs/s")
	b.ReportMetric(float64(inputs)/float64(b.N), "inputs/op")
}

// BenchmarkKillMutant measures KillMutant with the original's exploration cached: one
// exploration of the mutant and the two verification runs.
func BenchmarkKillMutant(b *testing.B) {
	proj, file := calculator(b)
	a, err := New(proj.Pool, Options{CacheDir: b.TempDir()})
	if err != nil {
		b.Fatal(err)
	}
	s := subject(b, proj, file, "clamp")
	m := mutantOn(b, s, "lo > hi", "lo >= hi")
	ctx := b.Context()
	for i := 0; i < 3; i++ {
		if _, err := a.KillMutant(ctx, s, m); err != nil {
			b.Fatal(err)
		}
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		tests, err := a.KillMutant(ctx, s, m)
		if err != nil || len(tests) != 1 {
			b.Fatalf("KillMutant: %v, %d tests", err, len(tests))
		}
	}
}
