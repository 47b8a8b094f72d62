package javaparse

// MethodKind says whether a Method is a method or a constructor.
type MethodKind int

const (
	// KindMethod is a method declaration (also abstract and interface methods).
	KindMethod MethodKind = iota
	// KindConstructor is a constructor, including a record's compact
	// canonical constructor.
	KindConstructor
)

func (k MethodKind) String() string {
	if k == KindConstructor {
		return "constructor"
	}
	return "method"
}

// Param is one formal parameter as written.
type Param struct {
	Type string // "List<String>", "int...", "String[]" (C-style dimensions after the name are appended)
	Name string
}

// Method is a method or constructor of one version of a File. Its fields are
// never modified after it is returned; offsets refer to the text it was found
// in.
type Method struct {
	Name       string     // method name; the class's simple name for a constructor
	Kind       MethodKind // KindMethod or KindConstructor
	Signature  string     // header as written, whitespace collapsed, no body, no annotations: "public static int clamp(int x, int lo, int hi)"
	ReturnType string     // "" for constructors
	// Params as written; for a compact record constructor, the record's
	// components (its implicit parameters).
	Params    []Param
	Modifiers []string // "public", "static", ... (no annotations)
	Static    bool
	// ClassPath holds the enclosing type names, outermost first, as javac's
	// binary name spells them: ["Outer", "Inner"]; an anonymous class is its
	// javac number ["Outer", "1"], a local class carries its number prefix
	// ["Outer", "1Local"].
	ClassPath       []string
	BinaryClassName string // "org.acme.Outer$Inner", anonymous "org.acme.Outer$1" (javac numbering)
	TopLevelClass   string // "org.acme.Outer": the compilation unit's class that holds it
	// StartByte..EndByte spans from the first annotation/modifier to the
	// closing brace (or ';'); EndByte is exclusive.
	StartByte, EndByte         int
	NameStartByte, NameEndByte int
	BodyStartByte              int // the '{' of the body; -1 for a method without body
	StartLine, EndLine         int // 1-based; StartLine is the first annotation/modifier line

	class *classInfo
}

// Text returns the method's source text from src (the text it was found in).
// It returns "" if the range does not fit src.
func (m *Method) Text(src []byte) string {
	if m.StartByte < 0 || m.EndByte > len(src) || m.StartByte > m.EndByte {
		return ""
	}
	return string(src[m.StartByte:m.EndByte])
}

// classInfo is one type declaration (named, local or anonymous) of a snapshot.
type classInfo struct {
	kind        string // class|interface|enum|record|annotation|anonymous
	path        []string
	start, end  int
	declaration string
	fields      []string
	ctors       []string
	methodSigs  []string
	// recordParams are a record's components (the compact constructor's
	// parameters).
	recordParams []Param

	// javac numbering of the classes declared inside this one: anonymous
	// classes count per enclosing class, local classes per enclosing class
	// and name.
	anonCount  int
	localCount map[string]int
}
