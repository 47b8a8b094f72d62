package offline

import (
	"math"
	"sort"
	"strconv"
	"strings"
	"unicode"
)

// condition is one fact of an input that may decide its outcome, in words of a test's name:
// "CountIsZero", "LoEqualsHi", "InCycle", "AfterAddItemTwice". rank orders the facts from the
// most telling (a null, an empty value) to the least (a positive number); names.go picks the
// first, and more when two tests of a class would otherwise share a name.
type condition struct {
	words string
	// arg says the fact is about the arguments: such facts follow "When" and are joined by
	// "And"; the others (the graph's shape, the receiver's history) carry their own word.
	arg  bool
	rank int
}

// The ranks of conditions, most telling first.
const (
	rankNull = iota + 1
	rankBoundary
	rankSign
	rankState
	rankKind
	rankPlain
)

// facts are the conditions of one argument, named pn.
func (f argFact) facts(pn string) []condition {
	var cs []condition
	add := func(words string, rank int) {
		cs = append(cs, condition{words: pn + words, arg: true, rank: rank})
	}
	switch {
	case f.null:
		add("IsNull", rankNull)
	case f.boolean != "":
		add("Is"+f.boolean, rankKind)
	case f.str:
		switch {
		case f.s == "":
			add("IsEmpty", rankNull)
		case strings.TrimSpace(f.s) == "":
			add("IsBlank", rankBoundary)
		case len([]rune(f.s)) == 1:
			add("IsOneChar", rankState)
		case strings.Trim(f.s, "0123456789") == "":
			add("IsDigits", rankKind)
		default:
			for _, w := range textFacts(f.s) {
				add(w.words, w.rank)
			}
		}
	case f.char:
		switch {
		case unicode.IsDigit(f.c):
			add("IsDigit", rankKind)
		case unicode.IsUpper(f.c):
			add("IsUpperCase", rankKind)
		case unicode.IsLower(f.c):
			add("IsLowerCase", rankKind)
		case unicode.IsSpace(f.c):
			add("IsWhitespace", rankKind)
		default:
			add("IsSymbol", rankKind)
		}
	case f.num && f.special != "":
		add("Is"+f.special, rankBoundary)
	case f.num:
		switch {
		case f.n == 0:
			add("IsZero", rankBoundary)
		case f.n < 0:
			add("IsNegative", rankSign)
		case f.n == 1:
			add("IsOne", rankState)
		default:
			add("IsPositive", rankPlain)
		}
	case f.size == 0:
		add("IsEmpty", rankNull)
	case f.size == 1:
		add("HasOneElement", rankState)
	case f.named != "":
		add("Is"+f.named, rankState)
	}
	return cs
}

// charClassWord names the class of a character a name tells: Digit, UpperCase, Whitespace,
// Symbol; "" for a lower-case letter (the plain case, which tells nothing).
func charClassWord(c rune) string {
	switch {
	case unicode.IsDigit(c):
		return "Digit"
	case unicode.IsUpper(c):
		return "UpperCase"
	case unicode.IsSpace(c):
		return "Whitespace"
	case unicode.IsLetter(c):
		return ""
	default:
		return "Symbol"
	}
}

// textFacts are the facts of a string of two or more characters that are not all digits: how
// it starts (StartsWithDigit, StartsWithSymbol: the first character decides many validators),
// the classes of character it holds (HasWhitespace, HasDigit, HasUpperCase, HasSymbol), how
// it ends (EndsWithSymbol). The character classes are those a parser tests its input against
// (Character.isDigit, isUpperCase, isWhitespace), never the characters themselves.
func textFacts(s string) []condition {
	rs := []rune(s)
	var cs []condition
	if w := charClassWord(rs[0]); w != "" {
		cs = append(cs, condition{words: "StartsWith" + w, rank: rankKind})
	}
	has := map[string]bool{}
	for _, c := range rs[1:] {
		has[charClassWord(c)] = true
	}
	for _, w := range []string{"Whitespace", "Digit", "UpperCase", "Symbol"} {
		if has[w] && (w != charClassWord(rs[0]) || w == "Whitespace") {
			cs = append(cs, condition{words: "Has" + w, rank: rankPlain})
		}
	}
	if w := charClassWord(rs[len(rs)-1]); w != "" && w != "UpperCase" && w != charClassWord(rs[0]) {
		cs = append(cs, condition{words: "EndsWith" + w, rank: rankPlain})
	}
	return cs
}

// numeric is the fact's number when it has one an order applies to (not NaN).
func (f argFact) numeric() (float64, bool) {
	if !f.num {
		return 0, false
	}
	switch f.special {
	case "":
		return f.n, true
	case "Max", "Infinite":
		return math.Inf(1), true
	case "Min":
		return math.Inf(-1), true
	}
	return 0, false
}

// paramWord is the i-th parameter's name in a test's name: Count, Arg2 → ArgumentTwo.
func (r *renderer) paramWord(i int) string {
	if i < len(r.method.Params) && r.method.Params[i].Name != "" {
		return capitalize(r.method.Params[i].Name)
	}
	return "Argument" + ordinalWord(i+1)
}

// conditions are the facts of rec's input, most telling first: each argument's own (null,
// empty, zero, negative, ...), the relations between two arguments (equal, below, above),
// the graph's shape and the receiver's history. None holds a raw value.
func (r *renderer) conditions(rec *record) []condition {
	facts := make([]argFact, len(rec.Args))
	var cs []condition
	for i, a := range rec.Args {
		tok := ""
		if i < len(rec.Tokens) {
			tok = rec.Tokens[i]
		}
		facts[i] = classify(a, tok)
		cs = append(cs, facts[i].facts(r.paramWord(i))...)
	}
	for i := range facts {
		for j := i + 1; j < len(facts); j++ {
			pi, pj := r.paramWord(i), r.paramWord(j)
			x, okx := facts[i].numeric()
			y, oky := facts[j].numeric()
			switch {
			case okx && oky && x == y:
				cs = append(cs, condition{words: pi + "Equals" + pj, arg: true, rank: rankSign})
			case okx && oky && x < y:
				cs = append(cs, condition{words: pi + "Below" + pj, arg: true, rank: rankKind})
			case okx && oky:
				cs = append(cs, condition{words: pi + "Above" + pj, arg: true, rank: rankKind})
			case facts[i].str && facts[j].str && facts[i].s == facts[j].s:
				cs = append(cs, condition{words: pi + "Equals" + pj, arg: true, rank: rankSign})
			}
		}
	}
	if rec.GraphToken != "" && wordsOnly(rec.GraphToken) {
		cs = append(cs, condition{words: "In" + rec.GraphToken, rank: rankBoundary})
	}
	if rec.Recv != nil {
		if len(rec.Setup) == 0 {
			if t := camelWords(lastDot(strings.SplitN(r.hdr.ReceiverType, "<", 2)[0])); wordsOnly(t) {
				cs = append(cs, condition{words: "OnNew" + t, rank: rankPlain})
			}
		} else if h := setupWords(rec.Setup); h != "" {
			cs = append(cs, condition{words: "After" + h, rank: rankState})
			// the last call alone, for a history too long for a name
			if last := setupWords(rec.Setup[len(rec.Setup)-1:]); last != h {
				cs = append(cs, condition{words: "After" + last, rank: rankPlain})
			}
		}
	}
	sort.SliceStable(cs, func(a, b int) bool { return cs[a].rank < cs[b].rank })
	return cs
}

// setupWords names the receiver's mutator calls by method, runs of one counted in words:
// [addItem("a", 5000), addItem("b", 1), remove("a")] → AddItemTwiceAndRemove.
func setupWords(setup []string) string {
	var parts []string
	last, run := "", 0
	flush := func() {
		if last == "" {
			return
		}
		parts = append(parts, capitalize(last)+timesWord(run))
	}
	for _, s := range setup {
		name, _, _ := strings.Cut(s, "(")
		name = camelWords(name)
		if name == "" {
			continue
		}
		name = strings.ToLower(name[:1]) + name[1:]
		if name == last {
			run++
			continue
		}
		flush()
		last, run = name, 1
	}
	flush()
	return strings.Join(parts, "And")
}

func timesWord(n int) string {
	switch n {
	case 1:
		return ""
	case 2:
		return "Twice"
	case 3:
		return "ThreeTimes"
	default:
		return "ManyTimes"
	}
}

// ordinalWord is n as an ordinal word, up to ten (then CaseN).
func ordinalWord(n int) string {
	words := []string{"", "First", "Second", "Third", "Fourth", "Fifth", "Sixth", "Seventh", "Eighth", "Ninth", "Tenth"}
	if n > 0 && n < len(words) {
		return words[n]
	}
	return "Case" + strconv.Itoa(n)
}
