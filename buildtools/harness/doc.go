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
// Time is bounded in layers: the test thread throws a TimeoutError at its next backward jump
// once its budget (TimeoutFactor × its normal time + TimeoutConstant) is spent; a thread that
// does not stop two seconds later makes the worker ask for a restart; and the Go side kills a
// worker that stays silent past budget + 5 s. Context cancellation sends a cancel line and kills the
// worker if it has not answered within a second. Workers get -Xmx512m, are restarted after an
// OutOfMemoryError, die with the controller (Pdeathsig on Linux, and when their stdin closes),
// and are all killed by Close.
package harness
