package javaparse

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

func readCorpus(t testing.TB, name string) []byte {
	t.Helper()
	src, err := os.ReadFile(filepath.Join("testdata", "corpus", name))
	if err != nil {
		t.Fatal(err)
	}
	return src
}

func parseCorpus(t testing.TB, name string) (*File, []byte) {
	t.Helper()
	src := readCorpus(t, name)
	f, err := Parse(src)
	if err != nil {
		t.Fatalf("Parse(%s): %v", name, err)
	}
	return f, src
}

// methodIDs spells methods as "Binary#name:StartLine-EndLine".
func methodIDs(ms []*Method) []string {
	var out []string
	for _, m := range ms {
		out = append(out, m.BinaryClassName+"#"+m.Name+":"+itoa(m.StartLine)+"-"+itoa(m.EndLine))
	}
	return out
}

func itoa(i int) string { return strconv.Itoa(i) }

func TestMethodsCorpus(t *testing.T) {
	tests := []struct {
		file string
		want []string
	}{
		{"Calculator.java", []string{
			"org.acme.calc.Calculator#Calculator:17-19",
			"org.acme.calc.Calculator#Calculator:21-24",
			"org.acme.calc.Calculator#clamp:27-34",
			"org.acme.calc.Calculator#clamp:36-38",
			"org.acme.calc.Calculator#maxOf:40-48",
			"org.acme.calc.Calculator#sum:50-58",
			"org.acme.calc.Calculator#compareTo:60-61",
			"org.acme.calc.Calculator#split:63-70",
		}},
		{"Shapes.java", []string{
			"org.acme.shapes.Shapes$1#run:7-9",
			"org.acme.shapes.Shapes$Inner#depth:13-24",
			"org.acme.shapes.Shapes$Inner$1#toString:15-18",
			"org.acme.shapes.Shapes$Inner$1Local#local:21-21",
			"org.acme.shapes.Shapes$Nested$Deeper#deep:29-29",
			"org.acme.shapes.Shapes$Nested#nested:32-32",
			"org.acme.shapes.Shapes#area:35-54",
			"org.acme.shapes.Shapes$2#toString:37-37",
			"org.acme.shapes.Shapes$3#hashCode:40-45",
			"org.acme.shapes.Shapes$3$1#toString:42-42",
			"org.acme.shapes.Shapes$1Local#twice:48-48",
			"org.acme.shapes.Shapes$1Other#other:51-51",
			"org.acme.shapes.Shapes#perimeter:56-61",
			"org.acme.shapes.Shapes$2Local#add:58-58",
			"org.acme.shapes.Shapes$4#toString:64-64",
			"org.acme.shapes.Shape#area:71-71",
			"org.acme.shapes.Shape#describe:73-75",
			"org.acme.shapes.Shape#unit:77-79",
		}},
		{"Types.java", []string{
			"org.acme.types.Point#Point:4-8",
			"org.acme.types.Point#Point:10-12",
			"org.acme.types.Point#manhattan:14-16",
			"org.acme.types.Point#origin:18-18",
			"org.acme.types.Op$1#apply:23-23",
			"org.acme.types.Op$2#apply:26-26",
			"org.acme.types.Op#Op:32-34",
			"org.acme.types.Op#apply:36-38",
			"org.acme.types.Op#symbol:40-40",
		}},
		{"Unicode.java", []string{
			"org.acme.unicode.Ünïcode#größe:7-9",
			"org.acme.unicode.Ünïcode#block:11-17",
			"org.acme.unicode.Ünïcode#after:19-21",
			"org.acme.unicode.Ünïcode#変数:23-23",
		}},
		{"Crlf.java", []string{
			"org.acme.crlf.Crlf#first:4-6",
			"org.acme.crlf.Crlf#second:8-11",
		}},
		{"Nesting.java", []string{
			"org.acme.nesting.Nesting$A#A:8-8",
			"org.acme.nesting.Nesting$A#a:10-10",
			"org.acme.nesting.Nesting$1#inArgs:15-15",
			"org.acme.nesting.Nesting$2#outer:17-17",
			"org.acme.nesting.Nesting$E$1#enumArg:22-22",
			"org.acme.nesting.Nesting$E$2#constBody:24-24",
			"org.acme.nesting.Nesting$E#E:27-27",
			"org.acme.nesting.Nesting$3#inStaticInit:32-32",
			"org.acme.nesting.Nesting$1InInit#inInit:38-38",
			"org.acme.nesting.Nesting#locals:42-55",
			"org.acme.nesting.Nesting$1Pair#sum:44-44",
			"org.acme.nesting.Nesting$1Color#paint:46-46",
			"org.acme.nesting.Nesting$1Greeter#hi:47-47",
			"org.acme.nesting.Nesting$4#inLambda:53-53",
			"org.acme.nesting.Nesting#qualified:57-62",
			"org.acme.nesting.Nesting$5#qualifiedAnon:60-60",
			"org.acme.nesting.Nesting$Inner#inner:65-65",
		}},
		{"Broken.java", []string{
			"org.acme.broken.Broken#good:4-6",
			"org.acme.broken.Broken#bad:8-11",
			"org.acme.broken.Broken#alsoGood:13-15",
		}},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			f, _ := parseCorpus(t, tt.file)
			got := methodIDs(f.Methods())
			if !slices.Equal(got, tt.want) {
				t.Errorf("Methods() =\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(tt.want, "\n"))
			}
		})
	}
}

// TestBinaryNamesMatchJavac compiles the corpus with the real javac and checks
// that every method lands in the class file its BinaryClassName names.
func TestBinaryNamesMatchJavac(t *testing.T) {
	javac, err := exec.LookPath("javac")
	if err != nil {
		t.Skip("javac not on PATH")
	}
	javap, err := exec.LookPath("javap")
	if err != nil {
		t.Skip("javap not on PATH")
	}
	files := []string{"Calculator.java", "Shapes.java", "Types.java", "Unicode.java", "Crlf.java", "Nesting.java"}
	out := t.TempDir()
	args := []string{"-encoding", "UTF-8", "-nowarn", "-d", out}
	for _, f := range files {
		args = append(args, filepath.Join("testdata", "corpus", f))
	}
	if b, err := exec.Command(javac, args...).CombinedOutput(); err != nil {
		t.Fatalf("javac: %v\n%s", err, b)
	}
	var methods []*Method
	classSet := map[string]bool{}
	for _, name := range files {
		f, _ := parseCorpus(t, name)
		for _, m := range f.Methods() {
			methods = append(methods, m)
			classSet[m.BinaryClassName] = true
		}
	}
	classes := make([]string, 0, len(classSet))
	for c := range classSet {
		classes = append(classes, c)
	}
	slices.Sort(classes)
	cmd := exec.Command(javap, append([]string{"-p", "-cp", out}, classes...)...)
	cmd.Env = append(os.Environ(), "LC_ALL=C.UTF-8")
	b, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("javap: %v\n%s", err, b)
	}
	// members["org.acme.X$1"] holds the simple names of its methods and
	// constructors.
	members := map[string][]string{}
	var current string
	for _, line := range strings.Split(string(b), "\n") {
		switch {
		case strings.HasSuffix(line, "{") && !strings.HasPrefix(line, " "):
			fields := strings.Fields(strings.TrimSuffix(line, "{"))
			for i, w := range fields {
				if (w == "class" || w == "interface" || w == "enum") && i+1 < len(fields) {
					current, _, _ = strings.Cut(fields[i+1], "<")
					break
				}
			}
		case strings.HasPrefix(line, "  ") && strings.Contains(line, "("):
			head := line[:strings.IndexByte(line, '(')]
			words := strings.Fields(head)
			name := words[len(words)-1]
			name = name[strings.LastIndexAny(name, ".$")+1:]
			members[current] = append(members[current], name)
		}
	}
	for _, m := range methods {
		if !slices.Contains(members[m.BinaryClassName], m.Name) {
			t.Errorf("%s (line %d): javac put no %q in class %s (it has %v)", m.Name, m.StartLine, m.Name, m.BinaryClassName, members[m.BinaryClassName])
		}
	}
	if len(members) != len(classes) {
		t.Errorf("javap described %d classes, want %d:\n%s", len(members), len(classes), b)
	}
}

func TestMethodFields(t *testing.T) {
	f, _ := parseCorpus(t, "Calculator.java")
	clamp := f.FindMethods("clamp(int,int,int)")
	if len(clamp) != 1 {
		t.Fatalf("FindMethods(clamp(int,int,int)) = %v", methodIDs(clamp))
	}
	m := clamp[0]
	if m.Signature != "public static int clamp(int x, int lo, int hi)" {
		t.Errorf("Signature = %q", m.Signature)
	}
	if m.ReturnType != "int" || !m.Static || m.Kind != KindMethod {
		t.Errorf("ReturnType %q Static %v Kind %v", m.ReturnType, m.Static, m.Kind)
	}
	if !slices.Equal(m.Modifiers, []string{"public", "static"}) {
		t.Errorf("Modifiers = %v", m.Modifiers)
	}
	wantParams := []Param{{"int", "x"}, {"int", "lo"}, {"int", "hi"}}
	if !slices.Equal(m.Params, wantParams) {
		t.Errorf("Params = %v", m.Params)
	}
	if m.TopLevelClass != "org.acme.calc.Calculator" || !slices.Equal(m.ClassPath, []string{"Calculator"}) {
		t.Errorf("TopLevelClass %q ClassPath %v", m.TopLevelClass, m.ClassPath)
	}
	src := f.Source()
	if text := m.Text(src); !strings.HasPrefix(text, "@Deprecated\n") || !strings.HasSuffix(text, "}") {
		t.Errorf("Text starts/ends wrong: %q", text)
	}
	if got := string(src[m.NameStartByte:m.NameEndByte]); got != "clamp" {
		t.Errorf("name range holds %q", got)
	}
	if src[m.BodyStartByte] != '{' {
		t.Errorf("BodyStartByte points at %q", src[m.BodyStartByte])
	}

	maxOf := f.FindMethods("maxOf")[0]
	if maxOf.Signature != "public <U extends Comparable<U>> U maxOf(List<? extends U> items, U... extra) throws IOException" {
		t.Errorf("maxOf Signature = %q", maxOf.Signature)
	}
	if !slices.Equal(maxOf.Params, []Param{{"List<? extends U>", "items"}, {"U...", "extra"}}) {
		t.Errorf("maxOf Params = %v", maxOf.Params)
	}
	split := f.FindMethods("split")[0]
	if split.Signature != "public int split( int a, int b)" {
		t.Errorf("split Signature = %q", split.Signature)
	}
	ctor := f.FindMethods("Calculator(int)")[0]
	if ctor.Kind != KindConstructor || ctor.ReturnType != "" || ctor.Signature != "Calculator(int start)" || ctor.StartLine != 21 {
		t.Errorf("ctor = %+v", ctor)
	}

	tf, _ := parseCorpus(t, "Types.java")
	compact := tf.FindMethods("Point")[0]
	if compact.Kind != KindConstructor || compact.Signature != "public Point" ||
		!slices.Equal(compact.Params, []Param{{"int", "x"}, {"int", "y"}}) {
		t.Errorf("compact ctor = %+v", compact)
	}
	shapes, _ := parseCorpus(t, "Shapes.java")
	area := shapes.FindMethods("Shape.area")
	if len(area) != 1 || area[0].BodyStartByte != -1 || area[0].Signature != "double area()" {
		t.Errorf("abstract interface method = %+v", area)
	}
	if d := shapes.FindMethods("describe")[0]; !slices.Equal(d.Modifiers, []string{"default"}) || d.Static {
		t.Errorf("default method = %+v", d)
	}
}

func TestMethodAt(t *testing.T) {
	tests := []struct {
		file   string
		marker string // the offset is the start of the first occurrence of marker
		delta  int    // added to the marker's offset
		want   string // "Binary#name", "" for none
	}{
		{"Calculator.java", "@Deprecated", 0, "org.acme.calc.Calculator#clamp"},
		{"Calculator.java", `@SuppressWarnings({"a"`, 0, "org.acme.calc.Calculator#clamp"},
		{"Calculator.java", "return lo;", 0, "org.acme.calc.Calculator#clamp"},
		{"Calculator.java", "log.add(\"summed\")", 0, "org.acme.calc.Calculator#sum"}, // lambda belongs to the method
		{"Calculator.java", "private int count", 0, ""},
		{"Calculator.java", "package", 0, ""},
		{"Calculator.java", "/** Clamps", 0, ""},                                 // javadoc is not the method
		{"Calculator.java", "+ b;\n    }", 9, "org.acme.calc.Calculator#split"},  // the closing brace
		{"Calculator.java", "+ b;\n    }", 10, "org.acme.calc.Calculator#split"}, // just after it
		{"Calculator.java", "+ b;\n    }", 11, ""},
		{"Shapes.java", "System.out.println(\"start\")", 0, "org.acme.shapes.Shapes$1#run"},
		{"Shapes.java", "return \"inner-anon\"", 0, "org.acme.shapes.Shapes$Inner$1#toString"},
		{"Shapes.java", "Object o = new Object()", 0, "org.acme.shapes.Shapes$Inner#depth"},
		{"Shapes.java", "return 1;", 0, "org.acme.shapes.Shapes$Inner$1Local#local"},
		{"Shapes.java", "anon-in-anon", 0, "org.acme.shapes.Shapes$3$1#toString"},
		{"Shapes.java", "return q.hashCode()", 0, "org.acme.shapes.Shapes$3#hashCode"},
		{"Shapes.java", "in-lambda", 0, "org.acme.shapes.Shapes$2#toString"},
		{"Shapes.java", "return a + b", 0, "org.acme.shapes.Shapes$2Local#add"},
		{"Shapes.java", "return \"shape with", 0, "org.acme.shapes.Shape#describe"},
		{"Shapes.java", "double area();", 3, "org.acme.shapes.Shape#area"},
		{"Types.java", "throw new", 0, "org.acme.types.Point#Point"},
		{"Types.java", "return a + b", 0, "org.acme.types.Op$1#apply"},
		{"Types.java", "return a - b", 0, "org.acme.types.Op$2#apply"},
		{"Types.java", "return a * b", 0, "org.acme.types.Op#apply"},
		{"Types.java", "this.symbol = symbol", 0, "org.acme.types.Op#Op"},
		{"Unicode.java", "länge * 2", 0, "org.acme.unicode.Ünïcode#größe"},
		{"Unicode.java", "{ not a brace }", 0, "org.acme.unicode.Ünïcode#block"},
		{"Unicode.java", "after the text block", 0, "org.acme.unicode.Ünïcode#after"},
		{"Unicode.java", "42", 0, "org.acme.unicode.Ünïcode#変数"},
		{"Crlf.java", "return b - 1", 0, "org.acme.crlf.Crlf#second"},
		{"Crlf.java", "@Deprecated", 0, "org.acme.crlf.Crlf#second"},
		{"Broken.java", "return b * 2", 0, "org.acme.broken.Broken#alsoGood"},
	}
	for _, tt := range tests {
		f, src := parseCorpus(t, tt.file)
		i := bytes.Index(src, []byte(tt.marker))
		if i < 0 {
			t.Fatalf("%s: marker %q not found", tt.file, tt.marker)
		}
		got := ""
		if m := f.MethodAt(i + tt.delta); m != nil {
			got = m.BinaryClassName + "#" + m.Name
		}
		if got != tt.want {
			t.Errorf("%s: MethodAt(%q%+d) = %q, want %q", tt.file, tt.marker, tt.delta, got, tt.want)
		}
	}
}

func TestMethodAtLine(t *testing.T) {
	f, _ := parseCorpus(t, "Shapes.java")
	for line, want := range map[int]string{
		6: "", 7: "Shapes$1#run", 9: "Shapes$1#run", 14: "Shapes$Inner#depth", 16: "Shapes$Inner$1#toString",
		42: "Shapes$3$1#toString", 77: "Shape#unit", 80: "",
	} {
		got := ""
		if m := f.MethodAtLine(line); m != nil {
			got = strings.TrimPrefix(m.BinaryClassName, "org.acme.shapes.") + "#" + m.Name
		}
		if got != want {
			t.Errorf("MethodAtLine(%d) = %q, want %q", line, got, want)
		}
	}
}

func TestMethodAtLineShared(t *testing.T) {
	f, err := Parse([]byte("class A {\n  void a() {\n  } void b() {\n  }\n  void c() {} void d() {}\n}\n"))
	if err != nil {
		t.Fatal(err)
	}
	for line, want := range map[int]string{2: "a", 3: "b", 4: "b", 5: "d", 6: ""} {
		got := ""
		if m := f.MethodAtLine(line); m != nil {
			got = m.Name
		}
		if got != want {
			t.Errorf("MethodAtLine(%d) = %q, want %q", line, got, want)
		}
	}
}

func TestFindMethods(t *testing.T) {
	tests := []struct {
		file, query string
		want        []string // "Binary#name:line"
	}{
		{"Calculator.java", "clamp", []string{"Calculator#clamp:27", "Calculator#clamp:36"}},
		{"Calculator.java", "clamp(int,int,int)", []string{"Calculator#clamp:27"}},
		{"Calculator.java", "clamp( long , long,long )", []string{"Calculator#clamp:36"}},
		{"Calculator.java", "clamp(int x, int lo, int hi)", []string{"Calculator#clamp:27"}},
		{"Calculator.java", "clamp(int,int)", nil},
		{"Calculator.java", "maxOf(List,Comparable[])", nil},
		{"Calculator.java", "maxOf(List<String>, U[])", []string{"Calculator#maxOf:40"}},
		{"Calculator.java", "maxOf(java.util.List,U...)", []string{"Calculator#maxOf:40"}},
		{"Calculator.java", "sum(int...)", []string{"Calculator#sum:50"}},
		{"Calculator.java", "Calculator", []string{"Calculator#Calculator:17", "Calculator#Calculator:21"}},
		{"Calculator.java", "Calculator()", []string{"Calculator#Calculator:17"}},
		{"Calculator.java", "Calculator.clamp(long,long,long)", []string{"Calculator#clamp:36"}},
		{"Calculator.java", "org.acme.calc.Calculator.sum", []string{"Calculator#sum:50"}},
		{"Calculator.java", "Other.sum", nil},
		{"Calculator.java", "nosuch", nil},
		{"Calculator.java", "", nil},
		{"Shapes.java", "toString", []string{"Shapes$Inner$1#toString:15", "Shapes$2#toString:37", "Shapes$3$1#toString:42", "Shapes$4#toString:64"}},
		{"Shapes.java", "Inner.depth", []string{"Shapes$Inner#depth:13"}},
		{"Shapes.java", "Shapes.Inner.depth", []string{"Shapes$Inner#depth:13"}},
		{"Shapes.java", "Shapes$Inner.depth", []string{"Shapes$Inner#depth:13"}},
		{"Shapes.java", "Deeper.deep(int)", []string{"Shapes$Nested$Deeper#deep:29"}},
		{"Shapes.java", "Local.add", []string{"Shapes$2Local#add:58"}},
		{"Shapes.java", "2Local.add", []string{"Shapes$2Local#add:58"}},
		{"Shapes.java", "area", []string{"Shapes#area:35", "Shape#area:71"}},
		{"Shapes.java", "Shape.area", []string{"Shape#area:71"}},
		{"Types.java", "Point", []string{"Point#Point:4", "Point#Point:10"}},
		{"Types.java", "Point(int,int)", []string{"Point#Point:4"}},
		{"Types.java", "Op.Op", []string{"Op#Op:32"}},
		{"Types.java", "apply(int,int)", []string{"Op$1#apply:23", "Op$2#apply:26", "Op#apply:36"}},
		{"Unicode.java", "größe(int)", []string{"Ünïcode#größe:7"}},
	}
	for _, tt := range tests {
		f, _ := parseCorpus(t, tt.file)
		var got []string
		for _, m := range f.FindMethods(tt.query) {
			b := m.BinaryClassName[strings.LastIndexByte(m.BinaryClassName, '.')+1:]
			got = append(got, b+"#"+m.Name+":"+itoa(m.StartLine))
		}
		if !slices.Equal(got, tt.want) {
			t.Errorf("%s: FindMethods(%q) = %v, want %v", tt.file, tt.query, got, tt.want)
		}
	}
}

func TestContext(t *testing.T) {
	f, _ := parseCorpus(t, "Calculator.java")
	m := f.FindMethods("clamp(int,int,int)")[0]
	c := f.Context(m)
	if c.Package != "org.acme.calc" {
		t.Errorf("Package = %q", c.Package)
	}
	wantImports := []string{"java.util.ArrayList", "java.util.List", "java.util.Map", "static java.lang.Math.max", "java.io.*"}
	if !slices.Equal(c.Imports, wantImports) {
		t.Errorf("Imports = %q", c.Imports)
	}
	if c.ClassDeclaration != "public final class Calculator<T extends Number> extends Object implements Comparable<Calculator<T>>" || c.ClassKind != "class" {
		t.Errorf("ClassDeclaration %q kind %q", c.ClassDeclaration, c.ClassKind)
	}
	wantFields := []string{"private int count = 0;", "protected final List<String> log = new ArrayList<>();", "static final Map<String, List<Integer>> CACHE = null;"}
	if !slices.Equal(c.Fields, wantFields) {
		t.Errorf("Fields = %q", c.Fields)
	}
	if !slices.Equal(c.Constructors, []string{"public Calculator()", "Calculator(int start)"}) {
		t.Errorf("Constructors = %q", c.Constructors)
	}
	if len(c.MethodSignatures) != 6 || c.MethodSignatures[0] != "public static int clamp(int x, int lo, int hi)" {
		t.Errorf("MethodSignatures = %q", c.MethodSignatures)
	}
	if c.StartLine != 27 || c.EndLine != 34 || !strings.HasPrefix(c.MethodText, "@Deprecated") {
		t.Errorf("lines %d-%d text %q", c.StartLine, c.EndLine, c.MethodText)
	}
	wantListing := "27:     @Deprecated\n28:     @SuppressWarnings({\"a\", \"b\"})\n29:     public static int clamp(int x, int lo, int hi) {\n" +
		"30:         if (x < lo) {\n31:             return lo;\n32:         }\n33:         return Math.min(x, hi);\n34:     }\n"
	if c.Listing != wantListing {
		t.Errorf("Listing =\n%s\nwant\n%s", c.Listing, wantListing)
	}

	// The innermost class: an anonymous class in a method.
	s, _ := parseCorpus(t, "Shapes.java")
	ac := s.Context(s.FindMethods("hashCode")[0])
	if ac.ClassKind != "anonymous" || ac.ClassDeclaration != "new Object()" || len(ac.MethodSignatures) != 1 || ac.Package != "org.acme.shapes" {
		t.Errorf("anonymous context = %+v", ac)
	}
	ic := s.Context(s.FindMethods("describe")[0])
	if ic.ClassKind != "interface" || ic.ClassDeclaration != "interface Shape" ||
		!slices.Equal(ic.Fields, []string{"double PI_ISH = 3.14;"}) ||
		!slices.Equal(ic.MethodSignatures, []string{"double area()", "default String describe()", "static Shape unit()"}) {
		t.Errorf("interface context = %+v", ic)
	}

	ty, _ := parseCorpus(t, "Types.java")
	rc := ty.Context(ty.FindMethods("manhattan")[0])
	if rc.ClassKind != "record" || rc.ClassDeclaration != "record Point(int x, int y)" ||
		!slices.Equal(rc.Fields, []string{"int x", "int y"}) ||
		!slices.Equal(rc.Constructors, []string{"public Point", "public Point(int x)"}) {
		t.Errorf("record context = %+v", rc)
	}
	ec := ty.Context(ty.FindMethods("Op.symbol")[0])
	if ec.ClassKind != "enum" || !slices.Equal(ec.Fields, []string{`PLUS("+")`, `MINUS("-")`, `TIMES("*")`, "private final String symbol;"}) {
		t.Errorf("enum context = %+v", ec)
	}
	cc := ty.Context(ty.FindMethods("Op$1.apply")[0])
	if cc.ClassKind != "anonymous" || cc.ClassDeclaration != `PLUS("+")` {
		t.Errorf("enum constant body context = %+v", cc)
	}

	// CRLF: the listing has no \r.
	cr, _ := parseCorpus(t, "Crlf.java")
	crc := cr.Context(cr.FindMethods("second")[0])
	if crc.Listing != "8:     @Deprecated\n9:     public int second(int b) {\n10:         return b - 1;\n11:     }\n" {
		t.Errorf("CRLF listing = %q", crc.Listing)
	}
	if f.Context(nil) != nil {
		t.Error("Context(nil) != nil")
	}
}

func TestContextOfStaleMethod(t *testing.T) {
	f, _ := parseCorpus(t, "Calculator.java")
	m := f.FindMethods("sum")[0]
	if err := f.ApplyEdits(Edit{StartByte: 0, OldEndByte: 0, NewText: []byte("// header\n")}); err != nil {
		t.Fatal(err)
	}
	c := f.Context(m)
	if c == nil || c.StartLine != m.StartLine+1 {
		t.Fatalf("Context(stale) = %+v", c)
	}
	if err := f.ApplyEdits(Edit{StartByte: m.NameStartByte + 10, OldEndByte: m.NameEndByte + 10, NewText: []byte("total")}); err != nil {
		t.Fatal(err)
	}
	if c := f.Context(m); c != nil {
		t.Errorf("Context of a renamed method = %+v, want nil", c)
	}
}

func TestSyntaxErrors(t *testing.T) {
	f, _ := parseCorpus(t, "Broken.java")
	errs := f.SyntaxErrors()
	if len(errs) == 0 {
		t.Fatal("no syntax errors in Broken.java")
	}
	var lines []int
	for _, e := range errs {
		lines = append(lines, e.Line)
		if e.Message == "" || e.Column < 1 {
			t.Errorf("bad error %+v", e)
		}
	}
	if !slices.Contains(lines, 9) && !slices.Contains(lines, 10) {
		t.Errorf("errors on lines %v, want 9 or 10: %v", lines, errs)
	}
	var missingSemi bool
	for _, e := range errs {
		if e.Message == "missing `;`" && e.Line == 10 && e.Column == 17 {
			missingSemi = true
		}
	}
	if !missingSemi {
		t.Errorf("no `missing ;` at 10:17 in %v", errs)
	}
	clean, _ := parseCorpus(t, "Calculator.java")
	if errs := clean.SyntaxErrors(); len(errs) != 0 {
		t.Errorf("Calculator.java: %v", errs)
	}
	g, err := Parse([]byte("class A { void f() { int x = 1 } @@@ }"))
	if err != nil {
		t.Fatal(err)
	}
	got := g.SyntaxErrors()
	if len(got) == 0 || !strings.HasPrefix(got[len(got)-1].Message, "unexpected `@") && !strings.HasPrefix(got[0].Message, "missing") {
		t.Errorf("SyntaxErrors = %v", got)
	}
}

// indexByQuery is the index as the declaration query alone builds it: the
// reference the faster walk of buildIndex must agree with.
func indexByQuery(f *File) *index {
	s := f.cur.Load()
	x := &indexer{src: s.src, lines: s.lineMap(), ix: &index{}}
	s.treeMu.Lock()
	defer s.treeMu.Unlock()
	x.query(s.tree.RootNode(), nil)
	slices.SortStableFunc(x.ix.methods, func(a, b *Method) int { return a.StartByte - b.StartByte })
	return x.ix
}

func TestWalkAgreesWithQuery(t *testing.T) {
	for _, name := range []string{"Calculator.java", "Shapes.java", "Types.java", "Unicode.java", "Crlf.java", "Broken.java", "Nesting.java"} {
		f, _ := parseCorpus(t, name)
		compareWithQuery(t, name, f)
	}
	f, err := Parse(generateJava(800))
	if err != nil {
		t.Fatal(err)
	}
	compareWithQuery(t, "generated", f)
}

func compareWithQuery(t *testing.T, name string, f *File) {
	t.Helper()
	walk := f.cur.Load().getIndex()
	ref := indexByQuery(f)
	if a, b := describeMethods(walk.methods), describeMethods(ref.methods); !slices.Equal(a, b) {
		t.Errorf("%s: the walk found\n%s\nthe query\n%s", name, strings.Join(a, "\n"), strings.Join(b, "\n"))
	}
	if walk.pkg != ref.pkg || !slices.Equal(walk.imports, ref.imports) {
		t.Errorf("%s: package/imports %q %q vs %q %q", name, walk.pkg, walk.imports, ref.pkg, ref.imports)
	}
	if len(walk.classes) != len(ref.classes) {
		t.Errorf("%s: %d classes vs %d", name, len(walk.classes), len(ref.classes))
		return
	}
	for i, c := range walk.classes {
		r := ref.classes[i]
		if strings.Join(c.path, "$") != strings.Join(r.path, "$") || c.kind != r.kind || c.declaration != r.declaration ||
			!slices.Equal(c.fields, r.fields) || !slices.Equal(c.ctors, r.ctors) || !slices.Equal(c.methodSigs, r.methodSigs) {
			t.Errorf("%s: class %d differs:\nwalk  %+v\nquery %+v", name, i, c, r)
		}
	}
}
