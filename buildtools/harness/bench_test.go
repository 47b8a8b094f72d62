package harness

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"
)

// BenchmarkMutantWarmVsProcesses measures one mutant of Calc with its four covering tests: in the
// warm worker (in-memory compile + fresh loader + JUnit) against a javac process plus a java
// process running JUnitCore, side by side in each iteration. Run with -benchtime=10x.
func BenchmarkMutantWarmVsProcesses(b *testing.B) {
	p := openPool(b, fx.j4.config())
	src := readSource(b, fx.j4, "org/acme/Calc.java")
	mutants := []string{
		mutate(b, src, "if (x > hi) {", "if (x < hi) {"),
		mutate(b, src, "s += i;", "s -= i;"),
	}
	tests := []TestID{{Class: "org.acme.CalcTest"}}
	// Warm up: the first compiles in a new JVM take up to a second.
	for i := 0; i < 15; i++ {
		run(b, p, RunSpec{Overrides: []Source{{ClassName: "org.acme.Calc", Text: mutants[i%2]}}, Tests: tests})
	}
	dir := b.TempDir()
	srcDir, outDir := filepath.Join(dir, "src", "org", "acme"), filepath.Join(dir, "out")
	if err := os.MkdirAll(srcDir, 0o755); err != nil {
		b.Fatal(err)
	}
	cp := strings.Join(append([]string{fx.j4.main}, junit4Libs...), ":")
	runCP := strings.Join(append([]string{outDir, fx.j4.main, fx.j4.test}, junit4Libs...), ":")
	var warm, procs []time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		m := mutants[i%2]
		t0 := time.Now()
		r := run(b, p, RunSpec{Overrides: []Source{{ClassName: "org.acme.Calc", Text: m}}, Tests: tests})
		warm = append(warm, time.Since(t0))
		if len(r.Tests) != 4 {
			b.Fatalf("warm run: %v", outcomes(r))
		}

		t0 = time.Now()
		f := filepath.Join(srcDir, "Calc.java")
		if err := os.WriteFile(f, []byte(m), 0o644); err != nil {
			b.Fatal(err)
		}
		if out, err := exec.Command("javac", "-g", "-source", "11", "-target", "11", "-nowarn", "-d", outDir, "-cp", cp, f).CombinedOutput(); err != nil {
			b.Fatalf("javac: %v\n%s", err, out)
		}
		out, _ := exec.Command("java", "-cp", runCP, "org.junit.runner.JUnitCore", "org.acme.CalcTest").CombinedOutput()
		if !strings.Contains(string(out), "Tests run: 4") {
			b.Fatalf("JUnitCore: %s", out)
		}
		procs = append(procs, time.Since(t0))
	}
	b.ReportMetric(ms(median(warm)), "warm-median-ms")
	b.ReportMetric(ms(median(procs)), "processes-median-ms")
	b.ReportMetric(float64(median(procs))/float64(median(warm)), "speedup")
}

func median(ds []time.Duration) time.Duration {
	s := append([]time.Duration(nil), ds...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	return s[len(s)/2]
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

// BenchmarkWorkerStart measures a worker's start to the first result of a run (JVM start, init,
// the first in-memory compile, loading JUnit), and a restart (kill, start, first result).
func BenchmarkWorkerStart(b *testing.B) {
	src := readSource(b, fx.j4, "org/acme/Calc.java")
	spec := RunSpec{Overrides: []Source{{ClassName: "org.acme.Calc", Text: src}}, Tests: []TestID{{Class: "org.acme.CalcTest", Method: "sums"}}}
	var start, restart, noCDS []time.Duration
	for i := 0; i < b.N; i++ {
		p, err := Open(context.Background(), fx.j4.config())
		if err != nil {
			b.Fatal(err)
		}
		t0 := time.Now()
		run(b, p, spec)
		start = append(start, time.Since(t0))

		t0 = time.Now()
		s := <-p.idle
		s.w.kill()
		p.release(s)
		run(b, p, spec)
		restart = append(restart, time.Since(t0))

		// The same restart without the class-data-sharing archive.
		s = <-p.idle
		s.w.kill()
		p.release(s)
		p.launch.cds = nil
		t0 = time.Now()
		run(b, p, spec)
		noCDS = append(noCDS, time.Since(t0))
		p.Close()
	}
	b.ReportMetric(ms(median(start)), "start-median-ms")
	b.ReportMetric(ms(median(restart)), "restart-median-ms")
	b.ReportMetric(ms(median(noCDS)), "restart-nocds-median-ms")
}

// BenchmarkManyMutantsNoLeak runs b.N mutants of Price (JUnit 5 and JUnit 4 tests, coverage on)
// in one worker and reports how loaded classes and memory grew: a fresh loader per run must not
// pile up. Run with -benchtime=200x.
func BenchmarkManyMutantsNoLeak(b *testing.B) {
	p := openPool(b, fx.j5.config())
	src := readSource(b, fx.j5, "org/shop/Price.java")
	spec := func(i int) RunSpec {
		m := mutate(b, src, "return 0;", "return "+strconv.Itoa(i%7)+";")
		return RunSpec{Overrides: []Source{{ClassName: "org.shop.Price", Text: m}},
			Tests:    []TestID{{Class: "org.shop.PriceTest", Method: "half"}, {Class: "org.shop.PriceTest", Method: "fullIsFree"}, {Class: "org.shop.LegacyTest", Method: "quarter"}},
			Coverage: true, CoverClasses: []string{"org.shop.Price"}}
	}
	stats := func() *statsReply {
		st, err := p.stats(context.Background())
		if err != nil {
			b.Fatal(err)
		}
		return st
	}
	for i := 0; i < 20; i++ {
		run(b, p, spec(i))
	}
	before := stats()
	var durs []time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		t0 := time.Now()
		run(b, p, spec(i))
		durs = append(durs, time.Since(t0))
	}
	b.StopTimer()
	after := stats()
	b.ReportMetric(ms(median(durs)), "run-median-ms")
	b.ReportMetric(float64(after.LoadedClasses-before.LoadedClasses), "loaded-classes-growth")
	b.ReportMetric(float64(after.HeapUsed-before.HeapUsed)/(1<<20), "heap-growth-MiB")
	b.ReportMetric(float64(after.NonHeapUsed-before.NonHeapUsed)/(1<<20), "nonheap-growth-MiB")
}
