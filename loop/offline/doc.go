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
// seed, the search's bounds, an output file in the test's scratch folder: the explorer has no
// defaults of its own, Options has them) and calls it; the lines it writes are the contract of
// docs/explorer.md. The explorer generates inputs
// deterministically — boundary values and the method's literals ±1 first, in order of
// simplicity, then seeded random ones — for primitives, boxed types, String (with edge
// characters and the separators the method's literals mention), arrays, List/Set/Map of those
// (also made of boundary values: all at the maximum or minimum, mixed signs, duplicates,
// sorted, reversed), dates, durations and big numbers, enums (every constant) and objects built
// through accessible constructors or static factories — and the JDK's and the project's real
// argument types (Jdk, Lambdas, Impls; the table in docs/explorer.md): a CharSequence as String
// and as StringBuilder, writers and byte streams asserted after the call by what was written,
// locales (the root, a variant), time zones, dates, calendars and java.time values at fixed
// instants (never the clock), Class<?> and Type, nested arrays, lambdas for a functional
// interface (identity, constant, throwing), and for an interface or abstract class the
// project's concrete implementations (the class under test's nested classes and the class
// folders', loaded without initialising them) made recursively to the pool's depth. The
// explorer's last line before its end says, per parameter, the kinds of value it can build and
// those it tried: search evidence of equivalence counts only when every kind was tried
// (agent.Infection.Untried). Parameters that hold nodes of a linked class
// (Linked: a class with a public mutator taking another instance, connect(Node),
// connect(Vertex, int), setNext(Cell), made through a constructor of simple labels), alone or
// in a collection or array, are tried first on small graphs (one node, a chain, a diamond, a
// cycle, a cycle behind an acyclic start, two components, a self-loop, a chain of five, two
// paths of different lengths to one node; weights typical, zero, equal, maximal, negative and
// the method's literals where the links carry numbers), every such parameter of an input pointing into the same graph; the graph becomes
// Arrange lines (a comment saying the shape, one variable per node, the links), and results
// that are its nodes, or lists, sets and arrays of them, are observed as those variables
// (never through a node's toString; collections of nodes no variable names are asserted by
// size). Lists of Object (and raw lists, and lists of String) also get short token streams of
// numbers and the method's own short string literals, valid and invalid ([6, "-", 2, "-", 1],
// ["(", 6], [6, "?", 2]). It builds the receiver of an instance method
// through a constructor or factory (typical small positive arguments first) plus a short
// sequence of the class's public mutators with ascending arguments (1, 2, 3; clock values
// 1000, 2000, 3000), which becomes the test's Arrange step; for a concrete method of an
// abstract class or a default method of an interface, through the project's implementations
// that do not override it, else a generated minimal subclass (abstract.go: its source, written
// by the explorer, is nested in the driver of a second run and in the test class), else the
// type's static constants. Each input becomes one JSON line
// (flushed at once): the input as Java expressions and the outcome (the return value as a Java
// expression, the thrown exception's class, the receiver's state through its getters, an
// overridden toString, the fields a test in its package can read when it has neither, and
// its queries of one parameter asked with the call's own simple arguments —
// stock.quantity("b") after stock.remove("b", 1) — and array and collection arguments after
// the call). A field a test in the package can read is asserted as a plain read (result.lo);
// private fields are never observed, so never asserted (a test would need reflection to read
// them). A null argument of an overloaded method is written with a cast to its parameter's type ((String) null). Identity hashes are
// never observed (a value whose text shows one is asserted by its size or not at all), and a
// result larger than a limit is summarised by its size and a hash of its contents. Each call
// runs on its own thread, bounded in time (a deadline) and in memory (the bytes its thread
// allocates); a call past either is stopped through the worker's loop hook and recorded as
// past its bound, as is one that throws OutOfMemoryError or StackOverflowError (outcomes that
// depend on the JVM's sizes, never asserted). The file comes back with the test's result
// (harness.TestResult.Files): the explorer writes nowhere but the folder the harness gives.
//
// Before those explorations, a seeding pass (seeds.go, Seeds.java; Options.NoSeeding switches
// it off) runs the explorer once on the original in a worker run that records the comparisons
// of its classes (harness.RunSpec.RecordCompares): the operands of String comparisons, the int
// constants and switch keys compared, Character.isX tests, the strings of tables looked up; it
// runs rounds of inputs made of the tokens seen (the first also of the string constants of the
// class files of the class under test and the project classes it names) and keeps the operands
// that are not pieces of the input. Go keeps those the method's literals lack (bounded, in the
// order seen, kept with the original's exploration in the cache) and sends them apart from the
// literals: the explorer puts them after the values it makes without them (a pool's own values
// keep their order ahead of the seeds, the random draws stay the same); and every later exploration, the original's and the
// mutants', gets the same fixed list and records nothing, so inputs still line up run by run;
// the explorer combines the tokens into strings (the tokens, prefixes and suffixes, digits and
// case changed, two or three joined with digits or seen separators): a parser of an invented
// grammar ("zq:" digits "~wv") is reached without any dictionary of formats.
//
// Go compares the lines: the original is explored twice (original.go), the second time with
// another default time zone and locale (Explorer.shifted, restored after: a value read from the
// clock through them, a formatted current time, differs then, so it is never asserted; the
// worker runs one test at a time, so nothing else sees them); the two runs are
// compared observation by observation (stable.go): an input whose kind of outcome or exception
// differs is dropped, an observation that differs (a timestamp, an id) is dropped from every
// input and never asserted. Each mutant costs one exploration run (kill.go; the outcomes
// compared in compare.go) plus a verification run of the candidate tests on the original and
// on the mutant (verify.go: a batch that does not compile as one class loses the tests that do
// not compile alone, and runs once more). The initial suite (suite.go) keeps tests that add
// coverage, plus a few on extreme inputs whatever they cover. Tests are written by render.go
// and named by names.go after the behaviour they pin, never after their values: the method, the
// outcome (Returns and what the result is — a parameter it equals, Zero, Negative, Null, Empty;
// Throws and the exception; Updates and the state) and the input's deciding fact
// (conditions.go, an argument's facts read from its expression in classify.go: a parameter
// null, empty, zero, negative, a type's maximum, equal to or below another, a string's classes
// of character — starts with a digit, has an upper-case letter, ends with a symbol —, the
// graph's shape, the receiver's mutator calls), the fact fewest tests with another outcome
// share: bulkPriceReturnsZeroWhenCountIsZero, clampThrowsIllegalArgumentWhenLoAboveHi. Tests of
// one class that would share a name add their next fact that tells them apart, or swap a fact
// they share for it; those still alike take an ordinal word (Second); a name has at most 60
// characters, and the same inputs give the same names. Inputs are shrunk by choice among those
// already run (shrink.go): a mutant's candidates are the simplest inputs it differs on, an
// initial test's input the simplest with its outcome and the same kind of receiver state
// (fewer digits, shorter strings and arrays, fewer mutator calls; each observer's value of the
// same kind, sign and size class: a cache hit after three puts is not shrunk to one after a
// single put); no input is run again for it. A batch that does not compile for an unreported
// checked exception (an argument's constructor throws one) declares throws Exception and runs
// again before any test is dropped (verify.go). The throwaway classes that run the tests
// are named from the suite's name (agent.TestClassName, testclass.go).
//
// The explorations of the original and the infection counts are kept in one cache (cache.go)
// keyed by the source's hash, bounded by entries and bytes (Options.CacheEntries and
// CacheBytes), least recently used out first: a warm project's agent stops growing at them.
// A method a test cannot call directly (private; of a private, inner, local or anonymous class;
// whose receiver or arguments the explorer cannot make) is driven through its entry points
// (entry.go): the methods and constructors of its file that a test in its package can call and
// whose bodies reach it by name, directly or through other methods of the file (a nested class's
// method also through those that make its class, an anonymous class's through the method that
// declares it, one called by a class's field initialisers through the methods that first use
// a static member of that class); those whose calls can vary first (a static method or constructor without
// parameters runs one input), then the nearest, then the simplest parameters; at most three. A
// probe (AdverTestEntryProbe, appended to the source like the site probe, its call inserted at
// the start of the target's body on the same line, after a constructor's this(...) or
// super(...)) counts the entries per input through the explorer's probe field; an input whose
// call did not enter the target is dropped from the original's records, so only inputs that ran
// it count. The entry point is explored as the method called (the first with ten usable inputs,
// else the one with the most); the tests call it and are named after it, the mutants stay the
// target's (the mutant is explored with the probe too), and the initial suite chooses by the
// target's coverage. A method of a class a test cannot name that overrides a method of an
// accessible supertype S has one more entry point, tried first (entry_result.go): through a
// result, the explorer (Results.java, the throughResult field) calls S's method on what the
// accessible methods of the file return as S (CSVParser.iterator() as an Iterator, a
// GJChronology's field getters as a DateTimeField, an anonymous Comparator<String> as one),
// declared as S, with the type arguments they return it with, in the tests. A generated test that calls or makes anything through reflection is
// dropped (noreflect.go); the renderer writes none. Methods the explorer still cannot drive (no body, abstract, a default method
// of an interface, an abstract receiver with neither an implementation nor a possible minimal
// subclass, and no entry point that reaches them) give an *UnsupportedError, never fake
// tests: when every entry point fails, it names each and why (never entered on N inputs, could
// not be driven) in one sentence; when a request gives no test, its answer says why in one
// sentence (agent.Explainer: ExplainedInitialSuite and
// ExplainedKillMutant return the evidence with the tests, why.go), and the game puts it in the
// report's warnings. When no input tells a mutant apart, the agent also probes the mutated
// expression in the original and the mutant (infect.go; evidence.go says what the counts
// are evidence of) and gives the counts (inputs that
// reached it, that changed its value, that changed an outcome) as agent.Evidence.Infection:
// the game's search evidence of equivalence (docs/architecture.md, "Search evidence").
//
// The agent is safe for concurrent use: the games of a batch (one goroutine each) share it;
// its cache and the explorations in progress are guarded by one mutex, and a second request
// for an original being explored waits for the first.
package offline
