// Command fault-bench measures how many real-looking faults the offline agents' generated
// tests detect, on a benchmark the project owns: examples/fault-bench, a Maven project of small
// library classes, and its manifest faults.json, one single-line fault per method (the fixed
// line and the buggy line). For each fault it copies the project, runs the real CLI
// (`advertest run FILE --method NAME --agents offline --write-tests --json PATH`) on the fixed
// code, then compiles and runs the generated test class itself (javac and the JUnit console
// launcher) on the fixed code and on the code with the fault applied. A fault is detected when
// a generated test that passes on the fixed code fails on the buggy code.
//
// It prints one line per method (half, name, detected, tests generated, the run's time), then
// per half and overall the detection rate and the median and maximum time per method. The
// halves are a fixed split by the name's hash (see HalfOf): develop against dev, report both.
// -check only validates the manifest: every fault applies, compiles, and its witness in
// witness/Witnesses.java passes on the fixed code and fails on the buggy one.
//
//	go run ./cmd/fault-bench [-half dev|holdout|all] [-only NAMES] [-parallel N] [-json PATH] [-timeout 300s]
//	go run ./cmd/fault-bench -check
//
// docs/fault-bench.md says how to add a fault and records the figures.
package main
