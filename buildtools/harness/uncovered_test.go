package harness

import (
	"strings"
	"testing"
)

// TestRunsWithoutCoverageHaveNoProbes checks that JaCoCo instruments the classes of a coverage
// run only: a run without coverage (a mutant's) defines the project's classes, in memory or from
// its class folders, without JaCoCo's probes (its members $jacocoData, $jacocoInit), which tripled the cost of an
// interpreted loop's steps. The run with coverage still has them, or it would measure nothing.
func TestRunsWithoutCoverageHaveNoProbes(t *testing.T) {
	p := openPool(t, fx.j4.config())
	probe := "package org.acme;\nimport static org.junit.Assert.*;\npublic class ProbeAdverTest {\n" +
		"  static boolean probed(Class<?> c) {\n" +
		"    for (java.lang.reflect.Field f : c.getDeclaredFields()) { if (f.getName().startsWith(\"$jacoco\")) return true; }\n" +
		"    for (java.lang.reflect.Method m : c.getDeclaredMethods()) { if (m.getName().startsWith(\"$jacoco\")) return true; }\n" +
		"    return false;\n  }\n" +
		"  @org.junit.Test public void memoryClass() { Calc.add(1, 2); assertFalse(\"probed\", probed(Calc.class)); }\n" +
		"  @org.junit.Test public void folderClass() { assertFalse(\"probed\", probed(CalcTest.class)); }\n}\n"
	calc := readSource(t, fx.j4, "org/acme/Calc.java")
	spec := RunSpec{Overrides: []Source{{ClassName: "org.acme.Calc", Text: calc}},
		ExtraTests: []Source{{ClassName: "org.acme.ProbeAdverTest", Text: probe}}, Tests: []TestID{{Class: "org.acme.ProbeAdverTest"}}}
	r := run(t, p, spec)
	if got := outcomes(r); got["org.acme.ProbeAdverTest.memoryClass"] != Passed || got["org.acme.ProbeAdverTest.folderClass"] != Passed {
		t.Errorf("without coverage, classes carry JaCoCo's probes: %v %s", got, messages(r))
	}
	spec.Coverage, spec.CoverClasses = true, []string{"org.acme.Calc"}
	r = run(t, p, spec)
	if got := outcomes(r); got["org.acme.ProbeAdverTest.memoryClass"] != Failed || got["org.acme.ProbeAdverTest.folderClass"] != Failed {
		t.Errorf("with coverage, classes carry no JaCoCo probes (the test cannot tell): %v", got)
	}
}

func messages(r *RunResult) string {
	var b strings.Builder
	for _, tr := range r.Tests {
		b.WriteString(tr.Message)
	}
	return b.String()
}
