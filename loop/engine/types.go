package engine

import "github.com/advertest/advertest-lsp/buildtools/harness"

// The harness types the engine's callers speak. The engine drives the runner; its callers
// (package loop, fakes in tests) name these instead of importing the harness.
type (
	// TestID names one test (Class.method); an empty Method stands for every test of Class.
	TestID = harness.TestID
	// Source is a class's binary name and text, compiled in memory.
	Source = harness.Source
	// RunSpec, RunResult, TestResult and CompileResult are what a Runner takes and gives.
	RunSpec       = harness.RunSpec
	RunResult     = harness.RunResult
	TestResult    = harness.TestResult
	CompileResult = harness.CompileResult
)
