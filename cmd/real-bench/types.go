package main

// Library is one library of the workbench: a Debian source package and what its main sources
// and its own test suite need to build offline with Debian's Maven repository.
type Library struct {
	// Name is the short name used in tables and folder names ("lang3").
	Name string
	// Package is the Debian source package's binary-package name as `apt-get source` takes it
	// ("libcommons-lang3-java").
	Package string
	// Kind is the kind of code it is: text, collections, numbers, dates, parsing, encoding.
	Kind string
	// Packages are the Java packages of its main sources ("org.apache.commons.lang3"): no jar
	// holding a class of these may be on a class path of its own runs.
	Packages []string
	// JUnit is the JUnit of its own tests (4 or 5; JUnit 3 tests run as 4); the main-sources
	// layout gets the same, so the generated tests use it too.
	JUnit int
	// The rest are build facts the layout code reads (release, encoding, dependencies, test
	// dependencies, test classes to leave out and why); see library.go.
	Build BuildFacts
}

// Layouts is what Prepare made of one library in the cache: its two Maven projects.
type Layouts struct {
	Library Library
	// Version is the Debian package version ("3.12.0-2+deb12u1").
	Version string
	// Upstream is the extracted upstream source tree (read-only for the benchmark).
	Upstream string
	// Main is the main sources alone, with the library's JUnit as its only test dependency:
	// the agents run here, and `advertest run` judges the generated suite alone.
	Main Project
	// Suite is the main sources with the library's own tests that compile here; nil when the
	// suite does not count (Debian lacks its test dependencies, or under 80% of its test
	// classes compile). SuiteReport says which, either way.
	Suite       *Project
	SuiteReport SuiteReport
}

// Project is one laid-out Maven project, built.
type Project struct {
	// Dir is the project's root (pom.xml, .mvn/maven.config, src/).
	Dir string
	// ClassesDir and TestClassesDir are its compiled output (target/classes,
	// target/test-classes; the latter may be empty).
	ClassesDir, TestClassesDir string
	// Classpath are the jars of its test class path as Maven resolves them (no project
	// folders), checked to hold no class of the library's own packages.
	Classpath []string
	// Release and Encoding are what its sources compile with (javac --release, -encoding).
	Release  int
	Encoding string
	// TestJVMArgs are the JVM options the library's own tests run with in the suite layout
	// (its pom's Surefire argLine, upstream's: e.g. --add-opens for Commons Lang's reflection
	// tests); none in the main layout.
	TestJVMArgs []string `json:",omitempty"`
}

// SuiteReport is what became of a library's own test suite.
type SuiteReport struct {
	// TestClasses are the upstream test classes (the test sources the library's Surefire
	// patterns select, less abstract classes and interfaces; with OnlyTests, those of its
	// selection); Compiled those kept in the suite layout.
	TestClasses, Compiled int
	// LeftOut are the test source files left out (test classes and helpers alike), with why
	// ("needs junit-pioneer, not in Debian's Maven repository", "does not compile: …").
	LeftOut map[string]string `json:",omitempty"`
	// Counts: Compiled ≥ 80% of TestClasses and the suite built.
	Counts bool
	// Reason says why the suite does not count, when it does not.
	Reason string `json:",omitempty"`
}
