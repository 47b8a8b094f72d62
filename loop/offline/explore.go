package offline

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"

	"go.uber.org/zap"

	"github.com/advertest/advertest-lsp/buildtools/harness"
)

const explorerClass = "advertest.offline.Explorer"

// explorerOutput is the file each explorer test writes in its scratch folder (the harness's
// advertest.scratch property), which comes back in the test's result.
const explorerOutput = "explore.jsonl"

// explorerParams are what the driver test passes to the explorer.
type explorerParams struct {
	className, methodName string
	paramTypes            []string
	lits                  literals
	seed                  int64
	maxInputs             int
	budget, perCall       time.Duration
	testPackage           string
	maxTimeouts           int
	maxAlloc              int64  // bytes one call may allocate
	probe                 string // the site probe's binary name ("" for none, infect.go)
	// minimal is the source of a minimal subclass of the abstract receiver class, nested in the
	// driver and in the test class ("" for none, abstract.go).
	minimal string
	seeding bool // the seeding pass: record comparisons, write the seeds line (seeds.go)
	// throughResult calls the method through what its file's accessible methods return as an
	// accessible supertype that declares it (entry_result.go)
	throughResult bool
}

// driverSource writes the JUnit class whose tests run the explorer: times tests (explore0,
// explore1, ...: the same exploration repeated in one class loader), each writing explorerOutput
// into its own scratch folder. The explorer comes precompiled from classDir through its own
// class loader (compiling its source with every run would cost seconds), and reaches the code
// under test through the run's loader.
func driverSource(pkg, class string, junit int, p explorerParams, classDir string, times int) string {
	var b strings.Builder
	if pkg != "" {
		fmt.Fprintf(&b, "package %s;\n\n", pkg)
	}
	fmt.Fprintf(&b, "public class %s {\n", class)
	for i := 0; i < times; i++ {
		if i > 0 {
			b.WriteString("\n")
		}
		if junit == 4 {
			b.WriteString("    @org.junit.Test\n")
		} else {
			b.WriteString("    @org.junit.jupiter.api.Test\n")
		}
		fmt.Fprintf(&b, "    public void explore%d() throws Throwable {\n", i)
		// the runs after the first: another default time zone and locale (Explorer.shifted)
		fmt.Fprintf(&b, "        run(%t);\n    }\n", i > 0)
	}
	b.WriteString("\n    private static void run(boolean shifted) throws Throwable {\n")
	fmt.Fprintf(&b, "        String out = new java.io.File(System.getProperty(\"advertest.scratch\"), %s).getPath();\n", javaString(explorerOutput))
	fmt.Fprintf(&b, "        ClassLoader run = %s.class.getClassLoader();\n", class)
	fmt.Fprintf(&b, "        try (java.net.URLClassLoader l = new java.net.URLClassLoader(new java.net.URL[]{new java.io.File(%s).toURI().toURL()}, run)) {\n", javaString(classDir))
	fmt.Fprintf(&b, "            Class<?> k = Class.forName(%s, true, l);\n", javaString(explorerClass))
	b.WriteString("            Object e = k.getConstructor(ClassLoader.class).newInstance(run);\n")
	set := func(field, expr string) {
		fmt.Fprintf(&b, "            k.getField(%s).set(e, %s);\n", javaString(field), expr)
	}
	set("className", javaString(p.className))
	set("methodName", javaString(p.methodName))
	set("paramTypes", "new String[]{"+joinJavaStrings(p.paramTypes)+"}")
	var ints []string
	for _, v := range p.lits.ints {
		ints = append(ints, strconv.FormatInt(v, 10)+"L")
	}
	set("ints", "new long[]{"+strings.Join(ints, ", ")+"}")
	var ds []string
	for _, v := range p.lits.doubles {
		ds = append(ds, javaDouble(v))
	}
	set("doubles", "new double[]{"+strings.Join(ds, ", ")+"}")
	set("strings", "new String[]{"+joinJavaStrings(p.lits.strings)+"}")
	set("chars", javaString(p.lits.chars))
	set("seed", fmt.Sprintf("%dL", p.seed))
	set("maxInputs", fmt.Sprint(p.maxInputs))
	set("budgetMillis", fmt.Sprintf("%dL", p.budget.Milliseconds()))
	set("callMillis", fmt.Sprintf("%dL", p.perCall.Milliseconds()))
	set("maxTimeouts", fmt.Sprint(p.maxTimeouts))
	set("maxAllocBytes", fmt.Sprintf("%dL", p.maxAlloc))
	set("testPackage", javaString(p.testPackage))
	set("out", "out")
	set("shifted", "shifted")
	if p.probe != "" {
		set("probe", javaString(p.probe))
	}
	if p.minimal != "" {
		set("minimal", minimalName(p.minimal)+".class")
	}
	if len(p.lits.seeds) > 0 {
		set("seeds", "new String[]{"+joinJavaStrings(p.lits.seeds)+"}")
	}
	if p.lits.seedChars != "" {
		set("seedChars", javaString(p.lits.seedChars))
	}
	if len(p.lits.seedInts) > 0 {
		var is []string
		for _, v := range p.lits.seedInts {
			is = append(is, strconv.FormatInt(v, 10)+"L")
		}
		set("seedInts", "new long[]{"+strings.Join(is, ", ")+"}")
	}
	if p.throughResult {
		set("throughResult", "true")
	}
	if p.seeding {
		set("seeding", "true")
	}
	b.WriteString("            try {\n")
	b.WriteString("                k.getMethod(\"run\").invoke(e);\n")
	b.WriteString("            } catch (java.lang.reflect.InvocationTargetException x) {\n")
	b.WriteString("                throw x.getCause();\n")
	b.WriteString("            }\n")
	b.WriteString("        }\n    }\n")
	if p.minimal != "" {
		b.WriteString("\n" + p.minimal)
	}
	b.WriteString("}\n")
	return b.String()
}

func joinJavaStrings(ss []string) string {
	q := make([]string, len(ss))
	for i, s := range ss {
		q[i] = javaString(s)
	}
	return strings.Join(q, ", ")
}

// javaString writes s as a Java string literal (ASCII only, \u escapes for the rest).
func javaString(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"':
			b.WriteString(`\"`)
		case r == '\\':
			b.WriteString(`\\`)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == '\t':
			b.WriteString(`\t`)
		case r < 32 || r > 126:
			if r > 0xFFFF {
				for _, u := range utf16Pair(r) {
					fmt.Fprintf(&b, `\u%04x`, u)
				}
			} else {
				fmt.Fprintf(&b, `\u%04x`, r)
			}
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

func utf16Pair(r rune) []rune {
	r -= 0x10000
	return []rune{0xD800 + (r>>10)&0x3FF, 0xDC00 + r&0x3FF}
}

func javaDouble(v float64) string {
	s := strconv.FormatFloat(v, 'g', -1, 64)
	if !strings.ContainsAny(s, ".eE") {
		s += ".0"
	}
	return s
}

// explore runs the explorer once with override as the class under test's source.
func (a *Agent) explore(ctx context.Context, override harness.Source, pkg string, junit int, p explorerParams) (*exploration, error) {
	es, err := a.exploreTimes(ctx, override, pkg, junit, p, 1)
	if err != nil {
		return nil, err
	}
	return es[0], nil
}

// exploreTimes runs the same exploration times times, one after the other in one run (one
// compile, one class loader: static state left by a run shows up as a difference too).
func (a *Agent) exploreTimes(ctx context.Context, override harness.Source, pkg string, junit int, p explorerParams, times int) ([]*exploration, error) {
	classDir, err := a.explorerClasses(ctx)
	if err != nil {
		return nil, err
	}
	n := a.runs.Add(1)
	driver := fmt.Sprintf("AdverTestExplorerDriver%d", n)
	driverFQN := driver
	if pkg != "" {
		driverFQN = pkg + "." + driver
	}
	budget := p.budget + time.Duration(p.maxTimeouts+1)*p.perCall + 10*time.Second
	var tests []harness.TestID
	budgets := map[harness.TestID]time.Duration{}
	for i := 0; i < times; i++ {
		id := harness.TestID{Class: driverFQN, Method: fmt.Sprintf("explore%d", i)}
		tests = append(tests, id)
		budgets[id] = budget
	}
	spec := harness.RunSpec{
		Overrides: []harness.Source{override},
		ExtraTests: []harness.Source{
			{ClassName: driverFQN, Text: driverSource(pkg, driver, junit, p, classDir, times)},
		},
		Tests:          tests,
		Timeouts:       budgets,
		RecordCompares: p.seeding,
	}
	res, err := a.pool.Run(ctx, spec)
	if err != nil {
		return nil, fmt.Errorf("offline: exploring %s.%s: %w", p.className, p.methodName, err)
	}
	if res.Compile != nil && !res.Compile.OK {
		return nil, &compileError{diags: res.Compile.Diagnostics}
	}
	results := map[harness.TestID]harness.TestResult{}
	for _, t := range res.Tests {
		results[t.Test] = t
	}
	var es []*exploration
	for _, id := range tests {
		tr := results[id]
		e, err := parseExploration(tr.Files[explorerOutput])
		if err != nil {
			return nil, err
		}
		e.duration, e.testTime = res.Duration, tr.Duration
		a.log.Debug("offline: exploration", zap.String("method", p.methodName), zap.Int("records", len(e.records)),
			zap.Duration("run", res.Duration), zap.Duration("test", tr.Duration), zap.String("outcome", string(tr.Outcome)))
		if tr.Outcome != harness.Passed && e.unsupported == "" && len(e.records) == 0 {
			// the message's first frames say where the explorer failed; the error keeps one line
			a.log.Debug("offline: the explorer did not run", zap.String("method", p.methodName), zap.String("message", tr.Message))
			return nil, fmt.Errorf("offline: the explorer did not run (%s): %s", tr.Outcome, firstLine(tr.Message))
		}
		es = append(es, e)
	}
	return es, nil
}

// compileError is a class under test (the original or a mutant) that does not compile.
type compileError struct{ diags []harness.CompileDiagnostic }

func (e *compileError) Error() string {
	var msgs []string
	for _, d := range e.diags {
		if d.Kind == "error" {
			msgs = append(msgs, fmt.Sprintf("%s:%d: %s", d.ClassName, d.Line, firstLine(d.Message)))
		}
		if len(msgs) == 3 {
			break
		}
	}
	return "offline: does not compile: " + strings.Join(msgs, "; ")
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

func parseExploration(data []byte) (*exploration, error) {
	e := &exploration{}
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 0, 64<<10), 16<<20)
	for sc.Scan() {
		line := sc.Bytes()
		if len(line) == 0 {
			continue
		}
		var probe struct {
			Unsupported *string       `json:"unsupported"`
			Minimal     string        `json:"minimal"`
			Header      bool          `json:"header"`
			End         bool          `json:"end"`
			Kinds       *[]paramKinds `json:"kinds"`
			Seeds       []string      `json:"seeds"`
		}
		if err := json.Unmarshal(line, &probe); err != nil {
			break // a line cut short by a stopped worker
		}
		switch {
		case probe.Unsupported != nil:
			e.unsupported, e.minimal = *probe.Unsupported, probe.Minimal
		case probe.Header:
			if err := json.Unmarshal(line, &e.header); err != nil {
				return nil, fmt.Errorf("offline: bad explorer header: %w", err)
			}
		case probe.End:
			e.complete = true
		case probe.Kinds != nil:
			e.kinds = *probe.Kinds
		case probe.Seeds != nil:
			e.seeds = &seedsLine{}
			if err := json.Unmarshal(line, e.seeds); err != nil {
				return nil, fmt.Errorf("offline: bad explorer seeds line: %w", err)
			}
		default:
			r := &record{}
			if err := json.Unmarshal(line, r); err != nil {
				return nil, fmt.Errorf("offline: bad explorer line: %w", err)
			}
			if err := json.Unmarshal(r.Out, &r.outcome); err != nil {
				return nil, fmt.Errorf("offline: bad explorer outcome: %w", err)
			}
			e.records = append(e.records, r)
		}
	}
	return e, nil
}
