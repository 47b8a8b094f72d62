// Package buildtest gives tests and benchmarks the repository's example projects: copied to a
// temporary folder without their build output (the repository's copy is never built), then
// compiled and opened with their warm worker pool once per test binary. It is for tests only.
package buildtest
