// Package buildtools owns the project model: from a Java file it finds the Maven or Gradle module
// that owns it, asks the build tool for the module's source roots, output folders, language level,
// compiler flags and test classpath, caches that answer keyed on the build files' content, and
// makes sure the module's main and test classes exist (compiling through the build tool when they
// are missing or older than their sources).
//
// Maven is asked once per module through a single offline-friendly invocation:
// dependency:build-classpath writes the test classpath to a file, and the compiler plugin's
// compile and testCompile goals, run with their skip switches and -X, print their effective
// configuration (source roots, output folders, release/source, compilerArgs) into Maven's log
// file. Maven runs in the module's folder, so the project's .mvn/maven.config (found by Maven
// upwards from there) and the user's own settings apply; Options.MavenArgs adds arguments.
// Gradle is asked through an embedded init script (model-init.gradle) that adds a task printing
// the source sets, output folders, test runtime classpath and language level; ./gradlew is used
// when the build has one, else gradle on PATH.
//
// A missing build tool is reported as a *ToolMissingError (errors.Is(err, ErrToolMissing)), and a
// failed build as a *BuildError that carries the tool's own output.
//
// The warm JVM that compiles and runs tests lives in the subpackage harness; Module.HarnessConfig
// turns a module into that package's Config. This package never speaks LSP and never calls an LLM.
package buildtools
