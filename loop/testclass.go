package loop

import (
	"fmt"
	"strings"

	sitter "github.com/smacker/go-tree-sitter"

	"github.com/advertest/advertest-lsp/javaparse"
	"github.com/advertest/advertest-lsp/loop/agent"
)

// TestClass is a JUnit test class taken apart by its parse tree: its imports, its test
// methods, the other members they share, and where its body's parts lie (for merging into it).
type TestClass struct {
	// Name is the class's simple name.
	Name    string
	Imports []string
	// Tests are the test methods (@Test, @ParameterizedTest, …), each with the comments just
	// above it; Annotations are their annotations' simple names.
	Tests []ClassTest
	// Members are the class's other members (agent.Member): fields, helpers, lifecycle
	// methods, initialisers (a constructor becomes one), nested classes.
	Members []agent.Member
	// Broken names the test methods left out because they hold syntax errors.
	Broken []string

	// BodyOpen is the offset just after the body's `{`, Closing the offset of its `}`;
	// FieldsEnd the offset after the line of the body's last field (-1 when it has none).
	BodyOpen, Closing, FieldsEnd int
	// Indent is the indentation of the body's members ("    " when it has none); Unit one
	// level of it.
	Indent, Unit string
}

// ClassTest is one test method of a TestClass.
type ClassTest struct {
	Name        string
	Annotations []string
	// Source is the method with the comments just above it.
	Source string
}

var testAnnotations = map[string]bool{"Test": true, "ParameterizedTest": true, "RepeatedTest": true, "TestFactory": true, "TestTemplate": true}

// ParseTestClass takes apart the test class of src: the top-level class named preferred, else
// the first that holds a test, else the first class.
func ParseTestClass(src []byte, preferred string) (*TestClass, error) {
	pf, err := javaparse.Parse(src)
	if err != nil {
		return nil, fmt.Errorf("parsing the test class: %w", err)
	}
	var tc *TestClass
	pf.WithTree(func(root *sitter.Node, b []byte) { tc, err = takeApartClass(root, b, preferred) })
	return tc, err
}

func takeApartClass(root *sitter.Node, src []byte, preferred string) (*TestClass, error) {
	tc := &TestClass{FieldsEnd: -1, Closing: -1}
	var class *sitter.Node
	hasTest := func(n *sitter.Node) bool { return strings.Contains(n.Content(src), "@Test") }
	for i := 0; i < int(root.NamedChildCount()); i++ {
		n := root.NamedChild(i)
		switch n.Type() {
		case "import_declaration":
			tc.Imports = append(tc.Imports, importName(n.Content(src)))
		case "class_declaration":
			name := ""
			if nn := n.ChildByFieldName("name"); nn != nil {
				name = nn.Content(src)
			}
			switch {
			case class == nil,
				name == preferred && preferred != "",
				hasTest(n) && !hasTest(class) && javaparse.FieldText(class, "name", src) != preferred:
				class = n
			}
		}
	}
	if class == nil {
		return nil, fmt.Errorf("the text declares no class")
	}
	tc.Name = javaparse.FieldText(class, "name", src)
	body := class.ChildByFieldName("body")
	if body == nil {
		return nil, fmt.Errorf("the class %s has no body", tc.Name)
	}
	tc.BodyOpen = int(body.StartByte()) + 1
	if end := int(body.EndByte()); end > 0 && src[end-1] == '}' {
		tc.Closing = end - 1
	}
	tc.Indent, tc.Unit = "", ""
	var comments []*sitter.Node // the comments waiting for the member below them
	prevEnd := -1               // the row the previous member ends on
	for i := 0; i < int(body.NamedChildCount()); i++ {
		n := body.NamedChild(i)
		t := n.Type()
		if javaparse.IsComment(n) {
			// A comment on the line where the previous member ends is that member's.
			if int(n.StartPoint().Row) != prevEnd {
				comments = append(comments, n)
			}
			continue
		}
		prevEnd = int(n.EndPoint().Row)
		if tc.Indent == "" {
			tc.Indent = columnOf(src, int(n.StartByte()))
		}
		text := withComments(n, comments, src)
		comments = nil
		switch t {
		case "field_declaration":
			tc.Members = append(tc.Members, agent.Member{Kind: agent.MemberField, Names: declarators(n, src), Source: text})
			tc.FieldsEnd = lineEnd(src, int(n.EndByte()))
		case "method_declaration":
			name := javaparse.FieldText(n, "name", src)
			anns := annotationsOf(n, src)
			isTest := false
			for _, a := range anns {
				isTest = isTest || testAnnotations[a]
			}
			if n.HasError() {
				if isTest {
					tc.Broken = append(tc.Broken, name)
				}
				continue
			}
			if n.ChildByFieldName("body") == nil {
				continue // abstract
			}
			if isTest {
				tc.Tests = append(tc.Tests, ClassTest{Name: name, Annotations: anns, Source: text})
			} else {
				tc.Members = append(tc.Members, agent.Member{Kind: agent.MemberMethod, Names: []string{name}, Source: text})
			}
		case "constructor_declaration":
			// A constructor runs before each test, as an instance initialiser does; several
			// classes' initialisers can live in one class, their constructors could not.
			if b := n.ChildByFieldName("body"); b != nil && !n.HasError() {
				tc.Members = append(tc.Members, agent.Member{Kind: agent.MemberInitializer, Source: b.Content(src)})
			}
		case "static_initializer", "block":
			if !n.HasError() {
				tc.Members = append(tc.Members, agent.Member{Kind: agent.MemberInitializer, Source: text})
			}
		case "class_declaration", "interface_declaration", "enum_declaration", "record_declaration":
			if !n.HasError() {
				tc.Members = append(tc.Members, agent.Member{Kind: agent.MemberType, Names: []string{javaparse.FieldText(n, "name", src)}, Source: text})
			}
		}
	}
	if tc.Indent == "" || strings.TrimSpace(tc.Indent) != "" {
		tc.Indent = "    "
	}
	tc.Unit = tc.Indent
	if !strings.HasPrefix(tc.Indent, "\t") && len(tc.Indent) > 4 {
		tc.Unit = "    "
	}
	return tc, nil
}

// withComments is n's text with the comments just above it, from the start of the first one's
// line (so that its lines keep their relative indentation).
func withComments(n *sitter.Node, comments []*sitter.Node, src []byte) string {
	start := int(n.StartByte())
	if len(comments) > 0 {
		start = int(comments[0].StartByte())
	}
	ls := start
	for ls > 0 && (src[ls-1] == ' ' || src[ls-1] == '\t') {
		ls--
	}
	if ls > 0 && src[ls-1] != '\n' {
		ls = start // the member shares its line with something else
	}
	end := int(n.EndByte())
	// A comment after the member on its last line stays with it.
	if rest := src[end:lineEnd(src, end)]; strings.HasPrefix(strings.TrimSpace(string(rest)), "//") {
		end += len(strings.TrimRight(string(rest), "\r\n"))
	}
	return string(src[ls:end])
}

// columnOf is the whitespace before offset on its line ("" when other text precedes it).
func columnOf(src []byte, offset int) string {
	ls := offset
	for ls > 0 && (src[ls-1] == ' ' || src[ls-1] == '\t') {
		ls--
	}
	if ls > 0 && src[ls-1] != '\n' {
		return ""
	}
	return string(src[ls:offset])
}

// lineEnd is the offset just after the newline that ends offset's line (len(src) at the end).
func lineEnd(src []byte, offset int) int {
	for offset < len(src) && src[offset] != '\n' {
		offset++
	}
	if offset < len(src) {
		offset++
	}
	return offset
}

// declarators are the variables a field declaration declares.
func declarators(n *sitter.Node, src []byte) []string {
	var out []string
	for i := 0; i < int(n.NamedChildCount()); i++ {
		if c := n.NamedChild(i); c.Type() == "variable_declarator" {
			out = append(out, javaparse.FieldText(c, "name", src))
		}
	}
	return out
}

// annotationsOf are the simple names of a declaration's annotations.
func annotationsOf(n *sitter.Node, src []byte) []string {
	var out []string
	for i := 0; i < int(n.NamedChildCount()); i++ {
		mods := n.NamedChild(i)
		if mods.Type() != "modifiers" {
			continue
		}
		for j := 0; j < int(mods.NamedChildCount()); j++ {
			a := mods.NamedChild(j)
			if a.Type() == "marker_annotation" || a.Type() == "annotation" {
				if an := a.ChildByFieldName("name"); an != nil {
					name := an.Content(src)
					out = append(out, name[strings.LastIndexByte(name, '.')+1:])
				}
			}
		}
	}
	return out
}

func importName(text string) string {
	text = strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(text), ";"))
	text = strings.TrimSpace(strings.TrimPrefix(text, "import"))
	return strings.Join(strings.Fields(text), " ")
}

// testFile is an existing generated test file as Merge sees it.
type testFile struct {
	*TestClass
	members *memberSet
	// bodies are the normalised bodies of its methods (a test already there is not added).
	bodies map[string]bool
}

// readTestFile takes apart an existing generated test file for Merge.
func readTestFile(src []byte, className string) (*testFile, error) {
	tc, err := ParseTestClass(src, className)
	if err != nil {
		return nil, fmt.Errorf("reading the existing test file: %w", err)
	}
	f := &testFile{TestClass: tc, members: newMemberSet(), bodies: map[string]bool{}}
	for _, t := range tc.Tests {
		f.members.addTest(t.Name)
		f.bodies[normalizeBody(stripComments(t.Source), t.Name)] = true
	}
	for _, m := range tc.Members {
		f.members.add(m)
		if m.Kind == agent.MemberMethod && len(m.Names) == 1 {
			f.bodies[normalizeBody(stripComments(m.Source), m.Names[0])] = true
		}
	}
	return f, nil
}

// stripComments drops the comments above a member (the parse keeps them with it), so that a
// test's body compares with and without them.
func stripComments(src string) string {
	t := strings.TrimLeft(src, " \t\n")
	for strings.HasPrefix(t, "//") || strings.HasPrefix(t, "/*") {
		if strings.HasPrefix(t, "//") {
			i := strings.IndexByte(t, '\n')
			if i < 0 {
				return ""
			}
			t = strings.TrimLeft(t[i+1:], " \t\n")
			continue
		}
		i := strings.Index(t, "*/")
		if i < 0 {
			return t
		}
		t = strings.TrimLeft(t[i+2:], " \t\n")
	}
	return t
}
