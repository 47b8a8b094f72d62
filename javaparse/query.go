package javaparse

import (
	"slices"
	"strings"
	"unicode"
)

// Methods returns every method and constructor of the current text in source
// order (by StartByte). The slice is the caller's; the Methods are shared and
// must not be modified.
func (f *File) Methods() []*Method {
	return slices.Clone(f.cur.Load().getIndex().methods)
}

// MethodAt returns the innermost method containing the byte offset, nil if
// none. A method contains the offsets from its first annotation or modifier
// through its closing brace, and the offset just after that brace (where an
// editor's cursor sits after typing it); where two methods touch, the one that
// starts at the offset wins.
func (f *File) MethodAt(offset int) *Method {
	match := func(m *Method) bool { return m.StartByte <= offset && offset <= m.EndByte }
	// A matching method starts at or before offset and ends at or after it.
	return f.cur.Load().methodWhere(offset, offset, match, false)
}

// MethodAtLine returns the innermost method whose lines (1-based, StartLine
// through EndLine) hold line1, nil if none; where several methods share the
// line without nesting, the last one (the one that starts on it). This is the
// CLI's FILE:LINE: any line from the first annotation or modifier to the
// closing brace.
func (f *File) MethodAtLine(line1 int) *Method {
	match := func(m *Method) bool { return m.StartLine <= line1 && line1 <= m.EndLine }
	s := f.cur.Load()
	lines := s.lineMap()
	if line1 < 1 || line1 > lines.LineCount() {
		return nil // no method's lines reach outside the text
	}
	// A method holds line1 if it starts before the next line and ends after
	// this one's start.
	next := lines.LineStart(line1 + 1)
	if next < 0 {
		next = len(s.src) + 1
	}
	return s.methodWhere(next-1, lines.LineStart(line1)+1, match, true)
}

// methodWhere is the innermost method that matches, where every matching
// method starts at or before p and ends at or after q: from the index if it is
// built, else from the tree (lazy.go).
func (s *snapshot) methodWhere(p, q int, match func(*Method) bool, withLines bool) *Method {
	if ix := s.index.Load(); ix != nil {
		return innermost(ix.methods, match)
	}
	s.treeMu.Lock()
	defer s.treeMu.Unlock()
	if ix := s.index.Load(); ix == nil {
		if m, ok := s.lazyMethod(p, q, match, withLines); ok {
			return m
		}
	}
	return innermost(s.indexLocked().methods, match)
}

// innermost picks, among the methods that match, the one nested deepest:
// methods are sorted by StartByte and nest by range, so a later match that lies
// inside the current best replaces it.
func innermost(methods []*Method, match func(*Method) bool) *Method {
	var best *Method
	for _, m := range methods {
		if !match(m) {
			continue
		}
		if best == nil || (m.StartByte >= best.StartByte && m.EndByte <= best.EndByte) || m.StartByte >= best.EndByte {
			best = m
		}
	}
	return best
}

// FindMethods returns the methods a query names, in source order:
//   - "name": every overload of name (a constructor is named by its class);
//   - "name(int,int)": the overloads with these parameter types, compared after
//     erasing generics, qualifiers and whitespace ("int..." and "int[]" are the
//     same);
//   - "Inner.name", "Outer.Inner.name", "org.acme.Outer.name", "Outer$Inner.name":
//     the qualifiers must be the last elements of the class's path (a local
//     class matches with or without its javac number, "Local" or "1Local").
//
// The caller reports an empty or ambiguous answer.
func (f *File) FindMethods(query string) []*Method {
	q, ok := parseMethodQuery(query)
	if !ok {
		return nil
	}
	var out []*Method
	ix := f.cur.Load().getIndex()
	pkgParts := []string{}
	if ix.pkg != "" {
		pkgParts = strings.Split(ix.pkg, ".")
	}
	for _, m := range ix.methods {
		if m.Name != q.name {
			continue
		}
		full := append(slices.Clone(pkgParts), m.ClassPath...)
		if !pathHasSuffix(full, q.qualifiers) &&
			!(m.Kind == KindConstructor && pathHasSuffix(full[:len(full)-1], q.qualifiers)) {
			continue
		}
		if q.hasParams {
			if len(m.Params) != len(q.params) {
				continue
			}
			same := true
			for i, p := range m.Params {
				if normalizeType(p.Type) != q.params[i] {
					same = false
					break
				}
			}
			if !same {
				continue
			}
		}
		out = append(out, m)
	}
	return out
}

type methodQuery struct {
	qualifiers []string
	name       string
	hasParams  bool
	params     []string // normalised
}

func parseMethodQuery(s string) (methodQuery, bool) {
	var q methodQuery
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '('); i >= 0 {
		q.hasParams = true
		inner := s[i+1:]
		if j := strings.LastIndexByte(inner, ')'); j >= 0 {
			inner = inner[:j]
		}
		s = strings.TrimSpace(s[:i])
		for _, p := range SplitTopLevel(inner) {
			if p = strings.TrimSpace(p); p != "" {
				q.params = append(q.params, normalizeQueryParam(p))
			}
		}
	}
	parts := strings.FieldsFunc(s, func(r rune) bool { return r == '.' || r == '$' || r == '#' })
	if len(parts) == 0 {
		return q, false
	}
	for i := range parts {
		parts[i] = strings.TrimSpace(parts[i])
	}
	q.name = parts[len(parts)-1]
	q.qualifiers = parts[:len(parts)-1]
	return q, true
}

// SplitTopLevel splits a parameter or type-parameter list on the commas outside <...>.
func SplitTopLevel(s string) []string {
	var out []string
	depth, start := 0, 0
	for i, r := range s {
		switch r {
		case '<':
			depth++
		case '>':
			depth--
		case ',':
			if depth == 0 {
				out = append(out, s[start:i])
				start = i + 1
			}
		}
	}
	return append(out, s[start:])
}

// normalizeQueryParam accepts "int", "final int x", "@A List<String> xs" and
// reduces them to a type.
func normalizeQueryParam(p string) string {
	p = EraseGenerics(p)
	var words []string
	for _, w := range strings.Fields(p) {
		if strings.HasPrefix(w, "@") || w == "final" {
			continue
		}
		words = append(words, w)
	}
	// "int x" names the parameter; "int []" or "int ..." do not.
	if len(words) > 1 && isIdentifier(words[len(words)-1]) {
		words = words[:len(words)-1]
	}
	return normalizeType(strings.Join(words, ""))
}

// normalizeType erases generics, whitespace and package qualifiers, and spells
// varargs as an array: "java.util.List<String> ..." → "List[]".
func normalizeType(t string) string {
	t = EraseGenerics(t)
	t = strings.Join(strings.Fields(t), "")
	t = strings.ReplaceAll(t, "...", "[]")
	base, dims := t, ""
	if i := strings.IndexByte(t, '['); i >= 0 {
		base, dims = t[:i], t[i:]
	}
	if i := strings.LastIndexByte(base, '.'); i >= 0 {
		base = base[i+1:]
	}
	return base + dims
}

// EraseGenerics is a type's text without its type arguments: "Map<K, List<V>>[]" → "Map[]".
func EraseGenerics(t string) string {
	var b strings.Builder
	depth := 0
	for _, r := range t {
		switch {
		case r == '<':
			depth++
		case r == '>':
			depth = max(0, depth-1)
		case depth == 0:
			b.WriteRune(r)
		}
	}
	return b.String()
}

func isIdentifier(s string) bool {
	for i, r := range s {
		if !(unicode.IsLetter(r) || r == '_' || r == '$' || (i > 0 && unicode.IsDigit(r))) {
			return false
		}
	}
	return s != ""
}

// pathHasSuffix says whether the qualifiers are the last elements of path; a
// local class's element "1Local" also matches "Local".
func pathHasSuffix(path, qualifiers []string) bool {
	if len(qualifiers) > len(path) {
		return false
	}
	tail := path[len(path)-len(qualifiers):]
	for i, q := range qualifiers {
		if tail[i] != q && strings.TrimLeft(tail[i], "0123456789") != q {
			return false
		}
	}
	return true
}

// SyntaxErrors returns the ERROR and MISSING nodes of the current text, in
// source order.
func (f *File) SyntaxErrors() []SyntaxError {
	return slices.Clone(f.cur.Load().getIndex().errors)
}
