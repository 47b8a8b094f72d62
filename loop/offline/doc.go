// Package offline owns the search-based test agent T that needs no LLM: it runs the method
// under test on generated inputs inside the project's warm JVM worker, once on the original
// and once on a mutant, and turns the first input where they behave differently into a
// readable JUnit test that asserts the original's behaviour.
//
// The exploration itself is Java (java/advertest/offline, embedded: Explorer is the entry point,
// Inputs generates, CallRunner calls under a deadline, Observer renders outcomes, Output writes),
// compiled once with the JDK's javac into a cache folder keyed by its content hash
// (harness.BuildJava; compiling it in the worker with every run would cost seconds). Each run
// gives the worker a small generated JUnit driver (JUnit 4 or 5, as the project uses) as an extra
// test class; its one test loads the explorer through a URLClassLoader whose parent is the run's
// class loader, sets its fields (target class and method, the method's own literals, a fixed
// seed, an output file in the test's scratch folder) and calls it. The explorer generates inputs
// deterministically — boundary values and the method's literals ±1 first, in order of
// simplicity, then seeded random ones — for primitives, boxed types, String, arrays,
// List/Set/Map of those, enums and objects built through accessible constructors, and builds
// the receiver of an instance method through a constructor plus up to two setup calls. Each
// input becomes one JSON line (flushed at once): the input as Java expressions and the
// outcome (the return value as a Java expression, the thrown exception's class, the
// receiver's state through its getters and toString, array and collection arguments after
// the call). Each call runs on its own thread with a deadline; a call past it is stopped
// through the worker's loop hook and recorded as a timeout. The file comes back with the test's
// result (harness.TestResult.Files): the explorer writes nowhere but the folder the harness gives.
//
// Go compares the lines: the original is explored twice (inputs whose outcome differs
// between the two runs are dropped) and cached by source hash and method, so each mutant
// costs one exploration run plus a verification run of the candidate tests on the original
// and on the mutant. Methods the explorer cannot drive (private methods, methods of
// anonymous or local classes, interface-typed parameters with no implementation, receivers
// without an accessible constructor) give an *UnsupportedError, never fake tests.
package offline
