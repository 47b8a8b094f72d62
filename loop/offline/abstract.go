package offline

import (
	"regexp"
	"strings"

	"github.com/advertest/advertest-lsp/loop/agent"
)

// A concrete method of an abstract class, or a default method of an interface, runs on a
// receiver the explorer makes from the project's implementations that do not override it
// (Abstracts.java); when there is none, the explorer's first run gives back the source of a
// minimal subclass (a static nested class implementing every abstract method with a default
// value), and the original is explored again with it nested in the driver. The tests written
// from those inputs carry the same source as a member of their class, so that the receiver
// `new MinimalFoo()` compiles in the driver and in the test class alike.

var minimalDecl = regexp.MustCompile(`static final class (\w+)`)

// minimalName is the class name the minimal subclass's source declares.
func minimalName(src string) string {
	if m := minimalDecl.FindStringSubmatch(src); m != nil {
		return m[1]
	}
	return ""
}

// minimalMember is the minimal subclass as a member of the test class, for a test whose
// receiver is one; nil for the others.
func (r *renderer) minimalMember(rec *record) []agent.Member {
	if r.minimal == "" || rec.Recv == nil {
		return nil
	}
	name := minimalName(r.minimal)
	if name == "" || !strings.Contains(*rec.Recv, "new "+name+"(") {
		return nil
	}
	return []agent.Member{{Kind: agent.MemberType, Names: []string{name}, Source: r.minimal}}
}
