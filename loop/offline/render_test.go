package offline

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/advertest/advertest-lsp/javaparse"
)

const renderSrc = `package org.acme;

public class Box {
    public static Integer boxed(int x) { return x; }
    public void put(int[] xs) { }
    public static int halve(int x) throws java.io.IOException { return x / 2; }
    public static Node last(Node start, java.util.List<Node> a) { return start; }
}
`

func parsedMethod(t *testing.T, name string) *javaparse.Method {
	t.Helper()
	f, err := javaparse.Parse([]byte(renderSrc))
	if err != nil {
		t.Fatal(err)
	}
	ms := f.FindMethods(name)
	if len(ms) != 1 {
		t.Fatalf("FindMethods(%s) = %d", name, len(ms))
	}
	return ms[0]
}

func recordOf(t *testing.T, line string) *record {
	t.Helper()
	r := &record{}
	if err := json.Unmarshal([]byte(line), r); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(r.Out, &r.outcome); err != nil {
		t.Fatal(err)
	}
	return r
}

// The JUnit 4 and 5 forms of the assertions, checked as text (the JVM tests compile them).
func TestRenderForms(t *testing.T) {
	cases := []struct {
		name   string
		junit  int
		method string
		hdr    header
		line   string
		em     emphasis
		want   []string
		never  []string
	}{
		{
			name: "boxed result avoids JUnit 4's ambiguous assertEquals", junit: 4, method: "boxed",
			hdr:  header{ReturnType: "Integer", ClassRef: "Box"},
			line: `{"i":0,"args":["5"],"tokens":["5"],"out":{"k":"ret","ret":{"k":"prim","v":"5","t":"int"}}}`,
			want: []string{"public void boxedReturnsXWhenXIsPositive() {", "int result = Box.boxed(5);", "assertEquals(5, result);"},
		},
		{
			name: "null result", junit: 5, method: "boxed",
			hdr:  header{ReturnType: "Integer", ClassRef: "Box"},
			line: `{"i":0,"args":["5"],"tokens":["5"],"out":{"k":"ret","ret":{"k":"null"}}}`,
			want: []string{"Integer result = Box.boxed(5);", "assertNull(result);"},
		},
		{
			name: "JUnit 4 exception uses expected", junit: 4, method: "halve",
			hdr:  header{ReturnType: "int", ClassRef: "Box"},
			line: `{"i":0,"args":["-1"],"tokens":["Minus1"],"out":{"k":"throw","x":"IllegalStateException"}}`,
			want: []string{"@Test(expected = IllegalStateException.class)", "halveThrowsIllegalStateWhenXIsNegative() throws Exception {", "Box.halve(-1);"},
		},
		{
			name: "a graph built in the Arrange step, the result asserted by identity", junit: 5, method: "last",
			em:  emphasis{afterArgs: []int{1}},
			hdr: header{ReturnType: "Node", ClassRef: "Box", DeclTypes: []string{"Node", "List<Node>"}},
			line: `{"i":3,"args":["a","new ArrayList<>(Arrays.asList(a, b, c))"],"tokens":["A","ListOf3"],` +
				`"graph":["// a chain: a -> b, b -> c","Node a = new Node(\"a\");","Node b = new Node(\"b\");","Node c = new Node(\"c\");","a.connect(b);","b.connect(c);"],` +
				`"graphToken":"Chain","out":{"k":"ret","ret":{"k":"same","v":"c"},"after":[{"a":1,"r":{"k":"equals","v":"Arrays.asList(a, b, c)"}}]}}`,
			want: []string{"void lastReturnsNodeCInChain() {", "        // Arrange\n        // a chain: a -> b, b -> c\n        Node a = new Node(\"a\");",
				"a.connect(b);\n        b.connect(c);\n        List<Node> aArg = new ArrayList<>(Arrays.asList(a, b, c));",
				"Node result = Box.last(a, aArg);", "assertSame(c, result);", "assertEquals(Arrays.asList(a, b, c), aArg);"},
		},
		{
			name: "JUnit 4 time limit", junit: 4, method: "halve", em: emphasis{timeout: true},
			hdr:  header{ReturnType: "int", ClassRef: "Box"},
			line: `{"i":0,"args":["4"],"tokens":["4"],"out":{"k":"ret","ret":{"k":"prim","v":"2","t":"int"}}}`,
			want: []string{"@Test(timeout = 1000)", "assertEquals(2, result);"},
		},
		{
			name: "JUnit 4 exception and state", junit: 4, method: "put", em: emphasis{state: []string{"size()"}},
			hdr:  header{ReturnType: "void", ClassRef: "Box", ReceiverType: "Box"},
			line: `{"i":0,"args":["null"],"tokens":["Null"],"recv":"new Box()","setup":[],"out":{"k":"throw","x":"NullPointerException","state":[{"m":"size()","st":"java.lang.Integer","r":{"k":"prim","v":"0","t":"int"}}]}}`,
			want: []string{"Box box = new Box();", "fail(\"expected NullPointerException\");", "} catch (NullPointerException expected) {", "assertEquals(Integer.valueOf(0), box.size());"},
		},
		{
			name: "array argument changed in place", junit: 5, method: "put", em: emphasis{afterArgs: []int{0}},
			hdr:  header{ReturnType: "void", ClassRef: "Box", ReceiverType: "Box", DeclTypes: []string{"int[]"}},
			line: `{"i":0,"args":["new int[]{1}"],"tokens":["ArrayOf1"],"recv":"new Box()","setup":["put(new int[]{})"],"recvToken":"PutEmptyArray","out":{"k":"ret","ret":{"k":"void"},"after":[{"a":0,"r":{"k":"array","v":"new int[]{2}"}}]}}`,
			want: []string{"void putUpdatesXsWhenXsHasOneElement() {", "int[] xs = new int[]{1};", "box.put(new int[]{});", "box.put(xs);", "assertArrayEquals(new int[]{2}, xs);"},
		},
		{
			name: "doubles get a delta", junit: 5, method: "halve",
			hdr:  header{ReturnType: "double", ClassRef: "Box"},
			line: `{"i":0,"args":["1"],"tokens":["1"],"out":{"k":"ret","ret":{"k":"double","v":"0.5"}}}`,
			want: []string{"double result = Box.halve(1);", "assertEquals(0.5, result, 1e-9);", "halveReturnsPositiveWhenXIsOne"},
		},
		{
			name: "a large result is asserted by its size", junit: 5, method: "boxed",
			hdr:  header{ReturnType: "List<String>", ClassRef: "Box"},
			line: `{"i":0,"args":["10"],"tokens":["10"],"out":{"k":"ret","ret":{"k":"big","v":"59049","via":"size()","x":"1f2e"}}}`,
			want: []string{"List<String> result = Box.boxed(10);", "assertEquals(59049, result.size());"},
		},
		{
			name: "an unstable result is not asserted, the state is", junit: 5, method: "put", em: emphasis{allState: true},
			hdr:  header{ReturnType: "long", ClassRef: "Box", ReceiverType: "Box"},
			line: `{"i":0,"args":["null"],"tokens":["Null"],"recv":"new Box()","setup":[],"out":{"k":"ret","ret":{"k":"unstable"},"state":[{"m":"size()","st":"int","r":{"k":"prim","v":"1","t":"int"}}]}}`,
			want: []string{"        box.put(null);\n", "assertEquals(1, box.size());"},
		},
		{
			name: "a receiver's private field is never read (no reflection)", junit: 5, method: "put", em: emphasis{allState: true},
			hdr:   header{ReturnType: "void", ClassRef: "Box", ReceiverType: "Box"},
			line:  `{"i":0,"args":["null"],"tokens":["Null"],"recv":"new Box()","setup":[],"out":{"k":"ret","ret":{"k":"void"},"state":[{"m":"field:count","st":"int","d":"Box","r":{"k":"prim","v":"2","t":"int"}},{"m":"size()","st":"int","r":{"k":"prim","v":"1","t":"int"}}]}}`,
			want:  []string{"void putRunsWhenXsIsNull() {", "assertEquals(1, box.size());"},
			never: []string{"getDeclaredField", "setAccessible", "countField", "throws Exception"},
		},
		{
			name: "a returned object's private fields are not asserted, its accessible ones are read", junit: 5, method: "boxed",
			hdr: header{ReturnType: "Span", ClassRef: "Box"},
			line: `{"i":0,"args":["1"],"tokens":["1"],"out":{"k":"ret","ret":{"k":"object","obs":[` +
				`{"m":"field:longest","st":"int","d":"Span","r":{"k":"prim","v":"0","t":"int"}},` +
				`{"m":"field:lo","st":"int","d":"Span","acc":true,"r":{"k":"prim","v":"3","t":"int"}},` +
				`{"m":"field:hi","st":"int","d":"Range","acc":true,"r":{"k":"prim","v":"4","t":"int"}}]}}}`,
			want:  []string{"Span result = Box.boxed(1);", "assertEquals(3, result.lo);", "assertEquals(4, ((Range) result).hi);"},
			never: []string{"field:", "longest", "getDeclaredField"},
		},
		{
			name: "a returned object with only private fields is asserted not null", junit: 5, method: "boxed",
			hdr:   header{ReturnType: "Span", ClassRef: "Box"},
			line:  `{"i":0,"args":["1"],"tokens":["1"],"out":{"k":"ret","ret":{"k":"object","obs":[{"m":"field:longest","st":"int","d":"Span","r":{"k":"prim","v":"0","t":"int"}}]}}}`,
			want:  []string{"assertNotNull(result);"},
			never: []string{"field:", "longest"},
		},
		{
			name: "a receiver's accessible field is read directly", junit: 5, method: "put", em: emphasis{allState: true},
			hdr:   header{ReturnType: "void", ClassRef: "Box", ReceiverType: "Box"},
			line:  `{"i":0,"args":["null"],"tokens":["Null"],"recv":"new Box()","setup":[],"out":{"k":"ret","ret":{"k":"void"},"state":[{"m":"field:count","st":"int","d":"Box","acc":true,"r":{"k":"prim","v":"2","t":"int"}}]}}`,
			want:  []string{"void putRunsWhenXsIsNull() {", "assertEquals(2, box.count);"},
			never: []string{"getDeclaredField", "throws Exception"},
		},
		{
			name: "a null argument of an overloaded method has a cast", junit: 5, method: "put",
			hdr:  header{ReturnType: "void", ClassRef: "Box", ReceiverType: "Box", DeclTypes: []string{"int[]"}, Overloaded: true},
			line: `{"i":0,"args":["null"],"tokens":["Null"],"recv":"new Box()","setup":[],"out":{"k":"throw","x":"NullPointerException"}}`,
			want: []string{"box.put((int[]) null)"},
		},
		{
			name: "a null argument of an overloaded generic parameter is cast to its erasure", junit: 5, method: "last",
			hdr:  header{ReturnType: "Node", ClassRef: "Box", DeclTypes: []string{"T", "List<Map<K, T>>"}, Overloaded: true},
			line: `{"i":0,"args":["null","null"],"tokens":["Null","Null"],"out":{"k":"throw","x":"NullPointerException"}}`,
			want: []string{"Box.last(null, (List) null)"},
		},
		{
			name: "a null argument of a method without overloads has none", junit: 5, method: "put",
			hdr:   header{ReturnType: "void", ClassRef: "Box", ReceiverType: "Box", DeclTypes: []string{"int[]"}},
			line:  `{"i":0,"args":["null"],"tokens":["Null"],"recv":"new Box()","setup":[],"out":{"k":"throw","x":"NullPointerException"}}`,
			want:  []string{"box.put(null)"},
			never: []string{"(int[]) null"},
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := newRenderer(c.junit, parsedMethod(t, c.method), c.hdr, 1000)
			got := r.test(recordOf(t, c.line), c.em)
			for _, w := range c.want {
				if !strings.Contains(got.source, w) {
					t.Errorf("missing %q in\n%s", w, got.source)
				}
			}
			for _, w := range c.never {
				if strings.Contains(got.source, w) {
					t.Errorf("%q in\n%s", w, got.source)
				}
			}
			prefix := "static org.junit.jupiter.api.Assertions."
			if c.junit == 4 {
				prefix = "static org.junit.Assert."
			}
			for _, i := range got.imports {
				if strings.HasPrefix(i, "static ") && !strings.HasPrefix(i, prefix) {
					t.Errorf("import %s is not JUnit %d's", i, c.junit)
				}
			}
		})
	}
}

func TestScanLiterals(t *testing.T) {
	src := []byte(`class A {
    int f(int x) { return x > 5_000 ? 0x10 : x + 'c' + "s\n".length() + (int) 2.5; }
    int g() { return 77; }
}`)
	f, err := javaparse.Parse(src)
	if err != nil {
		t.Fatal(err)
	}
	m := f.FindMethods("f")[0]
	lits := scanLiterals(f, m.StartByte, m.EndByte)
	if len(lits.ints) != 2 || lits.ints[0] != 5000 || lits.ints[1] != 16 {
		t.Errorf("ints = %v", lits.ints)
	}
	if len(lits.doubles) != 1 || lits.doubles[0] != 2.5 || lits.chars != "c" || len(lits.strings) != 1 || lits.strings[0] != "s\n" {
		t.Errorf("literals = %+v", lits)
	}
}
