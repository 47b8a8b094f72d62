// Package harness owns the warm JVM worker pool that compiles Java classes in memory, runs JUnit
// tests and measures per-test coverage, hundreds of times per method, without paying a JVM start
// each time.
//
// The worker is Java code kept in this package (java/advertest/worker), embedded in the binary and
// compiled on first use with the user's own javac (--release 11) by BuildJava, which also builds
// the offline agent's explorer: Java sources to a class folder or jar under CacheDir/<name>/<content
// hash>/, written atomically. The worker needs only the JDK, JaCoCo core and ASM (its own class
// loader) and, at run time, the project's JUnit on LibraryClasspath; JUnit 4 and the JUnit
// Platform are driven by reflection.
//
// One worker JVM per pool slot speaks newline-delimited JSON on descriptors of its own: requests
// (init, compile, discover, run, analyze: the coverage of probes merged from several runs, stats,
// cancel) on fd 4, answers on fd 3; a run streams plan, start and result events before its done
// line. docs/worker-protocol.md is the contract; each
// message has its own Go type (protocol.go) and Java builder (Protocol.java). Tests get an empty
// System.in and System.out/err captured per test, bounded, into TestResult.Stdout/Stderr; since a
// test can still reach the descriptors, the Go side checks every line against the run's sequence,
// and a worker that breaks it is restarted: the test that was running is rerun alone on a fresh
// worker and, if it breaks the protocol again, ends as an Error saying so.
//
// For each run the worker compiles the overrides and extra tests with javax.tools at the
// project's language level, loads them and re-loads the project's classes in a fresh child-first
// class loader (libraries from one shared parent: static state never leaks between runs),
// rewrites every class it defines with ASM (backward jumps check a deadline, System.exit /
// Runtime.exit / halt throw an Error instead), runs each test on its own thread with a bounded
// stack and a scratch folder (the system property advertest.scratch; the files left there come
// back in TestResult.Files), and reads JaCoCo's execution data (agent with output=none) after each
// test. After each test it kills the processes the test started and gives the threads it started
// a grace period; more than Config.ThreadLimit threads left costs a worker restart.
//
// Only the in-memory classes (overrides, extra tests) get the deadline checks; the project's own
// classes get just the exit rewrite, which keeps JaCoCo's instruction counts exact for them
// (the per-test coverage equals what JaCoCo reports for the test run alone). The overrides'
// counts include one extra instruction per executed backward jump and method entry. A loop in an unchanged project
// class (a mutant elsewhere made it endless) is stopped by the restart layer below. Class files
// newer than ASM 9.4 reads (Java 21+) are rewritten as version 64 and given their version back;
// JaCoCo 0.8.6 itself cannot instrument them, so they get no coverage.
//
// Work is bounded first, deterministically: the checks count the test's steps (backward jumps
// and method entries in the in-memory classes, TestResult.Steps), and past RunSpec.StepBudgets
// the test throws a TimeoutError whatever the machine's load. Time is the backstop, in layers:
// the test thread throws a TimeoutError at its next check once its wall-clock budget
// is spent (on a mutant, Config.MutantBudget.Of its time on the original; on the original,
// Config.OriginalTimeout); a thread that
// does not stop two seconds later makes the worker ask for a restart; and the Go side kills a
// worker that stays silent past budget + 5 s. Context cancellation sends a cancel line and kills the
// worker if it has not answered within a second. Memory is bounded too: Config.HeapMB (-Xmx, 512
// MiB by default) and caps on metaspace, direct memory and thread stacks; workers are restarted
// after an OutOfMemoryError. Workers lead their own process group, die with the controller
// (Pdeathsig on Linux, and when their request pipe closes), write only under their scratch folder
// (Config.ScratchDir/w<N>, also their working directory) and are all killed by Close. The start
// of a worker is one function (workerCommand), for a sandbox to wrap.
//
// On JDK 13+ Open also makes, once per worker build and JDK, a dynamic class-data-sharing archive
// (a training run that compiles one class, then -XX:SharedArchiveFile for every worker): a
// restart to its first result drops by about a fifth to a third (BenchmarkWorkerStart: 465 → 372 ms
// median on a lightly loaded 2-core box, 2.5 → 1.7 s under heavy load).
package harness
