package mutants

import (
	"strings"

	sitter "github.com/smacker/go-tree-sitter"

	"github.com/advertest/advertest-lsp/javaparse"
)

// ARG, two arguments of a call in the wrong order: each pair of neighbouring arguments
// whose declared types are known (literals, locals, parameters, fields) and the same is
// swapped, `substring(from, to)` → `substring(to, from)`, `clamp(v, 0, 50)` →
// `clamp(0, v, 50)` and `clamp(v, 50, 0)`. The types being the same, the call resolves to
// the same method. Calls that do not care about the order are left: Math.max and min, the
// exact additions and multiplications, hypot, Objects.equals, the boxes' sum, max and min,
// Boolean's logical operators.

// commutativeCalls are "Receiver.method" names whose arguments commute.
var commutativeCalls = map[string]bool{}

func init() {
	for _, r := range []string{"Math", "StrictMath"} {
		for _, m := range []string{"max", "min", "addExact", "multiplyExact", "hypot"} {
			commutativeCalls[r+"."+m] = true
		}
	}
	for _, r := range []string{"Integer", "Long", "Float", "Double"} {
		for _, m := range []string{"max", "min", "sum"} {
			commutativeCalls[r+"."+m] = true
		}
	}
	for _, m := range []string{"Objects.equals", "Boolean.logicalAnd", "Boolean.logicalOr", "Boolean.logicalXor"} {
		commutativeCalls[m] = true
	}
}

func swapArguments(g *generator, n *sitter.Node) {
	call := n.Parent()
	if call == nil || !oneLine(n, g.src) {
		return
	}
	if call.Type() == "method_invocation" {
		recv := strings.TrimPrefix(javaparse.Text(call.ChildByFieldName("object"), g.src), "java.lang.")
		recv = strings.TrimPrefix(recv, "java.util.")
		if commutativeCalls[recv+"."+javaparse.Text(call.ChildByFieldName("name"), g.src)] {
			return
		}
	}
	args := javaparse.CodeChildren(n)
	for i := 0; i+1 < len(args); i++ {
		a, b := args[i], args[i+1]
		ta, tb := g.declaredType(a), g.declaredType(b)
		if ta == "" || ta != tb || g.text(a) == g.text(b) {
			continue
		}
		// Replace the span from a to b: both arguments and what separates them.
		repl := g.text(b) + string(g.src[a.EndByte():b.StartByte()]) + g.text(a)
		g.addSpan(int(a.StartByte()), int(b.EndByte()), repl, call)
	}
}
