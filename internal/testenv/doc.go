// Package testenv is what the tests of several packages share about where they run: the gate
// of the tests that start a JVM (or Maven, Gradle, javac), closed by -short, which `make
// test-race` passes. Only tests import it.
package testenv
