package mutants

import (
	"strings"

	"github.com/advertest/advertest-lsp/javaparse"
	sitter "github.com/smacker/go-tree-sitter"
)

// removeCall is VCR/default: a call statement `foo(x);` on one line removed. In a block the
// statement disappears; where a statement is required (`if (c) foo();`) it becomes the
// empty statement `;`. Calls in switch rules (`case 1 -> foo();`), log calls and calls in a
// try that catches a checked exception are left; `super(...)`/`this(...)` are never
// expression statements.
func removeCall(g *generator, n *sitter.Node) {
	call := javaparse.FirstCodeChild(n)
	if call == nil || call.Type() != "method_invocation" || !oneLine(n, g.src) {
		return
	}
	if obj := call.ChildByFieldName("object"); obj != nil && isLoggerName(g.text(obj)) {
		return // removing a log call changes nothing a test sees (PIT skips them too)
	}
	p := n.Parent()
	if p == nil || inCheckedTry(n, g.src) {
		return // removing the call may leave a checked exception's catch without a thrower
	}
	repl := ";"
	switch p.Type() {
	case "switch_rule":
		return
	case "block", "constructor_body", "switch_block_statement_group":
		repl = ""
	}
	g.remove(n, repl)
}

// isLoggerName reports a receiver that names a logger: log, LOG, logger, this.logger, ...
func isLoggerName(obj string) bool {
	obj = strings.ToLower(strings.TrimPrefix(obj, "this."))
	return obj == "log" || obj == "logger"
}
