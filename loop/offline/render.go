package offline

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/advertest/advertest-lsp/javaparse"
	"github.com/advertest/advertest-lsp/loop/agent"
)

// emphasis says what a generated test asserts beyond the Act's own result.
type emphasis struct {
	// state lists the receiver's observers to assert ("getX()"), afterArgs the arguments
	// (indices) whose contents after the call are asserted.
	state     []string
	afterArgs []int
	// timeout wraps the Act in a time limit (the mutant loops on this input); stopped says
	// the explorer stopped the looping call.
	timeout, stopped bool
	// allState asserts up to three observers for a void method (the initial suite).
	allState bool
	// extreme marks an initial test on an extreme input, kept whatever it covers.
	extreme bool
}

// renderer writes tests for one method in the project's JUnit version.
type renderer struct {
	junit       int
	method      *javaparse.Method
	hdr         header
	timeoutMs   int64
	throwsCheck bool // the method declares checked exceptions: tests declare `throws Exception`
	// minimal is the source of the generated minimal subclass of an abstract receiver class
	// ("" for none): a test whose receiver is one carries it as a member (abstract.go).
	minimal string
}

// rendered is one test method's text and what it needs.
type rendered struct {
	name    string
	source  string
	imports []string
	// called is the name in parts: uniqueNames tells tests apart by it (names.go).
	called testName
	// members are the nested classes the test needs: a minimal subclass (abstract.go).
	members []agent.Member
}

func newRenderer(junit int, m *javaparse.Method, hdr header, timeoutMs int64) *renderer {
	return &renderer{
		junit:       junit,
		method:      m,
		hdr:         hdr,
		timeoutMs:   timeoutMs,
		throwsCheck: strings.Contains(m.Signature, " throws ") || strings.Contains(m.Signature, ")throws "),
	}
}

func (r *renderer) assertImport(name string) string {
	if r.junit == 4 {
		return "static org.junit.Assert." + name
	}
	return "static org.junit.jupiter.api.Assertions." + name
}

// test renders one test for rec asserting the original's outcome.
func (r *renderer) test(rec *record, em emphasis) rendered {
	var (
		arrange, act, assert []string
		imports              = map[string]bool{}
		asserts              = map[string]bool{}
	)
	for _, i := range r.hdr.Imports {
		imports[i] = true
	}
	for _, i := range rec.Imports {
		imports[i] = true
	}
	out := rec.outcome
	m := r.method
	isCtor := m.Kind == javaparse.KindConstructor

	// Arrange: the receiver, and the arguments whose state is asserted afterwards.
	arrange = append(arrange, rec.Graph...)
	graphVars := map[string]bool{}
	for _, l := range rec.Graph {
		if f := strings.Fields(l); len(f) >= 3 && f[2] == "=" {
			graphVars[f[1]] = true
		}
	}
	recvVar := ""
	if rec.Recv != nil {
		recvVar = lowerCamel(lastDot(strings.SplitN(r.hdr.ReceiverType, "<", 2)[0])) // Iterator<CSVRecord>: iterator
		if recvVar == "result" {
			recvVar = "subject"
		}
		arrange = append(arrange, fmt.Sprintf("%s %s = %s;", r.hdr.ReceiverType, recvVar, *rec.Recv))
		for _, s := range rec.Setup {
			arrange = append(arrange, fmt.Sprintf("%s.%s;", recvVar, s))
		}
	}
	args := slices.Clone(rec.Args)
	argVars := map[int]string{}
	for _, i := range em.afterArgs {
		if i >= len(args) || i >= len(r.hdr.DeclTypes) {
			continue
		}
		name := "arg" + fmt.Sprint(i)
		if i < len(m.Params) && m.Params[i].Name != "" {
			name = m.Params[i].Name
		}
		if name == recvVar || name == "result" || graphVars[name] {
			name += "Arg"
		}
		arrange = append(arrange, fmt.Sprintf("%s %s = %s;", r.hdr.DeclTypes[i], name, args[i]))
		args[i] = name
		argVars[i] = name
	}
	r.castNulls(args)
	var call string
	switch {
	case isCtor:
		call = fmt.Sprintf("new %s(%s)", r.hdr.ClassRef, strings.Join(args, ", "))
	case rec.Recv != nil:
		call = fmt.Sprintf("%s.%s(%s)", recvVar, m.Name, strings.Join(args, ", "))
	default:
		call = fmt.Sprintf("%s.%s(%s)", r.hdr.ClassRef, m.Name, strings.Join(args, ", "))
	}

	timeoutJ5 := em.timeout && r.junit == 5
	wrap := func(expr string) string {
		if !timeoutJ5 {
			return expr
		}
		imports["java.time.Duration"] = true
		asserts["assertTimeoutPreemptively"] = true
		return fmt.Sprintf("assertTimeoutPreemptively(Duration.ofMillis(%d), () -> %s)", r.timeoutMs, expr)
	}
	annotation := "@Test"
	var attrs []string
	if em.timeout && r.junit == 4 {
		attrs = append(attrs, fmt.Sprintf("timeout = %d", r.timeoutMs))
	}

	stateAsserts := func() {
		if recvVar == "" {
			return
		}
		want := em.state
		if em.allState && len(want) == 0 {
			for _, o := range out.State {
				if o.M != m.Name+"()" && o.R.K != "throws" && len(want) < 3 {
					want = append(want, o.M)
				}
			}
		}
		for _, name := range want {
			for _, o := range out.State {
				if o.M != name {
					continue
				}
				if name, ok := strings.CutPrefix(o.M, fieldPrefix); ok && o.Acc && o.D != "" {
					// a field the test can read: read directly, as any other observer
					assert = append(assert, r.assertValue(fieldRead(recvVar, r.hdr.ReceiverType, o.D, name), o.R, o.St, asserts, imports)...)
					continue
				}
				if strings.HasPrefix(o.M, fieldPrefix) {
					continue // a field the test cannot read is never asserted (no reflection)
				}
				assert = append(assert, r.assertValue(recvVar+"."+o.M, o.R, o.St, asserts, imports)...)
			}
		}
	}
	afterAsserts := func() {
		for _, a := range out.After {
			if v, ok := argVars[a.A]; ok {
				assert = append(assert, r.assertValue(v, a.R, "", asserts, imports)...)
			}
		}
	}

	switch out.K {
	case "throw":
		x := out.X
		if r.junit == 5 {
			asserts["assertThrows"] = true
			act = append(act, wrap(fmt.Sprintf("assertThrows(%s.class, () -> %s)", x, call))+";")
		} else if len(em.state) == 0 && len(em.afterArgs) == 0 {
			attrs = append([]string{fmt.Sprintf("expected = %s.class", x)}, attrs...)
			act = append(act, call+";")
		} else {
			asserts["fail"] = true
			act = append(act, "try {", "    "+call+";", fmt.Sprintf("    fail(\"expected %s\");", x),
				fmt.Sprintf("} catch (%s expected) {", x), "    // the original throws here", "}")
		}
	default: // "ret"
		if out.Ret == nil || out.Ret.K == "void" || out.Ret.K == unstableResult {
			act = append(act, wrap(call)+";")
		} else {
			rt := r.hdr.ReturnType
			if out.Ret.K != "null" {
				if p, ok := boxedToPrimitive[rt]; ok {
					rt = p
				}
			}
			act = append(act, fmt.Sprintf("%s result = %s;", rt, wrap(call)))
			ret := *out.Ret
			if ret.K == "object" {
				ret.Obs = changedFirst(ret.Obs, out.State)
			}
			assert = append(assert, r.assertValue("result", ret, rt, asserts, imports)...)
		}
	}
	stateAsserts()
	afterAsserts()

	if len(attrs) > 0 {
		annotation += "(" + strings.Join(attrs, ", ") + ")"
	}
	called := r.name(rec, em)
	name, _ := called.first()
	var b strings.Builder
	b.WriteString("    " + annotation + "\n")
	vis := "void"
	if r.junit == 4 {
		vis = "public void"
	}
	throws := ""
	if r.throwsCheck {
		throws = " throws Exception"
	}
	fmt.Fprintf(&b, "    %s %s()%s {\n", vis, name, throws)
	section := func(title string, lines []string) {
		if len(lines) == 0 {
			return
		}
		fmt.Fprintf(&b, "        // %s\n", title)
		for _, l := range lines {
			b.WriteString("        " + l + "\n")
		}
	}
	section("Arrange", arrange)
	if len(arrange) > 0 && len(act) > 0 {
		b.WriteString("\n")
	}
	if len(assert) == 0 {
		section("Act and assert", act)
	} else {
		section("Act", act)
		b.WriteString("\n")
		section("Assert", assert)
	}
	b.WriteString("    }\n")

	if r.junit == 4 {
		imports["org.junit.Test"] = true
	} else {
		imports["org.junit.jupiter.api.Test"] = true
	}
	for a := range asserts {
		imports[r.assertImport(a)] = true
	}
	src := b.String()
	var imps []string
	for i := range imports {
		if usedImport(i, src) {
			imps = append(imps, i)
		}
	}
	sort.Strings(imps)
	return rendered{name: name, source: src, imports: imps, called: called, members: r.minimalMember(rec)}
}

// castNulls writes a null argument of an overloaded method with a cast to its parameter's type
// ((String) null): without it the call is ambiguous and the test does not compile. The cast is
// to the erased type (List<T> → List: the method's type variables are not in the test's
// scope); a type variable's parameter keeps its plain null.
func (r *renderer) castNulls(args []string) {
	if !r.hdr.Overloaded {
		return
	}
	for i, a := range args {
		if a != "null" || i >= len(r.hdr.DeclTypes) {
			continue
		}
		t := strings.TrimSpace(javaparse.EraseGenerics(r.hdr.DeclTypes[i]))
		if base := strings.TrimRight(t, "[]"); len(base) == 1 && base[0] >= 'A' && base[0] <= 'Z' {
			continue
		}
		args[i] = "(" + t + ") null"
	}
}
