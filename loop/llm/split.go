package llm

import (
	"fmt"
	"regexp"
	"strings"

	sitter "github.com/smacker/go-tree-sitter"

	"github.com/advertest/advertest-lsp/javaparse"
	"github.com/advertest/advertest-lsp/loop/agent"
	"github.com/advertest/advertest-lsp/loop/internal/indent"
)

// A generated class's members other than its tests are carried into each test, because the
// suite holds test methods only:
//   - fields become local variables at the top of every test (modifiers but final dropped);
//   - the bodies of set-up methods (@BeforeEach, @Before, @BeforeAll, @BeforeClass), instance
//     and static initialisers and the class's constructor follow them; tear-down methods
//     (@AfterEach, @After, @AfterAll, @AfterClass) run in a finally block;
//   - helper methods a test calls (directly or through other helpers) travel with the test
//     as extra methods renamed <helper>For<Test>, so that tests carrying the same helper never
//     clash in the merged class. A test whose helpers read the class's fields cannot be
//     folded this way (the fields became locals of the test): it is dropped and counted.
// Nested classes (@Nested) are not carried.

var testAnnotations = map[string]bool{"Test": true, "ParameterizedTest": true, "RepeatedTest": true, "TestFactory": true, "TestTemplate": true}
var setupAnnotations = map[string]bool{"BeforeEach": true, "Before": true, "BeforeAll": true, "BeforeClass": true}
var teardownAnnotations = map[string]bool{"AfterEach": true, "After": true, "AfterAll": true, "AfterClass": true}

// member is one method of the generated class.
type member struct {
	name        string
	annotations []string
	header      string // from the first annotation to the body's '{' (exclusive)
	body        string // between the braces
	text        string // the whole method
	throws      bool
}

// classParts is a generated test class taken apart.
type classParts struct {
	imports  []string
	fields   []string
	setup    []member // set-up bodies in source order (initialisers and constructors included)
	teardown []member
	tests    []member
	helpers  map[string]member
	broken   int // test methods with syntax errors, left out
}

// SplitResult is what SplitTests made of a class.
type SplitResult struct {
	Tests []agent.Test
	// Unfoldable names the tests dropped because their helpers read fields.
	Unfoldable []string
	// Broken counts the test methods left out because they hold syntax errors (a class
	// that could not be repaired as a whole still gives its sound tests).
	Broken int
}

// SplitTests takes a generated test class apart into self-contained test methods (see the
// comment above for how fields, set-up and helpers are carried).
func SplitTests(src string, origin, target string) (SplitResult, error) {
	pf, err := javaparse.Parse([]byte(src))
	if err != nil {
		return SplitResult{}, fmt.Errorf("parsing the generated class: %w", err)
	}
	var parts classParts
	var perr error
	pf.WithTree(func(root *sitter.Node, b []byte) { parts, perr = takeApart(root, b) })
	if perr != nil {
		return SplitResult{}, perr
	}
	res := SplitResult{Broken: parts.broken}
	fieldNames := fieldNames(parts.fields)
	for _, t := range parts.tests {
		helpers := usedHelpers(t, parts)
		readsFields := false
		for _, h := range helpers {
			for _, f := range fieldNames {
				if identRE(f).MatchString(h.body) {
					readsFields = true
				}
			}
		}
		if readsFields {
			res.Unfoldable = append(res.Unfoldable, t.name)
			continue
		}
		res.Tests = append(res.Tests, agent.Test{
			Name: t.name, Source: foldTest(t, parts, helpers), Imports: parts.imports, Target: target, Origin: origin,
		})
	}
	return res, nil
}

func takeApart(root *sitter.Node, src []byte) (classParts, error) {
	parts := classParts{helpers: map[string]member{}}
	var class *sitter.Node
	for i := 0; i < int(root.NamedChildCount()); i++ {
		n := root.NamedChild(i)
		switch n.Type() {
		case "import_declaration":
			parts.imports = append(parts.imports, importName(n.Content(src)))
		case "class_declaration":
			if class == nil || hasTests(n, src) && !hasTests(class, src) {
				class = n
			}
		}
	}
	if class == nil {
		return parts, fmt.Errorf("the reply declares no class")
	}
	body := class.ChildByFieldName("body")
	if body == nil {
		return parts, fmt.Errorf("the generated class has no body")
	}
	for i := 0; i < int(body.NamedChildCount()); i++ {
		n := body.NamedChild(i)
		switch n.Type() {
		case "field_declaration":
			parts.fields = append(parts.fields, fieldAsLocal(n, src))
		case "method_declaration":
			m := memberOf(n, src)
			if n.HasError() {
				if anyIn(m.annotations, testAnnotations) {
					parts.broken++
				}
				continue
			}
			if m.body == "" && !strings.Contains(m.text, "{") {
				continue // abstract
			}
			switch {
			case anyIn(m.annotations, testAnnotations):
				parts.tests = append(parts.tests, m)
			case anyIn(m.annotations, setupAnnotations):
				parts.setup = append(parts.setup, m)
			case anyIn(m.annotations, teardownAnnotations):
				parts.teardown = append(parts.teardown, m)
			default:
				parts.helpers[m.name] = m
			}
		case "constructor_declaration":
			parts.setup = append(parts.setup, memberOf(n, src))
		case "static_initializer", "block":
			blk := n
			if n.Type() == "static_initializer" {
				blk = firstNamed(n, "block")
			}
			if blk != nil {
				c := blk.Content(src)
				parts.setup = append(parts.setup, member{body: c[1 : len(c)-1]})
			}
		}
	}
	return parts, nil
}

func hasTests(class *sitter.Node, src []byte) bool {
	return strings.Contains(class.Content(src), "@Test")
}

func importName(text string) string {
	text = strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(text), ";"))
	text = strings.TrimSpace(strings.TrimPrefix(text, "import"))
	return strings.Join(strings.Fields(text), " ")
}

func firstNamed(n *sitter.Node, typ string) *sitter.Node {
	for i := 0; i < int(n.NamedChildCount()); i++ {
		if c := n.NamedChild(i); c.Type() == typ {
			return c
		}
	}
	return nil
}

func memberOf(n *sitter.Node, src []byte) member {
	m := member{text: n.Content(src)}
	if name := n.ChildByFieldName("name"); name != nil {
		m.name = name.Content(src)
	}
	if mods := firstNamed(n, "modifiers"); mods != nil {
		for i := 0; i < int(mods.NamedChildCount()); i++ {
			a := mods.NamedChild(i)
			if a.Type() == "marker_annotation" || a.Type() == "annotation" {
				if an := a.ChildByFieldName("name"); an != nil {
					name := an.Content(src)
					m.annotations = append(m.annotations, name[strings.LastIndexByte(name, '.')+1:])
				}
			}
		}
	}
	m.throws = firstNamed(n, "throws") != nil
	if body := n.ChildByFieldName("body"); body != nil {
		m.header = string(src[n.StartByte():body.StartByte()])
		c := body.Content(src)
		if len(c) >= 2 {
			m.body = c[1 : len(c)-1]
		}
	}
	return m
}

// fieldAsLocal turns `private static final int MAX = 3;` into `final int MAX = 3;`.
func fieldAsLocal(n *sitter.Node, src []byte) string {
	text := n.Content(src)
	if mods := firstNamed(n, "modifiers"); mods != nil {
		final := strings.Contains(" "+strings.Join(strings.Fields(mods.Content(src)), " ")+" ", " final ")
		rest := string(src[mods.EndByte():n.EndByte()])
		text = strings.TrimSpace(rest)
		if final {
			text = "final " + text
		}
	}
	return text
}

var declNameRE = regexp.MustCompile(`([A-Za-z_$][\w$]*)\s*(=|;|,|\[)`)

// fieldNames are the variables the fields declare (the first name of each declaration and
// those after commas, roughly).
func fieldNames(fields []string) []string {
	var out []string
	for _, f := range fields {
		// Drop the initialiser parts' contents to avoid picking names inside them.
		head := f
		if i := strings.IndexByte(head, '='); i >= 0 {
			head = head[:i] + "="
		}
		if m := declNameRE.FindAllStringSubmatch(head, -1); len(m) > 0 {
			out = append(out, m[len(m)-1][1])
		}
	}
	return out
}

func anyIn(names []string, set map[string]bool) bool {
	for _, n := range names {
		if set[n] {
			return true
		}
	}
	return false
}

func identRE(name string) *regexp.Regexp {
	return regexp.MustCompile(`(^|[^\w$.])` + regexp.QuoteMeta(name) + `\b`)
}

func callRE(name string) *regexp.Regexp {
	return regexp.MustCompile(`(^|[^\w$.])` + regexp.QuoteMeta(name) + `\s*\(`)
}

// usedHelpers are the helpers a test reaches from its body and the set-up, transitively.
func usedHelpers(t member, parts classParts) []member {
	var order []member
	seen := map[string]bool{}
	var visit func(text string)
	visit = func(text string) {
		for name, h := range parts.helpers {
			if !seen[name] && callRE(name).MatchString(text) {
				seen[name] = true
				order = append(order, h)
				visit(h.body)
			}
		}
	}
	visit(t.body)
	for _, s := range parts.setup {
		visit(s.body)
	}
	for _, s := range parts.teardown {
		visit(s.body)
	}
	return order
}

// foldTest writes the test as one self-contained method (plus its renamed helpers).
func foldTest(t member, parts classParts, helpers []member) string {
	bodyIndent := indentOfBody(t.body)
	if bodyIndent == "" {
		bodyIndent = "        "
	}
	var b strings.Builder
	header := strings.TrimRight(t.header, " \t\n")
	needThrows := !t.throws
	if needThrows {
		for _, s := range append(append([]member(nil), parts.setup...), parts.teardown...) {
			if s.throws {
				header += " throws Exception"
				break
			}
		}
	}
	b.WriteString(header + " {\n")
	for _, f := range parts.fields {
		b.WriteString(indent.Block(f, bodyIndent))
	}
	for _, s := range parts.setup {
		b.WriteString(indent.Block(s.body, bodyIndent))
	}
	if len(parts.teardown) > 0 {
		b.WriteString(bodyIndent + "try {\n")
		b.WriteString(indent.Block(t.body, bodyIndent+"    "))
		b.WriteString(bodyIndent + "} finally {\n")
		for _, s := range parts.teardown {
			b.WriteString(indent.Block(s.body, bodyIndent+"    "))
		}
		b.WriteString(bodyIndent + "}\n")
	} else {
		b.WriteString(indent.Block(t.body, bodyIndent))
	}
	closeIndent := bodyIndent[:max(0, len(bodyIndent)-4)]
	b.WriteString(closeIndent + "}\n")
	out := b.String()
	for _, h := range helpers {
		out += "\n" + closeIndent + strings.TrimSpace(h.text) + "\n"
	}
	// Rename the helpers in the test and in each other.
	for _, h := range helpers {
		newName := h.name + "For" + strings.ToUpper(t.name[:1]) + t.name[1:]
		out = callRE(h.name).ReplaceAllString(out, "${1}"+newName+"(")
	}
	return out
}

// indentOfBody is the indentation of a body's first non-blank line.
func indentOfBody(body string) string {
	for _, l := range strings.Split(body, "\n") {
		if strings.TrimSpace(l) != "" {
			return l[:len(l)-len(strings.TrimLeft(l, " \t"))]
		}
	}
	return ""
}

var voidMethodRE = regexp.MustCompile(`(?m)^[ \t]*(@[\w.]+(\([^)\n]*\))?\s*)*((public|protected|private|static|final|synchronized)\s+)*void\s+[\w$]+\s*\([^)]*\)[^{;]*\{`)

// salvageClass rebuilds a class that tree-sitter cannot make sense of (a reply cut off in the
// middle, say) from its sound parts: the text before its first method (package, imports, the
// class header, fields), then every void method whose braces close before the next method
// starts, then the class's closing brace. "" when nothing is sound.
func salvageClass(src string) string {
	locs := voidMethodRE.FindAllStringIndex(src, -1)
	if len(locs) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString(strings.TrimRight(src[:locs[0][0]], " \t"))
	kept := 0
	for i, loc := range locs {
		limit := len(src)
		if i+1 < len(locs) {
			limit = locs[i+1][0]
		}
		end := matchingBrace(src, loc[1]-1, limit)
		if end < 0 {
			continue
		}
		// Sound means it parses on its own (the braces of a cut method may close on the
		// ones a rule appended).
		probe, err := javaparse.Parse([]byte("class Probe {\n" + src[loc[0]:end+1] + "\n}\n"))
		if err != nil || len(probe.SyntaxErrors()) > 0 {
			continue
		}
		b.WriteString(src[loc[0] : end+1])
		b.WriteString("\n\n")
		kept++
	}
	if kept == 0 {
		return ""
	}
	return strings.TrimRight(b.String(), "\n") + "\n}\n"
}

// matchingBrace is the offset of the '}' that closes the '{' at open, looking no further than
// limit (strings, chars and comments skipped); -1 when it does not close in time.
func matchingBrace(src string, open, limit int) int {
	_, at := scanBraces(src, open, limit, func(_, depth int) bool { return depth == 0 })
	return at
}
