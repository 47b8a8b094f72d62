// Package harness owns the warm JVM worker pool that compiles Java classes in memory, runs JUnit
// tests and measures per-test coverage, hundreds of times per method, without paying a JVM start
// each time.
//
// The worker is Java code kept in this package (java/advertest/worker), embedded in the binary and
// compiled on first use with the user's own javac (--release 11) into
// CacheDir/worker/<content hash>/, written atomically. It needs only the JDK, JaCoCo core and ASM
// (its own class loader) and, at run time, the project's JUnit on LibraryClasspath; JUnit 4 and
// the JUnit Platform are driven by reflection.
//
// One worker JVM per pool slot speaks newline-delimited JSON over stdin/stdout (the protocol
// goes to the original stdout; System.out/err are redirected so code under test cannot corrupt
// it). Requests: init, compile, discover, run, cancel; a run streams plan/start/result events
// before its done line. For each run the worker compiles the overrides and extra tests with
// javax.tools at the project's language level, loads them and re-loads the project's classes in
// a fresh child-first class loader (libraries from one shared parent: static state never leaks
// between runs), rewrites every class it defines with ASM (backward jumps check a deadline,
// System.exit/Runtime.exit/halt throw an Error instead), runs each test on its own thread with a
// bounded stack, and reads JaCoCo's execution data (agent with output=none) after each test.
//
// Only the in-memory classes (overrides, extra tests) get the deadline checks; the project's own
// classes get just the exit rewrite, which keeps JaCoCo's instruction counts exact for them
// (the per-test coverage equals what JaCoCo reports for the test run alone). The overrides'
// counts include one extra instruction per executed backward jump. A loop in an unchanged project
// class (a mutant elsewhere made it endless) is stopped by the restart layer below. Class files
// newer than ASM 9.4 reads (Java 21+) are rewritten as version 64 and given their version back;
// JaCoCo 0.8.6 itself cannot instrument them, so they get no coverage.
//
// Time is bounded in layers: the test thread throws a TimeoutError at its next backward jump
// once its budget (TimeoutFactor × its normal time + TimeoutConstant) is spent; a thread that
// does not stop two seconds later makes the worker ask for a restart; and the Go side kills a
// worker that stays silent past budget + 5 s. Context cancellation sends a cancel line and kills the
// worker if it has not answered within a second. Workers get -Xmx512m, are restarted after an
// OutOfMemoryError, die with the controller (Pdeathsig on Linux, and when their stdin closes),
// and are all killed by Close.
//
// On JDK 13+ Open also makes, once per worker build and JDK, a dynamic class-data-sharing archive
// (a training run that compiles one class, then -XX:SharedArchiveFile for every worker): a
// restart to its first result drops by about a fifth to a third (BenchmarkWorkerStart: 465 → 372 ms
// median on a lightly loaded 2-core box, 2.5 → 1.7 s under heavy load).
package harness
