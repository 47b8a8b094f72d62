package llm

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	sitter "github.com/smacker/go-tree-sitter"

	"github.com/advertest/advertest-lsp/javaparse"
	"github.com/advertest/advertest-lsp/loop/agent"
	"github.com/advertest/advertest-lsp/loop/llm/prompts"
)

// The prompts show the whole file of the class under test, with its line numbers, as the
// paper does: the model sees the constructors' bodies, the fields' initial values and the
// helpers the method calls instead of guessing them. When the file is larger than the context
// budget (llm.contextTokens, four bytes a token) the bodies of the members that the method does
// not reach are left out, keeping the fields, the class's constructors, the method, every
// method it calls through the class (transitively) and, for a method a test cannot call, the
// accessible methods that reach it. The methods of other classes of the project that it calls
// follow, as long as they fit. See docs/llm.md, "The prompts".

// DefaultContextTokens is llm.contextTokens' default.
const DefaultContextTokens = 8000

// methodInputs is the subject as the prompts show it, within budgetTokens.
func methodInputs(s *agent.Subject, budgetTokens int) prompts.Method {
	if budgetTokens <= 0 {
		budgetTokens = DefaultContextTokens
	}
	v := buildClassView(s, budgetTokens*4)
	return prompts.Method{
		QualifiedClass: strings.ReplaceAll(s.Method.BinaryClassName, "$", "."), Package: s.Context.Package,
		Signature: s.Method.Signature, MethodName: s.Method.Name, FileName: filepath.Base(s.File),
		StartLine: s.Method.StartLine, EndLine: s.Method.EndLine,
		Listing: v.listing, Elided: v.elided, Others: v.others, Private: v.private, Callers: v.callers,
	}
}

// classView is the file as a prompt shows it.
type classView struct {
	listing string
	elided  bool
	others  string
	private string
	callers []string
}

// call is one call in the file: from the method (its index), to a name, on an object ("" for
// an unqualified call, `this` or `super`; a class or variable name otherwise).
type call struct {
	from   int
	name   string
	object string
	isNew  bool // `new Name(…)`: a constructor
}

// fileCalls are the calls of a file's methods, and the declared types of its fields and of its
// methods' parameters (to follow a call on one of them to its class).
type fileCalls struct {
	calls      []call
	fieldTypes map[string]string
}

func buildClassView(s *agent.Subject, budget int) classView {
	var v classView
	methods := s.Parsed.Methods()
	target := slices.IndexFunc(methods, func(m *javaparse.Method) bool {
		return m.StartByte == s.Method.StartByte && m.Name == s.Method.Name
	})
	lines := strings.Split(strings.TrimRight(string(s.Source), "\n"), "\n")
	if target < 0 {
		v.listing = numbered(lines, 1, len(lines), nil)
		return v
	}
	fc := collectCalls(s.Parsed, methods)
	own := map[string][]int{} // a name of the file's methods → their indexes
	for i, m := range methods {
		own[m.Name] = append(own[m.Name], i)
	}
	classes := map[string]bool{} // the simple names of the file's classes
	for _, m := range methods {
		for _, c := range m.ClassPath {
			classes[c] = true
		}
	}
	local := func(c call) []int {
		if c.object == "" || classes[c.object] {
			return own[c.name]
		}
		return nil
	}
	// What the method reaches through the file, by depth.
	depth := map[int]int{target: 0}
	queue := []int{target}
	for i, m := range methods {
		if m.Kind == javaparse.KindConstructor && m.BinaryClassName == s.Method.BinaryClassName {
			if _, ok := depth[i]; !ok {
				depth[i] = 1
				queue = append(queue, i)
			}
		}
	}
	for len(queue) > 0 {
		i := queue[0]
		queue = queue[1:]
		for _, c := range fc.calls {
			if c.from != i {
				continue
			}
			for _, j := range local(c) {
				if _, ok := depth[j]; !ok {
					depth[j] = depth[i] + 1
					queue = append(queue, j)
				}
			}
		}
	}
	// A method a test cannot call: the accessible methods that reach it.
	keepCallers := map[int]bool{}
	if why := inaccessible(s.Parsed, s.Method); why != "" {
		v.private = why
		seen := map[int]bool{target: true}
		frontier := []int{target}
		for len(frontier) > 0 {
			x := frontier[0]
			frontier = frontier[1:]
			for _, c := range fc.calls {
				if seen[c.from] || !slices.Contains(local(c), x) {
					continue
				}
				seen[c.from] = true
				keepCallers[c.from] = true
				caller := methods[c.from]
				if inaccessible(s.Parsed, caller) == "" {
					v.callers = append(v.callers, fmt.Sprintf("%s (line %d)", caller.Signature, caller.StartLine))
				} else {
					frontier = append(frontier, c.from)
				}
			}
		}
	}

	// The whole file when it fits; else the bodies of the others elided, the deepest reached
	// ones too while it does not fit.
	whole := numbered(lines, 1, len(lines), nil)
	v.listing = whole
	if len(whole) > budget {
		v.elided = true
		maxDepth := 0
		for _, d := range depth {
			maxDepth = max(maxDepth, d)
		}
		for keepDepth := maxDepth; keepDepth >= 0; keepDepth-- {
			elide := map[int]bool{}
			for i := range methods {
				d, reached := depth[i]
				if i == target || keepCallers[i] && keepDepth > 0 || reached && d <= keepDepth {
					continue
				}
				elide[i] = true
			}
			v.listing = numbered(lines, 1, len(lines), elisions(s.Parsed, methods, elide, lines))
			if len(v.listing) <= budget {
				break
			}
		}
	}
	v.others = otherClasses(s, methods, fc, target, depth, classes, budget-len(v.listing))
	return v
}

// inaccessible says why a test in the class's package cannot call m ("" when it can).
func inaccessible(pf *javaparse.File, m *javaparse.Method) string {
	if slices.Contains(m.Modifiers, "private") {
		return "it is private"
	}
	if c := pf.Context(m); c != nil && slices.Contains(strings.Fields(c.ClassDeclaration), "private") {
		return "its class is private"
	}
	if last := m.ClassPath[len(m.ClassPath)-1]; last != "" && last[0] >= '0' && last[0] <= '9' {
		return "it belongs to an anonymous or local class"
	}
	return ""
}

// collectCalls walks the file's tree for the calls its methods make.
func collectCalls(pf *javaparse.File, methods []*javaparse.Method) fileCalls {
	fc := fileCalls{fieldTypes: map[string]string{}}
	innermost := func(at int) int {
		best := -1
		for i, m := range methods {
			if m.StartByte <= at && at < m.EndByte && (best < 0 || m.StartByte >= methods[best].StartByte) {
				best = i
			}
		}
		return best
	}
	pf.WithTree(func(root *sitter.Node, src []byte) {
		javaparse.Walk(root, func(n *sitter.Node) bool {
			switch n.Type() {
			case "method_invocation":
				name := n.ChildByFieldName("name")
				if from := innermost(int(n.StartByte())); name != nil && from >= 0 {
					obj := ""
					if o := n.ChildByFieldName("object"); o != nil && o.Type() != "this" && o.Type() != "super" {
						obj = o.Content(src)
					}
					fc.calls = append(fc.calls, call{from: from, name: name.Content(src), object: obj})
				}
			case "object_creation_expression":
				if t := n.ChildByFieldName("type"); t != nil {
					if from := innermost(int(n.StartByte())); from >= 0 {
						fc.calls = append(fc.calls, call{from: from, name: baseType(t.Content(src)), isNew: true})
					}
				}
			case "field_declaration":
				if t := n.ChildByFieldName("type"); t != nil {
					for i := 0; i < int(n.NamedChildCount()); i++ {
						if d := n.NamedChild(i); d.Type() == "variable_declarator" {
							if dn := d.ChildByFieldName("name"); dn != nil {
								fc.fieldTypes[dn.Content(src)] = baseType(t.Content(src))
							}
						}
					}
				}
			}
			return true
		})
	})
	return fc
}

// baseType is a type's simple name without its type arguments and array brackets.
func baseType(t string) string {
	if i := strings.IndexAny(t, "<["); i >= 0 {
		t = t[:i]
	}
	t = strings.TrimSpace(t)
	return t[strings.LastIndexByte(t, '.')+1:]
}

// elision is a run of lines replaced by one: the body of a member left out.
type elision struct {
	first, last int    // the lines left out, 1-based
	head        string // the text that stands for them on line first
	dropFrom    int    // the first line of the comments above the member (dropped with it), 0 for none
}

// elisions are the ranges of lines the elided methods' bodies (and the comments above them)
// take, the outermost only.
func elisions(pf *javaparse.File, methods []*javaparse.Method, elide map[int]bool, lines []string) []elision {
	var out []elision
	lm := pf.Lines()
	for i, m := range methods {
		if !elide[i] || m.BodyStartByte < 0 {
			continue
		}
		open := lm.Line(m.BodyStartByte)
		if open >= m.EndLine {
			continue // a one-line body: nothing to gain
		}
		text := lines[open-1]
		col := m.BodyStartByte - lm.LineStart(open)
		if col < 0 || col >= len(text) {
			continue
		}
		e := elision{first: open, last: m.EndLine, head: text[:col+1] + " … }"}
		// The comments just above the member go with it.
		for l := m.StartLine - 1; l >= 1; l-- {
			t := strings.TrimSpace(lines[l-1])
			if strings.HasPrefix(t, "/*") || strings.HasPrefix(t, "*") || strings.HasPrefix(t, "//") {
				e.dropFrom = l
				continue
			}
			break
		}
		out = append(out, e)
	}
	sort.Slice(out, func(a, b int) bool { return out[a].first < out[b].first })
	// Keep the outermost of nested ranges.
	var merged []elision
	for _, e := range out {
		if n := len(merged); n > 0 && e.first <= merged[n-1].last {
			continue
		}
		merged = append(merged, e)
	}
	return merged
}

// numbered renders lines first..last with their numbers ("12: code"), the elided ranges
// replaced by their heads.
func numbered(lines []string, first, last int, elided []elision) string {
	var b strings.Builder
	skipTo := 0
	drop := map[int]bool{}
	heads := map[int]elision{}
	for _, e := range elided {
		heads[e.first] = e
		if e.dropFrom > 0 {
			for l := e.dropFrom; l < e.first; l++ {
				drop[l] = true
			}
		}
	}
	for l := first; l <= last && l <= len(lines); l++ {
		if l <= skipTo || drop[l] {
			continue
		}
		if e, ok := heads[l]; ok {
			fmt.Fprintf(&b, "%d: %s\n", l, e.head)
			skipTo = e.last
			continue
		}
		fmt.Fprintf(&b, "%d: %s\n", l, strings.TrimRight(lines[l-1], "\r"))
	}
	return strings.TrimRight(b.String(), "\n")
}

// otherClasses renders the methods of the project's other classes that the method (or what it
// reaches) calls, with their files' line numbers, within room bytes. A class is found in the
// method's package folder, or where its import says, under the same source root.
func otherClasses(s *agent.Subject, methods []*javaparse.Method, fc fileCalls, target int, depth map[int]int, classes map[string]bool, room int) string {
	if room <= 0 {
		return ""
	}
	root := sourceRoot(s.File, s.Context.Package)
	params := map[string]string{}
	for _, p := range methods[target].Params {
		params[p.Name] = baseType(p.Type)
	}
	type want struct{ class, name string }
	var wants []want
	seen := map[want]bool{}
	for _, c := range fc.calls {
		d, reached := depth[c.from]
		if !reached || d > 1 {
			continue
		}
		class := ""
		switch {
		case c.isNew:
			class = c.name
		case c.object != "" && isTypeName(c.object):
			class = c.object
		case c.object != "":
			if t, ok := params[c.object]; ok && c.from == target {
				class = t
			} else if t, ok := fc.fieldTypes[c.object]; ok {
				class = t
			}
		}
		if class == "" || classes[class] {
			continue
		}
		w := want{class, c.name}
		if !seen[w] {
			seen[w] = true
			wants = append(wants, w)
		}
	}
	var b strings.Builder
	files := map[string]*javaparse.File{}
	for _, w := range wants {
		path := classFile(root, s.Context.Package, s.Context.Imports, w.class)
		if path == "" {
			continue
		}
		pf, ok := files[path]
		if !ok {
			src, err := os.ReadFile(path)
			if err == nil {
				pf, _ = javaparse.Parse(src)
			}
			files[path] = pf
		}
		if pf == nil {
			continue
		}
		src := pf.Source()
		flines := strings.Split(string(src), "\n")
		for _, m := range pf.Methods() {
			if m.ClassPath[len(m.ClassPath)-1] != w.class || m.Name != w.name && !(m.Kind == javaparse.KindConstructor && w.name == w.class) {
				continue
			}
			part := fmt.Sprintf("// %s\n%s\n", filepath.Base(path), numbered(flines, m.StartLine, m.EndLine, nil))
			if b.Len()+len(part) > room {
				return strings.TrimRight(b.String(), "\n")
			}
			b.WriteString(part)
		}
	}
	return strings.TrimRight(b.String(), "\n")
}

func isTypeName(s string) bool {
	return s != "" && s[0] >= 'A' && s[0] <= 'Z' && !strings.ContainsAny(s, ".()[] ")
}

// sourceRoot is the folder the package's folders start from (the file's folder when the
// package does not match it).
func sourceRoot(file, pkg string) string {
	dir := filepath.Dir(file)
	if pkg == "" {
		return dir
	}
	suffix := filepath.FromSlash(strings.ReplaceAll(pkg, ".", "/"))
	if strings.HasSuffix(dir, string(filepath.Separator)+suffix) {
		return strings.TrimSuffix(dir, string(filepath.Separator)+suffix)
	}
	return ""
}

// classFile is the source file of a class the file refers to by its simple name: imported by
// name, else in the same package; "" when it is not under root.
func classFile(root, pkg string, imports []string, class string) string {
	if root == "" {
		return ""
	}
	qualified := ""
	for _, im := range imports {
		if strings.HasSuffix(im, "."+class) && !strings.HasPrefix(im, "static ") {
			qualified = im
		}
	}
	if qualified == "" {
		qualified = class
		if pkg != "" {
			qualified = pkg + "." + class
		}
	}
	path := filepath.Join(root, filepath.FromSlash(strings.ReplaceAll(qualified, ".", "/"))+".java")
	if st, err := os.Stat(path); err == nil && st.Mode().IsRegular() {
		return path
	}
	return ""
}
