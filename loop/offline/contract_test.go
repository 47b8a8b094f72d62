package offline

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/advertest/advertest-lsp/javaparse"
	"github.com/advertest/advertest-lsp/loop/agent"
)

// The explorer's lines are a contract between two languages (docs/explorer.md). These tests read
// the Java side from its source, never from a list copied here, so that renaming a kind or a key
// on one side fails them.

const explorerJava = "java/advertest/offline"

// javaContract is what Output.java declares: the kinds by group ("OUT", "VAL") and the keys of
// each object ("RECORD", "OUTCOME", ...).
type javaContract struct {
	kinds  map[string][]string
	fields map[string][]string
}

var (
	javaKindConst   = regexp.MustCompile(`static final String (OUT|VAL)_\w+ = "(\w+)";`)
	javaFieldsArray = regexp.MustCompile(`static final String\[\] (\w+)_FIELDS = \{([^}]*)\};`)
	javaQuoted      = regexp.MustCompile(`"(\w+)"`)
)

func readJavaContract(t *testing.T) javaContract {
	t.Helper()
	src, err := os.ReadFile(filepath.Join(explorerJava, "Output.java"))
	if err != nil {
		t.Fatal(err)
	}
	c := javaContract{kinds: map[string][]string{}, fields: map[string][]string{}}
	for _, m := range javaKindConst.FindAllStringSubmatch(string(src), -1) {
		c.kinds[m[1]] = append(c.kinds[m[1]], m[2])
	}
	for _, m := range javaFieldsArray.FindAllStringSubmatch(string(src), -1) {
		for _, q := range javaQuoted.FindAllStringSubmatch(m[2], -1) {
			c.fields[m[1]] = append(c.fields[m[1]], q[1])
		}
	}
	if len(c.kinds["OUT"]) == 0 || len(c.kinds["VAL"]) == 0 || len(c.fields) == 0 {
		t.Fatalf("Output.java declares no kinds or fields the test can read: %v", c)
	}
	return c
}

func sortedSet(xs []string) []string {
	out := slices.Clone(xs)
	sort.Strings(out)
	return slices.Compact(out)
}

func (c javaContract) allFields() []string {
	var all []string
	for _, fs := range c.fields {
		all = append(all, fs...)
	}
	return sortedSet(all)
}

// jsonTags are the JSON keys a Go struct decodes.
func jsonTags(v any) []string {
	var tags []string
	rt := reflect.TypeOf(v)
	for i := 0; i < rt.NumField(); i++ {
		name, _, _ := strings.Cut(rt.Field(i).Tag.Get("json"), ",")
		if name != "" && name != "-" {
			tags = append(tags, name)
		}
	}
	return sortedSet(tags)
}

// TestExplorerFieldsMatchGo: each object's keys in Output.java are the keys the Go struct that
// decodes it names (the header, a record, its outcome, a value, an observation, an argument after
// the call).
func TestExplorerFieldsMatchGo(t *testing.T) {
	c := readJavaContract(t)
	structs := map[string]any{
		"HEADER": header{}, "RECORD": record{}, "OUTCOME": outcome{}, "VALUE": value{},
		"OBSERVED": observed{}, "AFTER": argAfter{}, "SEEDS": seedsLine{},
	}
	for group, v := range structs {
		java, goTags := sortedSet(c.fields[group]), jsonTags(v)
		if !slices.Equal(java, goTags) {
			t.Errorf("%s: Output.java's %s_FIELDS %v, the Go struct %T decodes %v", group, group, java, v, goTags)
		}
	}
}

var (
	// a key written inside a Java string literal: \"name\":
	javaWrittenKey = regexp.MustCompile(`\\"(\w+)\\":`)
	// the keys of JsonText.obj("a", x, "b", y): a string literal at an even position
	javaObjCall = regexp.MustCompile(`JsonText\.obj\(([^;]*)\)`)
	// a kind written as a literal instead of through Output's constants
	javaKindLiteral = regexp.MustCompile(`\\"k\\":\\"|JsonText\.obj\("k",\s*"`)
	javaKindUse     = regexp.MustCompile(`Output\.((?:OUT|VAL)_\w+)`)
)

// TestExplorerWritesOnlyItsContract: the keys the explorer's classes write are exactly the ones
// Output.java declares, and every kind they write goes through Output's constants, each used.
func TestExplorerWritesOnlyItsContract(t *testing.T) {
	c := readJavaContract(t)
	files, err := filepath.Glob(filepath.Join(explorerJava, "*.java"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no Java sources in %s: %v", explorerJava, err)
	}
	written := map[string]bool{}
	used := map[string]bool{}
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for i, line := range strings.Split(string(src), "\n") {
			if strings.Contains(line, "_FIELDS = {") || strings.Contains(line, "static final String") {
				continue // the declarations themselves
			}
			for _, m := range javaWrittenKey.FindAllStringSubmatch(line, -1) {
				written[m[1]] = true
			}
			for _, m := range javaObjCall.FindAllStringSubmatch(line, -1) {
				for j, arg := range splitArgs(m[1]) {
					if j%2 == 0 {
						k, err := strconv.Unquote(strings.TrimSpace(arg))
						if err != nil {
							t.Errorf("%s:%d: JsonText.obj's key %q is not a literal the test can read", f, i+1, arg)
							continue
						}
						written[k] = true
					}
				}
			}
			if filepath.Base(f) != "Output.java" && javaKindLiteral.MatchString(line) {
				t.Errorf("%s:%d: a kind written as a literal, not through Output's constants: %s", f, i+1, strings.TrimSpace(line))
			}
			if filepath.Base(f) != "Output.java" {
				for _, m := range javaKindUse.FindAllStringSubmatch(line, -1) {
					used[m[1]] = true
				}
			}
		}
	}
	var keys []string
	for k := range written {
		keys = append(keys, k)
	}
	if got, want := sortedSet(keys), c.allFields(); !slices.Equal(got, want) {
		t.Errorf("the explorer writes the keys %v; Output.java declares %v", got, want)
	}
	src, _ := os.ReadFile(filepath.Join(explorerJava, "Output.java"))
	for _, m := range regexp.MustCompile(`static final String ((?:OUT|VAL)_\w+) =`).FindAllStringSubmatch(string(src), -1) {
		if !used[m[1]] {
			t.Errorf("Output.%s is a kind no class of the explorer writes", m[1])
		}
	}
}

// splitArgs splits a Java argument list at its top-level commas.
func splitArgs(s string) []string {
	var args []string
	depth, start := 0, 0
	inString := false
	for i := 0; i < len(s); i++ {
		switch ch := s[i]; {
		case inString && ch == '\\':
			i++
		case ch == '"':
			inString = !inString
		case inString:
		case ch == '(':
			depth++
		case ch == ')':
			depth--
		case ch == ',' && depth == 0:
			args = append(args, s[start:i])
			start = i + 1
		}
	}
	return append(args, s[start:])
}

// goReadKinds are the kinds the package's Go code compares an outcome's or a value's K with
// (K == "ret", switch v.K { case "prim": ... }), by file and line.
func goReadKinds(t *testing.T) map[string]string {
	t.Helper()
	fset := token.NewFileSet()
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	kinds := map[string]string{}
	isK := func(e ast.Expr) bool {
		s, ok := e.(*ast.SelectorExpr)
		return ok && s.Sel.Name == "K"
	}
	add := func(e ast.Expr) {
		if lit, ok := e.(*ast.BasicLit); ok && lit.Kind == token.STRING {
			if k, err := strconv.Unquote(lit.Value); err == nil {
				kinds[k] = fset.Position(lit.Pos()).String()
			}
		}
	}
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.BinaryExpr:
				if n.Op == token.EQL || n.Op == token.NEQ {
					if isK(n.X) {
						add(n.Y)
					}
					if isK(n.Y) {
						add(n.X)
					}
				}
			case *ast.SwitchStmt:
				if n.Tag != nil && isK(n.Tag) {
					for _, s := range n.Body.List {
						for _, e := range s.(*ast.CaseClause).List {
							add(e)
						}
					}
				}
			}
			return true
		})
	}
	return kinds
}

// TestExplorerKindsMatchGo: the outcome kinds Output.java declares are the ones Go words
// (kindWords), and the kinds Go compares with are all Output.java's, every one of them read.
func TestExplorerKindsMatchGo(t *testing.T) {
	c := readJavaContract(t)
	var words []string
	for _, kw := range kindWords {
		words = append(words, kw.kind)
	}
	if got, want := sortedSet(words), sortedSet(c.kinds["OUT"]); !slices.Equal(got, want) {
		t.Errorf("Go's outcome kinds (kindWords) %v; Output.java's OUT_ constants %v", got, want)
	}
	java := map[string]bool{}
	for _, k := range append(slices.Clone(c.kinds["OUT"]), c.kinds["VAL"]...) {
		java[k] = true
	}
	read := goReadKinds(t)
	for k, at := range read {
		if !java[k] {
			t.Errorf("%s: Go compares a kind with %q, which Output.java does not declare", at, k)
		}
	}
	for _, k := range c.kinds["VAL"] {
		if _, ok := read[k]; !ok {
			t.Errorf("Output.java's value kind %q is read nowhere in Go", k)
		}
	}
}

// docNames are the names in the first column of the tables under each "## " heading of a
// markdown page, by heading.
func docNames(t *testing.T, path string) map[string][]string {
	t.Helper()
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][]string{}
	section := ""
	cell := regexp.MustCompile("^\\| `([^`]+)` \\|")
	for _, line := range strings.Split(string(src), "\n") {
		if h, ok := strings.CutPrefix(line, "## "); ok {
			section = strings.TrimSpace(h)
		}
		if m := cell.FindStringSubmatch(line); m != nil {
			out[section] = append(out[section], m[1])
		}
	}
	return out
}

// TestExplorerContractIsDocumented: docs/explorer.md's tables name every kind and key
// Output.java declares, and no other.
func TestExplorerContractIsDocumented(t *testing.T) {
	c := readJavaContract(t)
	doc := docNames(t, filepath.Join("..", "..", "docs", "explorer.md"))
	check := func(section string, want []string) {
		if got := sortedSet(doc[section]); !slices.Equal(got, sortedSet(want)) {
			t.Errorf("docs/explorer.md, %q names %v; Output.java declares %v", section, got, sortedSet(want))
		}
	}
	check("Outcome kinds", c.kinds["OUT"])
	check("Value kinds", c.kinds["VAL"])
	check("Keys", c.allFields())
}

// TestDriverSendsEveryBound: the explorer has no defaults of its own for its bounds and refuses
// to run without them (the condition at the top of Explorer.run, read here); the driver test Go
// writes sets each to a positive value.
func TestDriverSendsEveryBound(t *testing.T) {
	src, err := os.ReadFile(filepath.Join(explorerJava, "Explorer.java"))
	if err != nil {
		t.Fatal(err)
	}
	var bounds []string
	for _, m := range regexp.MustCompile(`(\w+) <= 0`).FindAllStringSubmatch(string(src), -1) {
		bounds = append(bounds, m[1])
	}
	if len(bounds) < 4 {
		t.Fatalf("Explorer.java checks only %v before it runs", bounds)
	}
	a, err := New(nil, Options{})
	if err != nil {
		t.Fatal(err)
	}
	code := []byte("package p;\nclass C {\n    int f(int x) { return x + 1; }\n}\n")
	f, err := javaparse.Parse(code)
	if err != nil {
		t.Fatal(err)
	}
	ms := f.FindMethods("f")
	if len(ms) != 1 {
		t.Fatalf("FindMethods(f) = %d", len(ms))
	}
	s := &agent.Subject{Source: code, Parsed: f, Method: ms[0], Context: f.Context(ms[0])}
	driver := driverSource("p", "Driver", 5, a.params(s), "/classes", 1)
	for _, b := range bounds {
		m := regexp.MustCompile(`k\.getField\("` + b + `"\)\.set\(e, (\d+)L?\);`).FindStringSubmatch(driver)
		if m == nil {
			t.Errorf("the driver does not set %s:\n%s", b, driver)
		} else if n, _ := strconv.ParseInt(m[1], 10, 64); n <= 0 {
			t.Errorf("the driver sets %s to %s", b, m[1])
		}
	}
}
