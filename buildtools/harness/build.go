package harness

import (
	"context"
	"embed"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"go.uber.org/zap"

	"github.com/advertest/advertest-lsp/buildtools/sandbox"
)

// workerSources is the worker's Java code, compiled with the user's JDK on first use.
//
//go:embed java
var workerSources embed.FS

// testOutputLimit bounds what one test's System.out and System.err keep, each.
const testOutputLimit = 64 << 10

// jvmFlags are the worker's JVM flags: the heap, and caps on what else a test can make the JVM
// take (metaspace, direct buffers, the default thread stack), so that a runaway test ends as an
// OutOfMemoryError in one worker rather than taking the machine; an earlier loop compile, and
// the client compiler only.
func jvmFlags(heapMB int) []string {
	return []string{
		"-Xmx" + strconv.Itoa(heapMB) + "m",
		"-XX:MaxMetaspaceSize=384m",
		"-XX:MaxDirectMemorySize=" + strconv.Itoa(max(64, heapMB/4)) + "m",
		"-Xss1m",
		"-XX:+UseSerialGC", "-XX:-UsePerfData", "-Xshare:auto", "-Djava.awt.headless=true",
		// A mutant's class is new in each run's loader and runs interpreted; an endless loop
		// spends its whole step budget there. OSR-compiling a loop after 2,000 back edges instead
		// of 60,000 cut indexOf's timeouts from 45% to 33-36% of its worker time in
		// mutation-bench (docs/worker-protocol.md, Traps).
		"-XX:Tier3BackEdgeThreshold=2000",
		// C1 only: a worker's work is many short compiles and tests, and C2's compiler threads
		// took the cores from them. In mutation-bench on 2 cores this halved the engine's time
		// (4.2-5.5 s to 2.2-2.9 s for 145 mutants) and javac's first compiles (docs/worker-protocol.md,
		// Traps).
		"-XX:TieredStopAtLevel=1",
		// javac's context pool, which the in-memory compiler reuses between compiles
		// (MemCompiler.ReusedJavac; docs/worker-protocol.md, "Compile cache").
		"--add-exports=jdk.compiler/com.sun.tools.javac.api=ALL-UNNAMED",
	}
}

// uncoveredLoaders are the class loaders JaCoCo's agent leaves alone: its default (the JDK's
// reflection loaders) and the worker's loader of runs without coverage (RunLoader.Uncovered), so
// that a mutant's run gets no probes: they tripled the cost of an interpreted loop's steps, and
// instrumenting a run's classes again cost every run its time.
var uncoveredLoaders = []string{"sun.reflect.DelegatingClassLoader", "jdk.internal.reflect.DelegatingClassLoader", "advertest.worker.RunLoader$Uncovered"}

// prepare finds the JDK and jars, builds (or reuses) the worker classes and says how to start it.
// built reports whether the worker was compiled now.
func prepare(ctx context.Context, cfg Config) (spec *launchSpec, built bool, err error) {
	java, javac, err := FindJDK(cfg.JavaHome)
	if err != nil {
		return nil, false, err
	}
	cacheDir := cfg.CacheDir
	if cacheDir == "" {
		base, err := os.UserCacheDir()
		if err != nil {
			return nil, false, fmt.Errorf("harness: no cache folder: %w", err)
		}
		cacheDir = filepath.Join(base, "advertest")
	}
	support, err := supportJars()
	if err != nil {
		return nil, false, err
	}
	workerJar, built, err := BuildJava(ctx, JavaBuild{Name: "worker", Sources: workerSources, Root: "java", Classpath: support, Javac: javac, Jar: true, CacheDir: cacheDir,
		Env: cfg.SandboxPolicy.ToolEnv(os.Environ())})
	if err != nil {
		return nil, false, err
	}
	if built {
		cfg.Logger.Info("harness: compiled the worker", zap.String("jar", workerJar))
	}
	cp := strings.Join(append([]string{workerJar}, support...), string(os.PathListSeparator))
	base := jvmFlags(cfg.HeapMB)
	args := append([]string(nil), base...)
	var cds *cdsSpec
	if major := jdkMajor(java); major >= 13 {
		cds = &cdsSpec{archive: cdsArchivePath(workerJar, java), args: append(append([]string(nil), base...), "-cp", cp, "advertest.worker.Main")}
	}
	// What a worker reads: of the cache only its own entries, by their hashed folders (the
	// worker's jar with its CDS archive, the JaCoCo agent below; the offline explorer comes with
	// Pool.AllowRead), never the cache as a whole, which holds other projects' compiled classes
	// and build models; the support jars, the project's class path and folders.
	readOnly := append([]string{filepath.Dir(workerJar)}, support...)
	readOnly = append(readOnly, cfg.ReadOnly...)
	readOnly = append(readOnly, cfg.ProjectClassDirs...)
	readOnly = append(readOnly, cfg.SourceRoots...)
	readOnly = append(readOnly, cfg.LibraryClasspath...)
	if cfg.WorkDir != "" {
		readOnly = append(readOnly, cfg.WorkDir)
	}
	readOnly = append(readOnly, sandbox.LocalRepositories()...)
	includes := cfg.CoverageIncludes
	if len(includes) == 0 {
		includes = deriveIncludes(cfg.ProjectClassDirs)
	}
	if len(includes) > 0 {
		agent, err := jacocoAgent(cfg.JacocoAgentJar, cacheDir)
		if err != nil {
			cfg.Logger.Warn("harness: no JaCoCo agent; coverage is off", zap.Error(err))
		} else {
			args = append(args, "-javaagent:"+agent+"=output=none,includes="+strings.Join(includes, ":")+",exclclassloader="+strings.Join(uncoveredLoaders, ":"))
			readOnly = append(readOnly, agent)
		}
	}
	box := sandbox.Spec{Status: cfg.Sandbox, Policy: cfg.SandboxPolicy, ReadOnly: readOnly, Dir: cfg.WorkDir}
	// A layout the sandbox refuses (a project at or above the home folder) fails the pool's
	// open, not its first worker's start.
	if err := box.Check(java); err != nil {
		return nil, false, fmt.Errorf("harness: %w", err)
	}
	var privateTmp []string
	if cfg.Sandbox.Contained() {
		privateTmp = []string{"/tmp", "/dev/shm"} // the sandbox's own, emptied after each test
	}
	args = append(args, "-cp", cp, "advertest.worker.Main")
	return &launchSpec{
		java:      java,
		args:      args,
		cds:       cds,
		sandbox:   box,
		workerJar: workerJar,
		cacheDir:  cacheDir,
		init: initRequest{
			PrivateTmp:       privateTmp,
			LibraryClasspath: nonNil(cfg.LibraryClasspath),
			ProjectClassDirs: nonNil(cfg.ProjectClassDirs),
			Release:          cfg.Release,
			CompilerArgs:     nonNil(cfg.CompilerArgs),
			ThreadLimit:      cfg.ThreadLimit,
			OutputLimit:      testOutputLimit,
		},
	}, built, nil
}
