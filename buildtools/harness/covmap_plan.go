package harness

import (
	"context"
	"maps"
	"os"
	"strings"

	"go.uber.org/zap"
)

// runReaching is Run for a spec with Reach: the map chooses the tests, the run records them.
// Without a map (no class folders, no coverage, no override to name the file) every test runs.
func (p *Pool) runReaching(ctx context.Context, spec RunSpec) (*RunResult, error) {
	m := p.covmap
	reach := *spec.Reach
	spec.Reach = nil
	if m == nil || !spec.Coverage || len(spec.Overrides) == 0 {
		res, err := p.Run(ctx, spec)
		return res, err
	}
	plan := m.plan(spec, reach)
	if len(plan.whole) > 0 {
		// A run that records classes the map does not know has the map's recording turn: a
		// concurrent one (another method of a batch, another job) waits, then plans again and
		// need not run what this one recorded.
		m.recording.Lock()
		defer m.recording.Unlock()
		plan = m.plan(spec, reach)
	}
	sub := spec
	sub.Tests = plan.run
	sub.recordExecuted = true
	res, err := p.Run(ctx, sub)
	if err != nil || res == nil {
		return res, err
	}
	use := plan.use
	if res.Compile == nil || res.Compile.OK {
		m.record(sub, plan, res, &use)
	}
	res.Map = use
	res.Pending = plan.pending
	return res, nil
}

// mapPlan is what the map chose for one run.
type mapPlan struct {
	run []TestID
	use MapUse
	// whole are the test classes run whole because the map did not know them (or they
	// changed): their methods are recorded from the results.
	whole map[string]bool
	// extra are the top-level classes of the run's extra tests: never recorded.
	extra map[string]bool
	// pending are the test classes left for later (RunSpec.LikelyFirst).
	pending []TestID
}

// plan chooses the tests of spec to run for the lines reach of the first override's file.
func (m *coverageMap) plan(spec RunSpec, reach Lines) mapPlan {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.refresh()
	pl := mapPlan{whole: map[string]bool{}, extra: map[string]bool{}}
	pl.use = MapUse{Enabled: true, Rebuilt: m.why, Path: m.path}
	for _, s := range spec.ExtraTests {
		pl.extra[topLevelOf(s.ClassName)] = true
	}
	keys := m.keysFor(spec)
	subject := topLevelOf(spec.Overrides[0].ClassName)
	consider := func(id TestID) {
		e := m.data.Tests[id.Class+"#"+id.Method]
		switch {
		case e != nil && e.Blind && e.Outcome != Passed && e.TestKey == keys.of(id.Class):
			// It failed on the original without a record of what it ran (its thread did not
			// stop, its worker was lost): it cannot kill a mutant, and running it again costs
			// its whole limit and a worker. Not run until its test class changes.
			pl.use.NotRun++
			return
		case e == nil || e.Blind || e.TestKey != keys.of(id.Class) || m.changed(e, keys):
			pl.use.Rerun++
		case m.reaches(e, subject, reach):
			pl.use.Reaching++
		default:
			pl.use.NotRun++
			return
		}
		pl.run = append(pl.run, id)
	}
	for _, t := range spec.Tests {
		if pl.extra[topLevelOf(t.Class)] {
			pl.run = append(pl.run, t)
			continue
		}
		if t.Method != "" {
			consider(t)
			continue
		}
		tc := m.data.TestClasses[t.Class]
		if tc == nil || tc.Key != keys.of(t.Class) {
			if spec.LikelyFirst && !m.likely(t.Class, subject) {
				pl.pending = append(pl.pending, t)
				continue
			}
			pl.whole[t.Class] = true
			pl.run = append(pl.run, t)
			continue
		}
		for _, method := range tc.Methods {
			consider(TestID{Class: t.Class, Method: method})
		}
	}
	if len(pl.pending) > 0 && len(pl.whole) == 0 {
		// No unknown class names the class under test: nothing to start with, run them all.
		for _, t := range pl.pending {
			pl.whole[t.Class] = true
			pl.run = append(pl.run, t)
		}
		pl.pending = nil
	}
	pl.use.Pending = len(pl.pending)
	return pl
}

// likely says whether a test class the map does not know is likely to reach the class under
// test: its name holds the class's simple name (CalcTest, TestCalc, CalcEdgeCasesTest), or its
// source names it. A test class whose source cannot be found is likely (it cannot be told).
func (m *coverageMap) likely(testClass, subject string) bool {
	simple := subject[strings.LastIndexByte(subject, '.')+1:]
	top := topLevelOf(testClass)
	if strings.Contains(top[strings.LastIndexByte(top, '.')+1:], simple) {
		return true
	}
	src, err := os.ReadFile(m.sourceOf(top))
	if err != nil {
		return true
	}
	for text := string(src); ; {
		i := strings.Index(text, simple)
		if i < 0 {
			return false
		}
		end := i + len(simple)
		if (i == 0 || !isJavaIdentPart(text[i-1])) && (end == len(text) || !isJavaIdentPart(text[end])) {
			return true
		}
		text = text[end:]
	}
}

func isJavaIdentPart(c byte) bool {
	return c == '_' || c == '$' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80
}

// changed reports whether a class the test ran has another key now.
func (m *coverageMap) changed(e *mapTest, keys *classKeys) bool {
	for _, x := range e.Executed {
		if keys.of(x.Class) != x.Key {
			return true
		}
	}
	return false
}

// reaches reports whether the test entered a method of the subject's file whose lines meet
// reach; where the map cannot tell (no table, no line numbers), it says yes.
func (m *coverageMap) reaches(e *mapTest, subject string, reach Lines) bool {
	for _, x := range e.Executed {
		if topLevelOf(x.Class) != subject {
			continue
		}
		table, ok := m.data.Tables[x.ID]
		if x.Methods == nil || !ok {
			return true
		}
		for _, i := range x.Methods {
			if i < 0 || i >= len(table) {
				return true
			}
			ml := table[i]
			if ml.First < 0 || (ml.First <= reach.End && ml.Last >= reach.Start) {
				return true
			}
		}
	}
	return false
}

// record puts what the run's tests did into the map and writes it. Tests of extra classes are
// not the project's: never recorded.
func (m *coverageMap) record(spec RunSpec, pl mapPlan, res *RunResult, use *MapUse) {
	m.mu.Lock()
	defer m.mu.Unlock()
	keys := m.keysFor(spec)
	tests := map[string]*mapTest{}
	tables := map[string][]MethodLines{}
	methods := map[string][]string{}
	seen := false
	for _, tr := range res.Tests {
		top := topLevelOf(tr.Test.Class)
		if pl.extra[top] || tr.Test.Method == "" {
			continue // an extra test, or a class that failed as a whole (no test found)
		}
		if pl.whole[tr.Test.Class] {
			methods[tr.Test.Class] = append(methods[tr.Test.Class], tr.Test.Method)
			use.Rerun++
		}
		e := &mapTest{TestKey: keys.of(tr.Test.Class), Outcome: tr.Outcome, Ms: float64(tr.Duration.Microseconds()) / 1000, Steps: tr.Steps}
		if tr.Outcome != Passed {
			e.Message = firstChars(tr.Message, 400)
		}
		if tr.executed == nil {
			e.Blind = true
		} else {
			seen = true
			for _, x := range tr.executed {
				e.Executed = append(e.Executed, mapExec{Class: x.Class, ID: x.ID, Key: keys.of(x.Class), Methods: x.Methods})
			}
		}
		maps.Copy(tables, tr.tables)
		tests[tr.Test.Class+"#"+tr.Test.Method] = e
	}
	if !seen {
		return // the workers recorded nothing (coverage unavailable): keep the map as it is
	}
	classes := map[string]*mapTestClass{}
	for c := range pl.whole {
		classes[c] = &mapTestClass{Key: keys.of(c), Methods: methods[c]}
	}
	if err := m.save(&mapData{Tests: tests, Tables: tables, TestClasses: classes}); err != nil {
		m.log.Warn("harness: the coverage map was not saved", zap.String("file", m.path), zap.Error(err))
		m.merge(&mapData{Tests: tests, Tables: tables, TestClasses: classes}) // this process still uses them
	}
	use.Bytes = m.stamp.size
}

// merge puts newer records into the map in memory.
func (m *coverageMap) merge(d *mapData) {
	maps.Copy(m.data.Tests, d.Tests)
	maps.Copy(m.data.Tables, d.Tables)
	maps.Copy(m.data.TestClasses, d.TestClasses)
}

func firstChars(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}
