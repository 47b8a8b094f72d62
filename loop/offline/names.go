package offline

import (
	"slices"
	"strings"
	"unicode"

	"github.com/advertest/advertest-lsp/javaparse"
)

// maxNameLen bounds a test's name (issue 32: a name says the behaviour, not the values).
const maxNameLen = 60

// testName is a test's name in parts: the head says the method and its outcome
// (bulkPriceReturnsZero, abbreviateThrowsIllegalArgument, shippingUpdatesTotal), conds the facts
// of the input that may have decided it, most telling first (conditions.go). A test rendered
// alone is named by the head and its first condition that fits; uniqueNames renames the tests
// of a class by the condition fewest tests with another outcome share, and adds more where two
// tests would share a name.
type testName struct {
	head  string
	conds []condition
}

// name derives the test's name from the method, the original's outcome and the facts of the
// input, never from the input's raw values: clampReturnsLoWhenValueBelowLo,
// bulkPriceReturnsZeroWhenCountIsZero, removeThrowsIllegalStateWhenQtyIsNegative.
func (r *renderer) name(rec *record, em emphasis) testName {
	m := r.method
	base := m.Name
	if m.Kind == javaparse.KindConstructor {
		base = lowerCamel(m.Name)
	}
	var b strings.Builder
	b.WriteString(base)
	out := rec.outcome
	switch {
	case out.K == "throw":
		x := lastDot(out.X)
		if t := strings.TrimSuffix(x, "Exception"); t != "" {
			x = t
		}
		b.WriteString("Throws" + x)
	case len(em.state) > 0:
		obs := em.state[0]
		if i := strings.IndexByte(obs, '('); i >= 0 {
			obs = obs[:i] // quantity("b") → Quantity: arguments are no part of a name
		}
		verb := "Updates"
		if m.Kind == javaparse.KindConstructor {
			verb = "Sets"
		}
		b.WriteString(verb + capitalize(stripAccessor(strings.TrimPrefix(obs, fieldPrefix))))
	case out.Ret == nil || out.Ret.K == "void" || out.Ret.K == unstableResult:
		if len(em.afterArgs) > 0 && em.afterArgs[0] < len(m.Params) {
			b.WriteString("Updates" + capitalize(m.Params[em.afterArgs[0]].Name))
		} else {
			b.WriteString("Runs")
		}
	case m.Kind == javaparse.KindConstructor:
		b.WriteString("IsCreated")
	default:
		b.WriteString("Returns" + r.resultWord(*out.Ret, rec))
	}
	if em.timeout {
		b.WriteString("InTime")
	}
	return testName{head: sanitizeName(b.String()), conds: r.conditions(rec)}
}

// compose writes the name with the conditions use picks: the head, the arguments' facts after
// "When" joined by "And", then the others (InCycle, AfterAddItem).
func (n testName) compose(use []bool) string {
	var b strings.Builder
	b.WriteString(n.head)
	when := false
	for i, c := range n.conds {
		if i < len(use) && use[i] && c.arg {
			if when {
				b.WriteString("And")
			} else {
				b.WriteString("When")
				when = true
			}
			b.WriteString(c.words)
		}
	}
	for i, c := range n.conds {
		if i < len(use) && use[i] && !c.arg {
			b.WriteString(c.words)
		}
	}
	s := b.String()
	if len(s) > maxNameLen {
		s = s[:maxNameLen]
	}
	return s
}

// first is the name with the most telling condition that fits whole.
func (n testName) first() (string, []bool) {
	use := make([]bool, len(n.conds))
	for i := range n.conds {
		use[i] = true
		if fits(n, use) {
			break
		}
		use[i] = false
	}
	return n.compose(use), use
}

// fits says the name with use is whole (not cut at maxNameLen).
func fits(n testName, use []bool) bool {
	var l int
	when := false
	l = len(n.head)
	for i, c := range n.conds {
		if use[i] {
			l += len(c.words)
			if c.arg {
				if when {
					l += len("And")
				} else {
					l += len("When")
					when = true
				}
			}
		}
	}
	return l <= maxNameLen
}

// resultWord names a returned value by what it is, not by its text: the parameter it equals
// (clampReturnsLo), Zero, Negative, Positive, Max, Null, True, Empty, Text, an enum constant.
func (r *renderer) resultWord(v value, rec *record) string {
	switch v.K {
	case "prim", "double", "float", "string":
		ret := classify(v.V, "")
		if ret.char {
			return "Char"
		}
		match := -1
		for i, a := range rec.Args {
			f := classify(a, "")
			same := ret.num && f.num && ret.special == f.special && ret.n == f.n && (ret.n != 0 || ret.special != "")
			same = same || ret.str && f.str && ret.s == f.s && ret.s != ""
			if same {
				if match >= 0 {
					match = -2 // several: the value's kind says more
					break
				}
				match = i
			}
		}
		if match >= 0 {
			return r.paramWord(match)
		}
		if ret.str {
			if ret.s == "" {
				return "Empty"
			}
			return "Text"
		}
		if c := ret.facts(""); len(c) > 0 && ret.num {
			return strings.TrimPrefix(c[0].words, "Is")
		}
		return "Number"
	case "same":
		return "Node" + capitalize(v.V)
	case "big":
		return "LargeValue"
	}
	return valueToken(v)
}

func stripAccessor(m string) string {
	for _, p := range []string{"get", "is", "has"} {
		if strings.HasPrefix(m, p) && len(m) > len(p) && unicode.IsUpper(rune(m[len(p)])) {
			return m[len(p):]
		}
	}
	return m
}

// valueToken names a returned value of the kinds resultWord leaves to it by what it is: Null,
// True, an enum constant, EmptyArray, Array, Empty, Set, List, Object.
func valueToken(v value) string {
	switch v.K {
	case "null":
		return "Null"
	case "bool":
		return capitalize(v.V)
	case "enum":
		return camelWords(strings.ToLower(lastDot(v.V)))
	case "array", "darray", "farray":
		if strings.HasSuffix(v.V, "{}") {
			return "EmptyArray"
		}
		return "Array"
	case "equals":
		if strings.HasPrefix(v.V, "Collections.empty") {
			return "Empty"
		}
		if strings.Contains(v.V, "HashSet") {
			return "Set"
		}
		return "List"
	}
	return "Object"
}

// camelWords keeps letters and digits, upper-casing the first letter of each word.
func camelWords(s string) string {
	var b strings.Builder
	up := true
	for _, c := range s {
		if c < 128 && (unicode.IsLetter(c) || unicode.IsDigit(c)) {
			if up {
				b.WriteRune(unicode.ToUpper(c))
			} else {
				b.WriteRune(c)
			}
			up = false
		} else {
			up = true
		}
	}
	return b.String()
}

func sanitizeName(s string) string {
	var b strings.Builder
	for _, c := range s {
		if c < 128 && (unicode.IsLetter(c) || unicode.IsDigit(c) || c == '_') {
			b.WriteRune(c)
		}
	}
	out := b.String()
	if out == "" || unicode.IsDigit(rune(out[0])) {
		out = "test" + out
	}
	if len(out) > 100 {
		out = out[:100]
	}
	return out
}

func capitalize(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

func lowerCamel(s string) string {
	if s == "" {
		return "subject"
	}
	// URLParser → urlParser, PriceCalculator → priceCalculator
	rs := []rune(s)
	i := 0
	for i < len(rs) && unicode.IsUpper(rs[i]) {
		i++
	}
	switch {
	case i == 0:
		return s
	case i == 1 || i == len(rs):
		return strings.ToLower(string(rs[:i])) + string(rs[i:])
	default:
		return strings.ToLower(string(rs[:i-1])) + string(rs[i-1:])
	}
}

func lastDot(s string) string {
	if i := strings.LastIndexByte(s, '.'); i >= 0 {
		return s[i+1:]
	}
	return s
}

// uniqueNames names the tests of one class apart, deterministically: each test starts with its
// head and most telling condition; where several share a name, each adds its next condition
// that not all of them have, as long as the name fits maxNameLen; tests still alike take an
// ordinal word (Second, Third). The new names replace the old in the tests' sources.
func uniqueNames(ts []rendered) {
	use := make([][]bool, len(ts))
	names := make([]string, len(ts))
	for i := range ts {
		use[i] = telling(ts, i)
		names[i] = ts[i].called.compose(use[i])
	}
	// each round adds a fact to a name or swaps facts all of a group share for one that tells
	// its tests apart; a swap can make a name meet another's again, so the rounds are bounded
	for round, changed := 0, true; changed && round < maxNameRounds; round++ {
		changed = false
		groups := map[string][]int{}
		var order []string
		for i, n := range names {
			if groups[n] == nil {
				order = append(order, n)
			}
			groups[n] = append(groups[n], i)
		}
		for _, n := range order {
			g := groups[n]
			if len(g) < 2 {
				continue
			}
			for _, i := range g {
				if u := distinguishing(ts, g, i, use[i]); u != nil {
					use[i] = u
					names[i] = ts[i].called.compose(u)
					changed = true
				}
			}
		}
	}
	seen := map[string]bool{}
	for i := range ts {
		n := names[i]
		for k := 2; seen[n]; k++ {
			w := ordinalWord(k)
			base := names[i]
			if len(base)+len(w) > maxNameLen {
				base = base[:maxNameLen-len(w)]
			}
			n = base + w
		}
		seen[n] = true
		if n != ts[i].name {
			ts[i].source = strings.Replace(ts[i].source, " "+ts[i].name+"()", " "+n+"()", 1)
			ts[i].name = n
		}
	}
}

// telling picks test i's deciding condition: of those that fit, the one fewest tests with
// another outcome (another head) share, the most telling first among equals. A fact every
// input has (the value is zero in most of the explorer's first inputs) decides nothing.
func telling(ts []rendered, i int) []bool {
	n := ts[i].called
	use := make([]bool, len(n.conds))
	best, bestShared := -1, 0
	for j, c := range n.conds {
		use[j] = true
		ok := fits(n, use)
		use[j] = false
		if !ok {
			continue
		}
		shared := 0
		for k := range ts {
			if k != i && ts[k].called.head != n.head && hasCondition(ts[k].called, c.words) {
				shared++
			}
		}
		if best < 0 || shared < bestShared {
			best, bestShared = j, shared
		}
	}
	if best >= 0 {
		use[best] = true
	}
	return use
}

func hasCondition(n testName, words string) bool {
	return slices.ContainsFunc(n.conds, func(o condition) bool { return o.words == words })
}

// maxNameRounds bounds uniqueNames's rounds of telling tests apart by their facts.
const maxNameRounds = 8

// distinguishing is test i's conditions with its next unused one that not every test of group g
// has: added to those it uses when the name stays whole, else in place of those every test of g
// shares; nil when no such condition fits.
func distinguishing(ts []rendered, g []int, i int, use []bool) []bool {
	conds := ts[i].called.conds
	shared := func(c condition) bool {
		for _, k := range g {
			if !hasCondition(ts[k].called, c.words) {
				return false
			}
		}
		return true
	}
	for j, c := range conds {
		if use[j] || shared(c) {
			continue
		}
		added := slices.Clone(use)
		added[j] = true
		if fits(ts[i].called, added) {
			return added
		}
		swapped := make([]bool, len(use))
		for k := range use {
			swapped[k] = use[k] && !shared(conds[k])
		}
		swapped[j] = true
		if fits(ts[i].called, swapped) {
			return swapped
		}
	}
	return nil
}
