package loop

import (
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strings"

	"github.com/advertest/advertest-lsp/loop/agent"
	"github.com/advertest/advertest-lsp/loop/internal/javatext"
)

// The members of a generated test class besides its tests (fields and constants, helper
// methods, set-up and tear-down methods, initialisers, nested classes) travel with the tests
// that were written in it (agent.Test.Members). Wherever tests of several classes meet (the
// suite, the test file they merge into) each member is kept once: a member whose text is
// already there is not added again, and a member whose name is taken by a different member is
// renamed, with every use of it in its own class's tests and members. Java's namespaces are
// kept apart: a field may share a method's name.

// namespace is one of Java's namespaces of a class's members.
type namespace string

const (
	nsField  namespace = "field"
	nsMethod namespace = "method"
	nsType   namespace = "type"
)

func namespaceOf(k agent.MemberKind) namespace {
	switch k {
	case agent.MemberField:
		return nsField
	case agent.MemberType:
		return nsType
	}
	return nsMethod
}

// memberKey identifies a member by what it is: its kind and its text, whitespace aside.
func memberKey(m agent.Member) string {
	return string(m.Kind) + "\x00" + strings.Join(strings.Fields(m.Source), " ")
}

// memberSet is the members a class holds so far, and the names they and its tests take.
type memberSet struct {
	keys map[string]bool
	// names maps each namespace's taken names to the keys of the members that declare them
	// ("" for a test method).
	names map[namespace]map[string][]string
}

func newMemberSet() *memberSet {
	return &memberSet{keys: map[string]bool{}, names: map[namespace]map[string][]string{nsField: {}, nsMethod: {}, nsType: {}}}
}

// add records a member (its names as they are now).
func (ms *memberSet) add(m agent.Member) {
	k := memberKey(m)
	if ms.keys[k] {
		return
	}
	ms.keys[k] = true
	ns := namespaceOf(m.Kind)
	for _, n := range m.Names {
		ms.names[ns][n] = append(ms.names[ns][n], k)
	}
}

// addTest records a test method's name.
func (ms *memberSet) addTest(name string) {
	ms.names[nsMethod][name] = append(ms.names[nsMethod][name], "")
}

func (ms *memberSet) taken(ns namespace, name string) bool { return len(ms.names[ns][name]) > 0 }

// place fits the members of one generated class into the set: it returns the renames (by
// namespace, old name to new) that keep them apart from the set's different members of the same
// names. Members already in the set (the same text, once renamed) need no place. A name is
// renamed for all the class's members that declare it (every overload of a helper), and a
// member whose text changes because another member was renamed is compared again.
func (ms *memberSet) place(members []agent.Member) map[namespace]map[string]string {
	renames := map[namespace]map[string]string{nsField: {}, nsMethod: {}, nsType: {}}
	for changed := true; changed; {
		changed = false
		for _, m := range members {
			cur := renameMember(m, renames)
			ns := namespaceOf(m.Kind)
			if ms.keys[memberKey(cur)] {
				continue
			}
			for _, n := range m.Names {
				if _, done := renames[ns][n]; done || !ms.taken(ns, n) {
					continue
				}
				renames[ns][n] = freshMemberName(n, ns, ms, renames, members)
				changed = true
			}
		}
	}
	return renames
}

// freshMemberName is name with the first number suffix free in the set, in the class's own
// members and among the renames so far; or one under which the set already holds the class's
// members of that name, renamed the same way (a merge of the same tests again).
func freshMemberName(name string, ns namespace, ms *memberSet, renames map[namespace]map[string]string, members []agent.Member) string {
	own := map[string]bool{}
	for _, m := range members {
		if namespaceOf(m.Kind) == ns {
			for _, n := range m.Names {
				own[n] = true
			}
		}
	}
	used := map[string]bool{}
	for _, n := range renames[ns] {
		used[n] = true
	}
	// EXACT2, taken, becomes EXACT3 (not EXACT22).
	base, i := strings.TrimRight(name, "0123456789"), 2
	if d := name[len(base):]; d != "" && base != "" {
		fmt.Sscan(d, &i)
		i++
	} else {
		base = name
	}
	for ; ; i++ {
		n := fmt.Sprintf("%s%d", base, i)
		if n == name || own[n] || used[n] {
			continue
		}
		if !ms.taken(ns, n) {
			return n
		}
		// Taken: by the same members under this name already?
		trial := map[namespace]map[string]string{}
		for k, v := range renames {
			trial[k] = map[string]string{}
			for a, b := range v {
				trial[k][a] = b
			}
		}
		trial[ns][name] = n
		same := true
		for _, m := range members {
			if namespaceOf(m.Kind) == ns && slices.Contains(m.Names, name) && !ms.keys[memberKey(renameMember(m, trial))] {
				same = false
				break
			}
		}
		if same {
			return n
		}
	}
}

// renameMember applies renames to a member's text and names.
func renameMember(m agent.Member, renames map[namespace]map[string]string) agent.Member {
	if !anyRename(renames) {
		return m
	}
	out := m
	out.Source = renameIdentifiers(m.Source, renames)
	out.Names = make([]string, len(m.Names))
	ns := namespaceOf(m.Kind)
	for i, n := range m.Names {
		out.Names[i] = n
		if r, ok := renames[ns][n]; ok {
			out.Names[i] = r
		}
	}
	return out
}

func anyRename(renames map[namespace]map[string]string) bool {
	for _, r := range renames {
		if len(r) > 0 {
			return true
		}
	}
	return false
}

// renameTestMembers applies renames to a test's text and its members.
func renameTestMembers(t agent.Test, renames map[namespace]map[string]string) agent.Test {
	if !anyRename(renames) {
		return t
	}
	t.Source = renameIdentifiers(t.Source, renames)
	ms := make([]agent.Member, len(t.Members))
	for i, m := range t.Members {
		ms[i] = renameMember(m, renames)
	}
	t.Members = ms
	return t
}

// renameIdentifiers renames the uses of members in Java text, outside string and character
// literals and comments: a method where a name is called (`name(`) or referenced (`::name`),
// a field or a type where a name stands alone (not after a `.`, but after `this.`). A local
// variable that shares a renamed field's name is renamed with it, consistently.
func renameIdentifiers(text string, renames map[namespace]map[string]string) string {
	var b strings.Builder
	for i := 0; i < len(text); {
		j := javatext.SkipNonCode(text, i)
		if j > i {
			b.WriteString(text[i:j])
			i = j
			continue
		}
		c := text[i]
		if !javatext.IsIdentStart(c) {
			b.WriteByte(c)
			i++
			continue
		}
		j = i
		for j < len(text) && javatext.IsIdentPart(text[j]) {
			j++
		}
		word := text[i:j]
		b.WriteString(renamedWord(text, i, j, word, renames))
		i = j
	}
	return b.String()
}

func renamedWord(text string, start, end int, word string, renames map[namespace]map[string]string) string {
	before := strings.TrimRight(text[:start], " \t\r\n")
	afterDot := strings.HasSuffix(before, ".") && !strings.HasSuffix(before, "::")
	if afterDot && !strings.HasSuffix(before, "this.") {
		return word
	}
	after := strings.TrimLeft(text[end:], " \t\r\n")
	if strings.HasSuffix(before, "::") || strings.HasPrefix(after, "(") {
		if r, ok := renames[nsMethod][word]; ok {
			return r
		}
		if r, ok := renames[nsType][word]; ok && strings.HasSuffix(strings.TrimRight(before, " \t"), "new") {
			return r // a nested class's constructor
		}
		return word
	}
	if r, ok := renames[nsField][word]; ok {
		return r
	}
	if r, ok := renames[nsType][word]; ok {
		return r
	}
	return word
}

// lifecycleRE matches the annotations of the members JUnit calls by itself (set-up, tear-down,
// rules, extensions, injected folders): such a member stays while any test of its class does.
var lifecycleRE = regexp.MustCompile(`@(Before|After|BeforeEach|AfterEach|BeforeAll|AfterAll|BeforeClass|AfterClass|Rule|ClassRule|RegisterExtension|TempDir|ExtendWith)\b`)

// isLifecycle reports whether JUnit itself uses the member (an initialiser runs with every
// instance).
func isLifecycle(m agent.Member) bool {
	return m.Kind == agent.MemberInitializer || lifecycleRE.MatchString(m.Source)
}

// classMembers are the members the tests need, each once, in the order they first appear, less
// those nothing uses: a field, helper or nested class is kept when a test, a lifecycle member
// or another kept member names it (in its code or a string, as @MethodSource does).
func classMembers(tests []agent.Test) []agent.Member {
	var all []agent.Member
	seen := map[string]bool{}
	for _, t := range tests {
		for _, m := range t.Members {
			if k := memberKey(m); !seen[k] {
				seen[k] = true
				all = append(all, m)
			}
		}
	}
	kept := make([]bool, len(all))
	var used strings.Builder
	for _, t := range tests {
		used.WriteString(t.Source + "\n")
	}
	for i, m := range all {
		if isLifecycle(m) {
			kept[i] = true
			used.WriteString(m.Source + "\n")
		}
	}
	for changed := true; changed; {
		changed = false
		words := identifierSet(used.String())
		for i, m := range all {
			if kept[i] {
				continue
			}
			for _, n := range m.Names {
				if words[n] {
					kept[i] = true
					changed = true
					used.WriteString(m.Source + "\n")
					break
				}
			}
		}
	}
	var out []agent.Member
	for i, m := range all {
		if kept[i] {
			out = append(out, m)
		}
	}
	return out
}

// identifierSet is every identifier-like word of text.
func identifierSet(text string) map[string]bool {
	out := map[string]bool{}
	for i := 0; i < len(text); {
		if !javatext.IsIdentStart(text[i]) {
			i++
			continue
		}
		j := i
		for j < len(text) && javatext.IsIdentPart(text[j]) {
			j++
		}
		out[text[i:j]] = true
		i = j
	}
	return out
}

// memberOrder ranks members for the class's layout: fields, initialisers, lifecycle methods,
// then (after the tests) helpers and nested classes.
func memberOrder(m agent.Member) int {
	switch {
	case m.Kind == agent.MemberField:
		return 0
	case m.Kind == agent.MemberInitializer:
		return 1
	case m.Kind == agent.MemberMethod && isLifecycle(m):
		return 2
	case m.Kind == agent.MemberMethod:
		return 4
	}
	return 5
}

// sortMembers orders members for the layout, keeping their order within a rank.
func sortMembers(ms []agent.Member) {
	sort.SliceStable(ms, func(i, j int) bool { return memberOrder(ms[i]) < memberOrder(ms[j]) })
}
