// Package plain gives mutant verdicts the slow, obvious way, as a reference for the engine:
// compile the mutated class with a `javac` process and run the whole suite in a fresh `java`
// process (the JUnit Platform console launcher, which runs JUnit 4 and 5 alike), or copy the
// project with the mutant applied and run `mvn test`. The engine's tests and the benchmark
// compare against it; the product never uses it.
package plain
