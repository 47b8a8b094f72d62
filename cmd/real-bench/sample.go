package main

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	sitter "github.com/smacker/go-tree-sitter"

	"github.com/advertest/advertest-lsp/cmd/internal/benchkit"
	"github.com/advertest/advertest-lsp/javaparse"
)

// Half is which half of the sample a method is in: dev (develop against it) or holdout (only
// measured).
type Half string

const (
	Dev     Half = "dev"
	Holdout Half = "holdout"
)

// The kinds of method the tool must handle, each with a quota in a sample (Quotas).
const (
	KindStatic      = "static"      // a static method
	KindInstance    = "instance"    // an instance method
	KindConstructor = "constructor" // a constructor
	KindPrivate     = "private"     // a private method or constructor
	KindProtected   = "protected"   // a protected one
	KindNested      = "nested"      // of a static nested type
	KindInner       = "inner"       // of an inner (non-static member) class
	KindAbstract    = "abstract"    // an instance method or constructor of an abstract class or an interface
	KindOverload    = "overload"    // its class has another method (or constructor) of the same name
)

// Quotas are the least number of methods of each kind in a half of 30 (scaled to other sizes,
// at least 1), taken in this order before the rest of the half is filled: the kinds the offline
// agents found hardest on real code come first.
var Quotas = []struct {
	Kind string
	Of30 int
}{
	{KindAbstract, 2}, {KindNested, 2}, {KindInner, 2}, {KindPrivate, 3}, {KindProtected, 2},
	{KindConstructor, 3}, {KindOverload, 3}, {KindStatic, 4}, {KindInstance, 4},
}

// Method is one method of a library's main sources, a candidate for the sample.
type Method struct {
	Library string `json:"library"`
	// Version is the Debian package version the method was read from.
	Version string `json:"version"`
	// File is the source file relative to the main-sources layout's root (src/main/java/…),
	// with forward slashes; Line its first line (the target is FILE:LINE).
	File    string `json:"file"`
	Line    int    `json:"line"`
	EndLine int    `json:"endLine"`
	// Class is the binary name of the enclosing class; Name the method's (the class's simple
	// name for a constructor); Signature its header as written, whitespace collapsed.
	Class     string   `json:"class"`
	Name      string   `json:"name"`
	Signature string   `json:"signature"`
	Kinds     []string `json:"kinds"`
	Half      Half     `json:"half"`
	// Key identifies the method in a package version ("version|class|signature"); Order is the
	// hex SHA-256 of Key, the fixed order the sample draws in.
	Key   string `json:"key"`
	Order string `json:"-"`
}

// Target is the method as `advertest run` takes it.
func (m Method) Target() string { return fmt.Sprintf("%s:%d", m.File, m.Line) }

// ID is a short, file-name-safe identity of the method (its key's hash, 16 hex digits).
func (m Method) ID() string { return m.Order[:16] }

// Display is "Class#name" with the class's simple binary name, for tables.
func (m Method) Display() string {
	c := m.Class[strings.LastIndex(m.Class, ".")+1:]
	return c + "#" + m.Name
}

// HalfOf is the fixed split: a method is in the dev half when the first byte of the SHA-256
// of its class and signature is even. The package version is left out, so a method keeps its
// half across versions; adding a library or a method never moves another.
func HalfOf(class, signature string) Half {
	h := sha256.Sum256([]byte("real-bench half\x00" + class + "\x00" + signature))
	if h[0]%2 == 0 {
		return Dev
	}
	return Holdout
}

// typeDecl is a type declaration of a file: its byte range, its kind and its modifiers.
type typeDecl struct {
	start, end int
	kind       string // class, interface, enum, record, annotation
	static     bool
	abstract   bool
}

// ListMethods reads every Java file under the main sources of the layout at root and returns
// its methods and constructors with a body, but those of anonymous and local classes (which no
// test can name); version is the package version they belong to.
func ListMethods(lib, version, root string) ([]Method, error) {
	srcRoot := filepath.Join(root, "src", "main", "java")
	files, err := benchkit.JavaSources(srcRoot)
	if err != nil {
		return nil, fmt.Errorf("listing %s's sources: %w", lib, err)
	}
	var out []Method
	for _, path := range files {
		src, err := os.ReadFile(path)
		if err != nil {
			return nil, err
		}
		f, err := javaparse.Parse(src)
		if err != nil {
			return nil, fmt.Errorf("parsing %s: %w", path, err)
		}
		rel, err := filepath.Rel(root, path)
		if err != nil {
			return nil, err
		}
		out = append(out, methodsOf(f, lib, version, filepath.ToSlash(rel))...)
	}
	return out, nil
}

// methodsOf lists one parsed file's methods as candidates.
func methodsOf(f *javaparse.File, lib, version, rel string) []Method {
	var decls []typeDecl
	f.WithTree(func(root *sitter.Node, src []byte) { decls = typeDecls(root, src) })
	all := f.Methods()
	// names counts methods by class and name, for overloads.
	names := map[string]int{}
	for _, m := range all {
		names[m.BinaryClassName+"#"+m.Name]++
	}
	var out []Method
	for _, m := range all {
		if m.BodyStartByte < 0 || anonymousOrLocal(m.ClassPath) {
			continue
		}
		chain := enclosing(decls, m.StartByte)
		if len(chain) == 0 {
			continue
		}
		kinds := kindsOf(m, chain, names[m.BinaryClassName+"#"+m.Name] > 1)
		key := version + "|" + m.BinaryClassName + "|" + m.Signature
		h := sha256.Sum256([]byte(key))
		out = append(out, Method{
			Library: lib, Version: version, File: rel, Line: m.StartLine, EndLine: m.EndLine,
			Class: m.BinaryClassName, Name: m.Name, Signature: m.Signature, Kinds: kinds,
			Half: HalfOf(m.BinaryClassName, m.Signature), Key: key, Order: hex.EncodeToString(h[:]),
		})
	}
	return out
}

// anonymousOrLocal: javac's names of anonymous and local classes start with a digit.
func anonymousOrLocal(path []string) bool {
	for _, p := range path {
		if p != "" && p[0] >= '0' && p[0] <= '9' {
			return true
		}
	}
	return false
}

// kindsOf are the sample kinds of m, given its enclosing named types (outermost first).
func kindsOf(m *javaparse.Method, chain []typeDecl, overloaded bool) []string {
	var kinds []string
	switch {
	case m.Kind == javaparse.KindConstructor:
		kinds = append(kinds, KindConstructor)
	case m.Static:
		kinds = append(kinds, KindStatic)
	default:
		kinds = append(kinds, KindInstance)
	}
	if slices.Contains(m.Modifiers, "private") {
		kinds = append(kinds, KindPrivate)
	}
	if slices.Contains(m.Modifiers, "protected") {
		kinds = append(kinds, KindProtected)
	}
	own := chain[len(chain)-1]
	if len(chain) > 1 {
		outer := chain[len(chain)-2]
		// Enums, records, interfaces and annotations nested in a type are implicitly static,
		// as is every type nested in an interface.
		if own.static || own.kind != "class" || outer.kind == "interface" || outer.kind == "annotation" {
			kinds = append(kinds, KindNested)
		} else {
			kinds = append(kinds, KindInner)
		}
	}
	// Instance methods and constructors of an abstract class or an interface run only
	// through a subclass or an implementation; its static methods are called as any others.
	if (own.abstract || own.kind == "interface") && !m.Static {
		kinds = append(kinds, KindAbstract)
	}
	if overloaded {
		kinds = append(kinds, KindOverload)
	}
	return kinds
}

// enclosing are the named type declarations that hold offset, outermost first.
func enclosing(decls []typeDecl, offset int) []typeDecl {
	var out []typeDecl
	for _, d := range decls {
		if d.start <= offset && offset < d.end {
			out = append(out, d)
		}
	}
	slices.SortFunc(out, func(a, b typeDecl) int { return a.start - b.start })
	return out
}

// typeDecls lists the file's named type declarations with their modifiers.
func typeDecls(root *sitter.Node, src []byte) []typeDecl {
	kinds := map[string]string{
		"class_declaration": "class", "interface_declaration": "interface", "enum_declaration": "enum",
		"record_declaration": "record", "annotation_type_declaration": "annotation",
	}
	var out []typeDecl
	javaparse.Walk(root, func(n *sitter.Node) bool {
		if kind, ok := kinds[n.Type()]; ok {
			d := typeDecl{start: int(n.StartByte()), end: int(n.EndByte()), kind: kind}
			for i := 0; i < int(n.NamedChildCount()); i++ {
				c := n.NamedChild(i)
				if c.Type() != "modifiers" {
					continue
				}
				for _, w := range strings.Fields(c.Content(src)) {
					d.static = d.static || w == "static"
					d.abstract = d.abstract || w == "abstract"
				}
			}
			out = append(out, d)
		}
		return true
	})
	return out
}

// Sample draws perHalf methods of each half from the candidates of the libraries (in the
// libraries' table order), by a fixed rule, so that two runs over the same package versions
// pick the same methods:
//
//   - each library gets an even share of the half (perHalf / libraries, the first ones one more
//     for the remainder), so that no library crowds out the others;
//   - the quotas come first (Quotas, in order): for each kind, the libraries in turn add their
//     lowest-ordered candidate of that kind (Method.Order, a hash of the package version, class
//     and signature) while they have room, until the kind has its quota or none is left;
//   - then the libraries in turn fill their share with their lowest-ordered candidates.
//
// A library with fewer candidates than its share leaves its places empty.
func Sample(libs []string, candidates map[string][]Method, perHalf int) map[Half][]Method {
	out := map[Half][]Method{}
	for _, half := range []Half{Dev, Holdout} {
		byLib := map[string][]Method{}
		for _, lib := range libs {
			for _, m := range candidates[lib] {
				if m.Half == half {
					byLib[lib] = append(byLib[lib], m)
				}
			}
			slices.SortFunc(byLib[lib], func(a, b Method) int { return strings.Compare(a.Order, b.Order) })
		}
		out[half] = sampleHalf(libs, byLib, perHalf)
	}
	return out
}

func sampleHalf(libs []string, byLib map[string][]Method, n int) []Method {
	if len(libs) == 0 || n <= 0 {
		return nil
	}
	share := map[string]int{}
	for i, lib := range libs {
		share[lib] = n / len(libs)
		if i < n%len(libs) {
			share[lib]++
		}
	}
	taken := map[string]bool{}
	picked := map[string][]Method{}
	count := map[string]int{}
	take := func(m Method) {
		taken[m.Key] = true
		picked[m.Library] = append(picked[m.Library], m)
		for _, k := range m.Kinds {
			count[k]++
		}
	}
	next := 0 // the library whose turn it is, kept across kinds so that no library always goes first
	for _, q := range Quotas {
		want := max(1, (q.Of30*n+15)/30)
		for count[q.Kind] < want {
			found := false
			for i := range libs {
				lib := libs[(next+i)%len(libs)]
				if len(picked[lib]) >= share[lib] {
					continue
				}
				for _, m := range byLib[lib] {
					if !taken[m.Key] && slices.Contains(m.Kinds, q.Kind) {
						take(m)
						found = true
						break
					}
				}
				if found {
					next = (next + i + 1) % len(libs)
					break
				}
			}
			if !found {
				break
			}
		}
	}
	for _, lib := range libs {
		for _, m := range byLib[lib] {
			if len(picked[lib]) >= share[lib] {
				break
			}
			if !taken[m.Key] {
				take(m)
			}
		}
	}
	var out []Method
	for _, lib := range libs {
		ms := picked[lib]
		slices.SortFunc(ms, func(a, b Method) int { return strings.Compare(a.Order, b.Order) })
		out = append(out, ms...)
	}
	return out
}
