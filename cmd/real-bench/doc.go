// Command real-bench is the real-code workbench: it measures the offline agents on real,
// widely used open-source Java libraries instead of code written for the tool.
//
// The libraries come from Debian's source packages (library.go: Commons Lang, Collections,
// Math, CSV and Codec, Joda-Time, jsoup, Commons Text), fetched at run time with `apt-get
// source` into a cache folder and never committed (fetch.go). Each is laid out there as two
// Maven projects that build offline against Debian's Maven repository (layout.go): its main
// sources alone, where the agents run, and the same with the library's own tests that compile
// here. No jar of a library is on a class path of its own runs (classpath.go).
//
// A fixed sample of methods (sample.go: by a hash of the package version, class and signature,
// with quotas for the kinds of method the tool must handle) is split into a dev half, to
// develop against, and a holdout half, only measured. For each method (measure.go):
//
//  1. faults are seeded in the method by the benchmark's own seeder (seed.go; it imports
//     nothing of the tool's mutation operators), and a fault counts only when the library's
//     own tests that name its class detect it (faults.go): proof that it changes behaviour;
//  2. `advertest run FILE:LINE --agents offline --write-tests --json` runs on a fresh copy of the
//     main-sources layout, as a user runs it, within a time cap;
//  3. the written suite is compiled and run outside the tool (javac and the JUnit console
//     launcher) on the fixed code and on each counted fault: a fault is detected when a written
//     test that passes on the fixed code fails on it.
//
// Then, where a library's own suite builds (mutate.go), `advertest mutate` with that suite on
// sampled methods and on one whole class, against one plain `mvn test`, side by side.
//
// Results are cached by the tool's commit, the package version and the method, so an
// interrupted run resumes; the seeded faults and the layouts are cached by package version
// alone. The table (summary.go) gives per library and half, per half and overall: the methods
// with a test, coverage, mutation score, seeded-fault detection per kind, the median and
// maximum time, and the failures grouped by cause; -json writes all of it.
//
//	go run ./cmd/real-bench [-half dev|holdout|all] [-n 30] [-libs NAMES] [-json FILE]
//	make real-bench REAL_BENCH_FLAGS='-half dev'
//
// docs/real-bench.md has the details and the figures.
package main
