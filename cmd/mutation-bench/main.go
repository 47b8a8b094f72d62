// Command mutation-bench measures the mutation-testing engine against the naive way on the
// example Maven project: the same rule-based mutants evaluated (a) with a copy of the project
// and `mvn test` per mutant (a sample) and (b) with the engine's warm JVM workers. It prints
// mutants per second for both, the ratio, whether the verdicts agree, the engine's time against
// its floor (the in-memory compiles plus the covering tests' own run time), its cost per mutant
// beyond the covering tests against one empty JUnit run in a fresh class loader (measured in the
// same run), the test executions per mutant against the suite's size, and a line for a method
// whose mutants include endless loops (SortedLookup.indexOf): the share of its run the
// timeouts cost.
//
// It then prints what the sandbox costs: a worker's start and the engine's time per mutant in
// the sandbox against sandbox.mode off, measured in turns in the same run (-sandbox-rounds; -naive
// 0 skips the slow naive sample).
//
//	go run ./cmd/mutation-bench [-example examples/maven-calculator] [-naive 10] [-workers 2] [-sandbox-rounds 3]
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/advertest/advertest-lsp/buildtools"
	"github.com/advertest/advertest-lsp/buildtools/buildtest"
	"github.com/advertest/advertest-lsp/buildtools/harness"
	"github.com/advertest/advertest-lsp/loop"
	"github.com/advertest/advertest-lsp/loop/engine"
	"github.com/advertest/advertest-lsp/loop/engine/plain"
	"github.com/advertest/advertest-lsp/loop/mutants"
	"github.com/advertest/advertest-lsp/loop/report"
)

func main() {
	example := flag.String("example", "examples/maven-calculator", "the Maven project")
	file := flag.String("file", "src/main/java/org/acme/PriceCalculator.java", "the class, relative to the project")
	methods := flag.String("methods", "clamp,subtotal,total,bulkPrice,addItem", "the methods whose mutants are evaluated")
	naiveN := flag.Int("naive", 10, "how many mutants the naive side evaluates (mvn test each)")
	workers := flag.Int("workers", 2, "worker JVMs")
	sandboxRounds := flag.Int("sandbox-rounds", 3, "rounds of the sandbox's cost against sandbox.mode off (0: not measured)")
	loopFile := flag.String("loop-file", "src/main/java/org/acme/SortedLookup.java", "the class with the endless-loop method, relative to the project")
	loopMethod := flag.String("loop-method", "indexOf", "a method whose mutants include endless loops (\"\": none)")
	perMutant := flag.Bool("per-mutant", false, "compile every mutant on its own (no mutant schemata)")
	trace := flag.Bool("trace", false, "print every run of the endless-loop method's mutants (times, outcomes, steps)")
	faultLike := flag.Bool("fault-like", true, "evaluate the classic and the fault-like operators' mutants apart and print what the fault-like ones add")
	flag.Parse()
	b := bench{example: *example, rel: *file, methods: strings.Split(*methods, ","), naiveN: *naiveN, workers: *workers,
		loopRel: *loopFile, loopMethod: *loopMethod, perMutant: *perMutant, sandboxRounds: *sandboxRounds, trace: *trace, faultLike: *faultLike}
	if err := b.run(); err != nil {
		fmt.Fprintln(os.Stderr, "mutation-bench:", err)
		os.Exit(1)
	}
}

// warmUpCompiles is the server's (app.Options.WarmCompilers): the engine is measured on workers
// as a running server has them.
const warmUpCompiles = 10

// job is one method's mutants.
type job struct {
	target *loop.Target
	ms     []mutants.Mutant
}

type bench struct {
	example, rel        string
	methods             []string
	naiveN, workers     int
	loopRel, loopMethod string
	perMutant           bool
	sandboxRounds       int
	trace               bool
	faultLike           bool
}

func (b bench) run() error {
	example, rel, methodNames, naiveN, workers, sandboxRounds := b.example, b.rel, b.methods, b.naiveN, b.workers, b.sandboxRounds
	ctx := context.Background()
	work, err := os.MkdirTemp("", "advertest-bench-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(work)
	root := filepath.Join(work, filepath.Base(example))
	if err := buildtest.CopyProject(example, root); err != nil {
		return err
	}
	file := filepath.Join(root, rel)

	loader := buildtools.NewLoader(buildtools.Options{CacheDir: "-"})
	proj, err := buildtools.OpenProject(ctx, loader, file, buildtools.ProjectOptions{Workers: workers, CacheDir: filepath.Join(work, "cache"), WarmUpCompiles: warmUpCompiles})
	if err != nil {
		return err
	}
	defer proj.Close()

	var jobs []job
	total := 0
	for _, name := range methodNames {
		t, err := loop.ResolveTarget(file, 0, name)
		if err != nil {
			return err
		}
		ms := loop.AllRuleMutants(t, mutants.Selection{})
		jobs = append(jobs, job{t, ms})
		total += len(ms)
	}
	suite := engine.Suite{Tests: loop.ClassTests(proj.TestClasses)}

	// Warm the workers as a long-running server has them: one baseline and a few mutants
	// first, not counted.
	{
		j := jobs[0]
		opts := b.options()
		opts.Schema = engine.PrepareSchema(ctx, proj.Pool, j.target.Subject(), suite, j.ms)
		base, err := engine.RunBaseline(ctx, proj.Pool, j.target.Subject(), suite)
		if err != nil {
			return err
		}
		if _, _, err := engine.Evaluate(ctx, proj.Pool, j.target.Subject(), suite, base, j.ms, opts); err != nil {
			return err
		}
	}

	// And, as a server's workers are between requests, their compilers warmed in idle time.
	warmStart := time.Now()
	select {
	case <-proj.Pool.CompilersWarm():
	case <-time.After(2 * time.Minute):
		return fmt.Errorf("the workers' compilers did not warm up in 2 minutes")
	}
	fmt.Printf("workers' compilers warmed in idle time: %d compiles each, waited %.1f s\n", warmUpCompiles, time.Since(warmStart).Seconds())

	empty, err := emptyRun(ctx, proj.Pool, root, 21)
	if err != nil {
		return err
	}

	// (b) The engine.
	start := time.Now()
	var all []report.Mutant
	var allMs []mutants.Mutant
	var allTargets []*loop.Target
	var stats engine.Stats
	suiteSize := 0
	for _, j := range jobs {
		// As the application core does: the schema compiles while the baseline runs.
		opts := b.options()
		opts.Schema = engine.PrepareSchema(ctx, proj.Pool, j.target.Subject(), suite, j.ms)
		base, err := engine.RunBaseline(ctx, proj.Pool, j.target.Subject(), suite)
		if err != nil {
			return err
		}
		suiteSize = len(base.Results)
		vs, st, err := engine.Evaluate(ctx, proj.Pool, j.target.Subject(), suite, base, j.ms, opts)
		if err != nil {
			return err
		}
		all = append(all, vs...)
		allMs = append(allMs, j.ms...)
		for range j.ms {
			allTargets = append(allTargets, j.target)
		}
		stats.TestExecutions += st.TestExecutions
		stats.CompileTime += st.CompileTime
		stats.DigestTime += st.DigestTime
		stats.TestTime += st.TestTime
		stats.Wall += st.Wall
		stats.PreparedTime += st.PreparedTime
		stats.InSchema += st.InSchema
	}
	engineWall := time.Since(start)
	loopLine, err := b.endlessLoop(ctx, proj, root, suite)
	if err != nil {
		return err
	}
	faultLine := ""
	if b.faultLike {
		if faultLine, err = b.faultLikeCost(ctx, proj, jobs, suite); err != nil {
			return err
		}
	}

	// (a) The naive way on an even sample.
	step := max(1, len(allMs)/max(1, naiveN))
	agree, sampled := 0, 0
	var naiveTime time.Duration
	if naiveN > 0 {
		fmt.Fprintf(os.Stderr, "naive: mvn test on %d mutants…\n", min(naiveN, len(allMs)))
	}
	for i := 0; i < len(allMs) && sampled < naiveN; i += step {
		src, err := mutants.Apply(allTargets[i].Source, allMs[i])
		if err != nil {
			return err
		}
		failed, out, dur, err := plain.MavenTest(ctx, root, rel, string(src), nil)
		if err != nil {
			return err
		}
		naiveTime += dur
		verdict := "survived"
		if failed {
			verdict = "killed"
			if strings.Contains(out, "COMPILATION ERROR") {
				verdict = "uncompilable"
			}
		}
		sampled++
		same := verdict == string(all[i].Status)
		if same {
			agree++
		}
		fmt.Fprintf(os.Stderr, "  %-14s line %-3d %-12s engine %-12s %.1f s\n", allMs[i].ID, allMs[i].Line, verdict, all[i].Status, dur.Seconds())
	}

	c := report.Counts(all)
	naiveRate := float64(sampled) / naiveTime.Seconds()
	engineRate := float64(len(all)) / engineWall.Seconds()
	floor := (stats.CompileTime + stats.TestTime) / time.Duration(workers)
	fmt.Printf("mutants evaluated by the engine: %d (killed %d, survived %d, uncompilable %d, timeout %d) on %d methods\n",
		len(all), c[report.Killed], c[report.Survived], c[report.Uncompilable], c[report.Timeout], len(jobs))
	fmt.Printf("engine workers: %s\n", proj.Pool.Sandbox())
	if sampled > 0 {
		fmt.Printf("naive (copy + mvn test per mutant): %d mutants in %.1f s = %.3f mutants/s\n", sampled, naiveTime.Seconds(), naiveRate)
	}
	fmt.Printf("engine (%d warm workers, baselines included): %d mutants in %.2f s = %.1f mutants/s\n", workers, len(all), engineWall.Seconds(), engineRate)
	if sampled > 0 {
		fmt.Printf("speed-up: %.0f×\n", engineRate/naiveRate)
		fmt.Printf("verdicts agree on the naive sample: %d/%d\n", agree, sampled)
	}
	fmt.Printf("engine mutant time %.2f s against the floor %.2f s (in-memory compiles %.2f s, their bytecode digests %.2f s of it, + covering tests %.2f s, over %d workers): %.2f× the floor\n",
		stats.Wall.Seconds(), floor.Seconds(), stats.CompileTime.Seconds(), stats.DigestTime.Seconds(), stats.TestTime.Seconds(), workers, stats.Wall.Seconds()/floor.Seconds())
	// The schemata compiled while the baselines ran took a worker outside Wall: that time is
	// added back (the part of a compile Evaluate waited for is in Wall already).
	perMutant := (stats.Wall*time.Duration(workers) + stats.PreparedTime - stats.TestTime) / time.Duration(max(1, len(all)))
	fmt.Printf("engine cost per mutant beyond its covering tests: %.1f ms (wall × workers + schema compiles during the baselines %.2f s − tests, over %d mutants, %d in a schema) against one empty JUnit run in a fresh loader: %.1f ms (median of %d): %.2f×\n",
		ms(perMutant), stats.PreparedTime.Seconds(), len(all), stats.InSchema, ms(empty), 20, float64(perMutant)/float64(max(1, empty)))
	fmt.Printf("test executions per mutant: %.2f against a suite of %d tests\n", float64(stats.TestExecutions)/float64(len(all)), suiteSize)
	if loopLine != "" {
		fmt.Println(loopLine)
	}
	if faultLine != "" {
		fmt.Println(faultLine)
	}
	if sandboxRounds > 0 {
		if err := measureSandbox(ctx, proj.Module, filepath.Join(work, "cache"), jobs, suite, workers, sandboxRounds); err != nil {
			return err
		}
	}
	if agree != sampled {
		return fmt.Errorf("%d verdicts differ", sampled-agree)
	}
	return nil
}

func (b bench) options() engine.Options {
	return engine.Options{Parallelism: b.workers, PerMutant: b.perMutant}
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

// emptyRun is the median time of one empty JUnit 5 test run in a fresh class loader (its class
// compiled once: the workers keep their last compiles), over n runs after a first one.
func emptyRun(ctx context.Context, pool *harness.Pool, root string, n int) (time.Duration, error) {
	src := harness.Source{ClassName: "org.acme.AdverTestEmptyBenchTest", Text: "package org.acme;\n" +
		"class AdverTestEmptyBenchTest {\n    @org.junit.jupiter.api.Test\n    void empty() {\n    }\n}\n"}
	id := harness.TestID{Class: src.ClassName, Method: "empty"}
	var times []time.Duration
	for i := 0; i <= n; i++ {
		start := time.Now()
		res, err := pool.Run(ctx, harness.RunSpec{ExtraTests: []harness.Source{src}, Tests: []harness.TestID{id}})
		if err != nil {
			return 0, fmt.Errorf("the empty JUnit run: %w", err)
		}
		if len(res.Tests) != 1 || res.Tests[0].Outcome != harness.Passed {
			return 0, fmt.Errorf("the empty JUnit run did not pass: %+v", res.Tests)
		}
		if i > 0 {
			times = append(times, time.Since(start))
		}
	}
	slices.Sort(times)
	return times[len(times)/2], nil
}

// endlessLoop evaluates the endless-loop method's mutants and describes what its timeouts cost.
func (b bench) endlessLoop(ctx context.Context, proj *buildtools.Project, root string, suite engine.Suite) (string, error) {
	if b.loopMethod == "" {
		return "", nil
	}
	t, err := loop.ResolveTarget(filepath.Join(root, b.loopRel), 0, b.loopMethod)
	if err != nil {
		return "", err
	}
	ms := loop.AllRuleMutants(t, mutants.Selection{})
	var r engine.Runner = proj.Pool
	if b.trace {
		r = &tracer{Runner: proj.Pool}
	}
	start := time.Now()
	opts := b.options()
	opts.Schema = engine.PrepareSchema(ctx, r, t.Subject(), suite, ms)
	base, err := engine.RunBaseline(ctx, r, t.Subject(), suite)
	if err != nil {
		return "", err
	}
	vs, st, err := engine.Evaluate(ctx, r, t.Subject(), suite, base, ms, opts)
	if err != nil {
		return "", err
	}
	wall := time.Since(start)
	c := report.Counts(vs)
	work := st.CompileTime + st.TestTime
	// Two shares: of the method's run (its wall time, baseline included, times the workers:
	// the capacity the run held) and of the workers' compile and test time alone (stricter:
	// no overheads in the denominator).
	run := wall * time.Duration(b.workers)
	return fmt.Sprintf("endless-loop method %s: %d mutants (%d timeout, %d killed, %d survived) in %.2f s with its baseline; timeouts cost %.2f s: %.1f%% of its run (%.2f s × %d workers), %.1f%% of its compile and test time (%.2f s)",
		b.loopMethod, len(vs), c[report.Timeout], c[report.Killed], c[report.Survived], wall.Seconds(),
		st.TimeoutTime.Seconds(), 100*float64(st.TimeoutTime)/float64(max(1, run)), wall.Seconds(), b.workers,
		100*float64(st.TimeoutTime)/float64(max(1, work)), work.Seconds()), nil
}
