package offline

import (
	"slices"
	"sort"
	"strings"

	sitter "github.com/smacker/go-tree-sitter"

	"github.com/advertest/advertest-lsp/javaparse"
	"github.com/advertest/advertest-lsp/loop/mutants"
)

// Entry points: a method a test cannot call (private, of a private or inner class, of a class
// without an accessible constructor) is driven through the methods and constructors of its file
// that a test in its package can call and whose bodies reach it (by name, directly or through
// other methods of the file, nearest first). A probe counts the entries into the target: its
// call sits at the start of the target's body, on the same line (line numbers stay), in the
// original and in every mutant alike, and an input counts only when its call entered the target.
// The tests call the entry point; the mutants stay the target's.

// entryProbeClass is the entry probe's simple name: a top-level class of the file's package.
const entryProbeClass = "AdverTestEntryProbe"

// entryProbeSource counts the entries into the target. Its take() has the site probe's shape
// (infect.go): the explorer resets it before each call and records it after, as the record's
// site, whose n is the number of entries.
var entryProbeSource = `

/** Written by AdverTest's offline explorer: counts the entries into the method under test. */
final class ` + entryProbeClass + ` {
    private static int count;

    private ` + entryProbeClass + `() {
    }

    static synchronized void hit() {
        count++;
    }

    static synchronized String take() {
        String s = "{\"n\":" + count + ",\"h\":\"\",\"v\":[]}";
        count = 0;
        return s;
    }
}
`

// maxEntries bounds the entry points explored for one method, entryEnough the usable inputs
// that entered the target after which no further entry point is tried: each costs an
// exploration of the original (two runs).
const (
	maxEntries  = 3
	entryDepth  = 4
	entryEnough = 10
)

// entryPoint is how a method is driven when a test cannot call it: through entry, with the
// probe's call inserted at probeAt of the source.
type entryPoint struct {
	target  *javaparse.Method
	entry   *javaparse.Method
	probeAt int
	// result: the tests call the target's method on what an accessible method returns
	// (entry_result.go); entry is then the target
	result bool
}

func (e *entryPoint) key() string {
	if e == nil {
		return ""
	}
	return "|via|" + e.target.BinaryClassName + "|" + e.target.Signature
}

// withEntryProbe is src with the probe's call at at and the probe appended.
func withEntryProbe(src []byte, at int) []byte {
	var b strings.Builder
	b.Write(src[:at])
	b.WriteString(" " + entryProbeClass + ".hit();")
	b.Write(src[at:])
	b.WriteString(entryProbeSource)
	return []byte(b.String())
}

// probeOffset is where the entry probe's call goes in target's body: after the '{', or after
// a constructor's this(...) or super(...), which must come first. -1 when there is no body.
func probeOffset(f *javaparse.File, target *javaparse.Method) int {
	if target.BodyStartByte < 0 {
		return -1
	}
	at := target.BodyStartByte + 1
	f.WithTree(func(root *sitter.Node, _ []byte) {
		javaparse.Walk(root, func(n *sitter.Node) bool {
			if int(n.StartByte()) == target.BodyStartByte && n.Type() == "constructor_body" {
				if c := javaparse.FirstCodeChild(n); c != nil && c.Type() == "explicit_constructor_invocation" {
					at = int(c.EndByte())
				}
				return false
			}
			// only the nodes that hold the body's start
			return int(n.StartByte()) <= target.BodyStartByte && target.BodyStartByte < int(n.EndByte())
		})
	})
	return at
}

// fileClass is a type declared in the file, by its binary path ("Outer$Inner").
type fileClass struct {
	kind                     string // class, interface, enum, record, annotation
	private, static, abstrac bool
	start, end               int // the declaration's bytes
}

// fileClasses are the file's type declarations by binary path (javaparse's ClassPath joined by
// '$'); local and anonymous classes are left out.
func fileClasses(f *javaparse.File) map[string]fileClass {
	out := map[string]fileClass{}
	f.WithTree(func(root *sitter.Node, src []byte) {
		var walk func(n *sitter.Node, path []string)
		walk = func(n *sitter.Node, path []string) {
			for i := 0; i < int(n.NamedChildCount()); i++ {
				c := n.NamedChild(i)
				kind := strings.TrimSuffix(c.Type(), "_declaration")
				switch c.Type() {
				case "class_declaration", "interface_declaration", "enum_declaration", "record_declaration", "annotation_type_declaration":
				default:
					// into bodies of types only: a class inside a method is local
					if c.Type() == "class_body" || c.Type() == "interface_body" || c.Type() == "enum_body" ||
						c.Type() == "enum_body_declarations" || c.Type() == "annotation_type_body" || c.Type() == "program" {
						walk(c, path)
					}
					continue
				}
				name := javaparse.FieldText(c, "name", src)
				if kind == "annotation_type" {
					kind = "annotation"
				}
				fc := fileClass{kind: kind, start: int(c.StartByte()), end: int(c.EndByte())}
				if mods := javaparse.FirstChildOfType(c, "modifiers"); mods != nil {
					for _, w := range strings.Fields(mods.Content(src)) {
						switch w {
						case "private":
							fc.private = true
						case "static":
							fc.static = true
						case "abstract":
							fc.abstrac = true
						}
					}
				}
				// a member type of an interface, and a nested interface, enum or record, is static
				if kind != "class" || len(path) > 0 && out[strings.Join(path, "$")].kind == "interface" {
					fc.static = true
				}
				p := append(slices.Clone(path), name)
				out[strings.Join(p, "$")] = fc
				if body := c.ChildByFieldName("body"); body != nil {
					walk(body, p)
				}
			}
		}
		walk(root, nil)
	})
	return out
}

// callable reports whether a test in the file's package can call m: m is not private and has
// a body, and every class around it can be named (not private, not local or anonymous, not an
// inner class of an instance).
func callable(m *javaparse.Method, classes map[string]fileClass) bool {
	if slices.Contains(m.Modifiers, "private") || slices.Contains(m.Modifiers, "abstract") || m.BodyStartByte < 0 {
		return false
	}
	for i := range m.ClassPath {
		fc, ok := classes[strings.Join(m.ClassPath[:i+1], "$")]
		if !ok || fc.private || i > 0 && !fc.static {
			return false
		}
		if i == len(m.ClassPath)-1 {
			if m.Kind == javaparse.KindConstructor && (fc.abstrac || fc.kind != "class" && fc.kind != "record") {
				return false
			}
			if fc.kind == "interface" && !m.Static {
				return false
			}
		}
	}
	return true
}

// calleeKeys are what a method's body calls, by name: "m:name" for a method, "new:Type" for a
// constructor (new Type(...), this(...), Type::new), "cls:Type" for a static member of a class
// (Type.x, Type.m(): they initialise it). A body's anonymous and local classes count as the
// body's own: what their methods call, the method that makes them may reach. What a class's
// field initialisers and initialiser blocks call is its initialisation's, in inits by the
// class's binary path: the first use of the class (a "cls:" key) runs them.
func calleeKeys(f *javaparse.File, methods []*javaparse.Method, classes map[string]fileClass) (calls map[*javaparse.Method]map[string]bool, inits map[string]map[string]bool) {
	calls = map[*javaparse.Method]map[string]bool{}
	inits = map[string]map[string]bool{}
	// the innermost method of a named class that holds offset
	owner := func(offset int) *javaparse.Method {
		var best *javaparse.Method
		for _, m := range methods {
			if m.BodyStartByte >= 0 && m.BodyStartByte <= offset && offset < m.EndByte && !anonymousPath(m.ClassPath) &&
				(best == nil || m.StartByte >= best.StartByte) {
				best = m
			}
		}
		return best
	}
	// the innermost class that holds offset, for what no method holds
	initOf := func(offset int) string {
		best := ""
		for path, c := range classes {
			if c.start <= offset && offset < c.end && (best == "" || c.start >= classes[best].start) {
				best = path
			}
		}
		return best
	}
	add := func(offset int, key string) {
		if m := owner(offset); m != nil {
			if calls[m] == nil {
				calls[m] = map[string]bool{}
			}
			calls[m][key] = true
		} else if c := initOf(offset); c != "" {
			if inits[c] == nil {
				inits[c] = map[string]bool{}
			}
			inits[c][key] = true
		}
	}
	// a static member's class: an identifier that names a type (by convention, capitalised)
	classUse := func(n *sitter.Node, field string, src []byte) {
		if o := n.ChildByFieldName(field); o != nil && o.Type() == "identifier" {
			if name := o.Content(src); name != "" && name[0] >= 'A' && name[0] <= 'Z' {
				add(int(n.StartByte()), "cls:"+name)
			}
		}
	}
	f.WithTree(func(root *sitter.Node, src []byte) {
		javaparse.Walk(root, func(n *sitter.Node) bool {
			switch n.Type() {
			case "method_invocation":
				add(int(n.StartByte()), "m:"+javaparse.FieldText(n, "name", src))
				classUse(n, "object", src)
			case "field_access":
				classUse(n, "object", src)
			case "object_creation_expression":
				add(int(n.StartByte()), "new:"+mutants.SimpleTypeName(javaparse.FieldText(n, "type", src)))
			case "explicit_constructor_invocation":
				if c := javaparse.FirstCodeChild(n); c != nil && c.Content(src) == "this" {
					if m := owner(int(n.StartByte())); m != nil {
						add(int(n.StartByte()), "new:"+m.ClassPath[len(m.ClassPath)-1])
					}
				}
			case "method_reference":
				text := n.Content(src)
				if i := strings.LastIndex(text, "::"); i >= 0 {
					name := strings.TrimSpace(text[i+2:])
					if name == "new" {
						add(int(n.StartByte()), "new:"+mutants.SimpleTypeName(text[:i]))
					} else {
						add(int(n.StartByte()), "m:"+name)
					}
				}
			}
			return true
		})
	})
	return calls, inits
}

// anonymousPath reports whether a class path holds an anonymous or local class (javac numbers
// them: "1", "1Local").
func anonymousPath(path []string) bool {
	for _, c := range path {
		if c != "" && c[0] >= '0' && c[0] <= '9' {
			return true
		}
	}
	return false
}

func methodKey(m *javaparse.Method) string {
	if m.Kind == javaparse.KindConstructor {
		return "new:" + m.ClassPath[len(m.ClassPath)-1]
	}
	return "m:" + m.Name
}

// paramCost ranks a parameter list: few and simple first (what the explorer builds best).
func paramCost(m *javaparse.Method) int {
	cost := 0
	for _, p := range m.Params {
		t := p.Type
		switch {
		case slices.Contains([]string{"int", "long", "short", "byte", "char", "boolean", "double", "float", "String",
			"Integer", "Long", "Character", "Boolean", "Double", "CharSequence"}, t):
			cost++
		case strings.HasSuffix(t, "[]") || strings.HasSuffix(t, "...") || strings.HasPrefix(t, "List<"):
			cost += 2
		default:
			cost += 4
		}
	}
	if !m.Static && m.Kind != javaparse.KindConstructor {
		cost++ // a receiver to build too
	}
	return cost
}

// fixed reports whether every call of m is the same: a static method or a constructor without
// parameters (one input, whatever the search tries).
func fixed(m *javaparse.Method) bool {
	return len(m.Params) == 0 && (m.Static || m.Kind == javaparse.KindConstructor)
}

// entryPoints are the methods and constructors of target's file that a test in the package
// can call and that reach target by name: those whose calls can vary first, then the nearest,
// then by the simplicity of their parameters; at most maxEntries. A method of a nested class is also reached by those that
// make its class (new Nested(...)): what they return a test then uses, or what they do with it;
// one of an anonymous or local class by the method that declares it.
func entryPoints(f *javaparse.File, target *javaparse.Method) []*javaparse.Method {
	methods := f.Methods()
	classes := fileClasses(f)
	calls, inits := calleeKeys(f, methods, classes)
	initDone := map[string]bool{}
	depth := map[*javaparse.Method]int{}
	frontier := map[string]bool{methodKey(target): true}
	// the nested classes around the target: makers of them come one step later
	var makers []string
	for i := len(target.ClassPath) - 1; i > 0; i-- {
		if c := target.ClassPath[i]; !anonymousPath([]string{c}) {
			makers = append(makers, "new:"+c)
		}
	}
	if anonymousPath(target.ClassPath) {
		// the named method that holds the anonymous or local class declares it
		for _, m := range methods {
			if !anonymousPath(m.ClassPath) && m.BodyStartByte >= 0 && m.BodyStartByte < target.StartByte && target.EndByte <= m.EndByte {
				depth[m] = 1
				frontier[methodKey(m)] = true
			}
		}
	}
	for d := 1; d <= entryDepth; d++ {
		if d == 2 {
			for _, k := range makers {
				frontier[k] = true
			}
		}
		next := map[string]bool{}
		for c, keys := range inits {
			for k := range keys {
				if frontier[k] && !initDone[c] {
					// the class's initialisation reaches it: so does the first use of the class
					initDone[c] = true
					next["cls:"+c[strings.LastIndexByte(c, '$')+1:]] = true
				}
			}
		}
		for _, m := range methods {
			if m == target || depth[m] > 0 || anonymousPath(m.ClassPath) {
				continue
			}
			for k := range calls[m] {
				if frontier[k] {
					depth[m] = d
					next[methodKey(m)] = true
					break
				}
			}
		}
		frontier = next
	}
	var out []*javaparse.Method
	for m := range depth {
		if m != target && callable(m, classes) {
			out = append(out, m)
		}
	}
	sort.Slice(out, func(i, j int) bool {
		a, b := out[i], out[j]
		// a static method or constructor without parameters runs one input: last
		if fixed(a) != fixed(b) {
			return !fixed(a)
		}
		if depth[a] != depth[b] {
			return depth[a] < depth[b]
		}
		if paramCost(a) != paramCost(b) {
			return paramCost(a) < paramCost(b)
		}
		return a.StartByte < b.StartByte
	})
	if len(out) > maxEntries {
		out = out[:maxEntries]
	}
	return out
}
