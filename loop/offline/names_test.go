package offline

import (
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/advertest/advertest-lsp/javaparse"
)

const namesSrc = `package org.acme;

public class Prices {
    public static int bulkPrice(int unitCents, int count, int everyNthFree) { return 0; }
    public static String abbreviate(String str, int maxWidth) { return str; }
    public int total(String sku) { return 0; }
    public static boolean isValidUsername(String name) { return false; }
}
`

func namesMethod(t *testing.T, name string) *javaparse.Method {
	t.Helper()
	f, err := javaparse.Parse([]byte(namesSrc))
	if err != nil {
		t.Fatal(err)
	}
	return f.FindMethods(name)[0]
}

// rawValue finds a raw value of an input in a name: a digit, a sign word, or an argument's
// string of two or more letters.
func rawValue(name, method string, rec *record) string {
	rest := strings.TrimPrefix(name, method)
	if d := regexp.MustCompile(`[0-9]+|Minus|Point`).FindString(rest); d != "" {
		return d
	}
	for _, a := range append(append([]string{}, rec.Args...), rec.Setup...) {
		for _, q := range regexp.MustCompile(`"([^"]{2,})"`).FindAllStringSubmatch(a, -1) {
			if w := camelWords(q[1]); w != "" && strings.Contains(rest, w) {
				return w
			}
		}
	}
	return ""
}

// renderBatch renders one class's tests as the agent does (render, then uniqueNames).
func renderBatch(t *testing.T, method string, hdr header, lines []string, ems []emphasis) ([]rendered, []*record) {
	t.Helper()
	r := newRenderer(5, namesMethod(t, method), hdr, 1000)
	var ts []rendered
	var recs []*record
	for i, l := range lines {
		rec := recordOf(t, l)
		recs = append(recs, rec)
		ts = append(ts, r.test(rec, ems[i]))
	}
	uniqueNames(ts)
	return ts, recs
}

// Names say the method, the outcome and the deciding fact of the input, never its values; they
// are unique within the class, at most 60 characters, and the same when rendered again.
func TestBehaviourNames(t *testing.T) {
	ret := func(args string, v string) string {
		return `{"i":0,"args":[` + args + `],"out":{"k":"ret","ret":{"k":"prim","v":"` + v + `","t":"int"}}}`
	}
	bulk := []string{
		ret(`"5","0","3"`, "0"),
		// the bulkPriceReturnsMinus122575114ForUnitCents1820250139Count66EveryNthFreeMinus2147483648
		ret(`"-122575114","1820250139","Integer.MIN_VALUE"`, "-122575114"),
		ret(`"2","2","0"`, "4"),
		ret(`"3","2","0"`, "6"),
		ret(`"3","2","0"`, "6"), // the same facts again: an ordinal word
		`{"i":5,"args":["1","Integer.MAX_VALUE","1"],"out":{"k":"throw","x":"java.lang.ArithmeticException"}}`,
	}
	ems := make([]emphasis, len(bulk))
	hdr := header{ReturnType: "int", ClassRef: "Prices", DeclTypes: []string{"int", "int", "int"}}
	first, recs := renderBatch(t, "bulkPrice", hdr, bulk, ems)
	again, _ := renderBatch(t, "bulkPrice", hdr, bulk, ems)
	want := map[int]string{
		0: "bulkPriceReturnsZeroWhenCountIsZero",
		1: "bulkPriceReturnsUnitCentsWhenEveryNthFreeIsMin",
		// the fact they share (EveryNthFreeIsZero) is swapped for one that tells them apart:
		// with both, the name would pass 60 characters
		2: "bulkPriceReturnsPositiveWhenUnitCentsEqualsCount",
		3: "bulkPriceReturnsPositiveWhenUnitCentsAboveCount",
		5: "bulkPriceThrowsArithmeticWhenCountIsMax",
	}
	seen := map[string]bool{}
	for i, tc := range first {
		n := tc.name
		t.Logf("%s", n)
		if w := want[i]; w != "" && n != w {
			t.Errorf("test %d named %s, want %s", i, n, w)
		}
		if len(n) > maxNameLen {
			t.Errorf("%s: %d characters", n, len(n))
		}
		if raw := rawValue(n, "bulkPrice", recs[i]); raw != "" {
			t.Errorf("%s holds the raw value %s", n, raw)
		}
		if seen[n] {
			t.Errorf("two tests named %s", n)
		}
		seen[n] = true
		if !strings.Contains(tc.source, " "+n+"() {") {
			t.Errorf("the source does not declare %s:\n%s", n, tc.source)
		}
		if again[i].name != n {
			t.Errorf("rendered again, %s is named %s", n, again[i].name)
		}
	}
	if !strings.HasSuffix(first[4].name, "Second") {
		t.Errorf("the test with the same facts as another is %s, want an ordinal word", first[4].name)
	}

	// strings, a receiver's history, and a name cut to its limit
	abbrev := []string{
		`{"i":0,"args":["\"\"","4"],"out":{"k":"ret","ret":{"k":"string","v":"\"\""}}}`,
		`{"i":1,"args":["\"abcdefg\"","3"],"out":{"k":"throw","x":"java.lang.IllegalArgumentException"}}`,
		`{"i":2,"args":["\"abcdefg\"","Integer.MAX_VALUE"],"out":{"k":"ret","ret":{"k":"string","v":"\"abcdefg\""}}}`,
		`{"i":3,"args":["null","4"],"out":{"k":"ret","ret":{"k":"null"}}}`,
	}
	hdr = header{ReturnType: "String", ClassRef: "Prices", DeclTypes: []string{"String", "int"}}
	ts, recs := renderBatch(t, "abbreviate", hdr, abbrev, make([]emphasis, len(abbrev)))
	for i, w := range []string{"abbreviateReturnsStrWhenStrIsEmpty", "abbreviateThrowsIllegalArgumentWhenMaxWidthIsPositive",
		"abbreviateReturnsStrWhenMaxWidthIsMax", "abbreviateReturnsNullWhenStrIsNull"} {
		if ts[i].name != w && !(i == 0 && ts[i].name == "abbreviateReturnsEmptyWhenStrIsEmpty") {
			t.Errorf("test %d named %s, want %s", i, ts[i].name, w)
		}
		if raw := rawValue(ts[i].name, "abbreviate", recs[i]); raw != "" {
			t.Errorf("%s holds the raw value %s", ts[i].name, raw)
		}
	}
	total := []string{
		`{"i":0,"args":["\"apple\""],"recv":"new Prices()","setup":["addItem(\"apple\", 5000)","addItem(\"pear\", 1)"],"out":{"k":"ret","ret":{"k":"prim","v":"5001","t":"int"}}}`,
		`{"i":1,"args":["\"apple\""],"recv":"new Prices()","setup":[],"out":{"k":"ret","ret":{"k":"prim","v":"5001","t":"int"}}}`,
	}
	hdr = header{ReturnType: "int", ClassRef: "Prices", ReceiverType: "Prices", DeclTypes: []string{"String"}}
	ts, recs = renderBatch(t, "total", hdr, total, make([]emphasis, len(total)))
	for i, w := range []string{"totalReturnsPositiveAfterAddItemTwice", "totalReturnsPositiveOnNewPrices"} {
		if ts[i].name != w {
			t.Errorf("test %d named %s, want %s", i, ts[i].name, w)
		}
		if raw := rawValue(ts[i].name, "total", recs[i]); raw != "" {
			t.Errorf("%s holds the raw value %s", ts[i].name, raw)
		}
	}
}

// Strings that differ only in their characters' classes, as a validator's inputs do, are
// named by the class that tells them apart, not by an ordinal word.
func TestNamesSayTheCharacterClass(t *testing.T) {
	ret := func(arg, v string) string {
		return `{"i":0,"args":["\"` + arg + `\""],"out":{"k":"ret","ret":{"k":"bool","v":"` + v + `"}}}`
	}
	inputs := []string{ret("a_b", "true"), ret("_a_", "false"), ret("1ab", "false"), ret("a b", "false"), ret("Ab1", "true")}
	hdr := header{ReturnType: "boolean", ClassRef: "Validators", DeclTypes: []string{"String"}}
	ts, recs := renderBatch(t, "isValidUsername", hdr, inputs, make([]emphasis, len(inputs)))
	want := []string{"isValidUsernameReturnsTrueWhenNameHasSymbol", "isValidUsernameReturnsFalseWhenNameStartsWithSymbol",
		"isValidUsernameReturnsFalseWhenNameStartsWithDigit", "isValidUsernameReturnsFalseWhenNameHasWhitespace",
		"isValidUsernameReturnsTrueWhenNameStartsWithUpperCase"}
	for i, w := range want {
		if ts[i].name != w {
			t.Errorf("test %d named %s, want %s", i, ts[i].name, w)
		}
		if raw := rawValue(ts[i].name, "isValidUsername", recs[i]); raw != "" {
			t.Errorf("%s holds the raw value %s", ts[i].name, raw)
		}
	}
}

// A long method name and many facts still give names of at most 60 characters, told apart.
func TestBehaviourNamesFitTheLimit(t *testing.T) {
	long := &javaparse.Method{Name: "computeTheDiscountedBulkPriceForAVeryLongCustomerName",
		Params: []javaparse.Param{{Name: "unitCents"}, {Name: "count"}}}
	r := newRenderer(5, long, header{ReturnType: "int", ClassRef: "Prices"}, 1000)
	var ts []rendered
	for _, l := range []string{
		`{"i":0,"args":["0","0"],"out":{"k":"ret","ret":{"k":"prim","v":"0","t":"int"}}}`,
		`{"i":1,"args":["0","-1"],"out":{"k":"ret","ret":{"k":"prim","v":"0","t":"int"}}}`,
		`{"i":2,"args":["0","-2"],"out":{"k":"ret","ret":{"k":"prim","v":"0","t":"int"}}}`,
	} {
		ts = append(ts, r.test(recordOf(t, l), emphasis{}))
	}
	uniqueNames(ts)
	seen := map[string]bool{}
	for _, tc := range ts {
		if len(tc.name) > maxNameLen || seen[tc.name] {
			t.Errorf("%s: %d characters, or named twice", tc.name, len(tc.name))
		}
		seen[tc.name] = true
		if !strings.Contains(tc.source, " "+tc.name+"() {") {
			t.Errorf("the source does not declare %s", tc.name)
		}
	}
}

// TestNamesSayTheBehaviour: the initial suites of the calculator's methods, written by two
// agents that share no cache (two explorations with the same seed), name their tests alike, by
// behaviour: at most 60 characters, no raw value of the test's input, none named twice.
func TestNamesSayTheBehaviour(t *testing.T) {
	proj, file := calculator(t)
	var runs [2][]string
	for i := range runs {
		a := newAgent(t, proj) // no shared cache
		for _, method := range []string{"bulkPrice", "clamp", "shipping"} {
			s := subject(t, proj, file, method)
			tests, err := a.InitialSuite(testCtx(t), s)
			if err != nil || len(tests) == 0 {
				t.Fatalf("%s: %v, %d tests", method, err, len(tests))
			}
			seen := map[string]bool{}
			for _, tc := range tests {
				rec := &record{Args: regexp.MustCompile(`"(?:[^"\\]|\\.)*"`).FindAllString(tc.Source, -1)}
				if raw := rawValue(tc.Name, method, rec); raw != "" || len(tc.Name) > maxNameLen || seen[tc.Name] {
					t.Errorf("%s: %d characters, raw value %q, or named twice", tc.Name, len(tc.Name), raw)
				}
				seen[tc.Name] = true
				runs[i] = append(runs[i], tc.Name)
			}
		}
	}
	if !slices.Equal(runs[0], runs[1]) {
		t.Fatalf("two runs name their tests differently:\n%s\n----\n%s", strings.Join(runs[0], "\n"), strings.Join(runs[1], "\n"))
	}
	t.Logf("names:\n%s", strings.Join(runs[0], "\n"))
}

// The facts of the explorer's argument expressions (docs/explorer.md's `args`).
func TestClassifyArguments(t *testing.T) {
	for _, c := range []struct{ expr, token, want string }{
		{"null", "Null", "XIsNull"},
		{`""`, "Empty", "XIsEmpty"},
		{`"  "`, "Blank", "XIsBlank"},
		{`new StringBuilder("")`, "BuilderEmpty", "XIsEmpty"},
		{"(short) (-3)", "Minus3", "XIsNegative"},
		{"0L", "0", "XIsZero"},
		{"Integer.MAX_VALUE", "2147483647", "XIsMax"},
		{"Double.NaN", "NaN", "XIsNaN"},
		{"new int[]{}", "EmptyArray", "XIsEmpty"},
		{"new String[]{\"a,b\"}", "ArrayOf1", "XHasOneElement"},
		{`new ArrayList<>(Arrays.asList("a,b", "c"))`, "ListOf2", ""},
		{"Collections.emptyList()", "Empty", "XIsEmpty"},
		{"Locale.ROOT", "Root", "XIsRoot"},
		{"x -> x", "IdentityLambda", "XIsIdentityLambda"},
		{"'7'", "Char", "XIsDigit"},
		{`"abc"`, "Abc", ""},
		{`"1ab"`, "1ab", "XStartsWithDigit"},
		{`"_a_"`, "A", "XStartsWithSymbol"},
		{`"a b"`, "AB", "XHasWhitespace"},
		{`"aB"`, "AB", "XHasUpperCase"},
		{`"ab-"`, "Ab", "XHasSymbol"},
	} {
		var got string
		if fs := classify(c.expr, c.token).facts("X"); len(fs) > 0 {
			got = fs[0].words
		}
		if got != c.want {
			t.Errorf("classify(%s) = %q, want %q", c.expr, got, c.want)
		}
	}
	if n := classify(`new ArrayList<>(Arrays.asList("a,b", "c"))`, "").size; n != 2 {
		t.Errorf("a list of two strings, one with a comma, has %d elements", n)
	}
}
