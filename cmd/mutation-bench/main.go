// Command mutation-bench measures the mutation-testing engine against the naive way on the
// example Maven project: the same rule-based mutants evaluated (a) with a copy of the project
// and `mvn test` per mutant (a sample) and (b) with the engine's warm JVM workers. It prints
// mutants per second for both, the ratio, whether the verdicts agree, the engine's time against
// its floor (the in-memory compiles plus the covering tests' own run time) and the test
// executions per mutant against the suite's size.
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
	"strings"
	"time"

	"github.com/advertest/advertest-lsp/buildtools"
	"github.com/advertest/advertest-lsp/buildtools/buildtest"
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
	flag.Parse()
	if err := run(*example, *file, strings.Split(*methods, ","), *naiveN, *workers, *sandboxRounds); err != nil {
		fmt.Fprintln(os.Stderr, "mutation-bench:", err)
		os.Exit(1)
	}
}

// job is one method's mutants.
type job struct {
	target *loop.Target
	ms     []mutants.Mutant
}

func run(example, rel string, methodNames []string, naiveN, workers, sandboxRounds int) error {
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
	proj, err := buildtools.OpenProject(ctx, loader, file, buildtools.ProjectOptions{Workers: workers, CacheDir: filepath.Join(work, "cache")})
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
		base, err := engine.RunBaseline(ctx, proj.Pool, j.target.Subject(), suite)
		if err != nil {
			return err
		}
		if _, _, err := engine.Evaluate(ctx, proj.Pool, j.target.Subject(), suite, base, j.ms, engine.Options{Parallelism: workers}); err != nil {
			return err
		}
	}

	// (b) The engine.
	start := time.Now()
	var all []report.Mutant
	var allMs []mutants.Mutant
	var allTargets []*loop.Target
	var stats engine.Stats
	suiteSize := 0
	for _, j := range jobs {
		base, err := engine.RunBaseline(ctx, proj.Pool, j.target.Subject(), suite)
		if err != nil {
			return err
		}
		suiteSize = len(base.Results)
		vs, st, err := engine.Evaluate(ctx, proj.Pool, j.target.Subject(), suite, base, j.ms, engine.Options{Parallelism: workers})
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
		stats.TestTime += st.TestTime
		stats.Wall += st.Wall
	}
	engineWall := time.Since(start)

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
	fmt.Printf("engine mutant time %.2f s against the floor %.2f s (in-memory compiles %.2f s + covering tests %.2f s, over %d workers): %.2f× the floor\n",
		stats.Wall.Seconds(), floor.Seconds(), stats.CompileTime.Seconds(), stats.TestTime.Seconds(), workers, stats.Wall.Seconds()/floor.Seconds())
	fmt.Printf("test executions per mutant: %.2f against a suite of %d tests\n", float64(stats.TestExecutions)/float64(len(all)), suiteSize)
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
